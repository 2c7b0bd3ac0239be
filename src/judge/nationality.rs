//! The nationality written for a supported or convoyed unit (`S Turkish F Bla - Rum`).
//! The judge ignores it (DATC 4.C.5, 4.C.6: the 2023 preference), but when it does not
//! match the unit on the board the referee should hear of it: [`nationality_warnings`]
//! compares it with the units and returns warnings. The parser has no board, so this is
//! a separate step, called with the position the orders are judged on.

use crate::map::Map;
use crate::orders::{stated_nationality, Diagnostic, Order, OrderKind};
use crate::state::{check_unit_ids, ForeignIds, Unit};

/// A warning for every support or convoy whose written nationality does not match the
/// unit on the board (`units`: the units the orders are judged against). The order
/// stands: the nationality is ignored (DATC 4.C.5, 4.C.6). Orders whose unit is not
/// on the board are left to legality.
pub fn nationality_warnings(
    map: &Map,
    units: &[Unit],
    orders: &[Order],
) -> Result<Vec<Diagnostic>, ForeignIds> {
    check_unit_ids(map, units, orders)?;
    let mut out = Vec::new();
    for o in orders {
        let (target, role) = match o.kind {
            OrderKind::Support { target, .. } => (target, "supported"),
            OrderKind::Convoy { army, .. } => (army, "convoyed"),
            _ => continue,
        };
        let Some((stated, span)) = stated_nationality(o) else {
            continue;
        };
        let p = map.prov_of(target.loc);
        let Some(u) = units.iter().find(|u| map.prov_of(u.loc) == p) else {
            continue;
        };
        if u.power == stated {
            continue;
        }
        out.push(Diagnostic::warning(
            span,
            format!(
                "the {role} {} in {} is {}, not {}",
                u.kind.word().to_lowercase(),
                map.province(p).name,
                map.power(u.power).adjective,
                map.power(stated).adjective,
            ),
            Some("the nationality is ignored and the order stands (DATC 4.C.6)".into()),
        ));
    }
    Ok(out)
}
