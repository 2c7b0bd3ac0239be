"""Typed stubs of the arbiter package (docs/PYTHON.md)."""

from dataclasses import dataclass
from os import PathLike
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union, overload

__version__: str

class ArbiterError(ValueError):
    """Bad input, with the library's message."""

class OrderError(ArbiterError):
    """Orders that cannot be read or given. ``errors``: one dict per problem with
    ``order``, ``message``, ``help`` and ``span`` (start, end byte offsets)."""

    errors: List[Dict[str, Any]]

class MapError(ArbiterError): ...
class PhaseError(ArbiterError): ...
class GameFileError(ArbiterError): ...

class Power:
    """A power of a game, read live from it."""

    @property
    def name(self) -> str: ...
    @property
    def units(self) -> List[str]: ...
    @property
    def centers(self) -> List[str]: ...
    @property
    def homes(self) -> List[str]: ...
    @property
    def retreats(self) -> Dict[str, List[str]]: ...
    @property
    def orders(self) -> List[str]: ...
    def is_eliminated(self) -> bool: ...

class PhaseData:
    """One judged phase of ``Game.get_phase_history()``."""

    @property
    def name(self) -> str: ...
    @property
    def state(self) -> Dict[str, Any]: ...
    @property
    def orders(self) -> Dict[str, List[str]]: ...
    @property
    def results(self) -> Dict[str, List[str]]: ...
    @property
    def result(self) -> Dict[str, Any]: ...

class Game:
    """A game with the ``diplomacy`` package's ``Game`` API."""

    def __init__(
        self,
        map_name: str = "standard",
        rules: Union[None, str, Iterable[str]] = None,
        *,
        game_id: Optional[str] = None,
        last_year: Optional[int] = None,
    ) -> None: ...
    @staticmethod
    def from_position(
        position: Mapping[str, Any],
        map_name: str = "standard",
        rules: Union[None, str, Iterable[str]] = None,
    ) -> "Game": ...
    @property
    def map_name(self) -> str: ...
    @property
    def game_id(self) -> str: ...
    @property
    def rules(self) -> List[str]: ...
    @property
    def edition(self) -> str: ...
    @property
    def last_year(self) -> Optional[int]: ...
    @property
    def phase(self) -> str: ...
    @property
    def phase_type(self) -> str: ...
    @property
    def is_game_done(self) -> bool: ...
    @property
    def outcome(self) -> List[str]: ...
    @property
    def powers(self) -> Dict[str, Power]: ...
    @property
    def result(self) -> Optional[Dict[str, Any]]: ...
    def get_power(self, power_name: str) -> Power: ...
    def get_current_phase(self) -> str: ...
    @overload
    def get_units(self) -> Dict[str, List[str]]: ...
    @overload
    def get_units(self, power_name: str) -> List[str]: ...
    @overload
    def get_centers(self) -> Dict[str, List[str]]: ...
    @overload
    def get_centers(self, power_name: str) -> List[str]: ...
    @overload
    def get_orderable_locations(self) -> Dict[str, List[str]]: ...
    @overload
    def get_orderable_locations(self, power_name: str) -> List[str]: ...
    def get_all_possible_orders(self) -> Dict[str, List[str]]: ...
    def set_orders(
        self,
        power_name: str,
        orders: Union[str, Sequence[str]],
        expand: bool = True,
        replace: bool = True,
    ) -> List[str]: ...
    @overload
    def get_orders(self) -> Dict[str, List[str]]: ...
    @overload
    def get_orders(self, power_name: str) -> List[str]: ...
    def clear_orders(self, power_name: Optional[str] = None) -> None: ...
    def process(self) -> None: ...
    def get_state(self) -> Dict[str, Any]: ...
    def get_phase_history(self) -> List[PhaseData]: ...
    def batch_lines(self) -> List[str]: ...
    def set_units(self, power_name: str, units: Sequence[str], reset: bool = True) -> None: ...
    def set_centers(
        self, power_name: str, centers: Sequence[str], reset: bool = False
    ) -> None: ...
    def set_current_phase(self, phase: str) -> None: ...
    def to_yaml(self) -> str: ...
    def save(self, path: Union[str, PathLike[str]]) -> None: ...
    @staticmethod
    def from_yaml(text: str) -> "Game": ...
    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> "Game": ...
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...

Position = Union[Game, Mapping[str, Any]]
Orders = Mapping[str, Union[str, Sequence[str]]]

@dataclass(frozen=True)
class OrderResult:
    power: Optional[str]
    order: str
    canonical: Optional[str]
    outcome: str
    reason: Optional[str]
    caused_by: List[str]
    warnings: List[Dict[str, Any]] = ...
    @property
    def succeeded(self) -> bool: ...

@dataclass(frozen=True)
class Dislodged:
    power: str
    unit: str
    by: Optional[str]
    retreats: List[str]

@dataclass(frozen=True)
class PhaseResult:
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
    def from_json(obj: Dict[str, Any]) -> "PhaseResult": ...

def adjudicate(
    position: Position,
    orders: Optional[Orders] = None,
    rules: Optional[str] = None,
    *,
    map: Optional[str] = None,
    strict: bool = False,
) -> PhaseResult: ...
def legal_orders(
    position: Position, rules: Optional[str] = None, *, map: Optional[str] = None
) -> Dict[str, Any]: ...
def explain(
    position: Position,
    orders: Optional[Orders] = None,
    rules: Optional[str] = None,
    *,
    province: Optional[str] = None,
    map: Optional[str] = None,
) -> str: ...
def render(
    position: Position,
    orders: Optional[Orders] = None,
    rules: Optional[str] = None,
    *,
    format: str = "svg",
    current: bool = False,
    title: Optional[str] = None,
    map: Optional[str] = None,
) -> bytes: ...
def batch(
    lines: Iterable[Union[str, Mapping[str, Any]]],
    jobs: int = 1,
    rules: Optional[str] = None,
    *,
    strict: bool = False,
    parse: bool = True,
) -> List[Any]: ...
def selfplay(
    games: int = 1,
    seed: int = 0,
    last_year: int = 1910,
    *,
    map: str = "standard",
    rules: Optional[str] = None,
    lines: bool = True,
    first: int = 0,
) -> List[Dict[str, Any]]: ...
def read_cases(yaml_text: str) -> List[Dict[str, Any]]: ...
def editions() -> List[str]: ...
def maps() -> List[str]: ...
