//! Reading YAML safely: every map, position, game and case file goes through
//! [`from_str`], which first runs [`guard`] over the text.
//!
//! serde_yaml follows anchors and aliases (`&big` … `*big`), so a small file can name a
//! large value thousands of times, and it loads every event of a document before any
//! check, so a deeply nested file costs time before anything can refuse it, and a dense
//! one (`[a,a,a,…]`) memory: [`read`] streams a text too dense to be held whole. None of our
//! schemas needs an alias or more than a few levels, so [`guard`] refuses both with the
//! line and column, in one linear pass over the text, before serde sees it.
//!
//! The scan knows what can hide an `&`, a `*` or a bracket: comments, quoted scalars
//! (also over several lines), block scalars (`text: |`) and plain scalars (an indicator
//! counts only where a node starts: after `: `, `- `, `? `, `[`, `{`, `,` or at the start
//! of a line).

use serde::de::DeserializeOwned;

/// The deepest nesting a file may have: block levels (by indentation and `- `) plus
/// open flow collections (`[`, `{`).
pub const MAX_DEPTH: usize = 64;

/// Why [`guard`] refused a text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct GuardError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A YAML text that could not be read: refused by [`guard`], or by the reader.
#[derive(Debug, thiserror::Error)]
pub enum YamlError {
    #[error("{0}")]
    Guard(#[from] GuardError),
    /// A value the reader quotes (`invalid type: string "…"`) is cut to
    /// [`QUOTED_CHARS`] characters ([`capped`]): a file of the wrong kind (a link to
    /// `/etc/passwd` read as a drawing) is not shown.
    #[error("{}", capped(&.0.to_string()))]
    Serde(#[from] serde_yaml::Error),
    /// From the streaming reader, which reads the texts too dense for serde_yaml (see
    /// [`Guarded::whole`]): written as serde_yaml writes its errors, the place last.
    #[error("{}{}", capped(message), location.map(|(l, c)| format!(" at line {l} column {c}")).unwrap_or_default())]
    Stream {
        message: String,
        location: Option<(usize, usize)>,
    },
}

/// The most characters of a value from the file an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// `message` with every quoted run (`"…"`, as serde writes a string value, or `` `…` ``,
/// as it writes a key) cut to [`QUOTED_CHARS`] characters and `…`: an error about a
/// file of the wrong kind quotes its first characters at most, never its text.
pub fn capped(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' && c != '`' {
            continue;
        }
        let close = c;
        let mut kept = 0;
        let mut escaped = false;
        let mut cut = false;
        for d in chars.by_ref() {
            let end = d == close && !escaped;
            escaped = close == '"' && d == '\\' && !escaped;
            if end {
                if cut {
                    out.push('…');
                }
                out.push(d);
                break;
            }
            if kept < QUOTED_CHARS {
                out.push(d);
                kept += 1;
            } else {
                cut = true;
            }
        }
    }
    out
}

/// When `e` says the whole text is not the mapping a `root` file is (serde's
/// `invalid type: string "…", expected struct ROOT`): what the text is instead (`a
/// string`, `a sequence`, …), for an error that says the file is not of its kind
/// without quoting it.
pub fn wrong_kind(e: &YamlError, root: &str) -> Option<String> {
    let msg = e.to_string();
    let rest = msg.strip_prefix("invalid type: ")?;
    if !msg.contains(&format!("expected struct {root}")) {
        return None;
    }
    let word = rest.split([' ', ',']).next().unwrap_or("value");
    Some(match word {
        "integer" | "unit" => format!("an {}", if word == "unit" { "empty value" } else { word }),
        w => format!("a {w}"),
    })
}

impl YamlError {
    /// 1-based line and column, where known.
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            YamlError::Guard(g) => Some((g.line, g.column)),
            YamlError::Serde(e) => e.location().map(|l| (l.line(), l.column())),
            YamlError::Stream { location, .. } => *location,
        }
    }

    /// `line L, column C: message` (the message without the place the readers append
    /// to it), or the message alone where no place is known.
    pub fn placed(&self) -> String {
        match self {
            YamlError::Guard(g) => g.to_string(),
            YamlError::Serde(_) | YamlError::Stream { .. } => {
                let msg = self.to_string();
                let msg = match msg.find(" at line ") {
                    Some(i) => msg.get(..i).unwrap_or(&msg).to_string(),
                    None => msg,
                };
                match self.location() {
                    Some((line, column)) => format!("line {line}, column {column}: {msg}"),
                    None => msg,
                }
            }
        }
    }
}

/// [`guard`], then deserialize.
pub fn from_str<T: DeserializeOwned>(src: &str) -> Result<T, YamlError> {
    let g = guard(src)?;
    read(src, g)
}

/// What [`guard`] found in a text it let through: how many values it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guarded {
    values: usize,
    len: usize,
}

/// serde_yaml reads a text whole while it holds at most this many values, and one more
/// per [`WHOLE_BYTES_PER_VALUE`] bytes.
pub const WHOLE_BASE_VALUES: usize = 50_000;

/// See [`WHOLE_BASE_VALUES`].
pub const WHOLE_BYTES_PER_VALUE: usize = 12;

impl Guarded {
    /// Whether serde_yaml may read the text whole. It holds every event of a document
    /// while it reads it, up to about 200 bytes a value (an event is about 100 bytes, in
    /// a vector that doubles as it grows), so a text of more values than one per 12 bytes
    /// would take more than 20 times its size (the bound of `docs/CLI.md`, "Bounds").
    /// Files arbiter writes hold one value per 12 to 25 bytes; a denser text is read by
    /// the streaming reader, which holds only what it has made.
    pub fn whole(&self) -> bool {
        self.values <= WHOLE_BASE_VALUES.saturating_add(self.len / WHOLE_BYTES_PER_VALUE)
    }
}

/// Deserialize a text [`guard`] let through: whole by serde_yaml, or, when it is too
/// dense for that ([`Guarded::whole`]), by the streaming reader.
pub fn read<T: DeserializeOwned>(src: &str, g: Guarded) -> Result<T, YamlError> {
    if g.whole() {
        Ok(serde_yaml::from_str(src)?)
    } else {
        streamed(src)
    }
}

/// Deserialize by serde-saphyr, which reads events as it goes: set to read as serde_yaml
/// does (booleans, numbers, nulls read as strings, `<<` and keys given twice left to the
/// type), without its own budget (the guard has run). Where the two differ: it reads a
/// quoted number where a number goes (`saved: {france: '3'}`, which serde_yaml refuses)
/// and a tab before a key, and its messages are worded its own way. Public for the fuzz
/// target `yaml_stream`; every door reads through [`read`].
pub fn streamed<T: DeserializeOwned>(src: &str) -> Result<T, YamlError> {
    use serde_saphyr::options::{MergeKeyPolicy, NonFiniteFloatPolicy};
    let options = serde_saphyr::options! {
        budget: None,
        strict_booleans: true,
        merge_keys: MergeKeyPolicy::AsOrdinary,
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::PassThrough,
        leading_zero_numbers_as_strings: true,
        underscored_numbers_as_strings: true,
        null_as_string: true,
        non_finite_float_policy: NonFiniteFloatPolicy::PassThrough,
        with_snippet: false,
    };
    serde_saphyr::from_str_with_options(src, options).map_err(|e| {
        let location = e.location().map(|l| {
            let n = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
            (n(l.line()), n(l.column()))
        });
        // Its message ends with the place (` at line L, column C`), given apart here.
        let mut message = e.without_snippet().to_string();
        if let Some(i) = message.rfind(" at line ").filter(|_| location.is_some()) {
            message.truncate(i);
        }
        YamlError::Stream { message, location }
    })
}

/// Files from this size on are read in pieces by [`from_str_in_pieces`].
pub const PIECES_FROM_BYTES: usize = 64 * 1024;

/// How many items of a list one piece holds.
const ITEMS_PER_PIECE: usize = 32;

/// [`from_str`], reading the block list under the top-level `key` (a map's provinces)
/// in pieces of a few items, then `put`ting the items into the rest. serde_yaml holds
/// every event of a document while it reads it (about 100 bytes each, in a vector that
/// doubles as it grows): a map of a few hundred provinces each next to hundreds of
/// others took over 60 times its size, read whole. The value is the one the whole text
/// gives: a text smaller than [`PIECES_FROM_BYTES`], not of that shape, or of which a
/// piece or the rest cannot be read on its own is read whole by [`read`] (so an error
/// is the whole text's, with its place).
pub fn from_str_in_pieces<T: DeserializeOwned, I: DeserializeOwned>(
    src: &str,
    key: &str,
    put: impl FnOnce(&mut T, Vec<I>),
) -> Result<T, YamlError> {
    let g = guard(src)?;
    read_with_pieces(src, g, key, put)
}

/// [`from_str_in_pieces`] for a text [`guard`] let through.
pub fn read_with_pieces<T: DeserializeOwned, I: DeserializeOwned>(
    src: &str,
    g: Guarded,
    key: &str,
    put: impl FnOnce(&mut T, Vec<I>),
) -> Result<T, YamlError> {
    if src.len() >= PIECES_FROM_BYTES {
        if let Some(v) = read_in_pieces(src, key, put) {
            return Ok(v);
        }
    }
    read(src, g)
}

/// The text read in pieces (see [`from_str_in_pieces`], without its fallback): `None`
/// when it is not of that shape or a part cannot be read. Each part is guarded and read
/// by [`read`], so a dense part is streamed.
pub fn read_in_pieces<T: DeserializeOwned, I: DeserializeOwned>(
    src: &str,
    key: &str,
    put: impl FnOnce(&mut T, Vec<I>),
) -> Option<T> {
    let cut = Cut::new(src, key)?;
    let rest = cut.rest();
    let mut rest: T = read(&rest, guard(&rest).ok()?).ok()?;
    let mut items = Vec::with_capacity(cut.items.len());
    for piece in cut.pieces() {
        items.extend(read::<Vec<I>>(&piece, guard(&piece).ok()?).ok()?);
    }
    put(&mut rest, items);
    Some(rest)
}

/// A text whose top-level `key` holds a block list (`key:` alone on its line, then
/// items `- ` at one indentation), cut at its items.
struct Cut<'a> {
    /// The text's lines, each with its end.
    lines: Vec<&'a str>,
    /// The line of `key:`.
    key_line: usize,
    /// The first line of each item.
    items: Vec<usize>,
    /// The line after the list's last line.
    end: usize,
}

impl<'a> Cut<'a> {
    fn new(src: &'a str, key: &str) -> Option<Cut<'a>> {
        let lines: Vec<&str> = src.split_inclusive('\n').collect();
        let quiet = |l: &str| {
            let t = l.trim();
            t.is_empty() || t.starts_with('#')
        };
        let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
        // A second document, or the end of one, changes what a whole reading gives.
        if lines
            .iter()
            .skip(1)
            .any(|l| l.starts_with("---") || l.starts_with("..."))
        {
            return None;
        }
        let key_line = lines.iter().position(|l| {
            l.strip_prefix(key)
                .and_then(|r| r.strip_prefix(':'))
                .is_some_and(|r| {
                    let r = r.trim();
                    r.is_empty() || r.starts_with('#')
                })
        })?;
        let first =
            (key_line + 1..lines.len()).find(|&i| lines.get(i).is_some_and(|l| !quiet(l)))?;
        let k = indent(lines.get(first)?);
        let starts_item = |l: &str| {
            indent(l) == k
                && l.get(k..)
                    .is_some_and(|t| t.starts_with("- ") || t.trim_end() == "-")
        };
        let mut items = Vec::new();
        let mut end = first;
        for (i, l) in lines.iter().enumerate().skip(first) {
            if quiet(l) {
                continue;
            }
            if starts_item(l) {
                items.push(i);
            } else if indent(l) <= k {
                break;
            }
            end = i + 1;
        }
        // No list (nothing, or a mapping), or a second `key:` (an error of the whole
        // text): read whole.
        if items.is_empty() {
            return None;
        }
        let key_colon = format!("{key}:");
        if lines.iter().skip(end).any(|l| l.starts_with(&key_colon)) {
            return None;
        }
        Some(Cut {
            lines,
            key_line,
            items,
            end,
        })
    }

    /// The text without the list: its lines blank, the key's value `[]`.
    fn rest(&self) -> String {
        let mut out = String::new();
        let first = self.items.first().copied().unwrap_or(self.end);
        for (i, l) in self.lines.iter().enumerate() {
            if i == self.key_line {
                let key = l.split(':').next().unwrap_or_default();
                out.push_str(key);
                out.push_str(": []\n");
            } else if (first..self.end).contains(&i) {
                out.push('\n');
            } else {
                out.push_str(l);
            }
        }
        out
    }

    /// The list in pieces of [`ITEMS_PER_PIECE`] items, each a text of its own.
    fn pieces(&self) -> impl Iterator<Item = String> + '_ {
        self.items
            .chunks(ITEMS_PER_PIECE)
            .enumerate()
            .map(|(n, chunk)| {
                let from = chunk.first().copied().unwrap_or(self.end);
                let to = self
                    .items
                    .get((n + 1) * ITEMS_PER_PIECE)
                    .copied()
                    .unwrap_or(self.end);
                self.lines.get(from..to).unwrap_or_default().concat()
            })
    }
}

/// The values a file may hold whatever its size: with [`BYTES_PER_VALUE`], the bound
/// on how many values (scalars and collections) [`guard`] lets through.
pub const BASE_VALUES: usize = 150_000;

/// One more value allowed per this many bytes of the file. A text denser than one value
/// per [`WHOLE_BYTES_PER_VALUE`] bytes is streamed ([`read`]), which holds about what it
/// has made; the limit keeps even that, and the guard's own pass, within 20 times the
/// text (`docs/CLI.md`, "Bounds"). Files arbiter writes have one value per 12 bytes or
/// more, a map one per 6.
pub const BYTES_PER_VALUE: usize = 4;

/// Refuse anchors, aliases, nesting deeper than [`MAX_DEPTH`], and more values than
/// [`BASE_VALUES`] plus one per [`BYTES_PER_VALUE`] bytes. Linear in the text.
pub fn guard(src: &str) -> Result<Guarded, GuardError> {
    let mut g = Guard {
        expect_node: true,
        max_values: BASE_VALUES.saturating_add(src.len() / BYTES_PER_VALUE),
        ..Guard::default()
    };
    for (n, line) in src.lines().enumerate() {
        let checked = match control_in(line) {
            Some(refusal) => Err(refusal),
            None => g.line(line),
        };
        checked.map_err(|(i, message)| GuardError {
            line: n + 1,
            column: line[..i].chars().count() + 1,
            message,
        })?;
    }
    Ok(Guarded {
        values: g.values,
        len: src.len(),
    })
}

/// A character that shows nothing, or shows as a plain space, where a word was
/// expected: format characters (zero-width, joiners, direction marks, overrides and
/// isolates, the byte-order mark), spaces other than the ASCII space, controls.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00A0}' | '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}'
        | '\u{1680}' | '\u{180E}' | '\u{2000}'..='\u{200F}' | '\u{2028}'..='\u{202F}'
        | '\u{205F}'..='\u{206F}' | '\u{3000}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}' | '\u{FFA0}' | '\u{E0000}'..='\u{E007F}')
        || c.is_control()
}

/// A character the order parser reads as a space: the space, the tab and the spaces
/// that show as one (a no-break space, the typographic spaces U+2000–U+200A, the
/// narrow no-break, medium mathematical, ideographic and Ogham spaces). Not a line
/// break (U+0085, U+2028, U+2029): that is a control character, named.
pub fn reads_as_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// `text` with each invisible character (as [`is_invisible`] tells, a space read as
/// a space aside) written as its name in angle brackets (`fr<U+200D ZERO WIDTH
/// JOINER>ance`, `A PAR - <U+001B ESCAPE>[2JBUR`): for a message that quotes what
/// the user wrote, so no control character reaches a terminal, a log or an exception.
pub fn name_invisibles(text: &str) -> std::borrow::Cow<'_, str> {
    name_invisibles_but(text, |_| false)
}

/// [`name_invisibles`], leaving the characters `keep` says as they are (a message's
/// line ends and tabs, which lay it out).
pub fn name_invisibles_but(text: &str, keep: impl Fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    let named = |c: char| is_invisible(c) && !reads_as_space(c) && !keep(c);
    if !text.contains(named) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 32);
    for c in text.chars() {
        if named(c) {
            out.push('<');
            out.push_str(&invisible_name(c));
            out.push('>');
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A character no one-line name may hold: a control character (C0, DEL, C1, NEL
/// among them) or a line or paragraph separator (U+2028, U+2029), each a line break
/// somewhere (a terminal, a browser, a YAML or JSON reader).
pub fn breaks_a_name(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Of an invisible character (see `orders::diagnostic::is_invisible`), `U+200F
/// RIGHT-TO-LEFT MARK`: the code point and, for the common ones, the name.
pub fn invisible_name(c: char) -> String {
    let name = match c {
        '\u{00A0}' => "NO-BREAK SPACE",
        '\u{00AD}' => "SOFT HYPHEN",
        '\u{061C}' => "ARABIC LETTER MARK",
        '\u{180E}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{2000}'..='\u{200A}' => "SPACE",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{2028}' => "LINE SEPARATOR",
        '\u{2029}' => "PARAGRAPH SEPARATOR",
        '\u{202A}'..='\u{202E}' => "DIRECTION EMBEDDING OR OVERRIDE",
        '\u{202F}' => "NARROW NO-BREAK SPACE",
        '\u{205F}' => "MEDIUM MATHEMATICAL SPACE",
        '\u{2060}' => "WORD JOINER",
        '\u{2066}'..='\u{2069}' => "DIRECTION ISOLATE",
        '\u{3000}' => "IDEOGRAPHIC SPACE",
        '\u{FE00}'..='\u{FE0F}' => "VARIATION SELECTOR",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE (BYTE ORDER MARK)",
        c if c.is_control() => control_name(c),
        _ => "INVISIBLE CHARACTER",
    };
    format!("U+{:04X} {name}", c as u32)
}

/// The first character of `line` that YAML allows nowhere (a C0 control but the tab
/// and the carriage return, DEL, a C1 control but NEL): its byte and a message naming
/// it. Every YAML door refuses such a file at its line and column (the reader would
/// say only `control characters are not allowed at position 54`).
fn control_in(line: &str) -> Option<Refusal> {
    let b = line.as_bytes();
    // C0 and DEL are one byte each; a C1 control is 0xC2 then 0x80..=0x9F.
    let i = b.iter().enumerate().position(|(i, &c)| {
        (c < 0x20 && c != b'\t' && c != b'\r')
            || c == 0x7f
            || (c == 0xc2
                && b.get(i + 1)
                    .is_some_and(|&d| (0x80..=0x9f).contains(&d) && d != 0x85))
    })?;
    let c = line.get(i..)?.chars().next()?;
    Some((
        i,
        format!(
            "a control character (U+{:04X} {}) is not allowed in a YAML file: delete it \
             (to write one in a text, use an escape such as `\\e` in double quotes)",
            c as u32,
            control_name(c)
        ),
    ))
}

/// The name of a control character, for a message.
fn control_name(c: char) -> &'static str {
    match c {
        '\u{0000}' => "NULL",
        '\u{0007}' => "BELL",
        '\u{0008}' => "BACKSPACE",
        '\u{0009}' => "CHARACTER TABULATION",
        '\u{000A}' => "LINE FEED",
        '\u{000B}' => "LINE TABULATION",
        '\u{000C}' => "FORM FEED",
        '\u{000D}' => "CARRIAGE RETURN",
        '\u{001B}' => "ESCAPE",
        '\u{007F}' => "DELETE",
        '\u{0085}' => "NEXT LINE",
        _ => "CONTROL CHARACTER",
    }
}

/// A refusal within a line: its byte and the message.
type Refusal = (usize, String);

/// What [`guard`] carries from one line to the next.
#[derive(Default)]
struct Guard {
    /// Open flow collections (`[`, `{`).
    flow: usize,
    /// The indentations of the open block levels.
    indents: Vec<usize>,
    /// Inside a quoted scalar that goes on past its line: its quote.
    quote: Option<u8>,
    /// Inside a block scalar: the indentation of the line that began it.
    block: Option<usize>,
    /// Whether a node may start here (where `&`, `*`, a quote or a bracket count).
    expect_node: bool,
    /// The values begun so far (a collection counts two: its start and its end).
    values: usize,
    /// How many the file may hold.
    max_values: usize,
}

impl Guard {
    /// One line: past a block scalar's text, the block levels it opens, then its
    /// characters.
    fn line(&mut self, line: &str) -> Result<(), Refusal> {
        let b = line.as_bytes();
        let indent = b.iter().take_while(|&&c| c == b' ').count();
        let blank = line.trim().is_empty();
        if let Some(p) = self.block {
            if blank || indent > p {
                return Ok(());
            }
            self.block = None;
        }
        if self.quote.is_none() && self.flow == 0 {
            self.expect_node = true;
            if !blank && b.get(indent) != Some(&b'#') {
                self.block_levels(b, indent)?;
            }
        }
        self.characters(line, indent)
    }

    /// Block nesting: one level per indentation, and per `- ` or `? ` in front.
    fn block_levels(&mut self, b: &[u8], indent: usize) -> Result<(), Refusal> {
        let indents = &mut self.indents;
        let mut col = indent;
        loop {
            while indents.last().is_some_and(|&t| t > col) {
                indents.pop();
            }
            if indents.last() != Some(&col) {
                indents.push(col);
                self.values += 2;
            }
            if indents.len() > MAX_DEPTH {
                return Err((col, too_deep()));
            }
            let rest = b.get(col..).unwrap_or_default();
            if (rest.starts_with(b"- ") || rest.starts_with(b"? ")) && col + 2 <= b.len() {
                col += 2;
                col += rest
                    .get(2..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|&&c| c == b' ')
                    .count();
                if col >= b.len() {
                    break;
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    /// The characters of a line from byte `i`: quotes, comments, anchors and aliases,
    /// flow brackets, block scalar indicators, tags.
    fn characters(&mut self, line: &str, mut i: usize) -> Result<(), Refusal> {
        let b = line.as_bytes();
        let indent = i;
        while let Some(&c) = b.get(i) {
            let next = b.get(i + 1).copied();
            if let Some(q) = self.quote {
                if q == b'\'' && c == b'\'' {
                    if next == Some(b'\'') {
                        i += 1;
                    } else {
                        self.quote = None;
                    }
                } else if q == b'"' && c == b'\\' {
                    i += 1;
                } else if q == b'"' && c == b'"' {
                    self.quote = None;
                }
                i += 1;
                continue;
            }
            let space_after = next.is_none_or(|x| x == b' ' || x == b'\t');
            let expect_node = self.expect_node;
            let flow = self.flow;
            let indicator = matches!(c, b'-' | b'?') && space_after;
            if expect_node && !indicator && !matches!(c, b' ' | b'\t' | b'#' | b'!') {
                self.values += if matches!(c, b'[' | b'{') { 2 } else { 1 };
                if self.values > self.max_values {
                    return Err((i, too_many(self.max_values)));
                }
            }
            match c {
                b' ' | b'\t' => {}
                b'#' if i == 0 || matches!(b.get(i - 1), Some(b' ' | b'\t')) => break,
                b'&' | b'*' if expect_node => {
                    return Err((
                        i,
                        "anchors and aliases (`&name`, `*name`) are not allowed in this file: \
                         write each value out"
                            .into(),
                    ))
                }
                b'"' | b'\'' if expect_node => {
                    self.quote = Some(c);
                    self.expect_node = false;
                }
                b'[' | b'{' if expect_node || flow > 0 => {
                    self.flow += 1;
                    if self.indents.len() + self.flow > MAX_DEPTH {
                        return Err((i, too_deep()));
                    }
                    self.expect_node = true;
                }
                b']' | b'}' if flow > 0 => {
                    self.flow -= 1;
                    self.expect_node = false;
                }
                b',' if flow > 0 => self.expect_node = true,
                b'|' | b'>' if expect_node && flow == 0 => {
                    let rest = line[i + 1..]
                        .trim_start_matches(|x: char| x == '+' || x == '-' || x.is_ascii_digit());
                    let rest = rest.trim_start();
                    if rest.is_empty() || rest.starts_with('#') {
                        self.block = Some(indent);
                        break;
                    }
                    self.expect_node = false;
                }
                b'-' | b'?' if expect_node && space_after => {}
                b':' if space_after || (flow > 0 && matches!(next, Some(b',' | b']' | b'}'))) => {
                    self.expect_node = true;
                }
                b'!' if expect_node => {
                    // A tag: the node follows it.
                    while b.get(i + 1).is_some_and(|&x| x != b' ') {
                        i += 1;
                    }
                }
                _ => self.expect_node = false,
            }
            i += 1;
        }
        Ok(())
    }
}

fn too_many(max: usize) -> String {
    format!(
        "more values than a file of this size may hold (at most {max}: {BASE_VALUES} and one per \
         {BYTES_PER_VALUE} bytes): a file this dense would take far more memory than its size"
    )
}

fn too_deep() -> String {
    format!("nested deeper than {MAX_DEPTH} levels, the limit for this file")
}

/// A map read by [`unique_keys`].
pub trait KeyedMap: Default {
    type Value;
    /// Insert; `false` if the key was there already.
    fn insert_new(&mut self, key: String, value: Self::Value) -> bool;
}

impl<V> KeyedMap for std::collections::BTreeMap<String, V> {
    type Value = V;
    fn insert_new(&mut self, key: String, value: V) -> bool {
        match self.entry(key) {
            std::collections::btree_map::Entry::Occupied(_) => false,
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(value);
                true
            }
        }
    }
}

impl KeyedMap for serde_json::Map<String, serde_json::Value> {
    type Value = serde_json::Value;
    fn insert_new(&mut self, key: String, value: serde_json::Value) -> bool {
        if self.contains_key(&key) {
            return false;
        }
        self.insert(key, value);
        true
    }
}

impl<M: KeyedMap> KeyedMap for Option<M> {
    type Value = M::Value;
    fn insert_new(&mut self, key: String, value: M::Value) -> bool {
        self.get_or_insert_with(M::default).insert_new(key, value)
    }
}

/// `#[serde(deserialize_with = "crate::yaml::unique_keys")]`: read a mapping (YAML or
/// JSON), refusing a key given twice (serde keeps the last one silently, so a power's
/// units or orders written twice would lose the first list). `null` reads as empty.
pub fn unique_keys<'de, D, M>(d: D) -> Result<M, D::Error>
where
    D: serde::Deserializer<'de>,
    M: KeyedMap,
    M::Value: serde::Deserialize<'de>,
{
    struct Visit<M>(std::marker::PhantomData<M>);
    impl<'de, M> serde::de::Visitor<'de> for Visit<M>
    where
        M: KeyedMap,
        M::Value: serde::Deserialize<'de>,
    {
        type Value = M;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a mapping")
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<M, E> {
            Ok(M::default())
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<M, A::Error> {
            let mut out = M::default();
            while let Some((k, v)) = a.next_entry::<String, M::Value>()? {
                let shown = k.chars().take(80).collect::<String>();
                if !out.insert_new(k, v) {
                    return Err(serde::de::Error::custom(format!(
                        "the key `{shown}` is given twice"
                    )));
                }
            }
            Ok(out)
        }
    }
    d.deserialize_any(Visit(std::marker::PhantomData))
}

/// For tests: that serde_yaml, reading whole, and the streaming reader read `src` into the
/// same `T` (or both refuse it), compared by their `Debug` text.
#[cfg(test)]
pub(crate) fn assert_readers_agree<T: DeserializeOwned + std::fmt::Debug>(src: &str, what: &str) {
    let whole = serde_yaml::from_str::<T>(src).map_err(|e| e.to_string());
    let streamed = streamed::<T>(src).map_err(|e| e.to_string());
    match (&whole, &streamed) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what}"),
        (Err(_), Err(_)) => {}
        _ => panic!("{what}: serde_yaml {whole:?}, streamed {streamed:?}"),
    }
}

/// For tests: the texts of the files of the repository's folder `dir` whose names end
/// in `ends`, with their names, sorted.
#[cfg(test)]
pub(crate) fn repo_texts(dir: &str, ends: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let p = e.ok()?.path();
            let name = p.file_name()?.to_str()?.to_string();
            name.ends_with(ends)
                .then(|| (name, std::fs::read_to_string(&p).unwrap_or_default()))
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no {ends} in {}", dir.display());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_values_are_cut_to_forty_characters() {
        let long = format!("{}TAIL", "a".repeat(40));
        assert_eq!(
            super::capped(&format!("invalid type: string \"{long}\", expected f64")),
            format!("invalid type: string \"{}…\", expected f64", "a".repeat(40))
        );
        // An escaped quote does not end the value; a key in backquotes is cut too.
        let esc = format!("x\\\"{}", "b".repeat(50));
        let cut = super::capped(&format!("string \"{esc}\" and `{}`", "k".repeat(45)));
        assert!(
            !cut.contains(&"b".repeat(40)) && !cut.contains(&"k".repeat(41)),
            "{cut}"
        );
        assert!(cut.ends_with("…`"), "{cut}");
        // Short values and unquoted text are kept whole.
        let short = "unknown field `nme`, expected one of `name`, `map`";
        assert_eq!(super::capped(short), short);
    }

    use super::*;

    /// A file of a name and a list of items, for the pieces' tests.
    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        name: String,
        items: Vec<Item>,
        #[serde(default)]
        after: Option<u32>,
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Item {
        id: String,
        #[serde(default)]
        next: Vec<String>,
    }

    fn in_pieces(src: &str) -> Option<Doc> {
        read_in_pieces(src, "items", |d: &mut Doc, items| d.items = items)
    }

    fn items(n: usize, indent: &str, end: &str) -> String {
        (0..n)
            .map(|i| {
                format!("{indent}- id: i{i}{end}{indent}  next: [a, b]{end}# a comment{end}{end}")
            })
            .collect()
    }

    #[test]
    fn a_list_read_in_pieces_is_the_list_read_whole() {
        // 100 items: four pieces; indented or not; with comments and blank lines
        // between items; with \r\n; a key after the list.
        for indent in ["  ", ""] {
            for end in ["\n", "\r\n"] {
                let src = format!(
                    "name: x{end}items:   # the list{end}{}after: 3{end}",
                    items(100, indent, end)
                );
                let whole: Doc = serde_yaml::from_str(&src).unwrap();
                assert_eq!(whole.items.len(), 100);
                assert_eq!(in_pieces(&src), Some(whole), "{indent:?} {end:?}");
            }
        }
    }

    #[test]
    fn a_text_of_another_shape_is_left_to_the_whole_reading() {
        // A flow list, no list, a mapping, a second document, the key twice.
        for src in [
            "name: x\nitems: [{id: a}]\n".to_string(),
            "name: x\nitems:\nafter: 1\n".to_string(),
            "name: x\nitems:\n  a: {id: a}\n".to_string(),
            format!("name: x\nitems:\n{}---\nname: y\n", items(3, "  ", "\n")),
            format!(
                "name: x\nitems:\n{}items:\n  - id: b\n",
                items(3, "  ", "\n")
            ),
        ] {
            assert_eq!(in_pieces(&src), None, "{src}");
        }
        // A piece that cannot be read alone (an unknown key): read whole, with the
        // whole text's error and place.
        let src = format!(
            "name: x\nitems:\n{}  - id: z\n    bad: 1\n",
            items(70, "  ", "\n")
        );
        assert_eq!(in_pieces(&src), None);
        let big = format!("{src}{}", "#\n".repeat(PIECES_FROM_BYTES));
        let e = from_str_in_pieces::<Doc, Item>(&big, "items", |d, i| d.items = i).unwrap_err();
        let whole = serde_yaml::from_str::<Doc>(&big).unwrap_err();
        assert_eq!(e.to_string(), whole.to_string());
        // Line 284: after `name`, `items:` and 70 items of four lines, `- id: z`, then `bad`.
        assert_eq!(e.location(), Some((284, 5)));
    }

    #[test]
    fn ordinary_files_pass() {
        for src in [
            include_str!("../maps/standard.yaml"),
            include_str!("../maps/world1914.yaml"),
            include_str!("../examples/fall1901.yaml"),
            "text: |\n  A PAR - BUR (*bounce*)\n  *x &y\nnext: 1\n",
            "a: 'it''s *not' # *comment\nb: \"x\\\" *y\"\nc: a*b & c\nd: [x, 'y*', {k: v}]\n",
            "sheet: >-\n   & not an anchor\n\n   *nor an alias\n",
            "q: 'multi\n  *line'\n",
        ] {
            assert!(guard(src).is_ok(), "{src}");
        }
    }

    #[test]
    fn aliases_and_depth_are_refused_with_their_place() {
        let e = guard("a: &big xxx\nb: [*big, *big]\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
        assert!(e.message.contains("anchors and aliases"));
        assert_eq!(guard("a:\n  - *x\n").unwrap_err().line, 2);
        assert_eq!(guard("a: [b,\n *x]\n").unwrap_err().line, 2);
        assert_eq!(guard("- !!str *x\n").unwrap_err().column, 9);
        let deep = format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = guard(&deep).unwrap_err();
        assert!(e.message.contains("deeper than 64 levels"), "{e}");
        let mut deep = String::new();
        for i in 0..100 {
            deep.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
        }
        assert_eq!(guard(&deep).unwrap_err().line, 65);
        assert!(guard(&"- ".repeat(70)).is_err());
        assert!(guard(&format!("{}x\n", "- ".repeat(60))).is_ok());
    }
}
