"""arbiter: a fast, DATC-conformant Diplomacy adjudicator (Rust, through PyO3).

``arbiter.Game`` follows the ``diplomacy`` package's documented ``Game`` API (an agent
switches by changing its import); ``adjudicate``, ``legal_orders``, ``explain``,
``render``, ``batch`` and ``selfplay`` are arbiter's own. See docs/PYTHON.md.

No dependency beyond the standard library at run time.
"""

from __future__ import annotations

import json as _json
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _arbiter
from ._arbiter import (
    ArbiterError,
    Game,
    GameFileError,
    Map,
    MapError,
    OrderError,
    PhaseData,
    PhaseError,
    Power,
    __version__,
    editions,
    maps,
)

__all__ = [
    "ArbiterError",
    "Game",
    "GameFileError",
    "Map",
    "MapError",
    "OrderError",
    "PhaseData",
    "PhaseError",
    "Power",
    "OrderResult",
    "Dislodged",
    "PhaseResult",
    "adjudicate",
    "legal_orders",
    "explain",
    "render",
    "batch",
    "selfplay",
    "read_cases",
    "editions",
    "maps",
    "__version__",
]

Position = Union[Game, Mapping[str, Any]]
Orders = Mapping[str, Union[str, Sequence[str]]]


@dataclass(frozen=True)
class OrderResult:
    """One order's result: ``outcome`` is ``succeeds``, ``fails``, ``illegal`` or
    ``invalid``; ``reason`` says why (``None`` when it succeeded); ``caused_by`` lists
    the canonical orders of the units that caused it."""

    power: Optional[str]
    order: str
    canonical: Optional[str]
    outcome: str
    reason: Optional[str]
    caused_by: List[str]
    warnings: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.outcome == "succeeds"


@dataclass(frozen=True)
class Dislodged:
    """A dislodged unit: its power, the unit (``A BUR``), the province its attacker
    came from, and the places it may retreat to."""

    power: str
    unit: str
    by: Optional[str]
    retreats: List[str]


@dataclass(frozen=True)
class PhaseResult:
    """The result of one phase, as ``arbiter adjudicate --format json`` gives it
    (docs/CLI.md, "JSON output"); ``json`` holds the whole object."""

    map: str
    rules: str
    phase: str
    orders: List[OrderResult]
    dislodged: List[Dislodged]
    contested: List[str]
    units_after: Dict[str, List[str]]
    owners: Optional[Dict[str, List[str]]]
    next: Optional[str]
    winner: Optional[str]
    json: Dict[str, Any]

    @staticmethod
    def from_json(obj: Dict[str, Any]) -> "PhaseResult":
        return PhaseResult(
            map=obj["map"],
            rules=obj["rules"],
            phase=obj["phase"],
            orders=[
                OrderResult(
                    power=o["power"],
                    order=o["order"],
                    canonical=o["canonical"],
                    outcome=o["outcome"],
                    reason=o["reason"],
                    caused_by=list(o["caused_by"]),
                    warnings=list(o.get("warnings", [])),
                )
                for o in obj["orders"]
            ],
            dislodged=[
                Dislodged(d["power"], d["unit"], d.get("by"), list(d["retreats"]))
                for d in obj["dislodged"]
            ],
            contested=list(obj["contested"]),
            units_after=dict(obj["units_after"]),
            owners=obj["owners"],
            next=obj["next"],
            winner=obj["winner"],
            json=obj,
        )


def _position_line(position: Position) -> Dict[str, Any]:
    """A position as the keys of a batch line."""
    if isinstance(position, Game):
        state = position.get_state()
        line: Dict[str, Any] = {
            "map": state["map"],
            "rules": state["rules"],
            "phase": state["name"] if state["name"] != "COMPLETED" else None,
            "units": {
                p: [u for u in us if not u.startswith("*")] for p, us in state["units"].items()
            },
            "centers": state["centers"],
            "dislodged": [
                {"power": p, "unit": u, "retreats": to}
                for p, rs in state["retreats"].items()
                for u, to in rs.items()
            ],
        }
        if line["phase"] is None:
            raise PhaseError("the game is over: it has no position to judge")
        if position.last_year is not None:
            line["last_year"] = position.last_year
        return line
    if not isinstance(position, Mapping):
        raise TypeError("a position is a Game or a dict with `units` (and `phase`, ...)")
    return {k: v for k, v in position.items() if k not in ("orders", "id", "legal")}


def _orders_dict(orders: Optional[Orders]) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {}
    for power, lst in (orders or {}).items():
        out[power] = [lst] if isinstance(lst, str) else list(lst)
    return out


def _batch_line(
    position: Position, map: Optional[str], rules: Optional[str]
) -> Dict[str, Any]:
    """The batch line of a position, with the map and rules given (when given)."""
    line = _position_line(position)
    if map is not None:
        line["map"] = map
    if rules is not None:
        line["rules"] = rules
    return line


def _answer(line: Dict[str, Any], rules: Optional[str], strict: bool) -> Dict[str, Any]:
    answer = _json.loads(_arbiter.answer_line(_json.dumps(line), rules, strict))
    if "error" in answer:
        raise ArbiterError(answer["error"])
    return answer


def adjudicate(
    position: Position,
    orders: Optional[Orders] = None,
    rules: Optional[str] = None,
    *,
    map: Optional[str] = None,
    strict: bool = False,
) -> PhaseResult:
    """Judge one phase of any kind, exactly as ``arbiter adjudicate --batch`` judges the
    line ``{**position, "orders": orders}``.

    ``position``: a ``Game`` (its position now), or a dict with ``units`` (power →
    ``['A PAR', 'F STP/SC']``) and optionally ``phase`` (``S1901M`` or ``Spring 1901
    movement``), ``dislodged`` (retreat phase: ``[{power, unit, by, retreats}]``),
    ``centers`` (power → centres), ``saved``, ``last_year``. ``orders``: power → order
    strings. An order that cannot be read is answered ``illegal`` with the parser's
    message; a position that cannot be read raises ``ArbiterError``."""
    line = _batch_line(position, map, rules)
    line["orders"] = _orders_dict(orders)
    return PhaseResult.from_json(_answer(line, rules, strict))


def legal_orders(
    position: Position, rules: Optional[str] = None, *, map: Optional[str] = None
) -> Dict[str, Any]:
    """Every legal order of a position (``arbiter::legal``, canonical spelling): movement
    and retreat phases, location (``STP/SC``) → orders; adjustment phases, power id →
    ``{"change": n, "orders": [...]}``. ``Game.get_all_possible_orders()`` gives the
    same orders in the ``diplomacy`` package's spelling."""
    line = _batch_line(position, map, rules)
    line["legal"] = True
    line.pop("orders", None)
    return _answer(line, rules, False)["legal"]


def _judged_game(
    position: Position, orders: Optional[Orders], rules: Optional[str], map: Optional[str]
) -> Game:
    if isinstance(position, Game) and orders is None:
        return position
    line = _position_line(position)
    game = Game.from_position(
        line, map_name=map or line.get("map") or "standard", rules=rules or line.get("rules")
    )
    for power, lst in _orders_dict(orders).items():
        game.set_orders(power, lst, replace=False)
    game.process()
    return game


def explain(
    position: Position,
    orders: Optional[Orders] = None,
    rules: Optional[str] = None,
    *,
    province: Optional[str] = None,
    map: Optional[str] = None,
) -> str:
    """Why each order ended as it did (``arbiter explain``), in words. Given a ``Game``
    alone: its last processed phase; given a position and orders: that phase judged."""
    return _arbiter.explain(_judged_game(position, orders, rules, map), province)


def render(
    position: Position,
    orders: Optional[Orders] = None,
    rules: Optional[str] = None,
    *,
    format: str = "svg",
    current: bool = False,
    title: Optional[str] = None,
    map: Optional[str] = None,
    width: Optional[int] = None,
) -> bytes:
    """A picture of a phase: SVG (UTF-8 bytes) or PNG bytes (``format='png'``). Given a
    ``Game`` alone: its last processed phase with its orders and outcomes (``current``:
    the position now); given a position and orders: that phase judged. A PNG is
    ``width`` pixels wide (default 1600, or four fifths of the SVG's width when that is
    more, as for world1914)."""
    if format not in ("svg", "png"):
        raise ValueError(f"format must be 'svg' or 'png', not {format!r}")
    game = _judged_game(position, orders, rules, map)
    svg = _arbiter.render_svg(game, current, title)
    if format == "png":
        return _arbiter.svg_to_png(svg, width)
    return svg.encode("utf-8")


def batch(
    lines: Iterable[Union[str, Mapping[str, Any]]],
    jobs: int = 1,
    rules: Optional[str] = None,
    *,
    strict: bool = False,
    parse: bool = True,
) -> List[Any]:
    """Answer JSON Lines cases as ``arbiter adjudicate --batch --jobs N`` does (the
    protocol: docs/CLI.md, "Batch mode"), on ``jobs`` threads with the GIL released.
    ``lines``: JSON texts or dicts. Returns one answer per line, in order: dicts, or
    with ``parse=False`` the JSON texts exactly as the CLI writes them."""
    texts = []
    for line in lines:
        text = line if isinstance(line, str) else _json.dumps(line)
        if text.endswith("\n"):
            text = text[:-1]
        if "\n" in text:
            raise ValueError("a batch line holds no newline")
        texts.append(text)
    answers = _arbiter.batch_text("\n".join(texts) + ("\n" if texts else ""), jobs, rules, strict)
    return [_json.loads(a) for a in answers] if parse else answers


def selfplay(
    games: int = 1,
    seed: int = 0,
    last_year: int = 1910,
    *,
    map: str = "standard",
    rules: Optional[str] = None,
    lines: bool = True,
    first: int = 0,
) -> List[Dict[str, Any]]:
    """Play whole games with random legal orders (``arbiter selfplay``), game ``k`` for
    ``k`` in ``first .. first + games``. Per game: ``game``, ``seed``, ``phases``,
    ``winner``, ``last`` and ``lines``: every phase as an ``adjudicate --batch`` line
    that replays it, with the answer it got under ``expect``."""
    return _arbiter.selfplay(games, seed, last_year, map, rules, lines, first)


def read_cases(yaml_text: str) -> List[Dict[str, Any]]:
    """The test cases of a case file (``test-cases/``), as dicts."""
    return _arbiter.read_cases(yaml_text)
