//! Diagnostics with a line and column span, rendered rustc-style with a caret.

/// Where something was written: a line (1-based) and a byte range within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Span {
    pub line: u32,
    pub start: u32,
    pub end: u32,
}

pub use crate::map::Severity;

use crate::map::names::cut_quotes;

/// One problem found in the orders.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// What to do about it ("did you mean ...").
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>, help: Option<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: cut_quotes(message.into()),
            help: help.map(cut_quotes),
        }
        .name_invisible()
    }
    pub fn warning(span: Span, message: impl Into<String>, help: Option<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            span,
            message: cut_quotes(message.into()),
            help: help.map(cut_quotes),
        }
        .name_invisible()
    }

    /// A message that quotes an invisible character (a right-to-left mark, a zero-width
    /// joiner, a no-break space, pasted from a chat or a web page) names it instead:
    /// `found `‏`` reads `found `<U+200F RIGHT-TO-LEFT MARK>``, and the help says to
    /// delete it.
    fn name_invisible(mut self) -> Self {
        // (An ASCII message may still quote a control character: `\x1b`.)
        let ascii_plain = |m: &str| m.bytes().all(|b| b == b'\t' || (b' '..0x7f).contains(&b));
        if ascii_plain(&self.message) || !self.message.chars().any(is_invisible) {
            return self;
        }
        let mut named = Vec::new();
        let mut out = String::with_capacity(self.message.len() + 32);
        // Quoted text (between backticks) is every other piece. A space the parser
        // reads as a space (a no-break space) is named only where it is all the quote
        // shows (`found ` ``).
        for (k, piece) in self.message.split('`').enumerate() {
            if k > 0 {
                out.push('`');
            }
            let blank = k % 2 == 1 && piece.chars().all(|c| is_invisible(c) || c == ' ');
            for c in piece.chars() {
                if is_invisible(c) && (blank || !reads_as_space(c)) {
                    let name = invisible_name(c);
                    if !named.contains(&name) {
                        named.push(name.clone());
                    }
                    out.push('<');
                    out.push_str(&name);
                    out.push('>');
                } else {
                    out.push(c);
                }
            }
        }
        self.message = out;
        if named.is_empty() {
            return self;
        }
        self.with_invisible_note(&named.join(", "))
    }

    /// The help with the note that the text holds the invisible characters `named`.
    pub fn with_invisible_note(mut self, named: &str) -> Self {
        let note = format!(
            "the text holds an invisible character ({named}), often pasted from a chat or a \
             web page: delete it, or type the line again"
        );
        if self
            .help
            .as_deref()
            .is_some_and(|h| h.contains("the text holds an invisible character"))
        {
            return self;
        }
        self.help = Some(match self.help.take() {
            Some(h) => format!("{h}; {note}"),
            None => note,
        });
        self
    }
}

pub use crate::yaml::{is_invisible, reads_as_space};

pub use crate::yaml::invisible_name;
pub use crate::yaml::name_invisibles;

/// At most this many diagnostics are kept by the parser and written per run; the rest
/// are counted (`… and 12 more problems`).
pub const MAX_DIAGNOSTICS: usize = 100;

/// The end of the message of the diagnostic that counts those the parser did not keep.
const NOT_LISTED: &str = " in this text not listed (at most ";

/// The message of the diagnostic that stands for `n` problems the parser did not keep:
/// `N more problems in this text not listed (at most 100 are kept)`.
pub fn not_listed(n: usize) -> String {
    format!(
        "{n} more problem{}{NOT_LISTED}{MAX_DIAGNOSTICS} are kept)",
        if n == 1 { "" } else { "s" }
    )
}

impl Diagnostic {
    /// How many problems this diagnostic stands for: the count of the one that counts
    /// those the parser did not keep ([`not_listed`]), else 1.
    pub fn stands_for(&self) -> usize {
        self.message
            .split_once(NOT_LISTED)
            .and_then(|(head, _)| {
                let n = head
                    .strip_suffix(" more problems")
                    .or_else(|| head.strip_suffix(" more problem"))?;
                n.parse().ok()
            })
            .unwrap_or(1)
    }
}

/// A line longer than this many characters is shown cut around the span, with `…`.
pub const SHOWN_COLUMNS: usize = 100;

/// The part of a source line shown under a message about its byte `start`: all of
/// it, or about [`SHOWN_COLUMNS`] characters from a little before `start`, with `…`
/// where cut. Used by the order parser's messages and by `map check`'s findings.
pub struct Window {
    /// The byte range of the line shown.
    pub from: usize,
    pub to: usize,
    /// `…` where the line is cut before and after, else empty.
    pub lead: &'static str,
    pub tail: &'static str,
}

impl Window {
    /// The window of `text` about byte `start` (a char boundary).
    pub fn about(text: &str, start: usize) -> Window {
        let before = text.get(..start).unwrap_or_default();
        let from = if text.chars().nth(SHOWN_COLUMNS).is_some() {
            before
                .char_indices()
                .rev()
                .nth(SHOWN_COLUMNS / 3 - 1)
                .map_or(0, |(i, _)| i)
        } else {
            0
        };
        let to = text
            .get(from..)
            .unwrap_or_default()
            .char_indices()
            .nth(SHOWN_COLUMNS)
            .map_or(text.len(), |(i, _)| from + i);
        Window {
            from,
            to,
            lead: if from > 0 { "…" } else { "" },
            tail: if to < text.len() { "…" } else { "" },
        }
    }
}

/// The first index of `x` or `y` (neither 0) in `b`, as `position` would find it, eight
/// bytes at a time: order lines and their segments are short, and a vector search
/// costs more to set up there than it saves.
pub(super) fn find2(b: &[u8], x: u8, y: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let (mx, my) = (LO * u64::from(x), LO * u64::from(y));
    // The high bit of each byte of `v` that is zero; the lowest such bit is exact (a
    // borrow marks only bytes above a zero).
    let zeros = |v: u64| v.wrapping_sub(LO) & !v & HI;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let v = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        let z = zeros(v ^ mx) | zeros(v ^ my);
        if z != 0 {
            return Some(at + (z.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = chunks.remainder();
    rest.iter().position(|&c| c == x || c == y).map(|k| at + k)
}

/// The lines of an order text, as the parser numbers them: a line ends at `\n`, `\r\n` or
/// a lone `\r` (old Mac files), and a leading byte-order mark is not part of line 1.
pub fn source_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        // Both are one byte, never inside another character.
        let (line, next) = match find2(rest.as_bytes(), b'\n', b'\r') {
            None => (rest, ""),
            Some(i) => {
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                (&rest[..i], &rest[i + skip..])
            }
        };
        rest = next;
        Some(line)
    })
}

/// Render diagnostics against the source text (see [`write_diagnostics`]).
pub fn render_diagnostics(diags: &[Diagnostic], source: &str, file: &str) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_diagnostics(&mut out, diags, source, file);
    String::from_utf8_lossy(&out).into_owned()
}

/// Write diagnostics against the source text, as they are rendered:
///
/// ```text
/// error: unknown province `Burgandi`
///   --> orders.txt:4:9
///    |
///  4 | A Par - Burgandi
///    |         ^^^^^^^^ did you mean `Burgundy` (bur)?
/// ```
///
/// At most [`MAX_DIAGNOSTICS`] are written, then `… and K more problems` (K counts every
/// problem not shown: a diagnostic that counts problems the parser did not keep stands
/// for all of them); a long line is
/// shown cut to about 100 columns around the span. The output is linear in the size of
/// the source, whatever the number of diagnostics.
pub fn write_diagnostics(
    w: &mut impl std::io::Write,
    diags: &[Diagnostic],
    source: &str,
    file: &str,
) -> std::io::Result<()> {
    let shown = diags.get(..MAX_DIAGNOSTICS).unwrap_or(diags);
    // One pass over the source for the lines the shown diagnostics need.
    let mut wanted: Vec<u32> = shown.iter().map(|d| d.span.line).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut lines: Vec<(u32, &str)> = Vec::with_capacity(wanted.len());
    let mut next = wanted.iter().peekable();
    for (n, l) in source_lines(source).enumerate() {
        let Some(&&want) = next.peek() else { break };
        if u32::try_from(n + 1) == Ok(want) {
            lines.push((want, l));
            next.next();
        }
    }
    for d in shown {
        let text = lines
            .binary_search_by_key(&d.span.line, |&(n, _)| n)
            .ok()
            .and_then(|i| lines.get(i))
            .map_or("", |l| l.1);
        write_one(w, d, text, file)?;
    }
    // The problems not shown, those the parser counted without keeping them included.
    let more: usize = diags
        .get(shown.len()..)
        .unwrap_or_default()
        .iter()
        .map(Diagnostic::stands_for)
        .sum();
    if more > 0 {
        writeln!(
            w,
            "… and {more} more problem{}",
            if more == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

/// The largest char boundary of `s` at or below `i`.
fn boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn write_one(
    w: &mut impl std::io::Write,
    d: &Diagnostic,
    text: &str,
    file: &str,
) -> std::io::Result<()> {
    let sev = d.severity.name();
    let start = boundary(text, d.span.start as usize);
    let end = boundary(text, (d.span.end as usize).max(start));
    let col = text[..start].chars().count() + 1;
    let Window {
        from,
        to,
        lead,
        tail,
    } = Window::about(text, start);
    let caret_at = text[from..start].chars().count() + usize::from(from > 0);
    let width = text[start..end.min(to).max(start)].chars().count().max(1);
    let num = d.span.line.to_string();
    let pad = " ".repeat(num.len());
    writeln!(w, "{sev}: {}", d.message)?;
    writeln!(w, "{pad}--> {file}:{}:{col}", d.span.line)?;
    writeln!(w, "{pad} |")?;
    writeln!(w, "{num} | {lead}{}{tail}", &text[from..to])?;
    write!(w, "{pad} | {}{}", " ".repeat(caret_at), "^".repeat(width))?;
    match &d.help {
        Some(h) => writeln!(w, " {h}")?,
        None => writeln!(w)?,
    }
    writeln!(w)
}

/// The invisible characters of `line` that the parser does not read as spaces, named
/// with their columns (`U+200B ZERO WIDTH SPACE at column 2`), or `None`.
pub fn invisible_in(line: &str) -> Option<String> {
    if line
        .bytes()
        .all(|b| b == b'\t' || (b' '..0x7f).contains(&b))
    {
        return None;
    }
    let found: Vec<String> = line
        .chars()
        .enumerate()
        .filter(|&(_, c)| is_invisible(c) && !reads_as_space(c))
        .take(3)
        .map(|(i, c)| format!("{} at column {}", invisible_name(c), i + 1))
        .collect();
    (!found.is_empty()).then(|| found.join(", "))
}
