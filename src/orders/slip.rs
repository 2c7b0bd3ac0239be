//! A player's slip: a text of orders with a file name. Its power is its header (a
//! line `Austria:`, or the prefix of each order); without one, its file name when that
//! begins with a power's name, id, code or adjective (`austria.txt`,
//! `Austria-S1901.txt`, `TUR_orders.txt`, any case). An order that still has no power
//! is an error: the slip is refused (judged anyway, each such order counts for the
//! power whose unit it orders, as written before this rule).

use super::text::{parse_text, ParseOptions, Parsed};
use super::Diagnostic;
use crate::map::names::normalize;
use crate::map::{Map, Power};

/// The power a file name names: the name without its folders and extensions, read
/// word by word (words end at `-`, `_`, `.` or a space), its longest run of first
/// words that is a power's name (`Austria-Hungary-S1901.txt` on a map whose power is
/// `Austria-Hungary`). `None` for `<stdin>` or any name that does not begin so.
pub fn power_of_file_name(map: &Map, file: &str) -> Option<Power> {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    // Only a short name can be a power's: a long one is not read word by word.
    if base.len() > 200 {
        return None;
    }
    let norm = normalize(&base.replace('.', " "));
    let words: Vec<&str> = norm.split(' ').filter(|w| !w.is_empty()).collect();
    let names = map.names();
    (1..=words.len().min(4)).rev().find_map(|k| {
        let head = words.get(..k)?.join(" ");
        names.power(&head)
    })
}

/// Parse a slip: `file` is its name as given (its power when the text has no header),
/// `text` its orders. Orders that have no power from a header, a prefix or the file
/// name get one error, at the first of them.
pub fn parse_slip(map: &Map, file: &str, text: &str, options: ParseOptions) -> Parsed {
    parse_slip_at_most(map, file, text, options, usize::MAX)
}

/// [`parse_slip`], keeping at most `room` orders: every order is still read, and its
/// mistakes told, but those past the room are only counted ([`Parsed::unkept`]).
pub fn parse_slip_at_most(
    map: &Map,
    file: &str,
    text: &str,
    options: ParseOptions,
    room: usize,
) -> Parsed {
    let power = power_of_file_name(map, file);
    let mut parsed = parse_text(map, text, options, power, room);
    let mut none = parsed.orders.iter().filter(|o| o.power.is_none());
    if let Some(first) = none.next() {
        let more = none.count();
        let example = map
            .powers
            .first()
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "France".into());
        let others = match more {
            0 => String::new(),
            1 => " (nor has 1 order after it)".to_string(),
            n => format!(" (nor have {n} orders after it)"),
        };
        parsed.diagnostics.push(Diagnostic::error(
            first.span,
            format!(
                "no power for `{}`: no header names one before it, and the file name `{file}` \
                 is no power's{others}",
                first.text
            ),
            Some(format!(
                "begin the slip with its power (`{example}:`) or name the file after it \
                 (`{}.txt`); judged anyway, an order without a power counts for the power \
                 whose unit it orders",
                example.to_lowercase()
            )),
        ));
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_of_powers() {
        let map = Map::standard();
        let name = |f: &str| power_of_file_name(&map, f).map(|p| map.power(p).name.clone());
        assert_eq!(name("austria.txt").as_deref(), Some("Austria"));
        assert_eq!(name("slips/Austria-S1901.txt").as_deref(), Some("Austria"));
        assert_eq!(name("C:\\slips\\FRANCE.TXT").as_deref(), Some("France"));
        assert_eq!(name("german_orders.txt").as_deref(), Some("Germany"));
        assert_eq!(name("tur.txt").as_deref(), Some("Turkey"));
        assert_eq!(name("orders.txt"), None);
        assert_eq!(name("<stdin>"), None);
        assert_eq!(name("s1901-austria.txt"), None);
        assert_eq!(name(""), None);
    }
}
