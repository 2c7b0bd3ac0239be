//! Names as the `diplomacy` package writes them: powers in upper case (`FRANCE`),
//! phases `S1901M` and `SPRING 1901 MOVEMENT`, units `A PAR` / `F STP/SC`, orders
//! `A PAR - BUR`, `A LON - NWY VIA`, `A PAR R BUR`, `A PAR B`, `A PAR D`, `WAIVE`.

use arbiter::map::{Map, Power, Season, UnitKind};
use arbiter::orders::{Order, OrderKind, UnitRef};
use arbiter::state::{Phase, PhaseKind, Unit};

/// `S1901M`, `F1901R`, `W1901A`.
pub fn short_phase(p: Phase) -> String {
    let s = match p.season {
        Season::Spring => 'S',
        Season::Fall => 'F',
        Season::Winter => 'W',
    };
    let k = match p.kind {
        PhaseKind::Movement => 'M',
        PhaseKind::Retreat => 'R',
        PhaseKind::Adjustment => 'A',
    };
    format!("{s}{}{k}", p.year)
}

/// `SPRING 1901 MOVEMENT`, `FALL 1901 RETREATS`, `WINTER 1901 ADJUSTMENTS`.
pub fn long_phase(p: Phase) -> String {
    let k = match p.kind {
        PhaseKind::Movement => "MOVEMENT",
        PhaseKind::Retreat => "RETREATS",
        PhaseKind::Adjustment => "ADJUSTMENTS",
    };
    format!("{} {} {k}", p.season.to_string().to_uppercase(), p.year)
}

/// `M`, `R`, `A`.
pub fn phase_type(p: Phase) -> &'static str {
    match p.kind {
        PhaseKind::Movement => "M",
        PhaseKind::Retreat => "R",
        PhaseKind::Adjustment => "A",
    }
}

/// A power as the `diplomacy` package names it: its id in upper case (`FRANCE`).
pub fn power_name(map: &Map, p: Power) -> String {
    map.power(p).id.to_uppercase()
}

/// `A PAR`, `F STP/SC`.
pub fn unit(map: &Map, u: &Unit) -> String {
    u.short(map)
}

fn unit_ref(s: &mut String, map: &Map, u: &UnitRef, default: UnitKind) {
    s.push(u.kind.unwrap_or(default).letter());
    s.push(' ');
    s.push_str(map.loc_upper(u.loc));
}

/// An order of `arbiter::legal`'s lists written as the `diplomacy` package writes it:
/// a convoyed move ends in `VIA`; a retreat is `R`, a build `B`, a disband or removal
/// `D`.
pub fn dip_order(map: &Map, phase: PhaseKind, o: &Order) -> String {
    let mut s = String::with_capacity(24);
    write_dip_order(&mut s, map, phase, o);
    s
}

/// [`dip_order`], appended to `s`.
pub fn write_dip_order(s: &mut String, map: &Map, phase: PhaseKind, o: &Order) {
    let kind = o.unit.and_then(|u| u.kind).unwrap_or(UnitKind::Army);
    match o.kind {
        OrderKind::Waive => return s.push_str("WAIVE"),
        OrderKind::Save => return s.push_str("SAVE"),
        _ => {}
    }
    if let Some(u) = &o.unit {
        unit_ref(s, map, u, kind);
    }
    match o.kind {
        OrderKind::Hold => s.push_str(" H"),
        OrderKind::Move { to, via_convoy } => {
            if phase == PhaseKind::Retreat {
                s.push_str(" R ");
                s.push_str(map.loc_upper(to));
            } else {
                s.push_str(" - ");
                s.push_str(map.loc_upper(to));
                let from = o.unit.map(|u| map.prov_of(u.loc));
                let convoyed = via_convoy
                    || (kind == UnitKind::Army
                        && from.is_some_and(|f| !map.army_adjacent(f, map.prov_of(to))));
                if convoyed {
                    s.push_str(" VIA");
                }
            }
        }
        OrderKind::Support { target, to } => {
            s.push_str(" S ");
            unit_ref(s, map, &target, UnitKind::Army);
            if let Some(to) = to {
                s.push_str(" - ");
                s.push_str(map.loc_upper(to));
            }
        }
        OrderKind::Convoy { army, to } => {
            s.push_str(" C ");
            unit_ref(s, map, &army, UnitKind::Army);
            s.push_str(" - ");
            s.push_str(map.loc_upper(to));
        }
        OrderKind::Disband => s.push_str(" D"),
        OrderKind::Build => s.push_str(" B"),
        OrderKind::Waive | OrderKind::Save => {}
    }
}
