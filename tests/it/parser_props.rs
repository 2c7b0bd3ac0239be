//! Never a misreading (issue 11, item 8), as properties over generated orders.
//!
//! A fixed-seed generator (as in `tests/it/random.rs`) places units at random on the
//! classic board and gives each an order: hold, move (with coasts, via convoy),
//! support to hold or move, convoy. Each order is then written in many styles at once
//! (unit types, names, ids, aliases and names written short in any case, coasts in
//! every spelling, verbs and arrows, power prefixes and headers, list markers and
//! bullets, web-site sentences, command-first forms, DAIDE, result tags):
//!
//! 1. every style reads as the same order, with no diagnostic, strict or not;
//! 2. every mutation of a written order (a word dropped, two letters swapped, a letter
//!    dropped or doubled) reads as the same order, or as another order with a warning
//!    that shows the correction, or is an error: never a different order without a
//!    word. The exceptions are listed in [`explained`]: the mutation made a word the
//!    grammar knows (`Ber` and `Bre` are both names: no parser can tell), dropped the
//!    order word of a build or removal (a unit alone holds), or dropped a destination's
//!    coast (legality then picks the only coast or says the coast must be named).

use arbiter::map::{Loc, Map, Power, Prov, Terrain, UnitKind};
use arbiter::orders::{normalize, parse_orders_with, Order, OrderKind, ParseOptions, Severity};
use arbiter::state::Unit;

/// xorshift64*: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
    fn chance(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// Every word of the grammar's keyword lists (docs/ORDERS.md), for [`explained`].
const KEYWORDS: &[&str] = &[
    "h",
    "hold",
    "holds",
    "stand",
    "stands",
    "hld",
    "holding",
    "standing",
    "s",
    "support",
    "supports",
    "sup",
    "supp",
    "supporting",
    "c",
    "convoy",
    "convoys",
    "cvy",
    "convoying",
    "to",
    "m",
    "move",
    "moves",
    "moving",
    "attack",
    "attacks",
    "attacking",
    "r",
    "retreat",
    "retreats",
    "retreating",
    "mv",
    "into",
    "mto",
    "rto",
    "cto",
    "go",
    "goes",
    "on",
    "d",
    "disband",
    "disbands",
    "disbanded",
    "destroy",
    "destroys",
    "destroyed",
    "remove",
    "removes",
    "removed",
    "dsb",
    "rem",
    "b",
    "build",
    "builds",
    "built",
    "bld",
    "waive",
    "waives",
    "waived",
    "wve",
    "a",
    "army",
    "amy",
    "f",
    "fleet",
    "flt",
    "the",
    "an",
    "at",
    "in",
    "via",
    "from",
    "by",
    "w",
];

/// Random units on the board: about half the provinces, of random powers.
fn random_board(map: &Map, rng: &mut Rng) -> Vec<Unit> {
    let mut units = Vec::new();
    for p in map.provs() {
        if rng.chance(2) {
            continue;
        }
        let pr = map.province(p);
        let fleet = match pr.terrain {
            Terrain::Sea => true,
            Terrain::Land => false,
            Terrain::Coastal => rng.chance(2),
            Terrain::Impassable => continue,
        };
        let loc: Loc = if fleet && !pr.coasts.is_empty() {
            *rng.pick(&pr.coasts)
        } else {
            p.into()
        };
        units.push(Unit {
            power: Power(rng.below(map.powers.len()) as u8),
            kind: if fleet {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            },
            loc,
        });
    }
    units
}

/// Where a unit may move: an army's neighbours, a fleet's neighbouring locations.
fn moves(map: &Map, u: &Unit) -> Vec<Loc> {
    match u.kind {
        UnitKind::Army => map
            .army_neighbours(map.prov_of(u.loc))
            .iter()
            .map(Loc::from)
            .collect(),
        UnitKind::Fleet => map.fleet_neighbours(u.loc).to_vec(),
    }
}

/// An order for unit `i`, as the parser should read it.
#[derive(Clone, Copy, Debug)]
enum Want {
    Hold,
    Move { to: Loc, via: bool },
    SupportHold { target: usize },
    SupportMove { target: usize, to: Loc },
    Convoy { army: usize, to: Loc },
}

fn random_order(map: &Map, units: &[Unit], i: usize, rng: &mut Rng) -> Want {
    let u = &units[i];
    let other = |rng: &mut Rng| loop {
        let j = rng.below(units.len());
        if j != i {
            return j;
        }
    };
    let shores: Vec<Prov> = map.provs().filter(|&p| map.is_coastal(p)).collect();
    match rng.below(6) {
        0 => Want::Hold,
        1 | 2 => match moves(map, u).as_slice() {
            [] => Want::Hold,
            m => Want::Move {
                to: *rng.pick(m),
                via: false,
            },
        },
        3 => Want::SupportHold { target: other(rng) },
        4 => {
            let t = other(rng);
            match moves(map, &units[t]).as_slice() {
                [] => Want::SupportHold { target: t },
                m => Want::SupportMove {
                    target: t,
                    to: *rng.pick(m),
                },
            }
        }
        _ => {
            let armies: Vec<usize> = (0..units.len())
                .filter(|&j| j != i && units[j].kind == UnitKind::Army)
                .filter(|&j| map.is_coastal(map.prov_of(units[j].loc)))
                .collect();
            let to: Loc = (*rng.pick(&shores)).into();
            match (u.kind, map.is_sea(map.prov_of(u.loc)), armies.as_slice()) {
                (UnitKind::Fleet, true, [_, ..]) => Want::Convoy {
                    army: *rng.pick(&armies),
                    to,
                },
                (UnitKind::Army, _, _) if map.is_coastal(map.prov_of(u.loc)) => {
                    Want::Move { to, via: true }
                }
                _ => Want::Hold,
            }
        }
    }
}

/// Does `o` say what `want` says for unit `i`? A unit type or power that is written
/// must be right; one left out is fine (DATC 4.C.1; the unit's owner orders it).
fn same(map: &Map, units: &[Unit], i: usize, want: Want, o: &Order, power: Option<Power>) -> bool {
    same_as(map, units, i, want, o, power, true)
}

/// [`same`], and with `types` false a unit type may be wrong too (DATC 4.C.2: the
/// order goes to the unit in the province whatever type it names).
fn same_as(
    map: &Map,
    units: &[Unit],
    i: usize,
    want: Want,
    o: &Order,
    power: Option<Power>,
    types: bool,
) -> bool {
    let prov = |l: Loc| map.prov_of(l);
    let unit_ok = |r: &arbiter::orders::UnitRef, j: usize| {
        prov(r.loc) == prov(units[j].loc) && (!types || r.kind.is_none_or(|k| k == units[j].kind))
    };
    if o.power.is_some() && o.power != power {
        return false;
    }
    if !o.unit.is_some_and(|r| unit_ok(&r, i)) {
        return false;
    }
    match (want, o.kind) {
        (Want::Hold, OrderKind::Hold) => true,
        (Want::Move { to, via }, OrderKind::Move { to: t, via_convoy }) => {
            to == t && via == via_convoy
        }
        (
            Want::SupportHold { target },
            OrderKind::Support {
                target: t,
                to: None,
            },
        ) => unit_ok(&t, target),
        (
            Want::SupportMove { target, to },
            OrderKind::Support {
                target: t,
                to: Some(d),
            },
        ) => unit_ok(&t, target) && d == to,
        (Want::Convoy { army, to }, OrderKind::Convoy { army: a, to: d }) => {
            unit_ok(&a, army) && prov(d) == prov(to)
        }
        _ => false,
    }
}

/// Ways to write a province: id, name, aliases in several cases, and (where a place
/// must follow a verb) a unique prefix.
fn place_name(map: &Map, p: Prov, short_ok: bool, rng: &mut Rng) -> String {
    let pr = map.province(p);
    let mut names: Vec<String> = vec![pr.id.clone(), pr.name.clone()];
    names.extend(pr.aliases.iter().cloned());
    let n = rng.pick(&names).clone();
    let n = match rng.below(4) {
        0 => n.to_uppercase(),
        1 => n.to_lowercase(),
        2 => capitalize(&n),
        _ => n,
    };
    if short_ok && rng.chance(4) {
        if let Some(s) = short_name(map, p, rng) {
            return s;
        }
    }
    n
}

fn capitalize(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A name written short: a prefix of the province's name or an alias that only it
/// has, and that is no other word.
fn short_name(map: &Map, p: Prov, rng: &mut Rng) -> Option<String> {
    let pr = map.province(p);
    let mut all: Vec<&String> = vec![&pr.name];
    all.extend(pr.aliases.iter());
    let n = rng.pick(&all);
    let chars: Vec<char> = n.chars().collect();
    if chars.len() < 5 {
        return None;
    }
    let len = 3 + rng.below(chars.len() - 3);
    let s: String = chars[..len].iter().collect();
    let norm = normalize(&s);
    let names = map.names();
    let only: Vec<Prov> = names
        .short_places(map, &norm)
        .iter()
        .map(|&l| map.prov_of(l))
        .collect();
    let exact = names.place(&norm);
    let other_word = names.power(&norm).is_some()
        || names.coast(&norm).is_some()
        || norm.split(' ').any(|w| KEYWORDS.contains(&w))
        || s.ends_with([' ', '-', '.']);
    // `Norwegian Se`: the longest exact name (`Norwegian`) is read first, so a prefix
    // whose first word is a name of its own is not a short form.
    let words: Vec<&str> = s.split([' ', '-']).collect();
    let first_exact =
        (1..words.len()).any(|k| !names.place(&normalize(&words[..k].join(" "))).is_empty());
    // `Sain`: written short for St Petersburg, or Spain misspelt? An error by design.
    let misspelt_other = map.provs().filter(|&q| q != p).any(|q| {
        let qp = map.province(q);
        std::iter::once(&qp.id)
            .chain(std::iter::once(&qp.name))
            .chain(&qp.aliases)
            .map(|n| normalize(n))
            .any(|n| n.len() >= 4 && arbiter::map::names::edit_distance(&norm, &n) == 1)
    });
    (only == [p]
        && exact.iter().all(|&l| map.prov_of(l) == p)
        && !other_word
        && !first_exact
        && !misspelt_other)
        .then_some(s)
}

/// A location: its province's name, and for a coast, the coast in one of its spellings.
fn loc_name(map: &Map, l: Loc, short_ok: bool, split_ok: bool, rng: &mut Rng) -> String {
    let p = map.prov_of(l);
    let name = place_name(map, p, short_ok, rng);
    let Some(c) = map.coast(l) else {
        return name;
    };
    let id = c.id.clone();
    let cname = c.name.to_lowercase();
    let first = cname.split(' ').next().unwrap_or("").to_string();
    let letter = &first[..1];
    let forms = [
        format!("/{id}"),
        format!("/{}", id.to_uppercase()),
        format!(" ({id})"),
        format!("({id})"),
        format!(" ({})", capitalize(&cname)),
        format!("/{cname}"),
        format!("/{first}"),
        format!("/{first}ern"),
        format!(" ({first}ern)"),
        format!("({letter})"),
        format!(" ({})", letter.to_uppercase()),
        format!("/{letter}"),
        format!(" {id}"),
        format!(" {cname}"),
        format!(" {letter}.c."),
        format!(" ({}.C.)", letter.to_uppercase()),
        format!("/{id}s"),
        format!("-{id}"),
    ];
    let mut f = rng.pick(&forms).clone();
    if !split_ok && f.starts_with(['-']) {
        f = format!("/{id}");
    }
    format!("{name}{f}")
}

fn type_word(kind: UnitKind, rng: &mut Rng) -> &'static str {
    let (a, f) = *rng.pick(&[
        ("A ", "F "),
        ("Army ", "Fleet "),
        ("army ", "fleet "),
        ("a ", "f "),
        ("", ""),
        ("", ""),
        ("AMY ", "FLT "),
        ("A. ", "F. "),
    ]);
    match kind {
        UnitKind::Army => a,
        UnitKind::Fleet => f,
    }
}

/// A unit as an order names it: `[type] place`, or `A(Vie)`.
fn unit_text(map: &Map, u: &Unit, first: bool, rng: &mut Rng) -> String {
    let mut t = type_word(u.kind, rng).to_string();
    let names = map.names();
    let mut name = loc_name(map, u.loc, true, false, rng);
    // Two readings, both errors by design: `Eng Bel` (England, or the English Channel).
    let word0 = normalize(name.split([' ', '/', '(']).next().unwrap_or(""));
    if t.is_empty() && first && names.power(&word0).is_some() {
        t = "F ".into();
    }
    if t.is_empty() && names.power(&word0).is_some() {
        name = map.province(map.prov_of(u.loc)).id.clone();
        t = match u.kind {
            UnitKind::Army => "A ".into(),
            UnitKind::Fleet => "F ".into(),
        };
    }
    if rng.chance(12) && !t.is_empty() && map.coast(u.loc).is_none() {
        return format!("{}({})", t.trim_end(), name);
    }
    format!("{t}{name}")
}

/// An order in the unit-first style: `A Mun S German A Ber - Kie`.
fn unit_first(map: &Map, units: &[Unit], i: usize, want: Want, rng: &mut Rng) -> String {
    let u = &units[i];
    let me = unit_text(map, u, true, rng);
    let split = map.is_split(map.prov_of(u.loc));
    let tail = match want {
        Want::Hold => rng
            .pick(&[
                "",
                " H",
                " h",
                " hold",
                " holds",
                " Holds",
                " stands",
                " HLD",
                " – Hold",
            ])
            .to_string(),
        Want::Move { to, via } => {
            let verbs: &[&str] = &[
                " - ",
                " -> ",
                " => ",
                " --> ",
                " → ",
                " – ",
                " to ",
                " moves to ",
                " m ",
                " attacks ",
                " into ",
                " MTO ",
                " move to ",
                " attack on ",
                "-",
                "",
            ];
            let mut v = *rng.pick(verbs);
            if v == "-" && (split || me.ends_with(')')) {
                v = " - ";
            }
            let implicit = v.is_empty();
            let dest = loc_name(map, to, !implicit, true, rng);
            if implicit {
                // `A Par Bur`: the destination must be a name in full, and not begin
                // with a coast word of a split province (`F Stp North Sea` is an error).
                let w0 = normalize(dest.split(' ').next().unwrap_or(""));
                if split && map.names().coast(&w0).is_some() {
                    v = " - ";
                } else {
                    v = " ";
                }
            }
            let via_text = if via {
                rng.pick(&[
                    " via convoy",
                    " via Convoy",
                    " by convoy",
                    " (via convoy)",
                    " via c",
                    " via",
                    " by c",
                ])
                .to_string()
            } else {
                String::new()
            };
            if via && rng.chance(3) {
                // a route through a sea: `A Lon - NTH - Nwy`, `A Yor via Nth to Nwy`
                let seas: Vec<Prov> = map.provs().filter(|&p| map.is_sea(p)).collect();
                let sea = map.province(*rng.pick(&seas)).name.clone();
                return if rng.chance(2) {
                    format!("{me} - {sea} - {dest}")
                } else {
                    format!("{me} via {sea} to {dest}")
                };
            }
            format!("{v}{dest}{via_text}")
        }
        Want::SupportHold { target } | Want::SupportMove { target, .. } => {
            let s = *rng.pick(&[
                " S ",
                " s ",
                " support ",
                " supports ",
                " SUP ",
                " S. ",
                " Supports ",
            ]);
            let t = &units[target];
            let mut them = unit_text(map, t, false, rng);
            them = nationality(map, t, &them, rng) + &them;
            match want {
                Want::SupportMove { to, .. } => {
                    let v = *rng.pick(&[" - ", " -> ", " to ", " into ", " MTO "]);
                    let dest = loc_name(map, to, true, true, rng);
                    format!("{s}{them}{v}{dest}")
                }
                _ => {
                    let h = *rng.pick(&["", " H", " hold", " holds", " HLD"]);
                    format!("{s}{them}{h}")
                }
            }
        }
        Want::Convoy { army, to } => {
            let c = *rng.pick(&[" C ", " c ", " convoy ", " convoys ", " CVY ", " Convoys "]);
            let a = &units[army];
            let mut them = unit_text(map, a, false, rng);
            them = nationality(map, a, &them, rng) + &them;
            let v = *rng.pick(&[" - ", " -> ", " to ", " CTO "]);
            let dest = loc_name(map, to, true, true, rng);
            format!("{c}{them}{v}{dest}")
        }
    };
    format!("{me}{tail}")
}

/// The nationality written before a supported or convoyed unit: nothing, its
/// adjective, its three-letter code or its initial (these two before a unit type).
fn nationality(map: &Map, t: &Unit, written: &str, rng: &mut Rng) -> String {
    let info = map.power(t.power);
    let typed = written.starts_with(|c: char| c.is_alphabetic())
        && written.split([' ', '(']).next().is_some_and(|w| {
            ["a", "army", "f", "fleet", "amy", "flt", "a.", "f."]
                .contains(&w.to_lowercase().as_str())
        });
    match rng.below(5) {
        0 => format!("{} ", info.adjective),
        1 if typed => format!("{} ", info.name[..3].to_uppercase()),
        2 if typed => format!("{} ", &info.name[..1]),
        _ => String::new(),
    }
}

/// A web-site sentence: `The army at Vienna move to Trieste.`
fn sentence(map: &Map, units: &[Unit], i: usize, want: Want, rng: &mut Rng) -> Option<String> {
    let u = &units[i];
    let full = |l: Loc| -> String {
        let p = map.province(map.prov_of(l));
        match map.coast(l) {
            Some(c) => format!("{} ({})", p.name, c.name),
            None => p.name.clone(),
        }
    };
    let kind = |k: UnitKind| match k {
        UnitKind::Army => "army",
        UnitKind::Fleet => "fleet",
    };
    let me = format!("The {} at {}", kind(u.kind), full(u.loc));
    let s = match want {
        Want::Hold => format!("{me} hold."),
        Want::Move { to, via: false } => format!("{me} move to {}.", full(to)),
        Want::Move { to, via: true } => format!("{me} move to {} via convoy.", full(to)),
        Want::SupportHold { target } => {
            format!("{me} support hold to {}.", full(units[target].loc))
        }
        Want::SupportMove { target, to } => format!(
            "{me} support move to {} from {}.",
            full(to),
            full(units[target].loc)
        ),
        Want::Convoy { army, to } => format!(
            "{me} convoy to {} from {}.",
            map.province(map.prov_of(to)).name,
            full(units[army].loc)
        ),
    };
    let _ = rng;
    Some(s)
}

/// DAIDE: `( ( ENG FLT LON ) MTO NTH )`.
fn daide(map: &Map, units: &[Unit], i: usize, want: Want) -> String {
    let tok = |l: Loc| -> String {
        let p = map.province(map.prov_of(l));
        let id = match p.id.as_str() {
            "eng" => "ECH".to_string(),
            "bot" => "GOB".to_string(),
            "lyo" => "GOL".to_string(),
            id => id.to_uppercase(),
        };
        match map.coast(l) {
            Some(c) => format!("( {id} {}S )", c.id.to_uppercase()),
            None => id,
        }
    };
    let unit = |u: &Unit| {
        format!(
            "( {} {} {} )",
            map.power(u.power).name[..3].to_uppercase(),
            match u.kind {
                UnitKind::Army => "AMY",
                UnitKind::Fleet => "FLT",
            },
            tok(u.loc)
        )
    };
    let me = unit(&units[i]);
    match want {
        Want::Hold => format!("( {me} HLD )"),
        Want::Move { to, via: false } => format!("( {me} MTO {} )", tok(to)),
        Want::Move { to, via: true } => format!("( {me} CTO {} VIA ( NTH ) )", tok(to)),
        Want::SupportHold { target } => format!("( {me} SUP {} )", unit(&units[target])),
        Want::SupportMove { target, to } => {
            format!("( {me} SUP {} MTO {} )", unit(&units[target]), tok(to))
        }
        Want::Convoy { army, to } => {
            format!("( {me} CVY {} CTO {} )", unit(&units[army]), tok(to))
        }
    }
}

/// A command-first move: `Move army Vienna to Trieste`, `m vie-tri`.
fn command_first(map: &Map, u: &Unit, to: Loc, rng: &mut Rng) -> String {
    let kind = match u.kind {
        UnitKind::Army => "army",
        UnitKind::Fleet => "fleet",
    };
    let p = map.province(map.prov_of(u.loc));
    match rng.below(3) {
        0 => format!(
            "Move {kind} {} to {}",
            p.name,
            loc_name(map, to, true, true, rng)
        ),
        1 if map.coast(to).is_none() && !map.is_split(map.prov_of(u.loc)) => {
            format!("m {}-{}", p.id, map.province(map.prov_of(to)).id)
        }
        _ => format!(
            "move {} {} - {}",
            &kind[..1],
            p.id,
            loc_name(map, to, true, true, rng)
        ),
    }
}

/// A power prefix or header for the order of unit `u`, and whether it states the power.
fn prefix(map: &Map, u: &Unit, body: &str, rng: &mut Rng) -> (String, bool) {
    let info = map.power(u.power);
    let code = info.name[..3].to_uppercase();
    let initial = &info.name[..1];
    let first = body.split([' ', '(']).next().unwrap_or("");
    let typed_letter = ["A", "F"].contains(&first);
    let forms: Vec<(String, bool)> = vec![
        (String::new(), false),
        (String::new(), false),
        (format!("{}: ", info.name), true),
        (format!("{}: ", info.name.to_uppercase()), true),
        (format!("{} ", info.name), true),
        (format!("[{}] ", info.name), true),
        (format!("({}) ", info.name.to_uppercase()), true),
        (format!("{code}: "), true),
        (format!("{initial}: "), true),
        (format!("{initial}) "), true),
        (format!("{}:\n", info.name), true),
        (format!("[{}]\n", info.name), true),
        (format!("{} ", info.adjective), true),
        (format!("{initial} "), true),
    ];
    let (p, stated) = rng.pick(&forms).clone();
    // `English Channel`: an adjective that begins a place name is the place; a bare
    // initial goes before a unit type only, and never `R` (Russia, or retreat?).
    if p == format!("{} ", info.adjective) {
        let two = normalize(&format!("{} {}", info.adjective, first));
        if !map.names().short_places(map, &two).is_empty() || !map.names().place(&two).is_empty() {
            return (String::new(), false);
        }
    }
    if p == format!("{initial} ") && (!typed_letter || initial == "R") {
        return (String::new(), false);
    }
    (p, stated)
}

/// One order of unit `i`, written in a random style: the text and whether it states
/// the power.
fn write(map: &Map, units: &[Unit], i: usize, want: Want, rng: &mut Rng) -> (String, bool) {
    let u = &units[i];
    let body = match rng.below(10) {
        0 => sentence(map, units, i, want, rng).unwrap_or_default(),
        1 => return (daide(map, units, i, want), true),
        2 => match want {
            Want::Move { to, via: false } => command_first(map, u, to, rng),
            _ => unit_first(map, units, i, want, rng),
        },
        _ => unit_first(map, units, i, want, rng),
    };
    let (pre, stated) = prefix(map, u, &body, rng);
    // `- A Vie` and `* A Vie` are removals: a bullet `-` or `*` goes before a hold only
    // with a hold word.
    let last = body
        .rsplit([' ', '–'])
        .next()
        .unwrap_or("")
        .trim_end_matches('.')
        .to_lowercase();
    let bare_hold = matches!(want, Want::Hold)
        && !["h", "hold", "holds", "stands", "hld"].contains(&last.as_str());
    let markers: &[&str] = if bare_hold {
        &["", "", "1. ", "2) ", "(3) ", "#4 ", "• ", "12 "]
    } else {
        &["", "", "1. ", "2) ", "(3) ", "#4 ", "• ", "- ", "* ", "12 "]
    };
    let marker = *rng.pick(markers);
    let trailer = *rng.pick(&[
        "",
        "",
        ".",
        "  (*bounce*)",
        " (fail)",
        " (dislodged)",
        "  # note",
    ]);
    let trailer = if body.ends_with('.') && trailer == "." {
        ""
    } else {
        trailer
    };
    // `#4` numbers a line only at its start (elsewhere `#` begins a comment); a marker
    // follows a prefix only after its colon or bracket (`England: 1. F Lon`).
    let closed = pre.ends_with(": ") || pre.ends_with(") ") || pre.ends_with("] ");
    let text = if pre.ends_with('\n') || !closed || marker.starts_with('#') || rng.chance(2) {
        if pre.ends_with('\n') {
            format!("{pre}{marker}{body}{trailer}")
        } else {
            format!("{marker}{pre}{body}{trailer}")
        }
    } else {
        format!("{pre}{marker}{body}{trailer}")
    };
    (text, stated)
}

struct Case {
    units: Vec<Unit>,
    i: usize,
    want: Want,
    text: String,
    stated: bool,
}

fn cases(map: &Map, seed: u64, boards: usize, per_board: usize, styles: usize) -> Vec<Case> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..boards {
        let units = random_board(map, &mut rng);
        for _ in 0..per_board {
            let i = rng.below(units.len());
            let want = random_order(map, &units, i, &mut rng);
            for _ in 0..styles {
                let (text, stated) = write(map, &units, i, want, &mut rng);
                out.push(Case {
                    units: units.clone(),
                    i,
                    want,
                    text,
                    stated,
                });
            }
        }
    }
    out
}

#[test]
fn every_style_of_an_order_reads_as_that_order() {
    let map = Map::standard();
    let mut bad = Vec::new();
    let all = cases(&map, 0x5eed_0011, 40, 25, 24);
    assert_eq!(all.len(), 24_000);
    for c in &all {
        let power = c.stated.then_some(c.units[c.i].power);
        for strict in [false, true] {
            let p = parse_orders_with(&map, &c.text, ParseOptions { strict });
            let ok = p.diagnostics.is_empty()
                && p.orders.len() == 1
                && same(&map, &c.units, c.i, c.want, &p.orders[0], power)
                && (!c.stated || p.orders[0].power == power);
            if !ok && bad.len() < 25 {
                bad.push(format!(
                    "{:?} (strict {strict}) -> {:?} {:?}, want {:?}",
                    c.text,
                    p.orders
                        .iter()
                        .map(|o| o.canonical(&map, None))
                        .collect::<Vec<_>>(),
                    p.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>(),
                    c.want
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} styles misread:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A mutation: a word dropped, two neighbouring letters swapped, a letter dropped or
/// doubled. Returns the new text, the word changed (as written, and as it became).
fn mutate(text: &str, rng: &mut Rng) -> Option<(String, String, String)> {
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return None;
    }
    let k = rng.below(words.len());
    let w = words[k];
    let chars: Vec<char> = w.chars().collect();
    let letters: Vec<usize> = (0..chars.len())
        .filter(|&j| chars[j].is_alphabetic())
        .collect();
    let new: String = match rng.below(4) {
        0 => String::new(),
        1 => {
            let swaps: Vec<usize> = letters
                .iter()
                .copied()
                .filter(|&j| j + 1 < chars.len() && chars[j + 1].is_alphabetic())
                .filter(|&j| chars[j] != chars[j + 1])
                .collect();
            if swaps.is_empty() {
                return None;
            }
            let j = *rng.pick(&swaps);
            let mut c = chars.clone();
            c.swap(j, j + 1);
            c.into_iter().collect()
        }
        2 => {
            if letters.len() < 2 {
                return None;
            }
            let j = *rng.pick(&letters);
            chars
                .iter()
                .enumerate()
                .filter(|&(x, _)| x != j)
                .map(|(_, c)| *c)
                .collect()
        }
        _ => {
            if letters.is_empty() {
                return None;
            }
            let j = *rng.pick(&letters);
            let mut c = chars.clone();
            c.insert(j, chars[j]);
            c.into_iter().collect()
        }
    };
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out[k] = new.clone();
    let text: String = out
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    Some((text, w.to_string(), new))
}

/// Is `w` (punctuation aside) a word the grammar knows: a place, a power, a coast, a
/// keyword? Then the mutation wrote another valid order, which no parser can tell.
fn known_word(map: &Map, w: &str) -> bool {
    let n = normalize(w.trim_matches(|c: char| !c.is_alphanumeric()));
    let names = map.names();
    let parts: Vec<&str> = w
        .split(|c: char| !c.is_alphanumeric() && c != '.' && c != '\'')
        .filter(|s| !s.is_empty())
        .collect();
    let known = |n: &str| {
        !names.place(n).is_empty()
            || names.power(n).is_some()
            || names.coast(n).is_some()
            || KEYWORDS.contains(&n)
            || !names.short_places(map, n).is_empty()
    };
    known(&n) || parts.iter().any(|p| known(&normalize(p)))
}

/// The mutations that may change the order without a word, and why (see the top).
fn explained(map: &Map, text: &str, old: &str, new: &str, o: &Order) -> Option<&'static str> {
    let is_place = |w: &str| {
        let n = normalize(w.trim_matches(|c: char| !c.is_alphanumeric()));
        !map.names().place(&n).is_empty()
    };
    let word = normalize(old.trim_matches(|c: char| !c.is_alphanumeric()));
    let keyword = KEYWORDS.contains(&word.as_str());
    if !new.is_empty() {
        // The mutated word is another word of the grammar (`Ber`/`Bre`, `Bal`/`Bla`),
        // or a name written short (`Burgund`).
        return known_word(map, new).then_some("another known word");
    }
    // A place dropped: what is left names another unit or place (`F Aeg Eas`, an
    // implicit move, without `Aeg` is `F Eas`), or drops a destination's coast
    // (legality then picks the coast, 4.B.2, or says it must be named, 4.B.1).
    if is_place(old) || known_word(map, old) && !keyword {
        return Some("a place dropped");
    }
    // The order word of a build or removal dropped: a unit alone holds.
    let order_words = [
        "-", "*", "+", "–", "build", "remove", "disband", "destroy", "d", "b",
    ];
    if order_words.contains(&old.to_lowercase().trim_end_matches('.')) {
        return matches!(o.kind, OrderKind::Hold).then_some("an order word dropped");
    }
    // A hold word dropped after a `-` or `*` bullet: `* A Sil` is a removal (which a
    // movement phase reports as an error, the unit holding).
    if keyword && matches!(o.kind, OrderKind::Disband) && text.contains(['-', '*']) {
        return Some("a hold word dropped after a bullet");
    }
    // A verb dropped between two places: `A Pic S Nwy` without `S` is `A Pic Nwy`, the
    // move written without a verb.
    if keyword && matches!(o.kind, OrderKind::Move { .. }) {
        return Some("a verb dropped between two places");
    }
    None
}

#[test]
fn a_mutated_order_reads_the_same_or_shows_the_correction_or_is_an_error() {
    let map = Map::standard();
    let mut rng = Rng(0x0bad_5eed);
    let mut bad = Vec::new();
    let (mut same_count, mut corrected, mut errors) = (0, 0, 0);
    let mut why: std::collections::BTreeMap<&str, usize> = Default::default();
    for c in cases(&map, 0x5eed_0022, 20, 20, 8) {
        let power = c.stated.then_some(c.units[c.i].power);
        for _ in 0..6 {
            let Some((text, old, new)) = mutate(&c.text, &mut rng) else {
                continue;
            };
            let p = parse_orders_with(&map, &text, ParseOptions { strict: false });
            if p.diagnostics.iter().any(|d| d.severity == Severity::Error) {
                errors += 1;
                continue;
            }
            match p.orders.as_slice() {
                [o] if same_as(&map, &c.units, c.i, c.want, o, power, false) => same_count += 1,
                // a warning that shows the correction, or names the word it ignores
                [_] if p.diagnostics.iter().any(|d| {
                    d.message.starts_with("read `")
                        || !new.is_empty()
                            && d.message
                                .contains(new.trim_matches(|c: char| !c.is_alphanumeric()))
                }) =>
                {
                    corrected += 1
                }
                [o] if explained(&map, &text, &old, &new, o).is_some() => {
                    *why.entry(explained(&map, &text, &old, &new, o).unwrap_or(""))
                        .or_default() += 1
                }
                // a word dropped, and no place is left: a header or label alone
                [] if new.is_empty()
                    && !text
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|w| !map.names().place(&normalize(w)).is_empty()) =>
                {
                    *why.entry("a header or label left").or_default() += 1
                }
                _ => {
                    if bad.len() < 25 {
                        bad.push(format!(
                            "{:?} -> {:?} (`{old}` -> `{new}`) read as {:?} {:?}, want {:?}",
                            c.text,
                            text,
                            p.orders
                                .iter()
                                .map(|o| o.canonical(&map, None))
                                .collect::<Vec<_>>(),
                            p.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>(),
                            c.want
                        ));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mutations misread:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // The test means something: each outcome happens often.
    let tally = format!("{same_count} same, {corrected} corrected, {errors} errors, {why:?}");
    eprintln!("{tally}");
    assert!(
        same_count > 3_000 && errors > 3_000 && corrected > 15,
        "{tally}"
    );
}

#[test]
fn garbage_with_order_words_never_panics() {
    let map = Map::standard();
    let mut rng = Rng(7);
    let pieces = [
        "A",
        "F",
        "(",
        ")",
        "[",
        "]",
        "-",
        "–",
        "→",
        ":",
        ".",
        "1.",
        "a)",
        "E)",
        "R",
        "S",
        "C",
        "via",
        "to",
        "from",
        "The",
        "army",
        "at",
        "Build",
        "waived",
        "W",
        "*",
        "+",
        "•",
        "ENG",
        "Eng",
        "England",
        "Austria-Hungary",
        "Spa",
        "/nc",
        "(nc)",
        "north",
        "coast",
        "AMY",
        "FLT",
        "MTO",
        "SUP",
        "CVY",
        "Burgandi",
        "Norw",
        "Pars",
        "é",
        "’s",
        "#",
        "#1",
        "(*",
        "*)",
        "(fail)",
        ",",
        ";",
        "  ",
        "Spring",
        "1901",
    ];
    for _ in 0..10_000 {
        let n = rng.below(10);
        let line: Vec<&str> = (0..n).map(|_| *rng.pick(&pieces)).collect();
        let text = line.join(if rng.chance(3) { "" } else { " " });
        for strict in [false, true] {
            let p = parse_orders_with(&map, &text, ParseOptions { strict });
            for d in &p.diagnostics {
                assert!(d.span.start <= d.span.end, "{text:?}");
                assert!(d.span.end as usize <= text.len() + 1, "{text:?}: {d:?}");
            }
        }
    }
}
