//! Orders: the syntax tree, the nom grammar, name lookup and diagnostics.
//!
//! Parsing never fails as a whole: [`parse_orders`] returns every order it could read
//! and one [`Diagnostic`] per problem. Names are resolved against the [`Map`] while
//! parsing, so an [`Order`] holds dense ids only. Never a misreading: a text with two
//! readings is an error naming both; a misspelling with exactly one close reading is
//! read with a warning that shows the correction ([`parse_orders_with`]; with
//! [`ParseOptions::strict`], and in [`parse_orders`], it is an error).
//!
//! - [`words`]: keywords, move verbs, labels and result words;
//! - [`grammar`]: one order's body: places, coasts, units, verbs;
//! - [`text`]: lines, comments, labels, list markers, headers and prefixes;
//! - [`slip`]: a player's slip, and its power from its header or its file name.

mod diagnostic;
mod fast;
mod grammar;
mod slip;
mod text;
mod words;
pub(crate) use words::ORDER_WORDS;

pub use crate::map::names::{normalize, NameIndex};
pub use diagnostic::{
    name_invisibles, reads_as_space, render_diagnostics, source_lines, write_diagnostics,
    Diagnostic, Severity, Span, Window, MAX_DIAGNOSTICS, SHOWN_COLUMNS,
};
pub use slip::{parse_slip, parse_slip_at_most, power_of_file_name};
pub use text::{
    parse_order, parse_order_with, parse_orders, parse_orders_with, parse_place, Label,
    ParseOptions, Parsed, Unkept,
};

use crate::map::{Loc, Map, Power, Prov, UnitKind};

/// A unit as an order names it: the type may be omitted (DATC 4.C.1); the location
/// may carry a coast, which is ignored where it does not matter (4.B.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRef {
    pub kind: Option<UnitKind>,
    pub loc: Loc,
}

/// What an order tells a unit to do. Retreat-phase and adjustment-phase orders are
/// parsed here too; the phase decides what a `Move` or `Disband` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderKind {
    Hold,
    /// Move (or retreat). `to` may be a province of a split province with no coast
    /// given; legality decides the coast (4.B.1, 4.B.2).
    Move {
        to: Loc,
        via_convoy: bool,
    },
    /// Support a unit holding (`to == None`) or moving to `to`.
    Support {
        target: UnitRef,
        to: Option<Loc>,
    },
    /// Convoy the army `army` to `to`.
    Convoy {
        army: UnitRef,
        to: Loc,
    },
    /// Disband (retreat phase) or remove (adjustments).
    Disband,
    /// Build a unit at `unit.loc`.
    Build,
    /// Waive one build.
    Waive,
    /// Save one build for a colonial build next winter (maps with the colonial build
    /// rule; `Save`, `Waive for a colonial build`).
    Save,
}

/// One order, names resolved, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// The power that wrote it (header or prefix), if stated.
    pub power: Option<Power>,
    /// The unit ordered (for `Waive`, `None`).
    pub unit: Option<UnitRef>,
    pub kind: OrderKind,
    /// The order as written (trimmed), and where. Short texts are held inline, so
    /// making and copying an order allocates nothing (a phase copies its orders into
    /// its result).
    pub text: smol_str::SmolStr,
    pub span: Span,
    /// The nationality written for the supported or convoyed unit, and where
    /// (`S Turkish F Bla - Rum`); the judge ignores it (DATC 4.C.5, 4.C.6), see
    /// [`nationality_warnings`].
    pub stated: Option<(Power, Span)>,
}

impl Order {
    /// The province of the ordered unit.
    pub fn prov(&self, map: &Map) -> Option<Prov> {
        self.unit.map(|u| map.prov_of(u.loc))
    }

    /// Canonical short form: `F LON - NTH`, `A PAR S A MAR - BUR`, `F NTH C A LON - NWY`.
    /// `kind` gives the unit type to print where the order omitted it.
    pub fn canonical(&self, map: &Map, kind: Option<UnitKind>) -> String {
        let mut s = String::with_capacity(24);
        self.write_canonical(&mut s, map, kind);
        s
    }

    /// [`Order::canonical`], appended to `s`.
    pub fn write_canonical(&self, s: &mut String, map: &Map, kind: Option<UnitKind>) {
        let unit = |s: &mut String, u: &UnitRef, k: Option<UnitKind>| {
            if let Some(k) = u.kind.or(k) {
                s.push(k.letter());
                s.push(' ');
            }
            s.push_str(map.loc_upper(u.loc));
        };
        if let Some(u) = &self.unit {
            if !matches!(self.kind, OrderKind::Build) {
                unit(s, u, kind);
            }
        }
        match self.kind {
            OrderKind::Hold => s.push_str(" H"),
            OrderKind::Move { to, via_convoy } => {
                s.push_str(" - ");
                s.push_str(map.loc_upper(to));
                if via_convoy {
                    s.push_str(" VIA CONVOY");
                }
            }
            OrderKind::Support { target, to } => {
                s.push_str(" S ");
                unit(s, &target, None);
                if let Some(to) = to {
                    s.push_str(" - ");
                    s.push_str(map.loc_upper(to));
                }
            }
            OrderKind::Convoy { army, to } => {
                s.push_str(" C ");
                unit(s, &army, Some(UnitKind::Army));
                s.push_str(" - ");
                s.push_str(map.loc_upper(to));
            }
            OrderKind::Disband => s.push_str(" D"),
            OrderKind::Build => {
                s.push_str("BUILD ");
                if let Some(u) = &self.unit {
                    unit(s, u, kind);
                }
            }
            OrderKind::Waive => s.push_str("WAIVE"),
            OrderKind::Save => s.push_str("SAVE"),
        }
    }
}

/// The short forms of province `prov`'s names that the parser reads as it (alone, or
/// among other provinces, as an ambiguity that names them): [`NameIndex::short_forms`]
/// without order words (`Hld`), power, coast and label words, and the names of
/// provinces (a name is read as its own province). See `docs/ORDERS.md`.
pub fn short_forms(map: &Map, prov: Prov) -> Vec<String> {
    let names = map.names();
    names
        .short_forms(map, prov)
        .into_iter()
        .filter(|f| !grammar::is_reserved_short(names, f) && names.place(f).is_empty())
        .collect()
}

/// Every order word of the grammar (the words a place may never be written as).
pub fn order_words() -> impl Iterator<Item = &'static str> {
    ORDER_WORDS
        .iter()
        .flat_map(|(_, words)| words.iter().copied())
}

/// The nationality written for the supported or convoyed unit of `order`
/// (`S Turkish F Bla - Rum`, `S T F Bla - Rum`, `C English A Lon - Nwy`), and where it
/// is written. `None` for other orders, or when no nationality is written. The parser
/// keeps it on the order ([`Order::stated`]).
pub fn stated_nationality(order: &Order) -> Option<(Power, Span)> {
    match order.kind {
        OrderKind::Support { .. } | OrderKind::Convoy { .. } => order.stated,
        _ => None,
    }
}
