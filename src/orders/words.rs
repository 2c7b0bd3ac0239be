//! The words of the order grammar: the nom error type, words and keywords, the keyword
//! lists (documented in `docs/ORDERS.md`), move verbs, and the vocabulary of section
//! labels and result words that are not orders.

use nom::character::complete::space0;
use nom::error::{ErrorKind, ParseError};
use nom::{Err, IResult};

use crate::map::names::ByteTable;

/// A grammar error: where, and (for a committed error) what to tell the user.
#[derive(Debug)]
pub(super) struct PErr<'a> {
    pub at: &'a str,
    pub len: usize,
    pub msg: Option<(String, Option<String>)>,
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _: ErrorKind) -> Self {
        PErr {
            at: input,
            len: 0,
            msg: None,
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

pub(super) type Res<'a, T> = IResult<&'a str, T, PErr<'a>>;

/// A committed error: the order cannot be read, say why.
pub(super) fn fail<'a, T>(
    at: &'a str,
    len: usize,
    msg: String,
    help: Option<String>,
) -> Res<'a, T> {
    Err(failure(at, len, msg, help))
}

/// The committed error of [`fail`], as a value.
pub(super) fn failure(at: &str, len: usize, msg: String, help: Option<String>) -> Err<PErr<'_>> {
    Err::Failure(PErr {
        at,
        len,
        msg: Some((msg, help)),
    })
}

/// A soft failure: this alternative does not apply.
pub(super) fn no<T>(at: &str) -> Res<'_, T> {
    Err(Err::Error(PErr::from_error_kind(at, ErrorKind::Tag)))
}

pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '\'' || c == '’'
}

/// A word: letters, digits, `.` and `'`.
pub(super) fn word(i: &str) -> Res<'_, &str> {
    let b = i.as_bytes();
    let mut n = 0;
    while let Some(&c) = b.get(n) {
        if c.is_ascii_alphanumeric() || c == b'.' || c == b'\'' {
            n += 1;
        } else if c < 0x80 {
            break;
        } else {
            match i[n..].chars().next() {
                Some(ch) if is_word_char(ch) => n += ch.len_utf8(),
                _ => break,
            }
        }
    }
    if n == 0 {
        return no(i);
    }
    Ok((&i[n..], &i[..n]))
}

/// Length of the first word of `i` (for error spans).
pub(super) fn first_word_len(i: &str) -> usize {
    let n = i.find(|c: char| !is_word_char(c)).unwrap_or(i.len());
    if n == 0 {
        i.chars().next().map(|c| c.len_utf8()).unwrap_or(0)
    } else {
        n
    }
}

/// Does the word `w` (any case, `.` and `'` ignored) equal the lowercase keyword `k`?
pub(super) fn word_eq(w: &str, k: &str) -> bool {
    let mut kb = k.bytes();
    for b in w.bytes() {
        if b == b'.' || b == b'\'' {
            continue;
        }
        match kb.next() {
            Some(c) if c == b.to_ascii_lowercase() => {}
            _ => return false,
        }
    }
    kb.next().is_none()
}

/// A keyword: one word whose normalized form is in `words` (for the short lists of
/// rare paths; the grammar's main lists go through [`kwf`]).
pub(super) fn kw<'a>(words: &'static [&'static str]) -> impl FnMut(&'a str) -> Res<'a, &'a str> {
    move |i: &'a str| {
        let (rest, w) = word(i)?;
        if words.iter().any(|k| word_eq(w, k)) {
            Ok((rest, w))
        } else {
            no(i)
        }
    }
}

/// Is `w` one of `words`?
pub(super) fn is_kw(w: &str, words: &[&str]) -> bool {
    words.iter().any(|k| word_eq(w, k))
}

/// The keyword lists a word belongs to, as bits (one table lookup).
pub(super) mod flag {
    pub const HOLD: u32 = 1;
    pub const SUPPORT: u32 = 1 << 1;
    pub const CONVOY: u32 = 1 << 2;
    pub const MOVE: u32 = 1 << 3;
    pub const MOVE_MORE: u32 = 1 << 4;
    pub const DISBAND: u32 = 1 << 5;
    pub const BUILD: u32 = 1 << 6;
    pub const WAIVE: u32 = 1 << 7;
    pub const ARMY: u32 = 1 << 8;
    pub const FLEET: u32 = 1 << 9;
    pub const MOVE_FIRST: u32 = 1 << 10;
    pub const HOLD_FIRST: u32 = 1 << 11;
    pub const ARTICLE: u32 = 1 << 12;
    pub const AT: u32 = 1 << 13;
    pub const VIA: u32 = 1 << 14;
    pub const FROM: u32 = 1 << 15;
    pub const LABEL: u32 = 1 << 16;
    pub const LABEL_STRONG: u32 = 1 << 17;
    /// Every word of the order grammar (not labels).
    pub const KEYWORD: u32 = (1 << 16) - 1;
}

/// Every keyword with its bits; the bits of each one-letter word; and for each first
/// two letters the lengths keywords have (most words are rejected by that before
/// hashing).
pub(super) struct Table {
    words: ByteTable<u32>,
    letters: [u32; 26],
    lengths: [u32; 27 * 27],
}

/// The index in [`Table::lengths`] of a word's first two bytes.
fn pair_index(first: u8, second: Option<&u8>) -> usize {
    letter_index(first) * 27 + second.map_or(26, |&b| letter_index(b))
}

fn letter_index(b: u8) -> usize {
    if b.is_ascii_lowercase() {
        (b - b'a') as usize
    } else {
        26
    }
}

/// The keyword table, for [`Table::flags`].
pub(super) fn keywords() -> &'static Table {
    table()
}

fn table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let lists: [(&[&str], u32); 18] = [
            (HOLD, flag::HOLD),
            (SUPPORT, flag::SUPPORT),
            (CONVOY, flag::CONVOY),
            (MOVE_WORDS, flag::MOVE),
            (MOVE_MORE, flag::MOVE_MORE),
            (DISBAND, flag::DISBAND),
            (BUILD, flag::BUILD),
            (WAIVE, flag::WAIVE),
            (ARMY, flag::ARMY),
            (FLEET, flag::FLEET),
            (MOVE_FIRST, flag::MOVE_FIRST),
            (HOLD_FIRST, flag::HOLD_FIRST),
            (ARTICLES, flag::ARTICLE),
            (AT, flag::AT),
            (VIA, flag::VIA),
            (FROM, flag::FROM),
            (LABEL_WEAK, flag::LABEL),
            (LABEL_STRONG, flag::LABEL | flag::LABEL_STRONG),
        ];
        let mut words: std::collections::BTreeMap<&[u8], u32> = Default::default();
        let mut lengths = [0; 27 * 27];
        let mut letters = [0; 26];
        for (list, f) in lists {
            for w in list {
                *words.entry(w.as_bytes()).or_default() |= f;
                let b = w.as_bytes();
                let first = b.first().copied().unwrap_or(0);
                if let Some(l) = lengths.get_mut(pair_index(first, b.get(1))) {
                    *l |= 1 << w.len().min(31);
                }
                if let (true, Some(l)) = (b.len() == 1, letters.get_mut(letter_index(first))) {
                    *l |= f;
                }
            }
        }
        Table {
            words: ByteTable::new(words.into_iter().map(|(w, f)| (w.to_vec(), f))),
            letters,
            lengths,
        }
    })
}

/// The keyword bits of a word (any case, `.` and `'` ignored); 0 if none.
pub(super) fn flags(w: &str) -> u32 {
    let mut buf = [0u8; 16];
    let mut n = 0;
    for &b in w.as_bytes() {
        if b == b'.' || b == b'\'' {
            continue;
        }
        if n == buf.len() || !b.is_ascii() {
            return 0;
        }
        let Some(slot) = buf.get_mut(n) else {
            return 0;
        };
        *slot = b.to_ascii_lowercase();
        n += 1;
    }
    flags_lower(buf.get(..n).unwrap_or_default())
}

/// The keyword bits of a word already lower-case, without `.` and `'` (as
/// [`crate::map::names::normalize`] leaves one word); 0 if none. Inlined: most words
/// are told by a letter or by their first two letters and length; the rest are looked
/// up out of line.
#[inline]
pub(super) fn flags_lower(word: &[u8]) -> u32 {
    table().flags(word)
}

impl Table {
    /// [`flags_lower`], with the table at hand.
    #[inline]
    pub(super) fn flags(&self, word: &[u8]) -> u32 {
        let n = word.len();
        let Some(&first) = word.first() else {
            return 0;
        };
        if n > 16 {
            return 0;
        }
        if n == 1 && first.is_ascii_lowercase() {
            return self.letters.get(letter_index(first)).copied().unwrap_or(0);
        }
        if self
            .lengths
            .get(pair_index(first, word.get(1)))
            .is_none_or(|l| l & (1 << n) == 0)
        {
            return 0;
        }
        keyword_bits(self, word)
    }
}

/// The bits of a word in the keyword table.
#[inline(never)]
fn keyword_bits(t: &Table, word: &[u8]) -> u32 {
    t.words.get(word).copied().unwrap_or(0)
}

/// A keyword of any of the lists in `f` (bits of [`flag`]).
pub(super) fn kwf<'a>(f: u32) -> impl Fn(&'a str) -> Res<'a, &'a str> {
    move |i: &'a str| {
        let (rest, w) = word(i)?;
        if flags(w) & f != 0 {
            Ok((rest, w))
        } else {
            no(i)
        }
    }
}

pub(super) const HOLD: &[&str] = &[
    "h", "hold", "holds", "stand", "stands", "hld", "holding", "standing",
];
pub(super) const SUPPORT: &[&str] = &["s", "support", "supports", "sup", "supp", "supporting"];
pub(super) const CONVOY: &[&str] = &["c", "convoy", "convoys", "cvy", "convoying"];
pub(super) const MOVE_WORDS: &[&str] = &[
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
];
/// Move words that only continue another (`attack on`).
pub(super) const MOVE_MORE: &[&str] = &["on"];
pub(super) const DISBAND: &[&str] = &[
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
];
pub(super) const BUILD: &[&str] = &["b", "build", "builds", "built", "bld"];
pub(super) const WAIVE: &[&str] = &["waive", "waives", "waived", "wve"];
pub(super) const ARMY: &[&str] = &["a", "army", "amy"];
pub(super) const FLEET: &[&str] = &["f", "fleet", "flt"];
/// Words that put a move first: `Move army Vienna to Trieste`, `m vie-tri`.
pub(super) const MOVE_FIRST: &[&str] = &["m", "mv", "move", "r", "retreat"];
/// Words that put a hold first: `Hold A Vie`.
pub(super) const HOLD_FIRST: &[&str] = &["hold"];
/// `the army at Vienna`, `a fleet in Brest`.
pub(super) const ARTICLES: &[&str] = &["the", "a", "an"];
/// `army at Vienna`, `army in Vienna`.
pub(super) const AT: &[&str] = &["at", "in"];
pub(super) const VIA: &[&str] = &["via"];
pub(super) const FROM: &[&str] = &["from"];

/// Every order word, with what it means: the names a map must not give a place
/// (`map check`, KEYWORD_NAME).
pub(crate) const ORDER_WORDS: &[(&str, &[&str])] = &[
    ("hold", HOLD),
    ("support", SUPPORT),
    ("convoy", CONVOY),
    ("move", MOVE_WORDS),
    ("move", MOVE_MORE),
    ("disband", DISBAND),
    ("build", BUILD),
    ("waive", WAIVE),
    ("army", ARMY),
    ("fleet", FLEET),
    ("via convoy", VIA),
    ("via convoy", &["by"]),
    ("a filler word", ARTICLES),
    ("a filler word", AT),
    ("a filler word", FROM),
];

/// Every keyword list, with the word shown for it, for corrections and "did you mean".
pub(super) const KEYWORDS: &[(&[&str], &str)] = &[
    (HOLD, "hold"),
    (SUPPORT, "support"),
    (CONVOY, "convoy"),
    (MOVE_WORDS, "move"),
    (DISBAND, "disband"),
    (BUILD, "build"),
    (WAIVE, "waive"),
    (ARMY, "army"),
    (FLEET, "fleet"),
    (VIA, "via"),
];

/// Is the word any keyword of the grammar?
pub(super) fn is_any_keyword(w: &str) -> bool {
    flags(w) & flag::KEYWORD != 0
}

/// One move arrow: `-->`, `->`, `=>`, `→`, the dashes `–` and `—`, `-`, `>`.
fn arrow(i: &str) -> Res<'_, &str> {
    let b = i.as_bytes();
    let n = match b.first() {
        Some(b'-') => match (b.get(1), b.get(2)) {
            (Some(b'-'), Some(b'>')) => 3,
            (Some(b'>'), _) => 2,
            _ => 1,
        },
        Some(b'=') if b.get(1) == Some(&b'>') => 2,
        Some(b'>') => 1,
        Some(0xE2) if ["→", "–", "—"].iter().any(|a| i.starts_with(a)) => 3,
        _ => return no(i),
    };
    Ok((&i[n..], &i[..n]))
}

/// A move verb: arrows and move words in a row (`-`, `moves to`, `- >`, `attack on`),
/// with at most one arrow other than `>`, so that `A Lon - - Nwy` (a place left out)
/// is not read as a move. Returns whether the verb ended in an arrow symbol.
pub(super) fn move_verb(i: &str) -> Res<'_, bool> {
    let (mut i, _) = space0(i)?;
    let mut dashes = 0;
    let mut words = 0;
    let mut last_arrow = false;
    loop {
        let (s, _) = space0::<_, PErr>(i)?;
        if let Ok((r, a)) = arrow(s) {
            if a != ">" {
                if dashes == 1 {
                    break;
                }
                dashes += 1;
            }
            i = r;
            last_arrow = true;
            continue;
        }
        let want = if words + dashes > 0 {
            flag::MOVE | flag::MOVE_MORE
        } else {
            flag::MOVE
        };
        if let Ok((r, _)) = kwf(want)(s) {
            i = r;
            words += 1;
            last_arrow = false;
            continue;
        }
        break;
    }
    if dashes + words == 0 {
        return no(i);
    }
    Ok((i, last_arrow))
}

/// Words of section labels that are not orders (`Spring 1901`, `Retreats:`,
/// `Winter 1901 adjustments`). A label needs at least one of these...
const LABEL_STRONG: &[&str] = &[
    "spring",
    "summer",
    "fall",
    "autumn",
    "spr",
    "aut",
    "wtr",
    "winter",
    "movement",
    "movements",
    "moves",
    "retreat",
    "retreats",
    "adjustment",
    "adjustments",
    "builds",
    "orders",
    "results",
    "phase",
    "turn",
    "none",
    "nmr",
];
/// ...and may hold these besides.
const LABEL_WEAK: &[&str] = &[
    "of",
    "for",
    "the",
    "and",
    "no",
    "order",
    "result",
    "season",
    "year",
    "game",
    "diplomacy",
    "units",
    "unit",
    "new",
    "turn",
    "&",
];

/// A phase code: `S1901M`, `F1901R`, `W1901A`, or without its kind, `S1901`.
fn is_phase_code(w: &str) -> bool {
    let b = w.as_bytes();
    let [first, rest @ ..] = b else {
        return false;
    };
    let digits = match rest {
        [digits @ .., last] if last.is_ascii_alphabetic() => {
            if !matches!(last.to_ascii_lowercase(), b'm' | b'r' | b'a' | b'b') {
                return false;
            }
            digits
        }
        digits => digits,
    };
    (3..=4).contains(&digits.len())
        && matches!(first.to_ascii_lowercase(), b's' | b'f' | b'w' | b'a' | b'u')
        && digits.iter().all(u8::is_ascii_digit)
}

/// Is the word a label word; `Some(true)` if it is one that makes a label?
pub(super) fn label_word(w: &str) -> Option<bool> {
    let f = flags(w);
    if f & flag::LABEL_STRONG != 0
        || is_phase_code(w)
        || (w.len() >= 3 && w.len() <= 4 && w.bytes().all(|b| b.is_ascii_digit()))
    {
        Some(true)
    } else if f & flag::LABEL != 0
        || w == "&"
        || (w.len() == 2 && w.bytes().all(|b| b.is_ascii_digit()))
    {
        Some(false)
    } else {
        None
    }
}

/// Is the whole text a section label (`Spring 1901`, `== Fall 1901 Retreats ==`,
/// `S1901M`, `Orders:`, `(none)`): label words only, at least one of them strong.
pub(super) fn is_label(s: &str) -> bool {
    // Most orders begin with a unit letter (`A Par`): a word of one letter or digit
    // is no label word. (Words are split at every other ASCII character alike on any
    // text.)
    let b = s.as_bytes();
    let first = b
        .iter()
        .position(|&c| c.is_ascii_alphanumeric() || c == b'&' || !c.is_ascii());
    if let Some(i) = first {
        let one = |c: Option<&u8>| {
            c.is_none_or(|&c| c.is_ascii() && !(c.is_ascii_alphanumeric() || c == b'&'))
        };
        if b.get(i).is_some_and(u8::is_ascii_alphanumeric) && one(b.get(i + 1)) {
            return false;
        }
    }
    // On ASCII text, bytes split as characters do.
    if s.is_ascii() {
        label_words(s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '&')))
    } else {
        label_words(s.split(|c: char| !(c.is_alphanumeric() || c == '&')))
    }
}

/// Are `words` (empty ones skipped) label words only, at least one of them strong?
fn label_words<'a>(words: impl Iterator<Item = &'a str>) -> bool {
    let mut strong = false;
    for w in words.filter(|w| !w.is_empty()) {
        match label_word(w) {
            Some(s) => strong |= s,
            None => return false,
        }
    }
    strong
}

/// Result words a listing prints after an order, in parentheses: `(fail)`,
/// `(dislodged)`, `(bounce, dislodged)`. They are not part of the order.
const RESULT_WORDS: &[&str] = &[
    "fail",
    "fails",
    "failed",
    "failure",
    "success",
    "succeeds",
    "succeeded",
    "successful",
    "ok",
    "bounce",
    "bounced",
    "bounces",
    "cut",
    "void",
    "dislodged",
    "destroyed",
    "disbanded",
    "invalid",
    "illegal",
    "no",
    "convoy",
    "disrupted",
    "standoff",
    "resolved",
    "unresolved",
    "nso",
    "dislodge",
];

/// Is the text between parentheses only result words (`fail`, `bounce, dislodged`)?
/// One word of a result in parentheses (`fail`, `bounce`, …).
pub(super) fn is_result_word(w: &str) -> bool {
    RESULT_WORDS.iter().any(|k| w.eq_ignore_ascii_case(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_result_words() {
        assert!(is_label("Spring 1901"));
        assert!(is_label("== Fall 1901 Retreats =="));
        assert!(is_label("S1901M"));
        assert!(is_label("s1901") && is_label("W1901B") && is_label("f901r"));
        assert!(!is_label("S19011") && !is_label("S1901X") && !is_label("S19"));
        assert!(is_label("Winter 1901 (adjustments):"));
        assert!(!is_label("Build"));
        assert!(!is_label("A Par - Bur"));
        assert!(!is_label("the"));
        assert!(is_result_word("fail"));
        assert!(is_result_word("Bounce"));
        assert!(!is_result_word("nc"));
    }

    #[test]
    fn move_verbs() {
        assert_eq!(move_verb(" - Bur").unwrap().0, " Bur");
        assert_eq!(move_verb(" moves to Bur").unwrap().0, " Bur");
        assert_eq!(move_verb(" attack on Bur").unwrap().0, " Bur");
        assert_eq!(move_verb(" - > Bur").unwrap().0, " Bur");
        assert_eq!(move_verb(" - - Nwy").unwrap().0, " - Nwy");
        assert!(move_verb(" on Bur").is_err());
    }
}
