//! Name lookup: ids, full names and aliases of provinces, coasts and powers, all
//! normalized once when the index is built; corrections and "did you mean" by edit
//! distance.
//!
//! Besides the map's own names, the index derives:
//! - coast words: for a coast `nc` named `North Coast`, `nc`, `north coast`, `north`,
//!   `n`, `n c`, `n coast`, `ncs` (DAIDE) and, inside a slash or parentheses only,
//!   `northern`;
//! - power words: each power's id, name and adjective; its three-letter code (`eng`,
//!   DAIDE's power tokens) where that is unique among the powers; the historical names
//!   of the classic powers (`Austria-Hungary`, `Britain`, `Ottoman`); and its initial
//!   (`E`), kept apart because one letter is read only where punctuation or position
//!   tells it from a unit type (see `docs/ORDERS.md`).

use std::collections::HashMap;

use crate::map::{Loc, Map, Power, Prov};

/// Lowercase; drop `.` and `'`; `-`, `_` and runs of white space become one space.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        match c {
            '.' | '\'' | '’' => {}
            '-' | '_' => space = true,
            c if c.is_whitespace() => space = true,
            c => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.extend(c.to_lowercase());
            }
        }
    }
    out
}

/// The most characters of a user's text (a word, a name, an id) a message quotes whole.
pub const QUOTE_MAX: usize = 60;

/// User text to quote in a message: whole if it has at most [`QUOTE_MAX`] characters,
/// else its first `QUOTE_MAX - 1` and `…`, so that a message about a 15 MB word is not
/// 15 MB long (the source line a diagnostic shows is cut likewise). Every message that
/// quotes a token of an order, a map or an imported file passes it through this.
pub fn cut_quote(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(QUOTE_MAX) {
        None => std::borrow::Cow::Borrowed(s),
        Some(_) => {
            let end = s
                .char_indices()
                .nth(QUOTE_MAX - 1)
                .map_or(s.len(), |(i, _)| i);
            std::borrow::Cow::Owned(format!("{}…", s.get(..end).unwrap_or_default()))
        }
    }
}

/// A message as a person is shown it (the command line's standard error, batch answers,
/// the Python package's exceptions): invisible characters named (`<U+200F RIGHT-TO-LEFT
/// MARK>`) and every quoted piece of a line cut to 60 characters ([`cut_quotes`]),
/// wherever the message was made.
pub fn shown(message: &str) -> String {
    // Line ends and tabs lay the message out; a carriage return is the terminal's.
    let named = crate::yaml::name_invisibles_but(message, |c| matches!(c, '\n' | '\t' | '\r'));
    if !named.contains('`') {
        return named.into_owned();
    }
    // Line by line: a backtick of a source line quoted under a message (or one a
    // line holds alone) pairs with none of another line's.
    named
        .split_inclusive('\n')
        .map(|line| cut_quotes(line.to_string()))
        .collect()
}

/// A message with every piece of it between backticks (the user's text it quotes)
/// passed through [`cut_quote`]: `unknown province `xxx…`` (60 characters), however
/// long the word written. Used where orders' diagnostics and map findings are made.
pub fn cut_quotes(message: String) -> String {
    let long =
        |piece: &str| piece.len() > QUOTE_MAX && piece.char_indices().nth(QUOTE_MAX).is_some();
    if !message.split('`').skip(1).step_by(2).any(long) {
        return message;
    }
    let mut out = String::with_capacity(QUOTE_MAX * 8);
    for (k, piece) in message.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        if k % 2 == 1 {
            out.push_str(&cut_quote(piece));
        } else {
            out.push_str(piece);
        }
    }
    out
}

/// A finding's key path (`provinces.<id>.army`) with each part passed through
/// [`cut_quote`]: an id of 10 MB is not written whole in every finding about it.
pub fn cut_key(key: String) -> String {
    if key.len() <= QUOTE_MAX {
        return key;
    }
    key.split('.').map(cut_quote).collect::<Vec<_>>().join(".")
}

/// Normalize `s` as [`normalize`] does and pass the result to `f`, on the stack for
/// short ASCII text (the parser's hot path allocates nothing here).
pub fn with_normalized<R>(s: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; 64];
    if s.len() > buf.len() || !s.is_ascii() {
        return f(&normalize(s));
    }
    let mut n = 0;
    let mut space = false;
    for &b in s.as_bytes() {
        match b {
            b'.' | b'\'' => {}
            b'-' | b'_' => space = true,
            b if b.is_ascii_whitespace() => space = true,
            b => {
                // At most one byte out per byte in (a space is written only for a
                // separator that wrote nothing), so `n <= s.len() <= 64`; the
                // fallback is never taken.
                if space && n > 0 {
                    let Some(slot) = buf.get_mut(n) else {
                        return f(&normalize(s));
                    };
                    *slot = b' ';
                    n += 1;
                }
                space = false;
                let Some(slot) = buf.get_mut(n) else {
                    return f(&normalize(s));
                };
                *slot = b.to_ascii_lowercase();
                n += 1;
            }
        }
    }
    match std::str::from_utf8(buf.get(..n).unwrap_or_default()) {
        Ok(t) => f(t),
        Err(_) => f(&normalize(s)),
    }
}

/// FNV-1a: a fast hash for the short keys of the name tables.
#[derive(Default, Clone, Copy)]
pub struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fnv>>;

/// FNV-1a of a byte string, as [`Fnv`] computes it for one write.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A small read-only table from byte strings to values, for the parser's hot lookups
/// (a word's keyword bits, a name's locations): open addressing over a power-of-two
/// array, the keys kept in one buffer. A key of at most 8 bytes (most words and ids)
/// is held in its slot as a number, so its lookup is one multiply and one comparison,
/// with no hashing of bytes and no comparison of strings; a longer key is found by its
/// FNV-1a hash and one comparison.
#[derive(Debug, Clone)]
pub(crate) struct ByteTable<V> {
    slots: Vec<Slot>,
    /// Per entry: where its key is in `bytes`.
    keys: Vec<(u32, u32)>,
    bytes: Vec<u8>,
    values: Vec<V>,
}

/// A slot of a [`ByteTable`]: the key as a number (its bytes for a short key, else its
/// hash), its length plus one (0: an empty slot), and its index in `keys` and `values`.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    h: u64,
    tag: u32,
    i: u32,
}

/// The longest key held in its slot as a number.
const SHORT_KEY: usize = 8;

/// A key as a number: its bytes (little-endian, zero-padded) if it is short, else its
/// FNV-1a hash. With the key's length this tells short keys apart exactly.
#[inline]
fn key_number(key: &[u8]) -> u64 {
    if key.len() <= SHORT_KEY {
        key.iter().rev().fold(0, |h, &b| h << 8 | u64::from(b))
    } else {
        fnv(key)
    }
}

/// The number of a key of at most [`SHORT_KEY`] bytes, from the 8 bytes that begin
/// with it (what follows it is masked off); `None` for a longer key. A caller that has
/// 8 bytes at hand reads the key at once, without a loop over its bytes.
#[inline]
pub(crate) fn short_key(eight: [u8; 8], len: usize) -> Option<u64> {
    if len > SHORT_KEY {
        return None;
    }
    let mask = u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0);
    Some(u64::from_le_bytes(eight) & mask)
}

/// The first slot to probe for a key number (a multiplicative hash: its high bits
/// depend on every byte of a short key).
fn slot_of(h: u64, mask: usize) -> usize {
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
}

impl<V> ByteTable<V> {
    /// A table of the given entries (keys unique).
    pub fn new(entries: impl IntoIterator<Item = (Vec<u8>, V)>) -> Self {
        let mut t = ByteTable {
            slots: Vec::new(),
            keys: Vec::new(),
            bytes: Vec::new(),
            values: Vec::new(),
        };
        for (k, v) in entries {
            let at = t.bytes.len() as u32;
            t.bytes.extend_from_slice(&k);
            t.keys.push((at, k.len() as u32));
            t.values.push(v);
        }
        let size = (t.keys.len() * 2).next_power_of_two().max(8);
        t.slots = vec![Slot::default(); size];
        for i in 0..t.keys.len() {
            let Some(key) = t.key(i) else { continue };
            let (h, tag) = (key_number(key), key.len() as u32 + 1);
            let mask = size - 1;
            let mut at = slot_of(h, mask);
            while t.slots.get(at).is_some_and(|s| s.tag != 0) {
                at = (at + 1) & mask;
            }
            if let Some(slot) = t.slots.get_mut(at) {
                *slot = Slot {
                    h,
                    tag,
                    i: i as u32,
                };
            }
        }
        t
    }

    fn key(&self, i: usize) -> Option<&[u8]> {
        let &(at, len) = self.keys.get(i)?;
        self.bytes.get(at as usize..(at + len) as usize)
    }

    /// The value of `key`, if it is in the table. Inlined for a short key; a longer
    /// one is looked up out of line.
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<&V> {
        if key.len() > SHORT_KEY {
            return self.get_long(key);
        }
        self.get_short(key_number(key), key.len())
    }

    /// The value of a key of `len` bytes, at most [`SHORT_KEY`], given as its number
    /// (its bytes little-endian, zero-padded: [`short_key`]).
    #[inline]
    pub fn get_short(&self, h: u64, len: usize) -> Option<&V> {
        // A short key's number and length are the key itself.
        self.probe(h, len, |_| true)
    }

    /// [`ByteTable::get`] for a key longer than [`SHORT_KEY`].
    #[inline(never)]
    fn get_long(&self, key: &[u8]) -> Option<&V> {
        // A long key's number is a hash: the bytes are compared too.
        self.probe(key_number(key), key.len(), |i| self.key(i) == Some(key))
    }

    /// The value of the entry with key number `h`, a key of `len` bytes, for which
    /// `is_key` holds (given the entry's index), probing from the key's first slot.
    #[inline(always)]
    fn probe(&self, h: u64, len: usize, is_key: impl Fn(usize) -> bool) -> Option<&V> {
        let tag = len as u32 + 1;
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = slot_of(h, mask);
        loop {
            let s = *self.slots.get(at)?;
            if s.tag == 0 {
                return None;
            }
            if s.h == h && s.tag == tag && is_key(s.i as usize) {
                return self.values.get(s.i as usize);
            }
            at = (at + 1) & mask;
        }
    }
}

/// Other names of the classic powers, by the power's id: names from history and
/// the short forms players write. Used only for a map that has a power of that id.
const OTHER_POWER_NAMES: &[(&str, &[&str])] = &[
    (
        "austria",
        &[
            "austria hungary",
            "austro hungarian",
            "austrohungarian",
            "austria hungarian",
        ],
    ),
    ("england", &["britain", "great britain", "british", "uk"]),
    (
        "turkey",
        &["ottoman", "ottomans", "ottoman empire", "turk", "turks"],
    ),
];

/// A coast word and whether it may stand bare after a place (`Spa nc`), not only
/// after a slash or in parentheses (`Spa/northern`).
#[derive(Debug, Clone)]
struct CoastWord {
    id: String,
    bare: bool,
}

/// Every name a player may write, normalized, with what it means.
#[derive(Debug, Clone)]
pub struct NameIndex {
    places: FastMap<String, Vec<Loc>>,
    /// The names of `places` as the searches for close names go through them, each with
    /// its length and letters counted once ([`Letters`]), so that most names are passed
    /// over without a look at their text.
    fuzzy: Vec<(Letters, Vec<Loc>)>,
    /// Every name of `places`, and every word-prefix of a name of several words (`mid`,
    /// `mid atlantic` of `mid atlantic ocean`): its locations, and whether a longer name
    /// begins with it (and a space). A longest match walks forward with one lookup a
    /// word, and stops at the first text no longer name begins with.
    scan: ByteTable<(Vec<Loc>, bool)>,
    /// Coast words (`nc`, `north coast`, `north`) to coast ids of the map.
    coasts: FastMap<String, CoastWord>,
    powers: FastMap<String, Power>,
    /// `powers` as a table for the parser's lookups.
    power_table: ByteTable<Power>,
    /// The first word of every power word (`great` of `great britain`), to reject a
    /// word that begins no power's name with one lookup.
    power_heads: ByteTable<()>,
    /// The power heads of one letter, as bits of `a..=z` (`b'a'` is bit 0): the unit
    /// type words `a` and `f` are told from a power at once.
    power_head_letters: u32,
    /// One-letter initials (`e`: England), where the letter is unique among powers.
    initials: Vec<(char, Power)>,
    /// Every name and alias of every province (not ids), split into words, for names
    /// written short ([`NameIndex::short_places`]).
    short_names: Vec<(Box<[Box<str>]>, Loc)>,
    /// The sound key ([`sound_key`]) of every name and alias, to its provinces.
    sounds: FastMap<String, Vec<Loc>>,
    /// Longest name, in words.
    pub max_words: usize,
    /// Longest power name, in words (`Austria-Hungary`: 2).
    pub power_words: usize,
    /// This index's key in the memo of answers about unknown words ([`NameIndex::memo`]).
    memo_id: u64,
}

/// Answers about unknown words (close names, names written short, "did you mean"), per
/// thread, by index, question and word: each asks every name of the map, so a text that
/// repeats an unknown word (16 MB of `Powe` lines) asks once per distinct word, not once
/// per line. At most [`MEMO_MAX`] answers are kept (then the memo starts again).
type Memo = HashMap<(u64, u8, String), Box<dyn std::any::Any>>;

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(HashMap::new());
}

/// The most answers [`MEMO`] keeps per thread.
const MEMO_MAX: usize = 4096;

/// The next [`NameIndex::memo_id`].
static NEXT_MEMO_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Every name of every province (id, name, aliases), normalized, to its provinces.
fn place_names(map: &Map) -> FastMap<String, Vec<Loc>> {
    let mut places: FastMap<String, Vec<Loc>> = FastMap::default();
    let mut add = |name: &str, loc: Loc| {
        let v = places.entry(normalize(name)).or_default();
        if !v.contains(&loc) {
            v.push(loc);
        }
    };
    for p in map.provs() {
        let pr = map.province(p);
        add(&pr.id, p.into());
        add(&pr.name, p.into());
        for a in &pr.aliases {
            add(a, p.into());
        }
    }
    places
}

/// The most words of a name an order is read with (`Ctx::word_ends`): a longer name
/// is never matched word by word, so [`NameIndex::scan`] holds the word-prefixes of at
/// most this many words of it (a name of `n` words then costs `O(n)` bytes, not the
/// `O(n^2)` of all its prefixes).
pub const SCAN_WORDS: usize = 8;

/// [`NameIndex::scan`]'s table: every name, and every word-prefix of a longer one of
/// at most [`SCAN_WORDS`] words.
fn scan_table(places: &FastMap<String, Vec<Loc>>) -> ByteTable<(Vec<Loc>, bool)> {
    let mut scan: FastMap<Vec<u8>, (Vec<Loc>, bool)> = FastMap::default();
    for (name, locs) in places {
        scan.entry(name.as_bytes().into()).or_default().0 = locs.clone();
        for (at, _) in name.match_indices(' ').take(SCAN_WORDS) {
            let prefix = name.as_bytes().get(..at).unwrap_or_default();
            scan.entry(prefix.into()).or_default().1 = true;
        }
    }
    ByteTable::new(scan)
}

/// The coast words of the map: each coast's id, name, aliases, and the forms of its
/// name's first word (`north`, `northern`, `n`, `n c`, `n coast`, `ncs`).
fn coast_words(map: &Map) -> FastMap<String, CoastWord> {
    let mut coasts: FastMap<String, CoastWord> = FastMap::default();
    for c in &map.coasts {
        let mut put = |w: String, bare: bool| {
            coasts.entry(w).or_insert(CoastWord {
                id: c.id.clone(),
                bare,
            });
        };
        for (w, bare) in coast_forms(&c.id, &c.name, &c.aliases) {
            put(w, bare);
        }
    }
    coasts
}

/// The words a coast is written as, normalized, each with whether it may stand bare
/// after a place: its id, name, aliases, and the forms of its name's first word
/// (`north`, `northern` (not bare), `n`, `n c`, `n coast`, `ncs`).
pub fn coast_forms(id: &str, name: &str, aliases: &[String]) -> Vec<(String, bool)> {
    let mut out = vec![(normalize(id), true), (normalize(name), true)];
    out.extend(aliases.iter().map(|a| (normalize(a), true)));
    if let Some(first) = normalize(name).split(' ').next() {
        out.push((first.to_string(), true));
        out.push((format!("{first}ern"), false));
        if let Some(ch) = first.chars().next() {
            out.push((ch.to_string(), true));
            out.push((format!("{ch} c"), true));
            out.push((format!("{ch} coast"), true));
            out.push((format!("{ch}cs"), true));
        }
    }
    out
}

/// Every power word: id, name, adjective, the other names a power is known by, and
/// three-letter codes where unique.
fn power_words(map: &Map) -> FastMap<String, Power> {
    let mut powers = FastMap::default();
    for pw in map.power_ids() {
        let info = map.power(pw);
        for n in [&info.id, &info.name, &info.adjective] {
            powers.insert(normalize(n), pw);
        }
        for (id, others) in OTHER_POWER_NAMES {
            if normalize(&info.id) == *id {
                for o in *others {
                    powers.entry(normalize(o)).or_insert(pw);
                }
            }
        }
    }
    // Three-letter codes (`eng`, `aus`: DAIDE's power tokens), where unique.
    let code = |pw: Power| -> Option<String> {
        let n = normalize(&map.power(pw).name);
        (n.chars().take(3).filter(|c| c.is_alphabetic()).count() == 3)
            .then(|| n.chars().take(3).collect())
    };
    for pw in map.power_ids() {
        if let Some(c) = code(pw) {
            let unique = map
                .power_ids()
                .filter(|&q| q != pw)
                .all(|q| code(q).as_deref() != Some(c.as_str()));
            if unique {
                powers.entry(c).or_insert(pw);
            }
        }
    }
    powers
}

/// One-letter initials of the powers' names, where unique.
fn power_initials(map: &Map) -> Vec<(char, Power)> {
    let initial = |pw: Power| normalize(&map.power(pw).name).chars().next();
    map.power_ids()
        .filter_map(|pw| {
            let c = initial(pw)?;
            let unique = map
                .power_ids()
                .filter(|&q| q != pw)
                .all(|q| initial(q) != Some(c));
            unique.then_some((c, pw))
        })
        .collect()
}

/// Every name and alias of every province split into words, for names written short;
/// and their sound keys.
#[allow(clippy::type_complexity)]
fn short_and_sound_names(map: &Map) -> (Vec<(Box<[Box<str>]>, Loc)>, FastMap<String, Vec<Loc>>) {
    let mut short = Vec::new();
    let mut sounds: FastMap<String, Vec<Loc>> = FastMap::default();
    for p in map.provs() {
        let pr = map.province(p);
        for n in std::iter::once(&pr.name).chain(&pr.aliases) {
            let n = normalize(n);
            let words: Box<[Box<str>]> = n.split(' ').map(Box::from).collect();
            short.push((words, p.into()));
            let v = sounds.entry(sound_key(&n)).or_default();
            if !v.contains(&p.into()) {
                v.push(p.into());
            }
        }
    }
    (short, sounds)
}

/// The words of a name that may be written as their first letter when another word
/// follows (`N Sea`, `W Med`).
pub const COMPASS: &[&str] = &[
    "north", "south", "east", "west", "northern", "southern", "eastern", "western",
];

/// Is the written word `w` the name word `word` written short? Both normalized. The
/// word itself; a word of three letters or more that begins as `word` does and is
/// either a prefix of it (`Atl`, `Mid`, `Wes`, `Med`: a truncation) or ends as it does
/// with letters of it left out in between (`Nth`, `Nrth`, `Lpool`, `Lvpl`: a
/// contraction, which takes in the word with its vowels dropped); and, with `initial`
/// (the first word of several), the letter of a point of the compass (`N Sea`, `E Med`:
/// [`COMPASS`]).
pub fn abbreviates(w: &str, word: &str, initial: bool) -> bool {
    if w == word {
        return true;
    }
    let (mut wc, mut nc) = (w.chars(), word.chars());
    let (Some(first), Some(name_first)) = (wc.next(), nc.next()) else {
        return false;
    };
    if first != name_first || !first.is_alphabetic() {
        return false;
    }
    let n = w.chars().count();
    if n == 1 {
        return initial && COMPASS.contains(&word);
    }
    if n < 3 || n >= word.chars().count() {
        return false;
    }
    if word.starts_with(w) {
        return true;
    }
    // A contraction: the same last letter, and the letters between in order.
    if w.chars().last() != word.chars().last() {
        return false;
    }
    let mut rest = nc;
    wc.all(|c| rest.any(|d| d == c))
}

/// The short forms of one name word ([`NameIndex::short_forms`]).
fn word_forms(w: &str, initial: bool) -> Vec<String> {
    let c: Vec<char> = w.chars().collect();
    let mut out: Vec<String> = vec![w.to_string()];
    for k in 3..c.len() {
        out.push(c.iter().take(k).collect());
    }
    if let (Some(&first), Some(&last), Some(inner)) =
        (c.first(), c.last(), c.get(1..c.len().saturating_sub(1)))
    {
        if c.len() > 3 {
            for (i, &x) in inner.iter().enumerate() {
                out.push([first, x, last].iter().collect());
                for &y in inner.iter().skip(i + 1) {
                    out.push([first, x, y, last].iter().collect());
                }
            }
        }
        let consonants: String = std::iter::once(first)
            .chain(inner.iter().copied().filter(|c| !"aeiou".contains(*c)))
            .chain(std::iter::once(last))
            .collect();
        if consonants.len() < c.len() {
            out.push(consonants);
        }
    }
    if initial && COMPASS.contains(&w) {
        out.extend(c.first().map(|f| f.to_string()));
    }
    out.sort();
    out.dedup();
    out.retain(|a| abbreviates(a, w, initial));
    out
}

/// A name's sound key: its first letter, then the sound class of each consonant after
/// it (Soundex's classes: `bfpv`, `cgjkqsxz`, `dt`, `l`, `mn`, `r`), a class written
/// once where it repeats with no vowel between; vowels, `h`, `w` and `y` are left out,
/// and so are spaces and anything not a letter. `Bergendee` and `Burgundy` are both
/// `b6253`.
pub fn sound_key(norm: &str) -> String {
    let class = |c: char| match c {
        'b' | 'f' | 'p' | 'v' => Some('1'),
        'c' | 'g' | 'j' | 'k' | 'q' | 's' | 'x' | 'z' => Some('2'),
        'd' | 't' => Some('3'),
        'l' => Some('4'),
        'm' | 'n' => Some('5'),
        'r' => Some('6'),
        _ => None,
    };
    let mut letters = norm.chars().filter(|c| c.is_alphabetic());
    let mut key = String::new();
    let Some(first) = letters.next() else {
        return key;
    };
    key.push(first);
    let mut last = class(first);
    for c in letters {
        let k = class(c);
        if let Some(k) = k {
            if Some(k) != last {
                key.push(k);
            }
            last = Some(k);
        } else if !matches!(c, 'h' | 'w') {
            last = None;
        }
    }
    key
}

impl NameIndex {
    pub fn new(map: &Map) -> NameIndex {
        let places = place_names(map);
        let scan = scan_table(&places);
        let (short_names, sounds) = short_and_sound_names(map);
        let max_words = places
            .keys()
            .map(|k| k.split(' ').count())
            .max()
            .unwrap_or(1);
        let coasts = coast_words(map);
        let powers = power_words(map);
        let initials = power_initials(map);
        let power_words = powers
            .keys()
            .map(|k| k.split(' ').count())
            .max()
            .unwrap_or(1);
        let heads: std::collections::BTreeSet<&str> =
            powers.keys().filter_map(|k| k.split(' ').next()).collect();
        let power_head_letters = heads
            .iter()
            .filter_map(|h| match h.as_bytes() {
                &[b @ b'a'..=b'z'] => Some(1 << (b - b'a')),
                _ => None,
            })
            .fold(0, |bits, bit| bits | bit);
        let power_heads = ByteTable::new(heads.into_iter().map(|h| (h.as_bytes().to_vec(), ())));
        let power_table = ByteTable::new(powers.iter().map(|(k, &p)| (k.as_bytes().to_vec(), p)));
        NameIndex {
            fuzzy: places
                .iter()
                .map(|(name, locs)| (Letters::of(name), locs.clone()))
                .collect(),
            places,
            scan,
            coasts,
            powers,
            power_table,
            power_heads,
            power_head_letters,
            initials,
            short_names,
            sounds,
            max_words: max_words.max(1),
            power_words: power_words.max(1),
            memo_id: NEXT_MEMO_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The answer `f` gives to question `kind` about `word`, from this thread's memo when
    /// it was asked before ([`MEMO`]).
    fn memo<T: Clone + 'static>(&self, kind: u8, word: &str, f: impl FnOnce() -> T) -> T {
        let key = (self.memo_id, kind, word.to_string());
        let known = MEMO.with(|m| {
            m.try_borrow()
                .ok()
                .and_then(|m| m.get(&key).and_then(|v| v.downcast_ref::<T>().cloned()))
        });
        if let Some(v) = known {
            return v;
        }
        let v = f();
        MEMO.with(|m| {
            if let Ok(mut m) = m.try_borrow_mut() {
                if m.len() >= MEMO_MAX {
                    m.clear();
                }
                m.insert(key, Box::new(v.clone()));
            }
        });
        v
    }

    /// The locations a normalized name may mean (empty if none).
    pub fn place(&self, norm: &str) -> &[Loc] {
        self.places.get(norm).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// The locations a normalized name may mean (empty if none), and whether a longer
    /// name begins with it and a space (`north` of `north sea`).
    #[inline]
    pub fn scan(&self, norm: &[u8]) -> (&[Loc], bool) {
        self.scan
            .get(norm)
            .map_or((&[], false), |(locs, longer)| (locs.as_slice(), *longer))
    }

    /// [`NameIndex::scan`] of a name of `len` bytes (at most 8) given as its
    /// [`short_key`].
    #[inline]
    pub fn scan_short(&self, key: u64, len: usize) -> (&[Loc], bool) {
        self.scan
            .get_short(key, len)
            .map_or((&[], false), |(locs, longer)| (locs.as_slice(), *longer))
    }

    /// The provinces `norm` may be written short for (see `docs/ORDERS.md`, "Names
    /// written short"), sorted by id: a prefix of an id, name or alias of at least three
    /// letters (`Gasc`, `North Atl`), or the first words of a name or alias each
    /// written short by [`abbreviates`] (`Mid Atl`, `Nth Sea`, `N Sea`, `E Med`,
    /// `Lpool`). Empty for a text of fewer than three letters and for a text that is a
    /// name itself (a name is never another province's short form). One pass over the
    /// names: linear in their number. The caller rejects texts that are order words.
    pub fn short_places(&self, map: &Map, norm: &str) -> Vec<Loc> {
        self.memo(1, norm, || self.short_places_asked(map, norm))
    }

    fn short_places_asked(&self, map: &Map, norm: &str) -> Vec<Loc> {
        let mut out: Vec<Loc> = Vec::new();
        if norm.chars().filter(|c| c.is_alphanumeric()).count() < 3 || !self.place(norm).is_empty()
        {
            return out;
        }
        let add = |l: Loc, out: &mut Vec<Loc>| {
            let p: Loc = map.prov_of(l).into();
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for l in self.prefix_places(map, norm) {
            add(l, &mut out);
        }
        let written: Vec<&str> = norm.split(' ').collect();
        for (words, l) in &self.short_names {
            if written.len() <= words.len()
                && written
                    .iter()
                    .zip(words.iter())
                    .enumerate()
                    .all(|(k, (w, name))| abbreviates(w, name, k == 0 && written.len() > 1))
            {
                add(*l, &mut out);
            }
        }
        out.sort_by_key(|&l| map.loc_id(l));
        out
    }

    /// The short forms of province `prov`'s name and aliases by the rules of
    /// [`abbreviates`], for tests and documentation: each first word or words of a name,
    /// each word written in full, truncated (three letters or more), as a contraction
    /// of three or four letters or with its vowels dropped, or, for a point of the
    /// compass before another word, as its letter. (The rules read more contractions
    /// than these: [`abbreviates`].) Not filtered: some are order words or other
    /// names, which the parser reads as those.
    pub fn short_forms(&self, map: &Map, prov: crate::map::Prov) -> Vec<String> {
        let loc: Loc = prov.into();
        let mut out: std::collections::BTreeSet<String> = Default::default();
        for (words, l) in &self.short_names {
            if *l != loc || words.iter().any(|w| !w.chars().all(char::is_alphabetic)) {
                continue;
            }
            let mut forms: Vec<String> = vec![String::new()];
            for (k, w) in words.iter().enumerate() {
                let mut next = Vec::new();
                for f in &forms {
                    for a in word_forms(w, k == 0 && words.len() > 1) {
                        let form = if f.is_empty() {
                            a.clone()
                        } else {
                            format!("{f} {a}")
                        };
                        next.push(form);
                    }
                }
                // A lone compass letter is no form; it begins one.
                out.extend(
                    next.iter()
                        .filter(|f| f.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
                        .cloned(),
                );
                forms = next;
            }
        }
        let _ = map;
        out.into_iter().collect()
    }

    /// The provinces with an id, name or alias that begins with `norm` (at least three
    /// letters): the names [`NameIndex::short_places`] reads as truncated whole.
    pub fn prefix_places(&self, map: &Map, norm: &str) -> Vec<Loc> {
        self.memo(2, norm, || self.prefix_places_asked(map, norm))
    }

    fn prefix_places_asked(&self, map: &Map, norm: &str) -> Vec<Loc> {
        let mut out: Vec<Loc> = Vec::new();
        if norm.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
            return out;
        }
        for (name, locs) in &self.places {
            if name.starts_with(norm) {
                for &l in locs {
                    let p: Loc = map.prov_of(l).into();
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    /// The provinces with a name or alias that sounds like `norm` (the same
    /// [`sound_key`]: `Bergendee` and `Burgundy`), for a misspelling no name is close
    /// to by edit distance. Empty for a text of fewer than five letters, or whose key
    /// has fewer than three consonant sounds.
    pub fn sounds_like(&self, map: &Map, norm: &str) -> Vec<Loc> {
        if norm.chars().filter(|c| c.is_alphanumeric()).count() < 5 {
            return vec![];
        }
        let key = sound_key(norm);
        if key.len() < 4 {
            return vec![];
        }
        let mut out: Vec<Loc> = Vec::new();
        for &l in self.sounds.get(&key).map(Vec::as_slice).unwrap_or_default() {
            let p: Loc = map.prov_of(l).into();
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out.sort_by_key(|&l| map.loc_id(l));
        out
    }

    /// The coast id a normalized coast word means.
    pub fn coast(&self, norm: &str) -> Option<&str> {
        self.coasts.get(norm).map(|c| c.id.as_str())
    }

    /// The coast id a normalized coast word means when written bare after a place
    /// (`Spa nc`, `Spain north coast`): not a single letter, not `northern`.
    pub fn coast_bare(&self, norm: &str) -> Option<&str> {
        self.coasts
            .get(norm)
            .filter(|c| c.bare && norm.len() > 1)
            .map(|c| c.id.as_str())
    }

    /// The power a normalized name, adjective, three-letter code or historical name
    /// means.
    pub fn power(&self, norm: &str) -> Option<Power> {
        self.power_table.get(norm.as_bytes()).copied()
    }

    /// May a power's name begin with this normalized word?
    #[inline]
    pub fn power_head(&self, norm: &str) -> bool {
        self.power_head_bytes(norm.as_bytes())
    }

    /// [`NameIndex::power_head`] of a name's bytes.
    #[inline]
    pub fn power_head_bytes(&self, norm: &[u8]) -> bool {
        self.power_heads.get(norm).is_some()
    }

    /// [`NameIndex::power_head`] of a word of `len` bytes (at most 8) given as its
    /// [`short_key`].
    #[inline]
    pub fn power_head_short(&self, key: u64, len: usize) -> bool {
        self.power_heads.get_short(key, len).is_some()
    }

    /// [`NameIndex::power_head`] of a word of one byte.
    #[inline]
    pub fn power_head_letter(&self, b: u8) -> bool {
        match b.checked_sub(b'a') {
            Some(i @ 0..26) => self.power_head_letters >> i & 1 != 0,
            _ => self.power_heads.get_short(u64::from(b), 1).is_some(),
        }
    }

    /// The power whose initial is the letter `c` (any case), if the letter is unique.
    pub fn initial(&self, c: char) -> Option<Power> {
        let c = c.to_ascii_lowercase();
        self.initials.iter().find(|(i, _)| *i == c).map(|&(_, p)| p)
    }

    /// Provinces with a name or alias close enough to `norm` to be a misspelling of it
    /// (see [`correction_limit`]), one entry per province with its smallest distance,
    /// nearest first. Empty for words too short to correct.
    pub fn close_places(&self, map: &Map, norm: &str) -> Vec<(Loc, usize)> {
        self.memo(3, norm, || self.close_places_asked(map, norm))
    }

    fn close_places_asked(&self, map: &Map, norm: &str) -> Vec<(Loc, usize)> {
        let limit = correction_limit(norm);
        let mut out: Vec<(Loc, usize)> = Vec::new();
        if limit == 0 {
            return out;
        }
        let word = Letters::of(norm);
        for (name, locs) in &self.fuzzy {
            let Some(d) = word.distance_within(name, limit, true) else {
                continue;
            };
            for &l in locs {
                let p: Loc = map.prov_of(l).into();
                match out.iter_mut().find(|(q, _)| *q == p) {
                    Some(e) => e.1 = e.1.min(d),
                    None => out.push((p, d)),
                }
            }
        }
        out.sort_by_key(|&(l, d)| (d, map.loc_id(l)));
        out
    }

    /// Provinces with a name or alias of four letters or more one edit from `norm`
    /// (`spain` for `sain`): the misspellings a name written short may also be.
    pub fn one_edit_from(&self, map: &Map, norm: &str) -> Vec<Loc> {
        self.memo(4, norm, || self.one_edit_from_asked(map, norm))
    }

    fn one_edit_from_asked(&self, map: &Map, norm: &str) -> Vec<Loc> {
        let mut out: Vec<Loc> = Vec::new();
        let word = Letters::of(norm);
        for (name, locs) in &self.fuzzy {
            if name.text.len() < 4 {
                continue;
            }
            if word.distance_within(name, 1, true) == Some(1) {
                for &l in locs {
                    let p: Loc = map.prov_of(l).into();
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        out.sort_by_key(|&l| map.loc_id(l));
        out
    }

    /// Powers with a name, adjective or other name close enough to `norm` to be a
    /// misspelling of it, nearest first.
    pub fn close_powers(&self, norm: &str) -> Vec<Power> {
        self.memo(5, norm, || self.close_powers_asked(norm))
    }

    fn close_powers_asked(&self, norm: &str) -> Vec<Power> {
        let limit = correction_limit(norm);
        let mut out: Vec<(Power, usize)> = Vec::new();
        if limit == 0 {
            return vec![];
        }
        for (name, &p) in &self.powers {
            let Some(d) = distance_within(norm, name, limit, true) else {
                continue;
            };
            match out.iter_mut().find(|(q, _)| *q == p) {
                Some(e) => e.1 = e.1.min(d),
                None => out.push((p, d)),
            }
        }
        out.sort_by_key(|&(p, d)| (d, p));
        out.into_iter().map(|(p, _)| p).collect()
    }

    /// The closest known place name to `word`, if close enough to be a likely typo.
    pub fn suggest(&self, map: &Map, word: &str) -> Option<String> {
        self.memo(6, word, || self.suggest_asked(map, word))
    }

    fn suggest_asked(&self, map: &Map, word: &str) -> Option<String> {
        let w = normalize(word);
        if w.is_empty() {
            return None;
        }
        let word = Letters::of(&w);
        let limit = (word.chars / 3).clamp(1, 3);
        // Every province at the nearest distance: `Bu` is as near Budapest, Bulgaria
        // and Burgundy, and naming one of them would mislead.
        let mut best: Option<usize> = None;
        let mut nearest: Vec<Prov> = Vec::new();
        for (name, locs) in &self.fuzzy {
            let (Some(d), Some(&loc)) = (word.distance_within(name, limit, false), locs.first())
            else {
                continue;
            };
            let p = map.prov_of(loc);
            match best {
                Some(b) if d > b => continue,
                Some(b) if d == b => {}
                _ => {
                    best = Some(d);
                    nearest.clear();
                }
            }
            if !nearest.contains(&p) {
                nearest.push(p);
            }
        }
        nearest.sort_by(|a, b| map.province(*a).name.cmp(&map.province(*b).name));
        const MOST: usize = 6;
        let named: Vec<String> = nearest
            .iter()
            .take(MOST)
            .map(|&p| format!("`{}` ({})", map.province(p).name, map.province(p).id))
            .collect();
        match named.as_slice() {
            [] => None,
            [one] => Some(format!("did you mean {one}?")),
            _ => Some(format!(
                "did you mean one of {}{}?",
                named.join(", "),
                if nearest.len() > MOST { ", …" } else { "" }
            )),
        }
    }
}

/// How many edits a misspelling of a word of this (normalized) length may have to be
/// corrected: none up to 3 letters (`Ber` and `Bre` are both names), 1 for 4-5, 2 for
/// 6-9, 3 beyond.
pub fn correction_limit(norm: &str) -> usize {
    match norm.chars().filter(|c| c.is_alphanumeric()).count() {
        0..=3 => 0,
        4..=5 => 1,
        6..=9 => 2,
        _ => 3,
    }
}

/// The longest word (in bytes, normalized) that is compared with names for a
/// correction or a "did you mean": no name is this long, and longer words cost time.
pub const MAX_CORRECTED_WORD: usize = 64;

/// The edit distance of `a` and `b` ([`edit_distance`], or [`levenshtein`] with
/// `swaps: false`) if it can be at most `limit`: `None` at once when their lengths differ
/// by more, or when either is longer than [`MAX_CORRECTED_WORD`].
pub fn distance_within(a: &str, b: &str, limit: usize, swaps: bool) -> Option<usize> {
    Letters::of(a).distance_within(&Letters::of(b), limit, swaps)
}

/// A word with its length in characters and its letters counted (a bag of letters,
/// in 32 bins: `a`–`z` each in its own, any other character by its code), for
/// [`Letters::distance_within`]: made once for each name of a map and once for the word
/// asked about, so that comparing the two costs 32 steps before any edit distance.
#[derive(Debug, Clone)]
struct Letters {
    text: Box<str>,
    chars: usize,
    bins: [u8; 32],
}

impl Letters {
    fn of(text: &str) -> Letters {
        let mut bins = [0u8; 32];
        let mut chars = 0;
        for c in text.chars() {
            chars += 1;
            let bin = match c {
                'a'..='z' => c as usize - 'a' as usize,
                _ => 26 + c as usize % 6,
            };
            if let Some(b) = bins.get_mut(bin) {
                *b = b.saturating_add(1);
            }
        }
        Letters {
            text: text.into(),
            chars,
            bins,
        }
    }

    /// [`distance_within`] of the two words. The bag distance of the bins (the larger
    /// of the letters of one word not matched in the other, either way) is at most the
    /// bag distance of the letters, which no edit changes by more than one: a name whose
    /// bins differ by more than `limit` is passed over without the edit distance's
    /// table. (A bin that holds more than 255 of a word's characters is past
    /// [`MAX_CORRECTED_WORD`], so never compared.)
    fn distance_within(&self, other: &Letters, limit: usize, swaps: bool) -> Option<usize> {
        let (a, b) = (&*self.text, &*other.text);
        if a.len() > MAX_CORRECTED_WORD || b.len() > MAX_CORRECTED_WORD {
            return None;
        }
        if self.chars.abs_diff(other.chars) > limit {
            return None;
        }
        let (mut more, mut fewer) = (0usize, 0usize);
        for (x, y) in self.bins.iter().zip(other.bins.iter()) {
            more += usize::from(x.saturating_sub(*y));
            fewer += usize::from(y.saturating_sub(*x));
        }
        if more.max(fewer) > limit {
            return None;
        }
        let d = if swaps {
            edit_distance(a, b)
        } else {
            levenshtein(a, b)
        };
        (d <= limit).then_some(d)
    }
}

/// Edit distance (insert, delete, substitute), on chars.
// `prev` and `cur` have `b.len() + 1` entries and `j < b.len()`: every index is in
// range by the loop bounds, whatever the text.
#[allow(clippy::indexing_slicing)]
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Edit distance where swapping two neighbouring letters counts as one edit (optimal
/// string alignment): `Marsielles` is one edit from `Marseilles`.
// Every index is bounded by the loops: `i <= a.len()`, `j <= b.len()`, the stack
// rows have MAX > len entries (checked above them), and `d` has
// `(a.len() + 1) * (b.len() + 1)` entries; `i - 2`, `j - 2` only under `i, j > 1`.
#[allow(clippy::indexing_slicing)]
pub fn edit_distance(a: &str, b: &str) -> usize {
    const MAX: usize = 32;
    if a.is_ascii() && b.is_ascii() && a.len() < MAX && b.len() < MAX {
        // Three rows on the stack: the one before the previous, the previous, this one.
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let mut rows = [[0usize; MAX]; 3];
        for (j, x) in rows[0].iter_mut().take(b.len() + 1).enumerate() {
            *x = j;
        }
        for i in 1..=a.len() {
            let (cur, prev, pp) = (i % 3, (i + 2) % 3, (i + 1) % 3);
            rows[cur][0] = i;
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (rows[prev][j] + 1)
                    .min(rows[cur][j - 1] + 1)
                    .min(rows[prev][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(rows[pp][j - 2] + 1);
                }
                rows[cur][j] = v;
            }
        }
        return rows[a.len() % 3][b.len()];
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, x) in d.iter_mut().take(w).enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_punctuation_and_case() {
        assert_eq!(normalize("St. Petersburg"), "st petersburg");
        assert_eq!(normalize("Mid-Atlantic  Ocean"), "mid atlantic ocean");
        assert_eq!(normalize("  LON "), "lon");
    }

    #[test]
    fn edit_distances() {
        assert_eq!(levenshtein("burgandi", "burgundy"), 2);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("kiel", "kiel"), 0);
        assert_eq!(edit_distance("marsielles", "marseilles"), 1);
        assert_eq!(edit_distance("burgandi", "burgundy"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("ca", "abc"), 3);
        assert_eq!(edit_distance("hodl", "hold"), 1);
        assert_eq!(edit_distance("kiel", "kiel"), 0);
        assert_eq!(edit_distance("münchen", "munchen"), 1);
    }

    #[test]
    fn short_keys_are_key_numbers() {
        for name in ["", "a", "par", "gulf of", "holland!", "st petersburg"] {
            let mut eight = [b'x'; 8];
            for (e, &b) in eight.iter_mut().zip(name.as_bytes()) {
                *e = b;
            }
            let key = short_key(eight, name.len());
            let want = (name.len() <= SHORT_KEY).then(|| key_number(name.as_bytes()));
            assert_eq!(key, want, "`{name}`");
        }
        let map = Map::standard();
        let n = map.names();
        for name in ["par", "gulf of", "north", "mao"] {
            let key = key_number(name.as_bytes());
            assert_eq!(n.scan_short(key, name.len()), n.scan(name.as_bytes()));
        }
        assert!(n.power_head_short(key_number(b"great"), 5));
        for b in 0..=255u8 {
            let word = [b];
            assert_eq!(n.power_head_letter(b), n.power_head_bytes(&word), "{b}");
        }
    }

    #[test]
    fn long_quotes_are_cut() {
        assert_eq!(cut_quote("bur"), "bur");
        let sixty = "é".repeat(QUOTE_MAX);
        assert_eq!(cut_quote(&sixty), sixty.as_str());
        let long = "x".repeat(15_000_000);
        let cut = cut_quote(&long);
        assert_eq!(cut.chars().count(), QUOTE_MAX);
        assert!(cut.ends_with("x…"));
        let message = format!("unknown province `{long}`: did you mean `bur`?");
        assert_eq!(
            cut_quotes(message),
            format!(
                "unknown province `{}…`: did you mean `bur`?",
                "x".repeat(59)
            )
        );
        let short = "read `Burgandy` as `Burgundy` (bur)".to_string();
        assert_eq!(cut_quotes(short.clone()), short);
    }

    #[test]
    fn the_scan_table_of_a_long_name_is_linear() {
        // A name of 5,000 words: its first 8 word-prefixes and itself, not 5,000
        // prefixes of 7.5 MB in all.
        let name = vec!["ab"; 5000].join(" ");
        let mut places: FastMap<String, Vec<Loc>> = FastMap::default();
        places.insert(name.clone(), vec![Loc(0)]);
        places.insert("ab ab cd".into(), vec![Loc(1)]);
        let t = scan_table(&places);
        assert_eq!(t.keys.len(), SCAN_WORDS + 2);
        assert!(t.bytes.len() < 2 * name.len(), "{} bytes", t.bytes.len());
        assert_eq!(t.get(b"ab ab cd"), Some(&(vec![Loc(1)], false)));
        assert_eq!(t.get(b"ab ab"), Some(&(vec![], true)));
        let eight = ["ab"; SCAN_WORDS].join(" ");
        assert_eq!(t.get(eight.as_bytes()), Some(&(vec![], true)));
        let nine = ["ab"; SCAN_WORDS + 1].join(" ");
        assert_eq!(t.get(nine.as_bytes()), None);
        assert_eq!(t.get(name.as_bytes()), Some(&(vec![Loc(0)], false)));
    }

    #[test]
    fn power_words_and_initials() {
        let map = Map::standard();
        let n = map.names();
        let id = |w: &str| n.power(w).map(|p| map.power(p).id.clone());
        assert_eq!(id("eng").as_deref(), Some("england"));
        assert_eq!(id("austria hungary").as_deref(), Some("austria"));
        assert_eq!(id("great britain").as_deref(), Some("england"));
        assert_eq!(id("ottoman").as_deref(), Some("turkey"));
        assert_eq!(
            n.initial('R').map(|p| map.power(p).id.clone()).as_deref(),
            Some("russia")
        );
        assert_eq!(n.coast("northern"), Some("nc"));
        assert_eq!(n.coast_bare("northern"), None);
        assert_eq!(n.coast_bare("ncs"), Some("nc"));
    }

    #[test]
    fn corrections_need_one_close_province() {
        let map = Map::standard();
        let n = map.names();
        let ids = |w: &str| -> Vec<String> {
            n.close_places(&map, w)
                .into_iter()
                .map(|(l, _)| map.loc_id(l))
                .collect()
        };
        assert_eq!(ids("burgandi"), ["bur"]);
        assert_eq!(ids("marsielles"), ["mar"]);
        assert!(ids("bre").is_empty(), "three letters are never corrected");
        assert_eq!(ids("pars").len(), 2, "Paris or Marseilles (`mars`)");
    }
}
