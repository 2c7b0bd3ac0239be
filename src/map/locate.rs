//! Where things are written in a YAML map file: line and column, for messages about
//! values serde has already read (serde_yaml keeps no positions once it has read a file).
//! The one place that scans map text for positions; two indexes over it:
//!
//! - [`Locations`], by key path, for `map check`: a scan that follows the structure. It
//!   knows the block style our map files use (mappings, `- ` lists, any indentation) and
//!   flow collections (`[a, b]`, `{season: spring, year: 1901}`, also over several
//!   lines), quoted scalars, comments and block scalars (`description: >`). It reads
//!   nothing else; anything it cannot follow only costs a position (the caller falls
//!   back to the nearest ancestor), never a wrong value: values come from serde. A path
//!   names keys and list indices joined by dots: `provinces.3.army.1` is the second army
//!   neighbour of the fourth province.
//! - `Lines`, by section, id and key, for the loader (`map::build`): the first
//!   `- id: <id>` (or flow item `{id: <id>, …}`) of a section, a key within a list
//!   item, a word on a line. Its answers
//!   are the lines and columns of the loader's `MapError`s, so it stays as it is: the
//!   structural scan would place some of them elsewhere (a second province with the same
//!   id, a quoted value, a list over several lines).

// It scans the text of a user file: no unchecked indexing (the parent module's loader
// allows it for its own tables only).
#![deny(clippy::indexing_slicing)]

use std::cell::RefCell;
use std::collections::HashMap;

/// A place in the source: 1-based line and 1-based column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// Positions of the values (and keys) of a YAML text, by path.
///
/// A map of a few MB has hundreds of thousands of values, nearly all of them items of
/// neighbour lists, and `map check` looks up only the few hundred its findings need.
/// So an item costs eight bytes: the positions of a list's items are kept in one
/// vector per list (item `i` at index `i`), found by the list's path. Every other
/// value, and every key, is kept by its path's digest. A path is kept as a 64-bit
/// digest: two of the n paths of one file share one with a chance of about n²/2^65
/// (for the million values of a 10 MB file, about 3 in 10^8), and that would only
/// misplace a caret.
#[derive(Debug, Default)]
pub struct Locations {
    /// Where the value at a path starts (for a nested mapping or block list, its key),
    /// but list items.
    values: HashMap<u64, (u32, u32)>,
    /// Where the items of a list start, by the list's path.
    items: HashMap<u64, Vec<(u32, u32)>>,
    /// Where the key of a mapping entry is written.
    keys: HashMap<u64, (u32, u32)>,
}

/// The digest of a path: a SipHash of it with fixed keys (the same in every run).
fn digest(path: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new_with_keys(0, 0x9e37_79b9_7f4a_7c15);
    path.hash(&mut h);
    h.finish()
}

/// A path as a list and an item index (`provinces.3.army.17`: `provinces.3.army` and
/// 17), when its last segment is a number written as an index is (no leading zero).
fn as_item(path: &str) -> Option<(&str, usize)> {
    let (list, last) = match path.rfind('.') {
        Some(i) => (path.get(..i)?, path.get(i + 1..)?),
        None => ("", path),
    };
    let canonical = !last.is_empty()
        && last.bytes().all(|b| b.is_ascii_digit())
        && (last == "0" || !last.starts_with('0'));
    canonical
        .then(|| last.parse().ok().map(|i| (list, i)))
        .flatten()
}

fn pack(p: Pos) -> (u32, u32) {
    let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    (n(p.line), n(p.column))
}

fn unpack((line, column): (u32, u32)) -> Pos {
    Pos {
        line: line as usize,
        column: column as usize,
    }
}

impl Locations {
    /// Scan `src`.
    pub fn scan(src: &str) -> Locations {
        let mut s = Scanner {
            lines: src.lines().collect(),
            out: Locations::default(),
            frames: Vec::new(),
            block_scalar: None,
            column_at: std::cell::Cell::new((usize::MAX, 0, 0)),
        };
        s.run();
        s.out
    }

    /// Where the value at `path` starts (a scalar, a flow collection, a list item).
    pub fn value(&self, path: &str) -> Option<Pos> {
        // The table of other values first: a mapping key written as a number, whose
        // value the scan could not keep as an item, is there.
        self.values
            .get(&digest(path))
            .or_else(|| {
                let (list, i) = as_item(path)?;
                self.items.get(&digest(list))?.get(i)
            })
            .copied()
            .map(unpack)
    }

    /// Where the key of the entry at `path` is written.
    pub fn key(&self, path: &str) -> Option<Pos> {
        self.keys.get(&digest(path)).copied().map(unpack)
    }

    /// The value at `path`, or else the nearest ancestor that has a position, or else
    /// line 1, column 1.
    pub fn nearest(&self, path: &str) -> Pos {
        let mut p = path;
        loop {
            if let Some(v) = self.value(p).or_else(|| self.key(p)) {
                return v;
            }
            match p.rfind('.') {
                Some(i) => p = &p[..i],
                None => return Pos { line: 1, column: 1 },
            }
        }
    }
}

/// Join a path and a segment.
pub fn join(path: &str, seg: impl std::fmt::Display) -> String {
    if path.is_empty() {
        seg.to_string()
    } else {
        format!("{path}.{seg}")
    }
}

/// An open block collection: a mapping or a list, at an indentation.
struct Frame {
    indent: usize,
    path: String,
    seq: bool,
    next: usize,
    /// The path a more indented block on the following lines belongs to (a key or a
    /// list item whose value was left empty on its own line).
    pending: Option<String>,
}

struct Scanner<'a> {
    lines: Vec<&'a str>,
    out: Locations,
    frames: Vec<Frame>,
    /// Inside a block scalar (`|`, `>`): lines indented more than this are its text.
    block_scalar: Option<usize>,
    /// The last position counted: line, byte, characters before the byte ([`Self::pos`]).
    column_at: std::cell::Cell<(usize, usize, usize)>,
}

/// Is this (trimmed) content a block list item?
fn is_dash(t: &str) -> bool {
    t == "-" || t.starts_with("- ")
}

/// The byte length of `line` before a comment (`#` at the start or after white space,
/// outside quotes), with trailing white space removed.
fn code_len(line: &str) -> usize {
    let mut quote: Option<char> = None;
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
            }
            None => {
                if c == '#' && prev_space {
                    return line[..i].trim_end().len();
                }
                if (c == '"' || c == '\'') && prev_space_or_flow(line, i) {
                    quote = Some(c);
                }
            }
        }
        prev_space = c.is_whitespace();
    }
    line.trim_end().len()
}

/// Can a quoted scalar start at byte `i` (after white space or flow punctuation)?
fn prev_space_or_flow(line: &str, i: usize) -> bool {
    line[..i]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || "[{,:-".contains(c))
}

impl Scanner<'_> {
    /// The position of byte `byte` of line `li`. The column (in characters) is counted
    /// on from the last position asked on the same line when it lies before this one
    /// (the scan moves left to right), so a line of many values (a whole map written as
    /// one flow collection) is counted once, not once per value.
    fn pos(&self, li: usize, byte: usize) -> Pos {
        let l = self.lines.get(li).copied().unwrap_or("");
        let mut b = byte.min(l.len());
        while !l.is_char_boundary(b) {
            b -= 1;
        }
        let (cli, cb, ccol) = self.column_at.get();
        let (from, col) = if cli == li && cb <= b {
            (cb, ccol)
        } else {
            (0, 0)
        };
        let col = col + l.get(from..b).map_or(0, |s| s.chars().count());
        self.column_at.set((li, b, col));
        Pos {
            line: li + 1,
            column: col + 1,
        }
    }

    /// The first position given for a path is kept.
    fn set_value(&mut self, path: &str, li: usize, byte: usize) {
        let p = pack(self.pos(li, byte));
        if let Some((list, i)) = as_item(path) {
            let items = self.out.items.entry(digest(list)).or_default();
            // The items of a list come in order: item `i` next, or seen already.
            if i <= items.len() {
                if i == items.len() {
                    items.push(p);
                }
                return;
            }
        }
        self.out.values.entry(digest(path)).or_insert(p);
    }

    fn set_key(&mut self, path: &str, li: usize, byte: usize) {
        let p = self.pos(li, byte);
        self.out.keys.entry(digest(path)).or_insert(pack(p));
    }

    /// What a more indented block on the following lines belongs to, in the innermost
    /// frame (`None`: nothing, the entry has its value on its line).
    fn set_pending(&mut self, path: Option<String>) {
        if let Some(top) = self.frames.last_mut() {
            top.pending = path;
        }
    }

    fn run(&mut self) {
        let mut li = 0;
        while let Some(&line) = self.lines.get(li) {
            let code = &line[..code_len(line)];
            let trimmed = code.trim_start();
            if trimmed.is_empty() {
                li += 1;
                continue;
            }
            let indent = code.len() - trimmed.len();
            if let Some(b) = self.block_scalar {
                if indent > b {
                    li += 1;
                    continue;
                }
                self.block_scalar = None;
            }
            if trimmed == "---" || trimmed == "..." || trimmed.starts_with("--- ") {
                li += 1;
                continue;
            }
            let dash = is_dash(trimmed);
            while let Some(top) = self.frames.last() {
                if top.indent > indent || (top.indent == indent && top.seq && !dash) {
                    self.frames.pop();
                } else {
                    break;
                }
            }
            let reuse =
                matches!(self.frames.last(), Some(t) if t.indent == indent && t.seq == dash);
            if !reuse {
                let path = self
                    .frames
                    .last_mut()
                    .and_then(|f| f.pending.take())
                    .unwrap_or_default();
                self.frames.push(Frame {
                    indent,
                    path,
                    seq: dash,
                    next: 0,
                    pending: None,
                });
            }
            li = self.entry(li, indent);
        }
    }

    /// One entry of the innermost frame, starting at byte `at` of line `li`. Returns the
    /// next line to read.
    fn entry(&mut self, li: usize, at: usize) -> usize {
        let Some(&line) = self.lines.get(li) else {
            return li + 1;
        };
        let code = &line[..code_len(line)];
        // `run` pushes a frame before every entry; without one there is nothing to record.
        let Some(top) = self.frames.last_mut() else {
            return li + 1;
        };
        if !top.seq {
            return self.map_entry(li, at);
        }
        let idx = top.next;
        top.next += 1;
        let path = join(&top.path, idx);
        let indent = top.indent;
        let after = at + 1;
        let rest = &code[after.min(code.len())..];
        let start = after + (rest.len() - rest.trim_start().len());
        if start >= code.len() {
            self.set_value(&path, li, at);
            self.set_pending(Some(path));
            return li + 1;
        }
        self.set_pending(None);
        let rest = &code[start..];
        self.set_value(&path, li, start);
        if rest.starts_with('[') || rest.starts_with('{') {
            return self.flow_from(&path, li, start);
        }
        if is_dash(rest) {
            // `- - a`: a list inside the item.
            self.frames.push(Frame {
                indent: start,
                path,
                seq: true,
                next: 0,
                pending: None,
            });
            return self.entry(li, start);
        }
        if key_end(rest).is_some() {
            self.frames.push(Frame {
                indent: start,
                path,
                seq: false,
                next: 0,
                pending: None,
            });
            return self.map_entry(li, start);
        }
        if rest.starts_with('|') || rest.starts_with('>') {
            self.block_scalar = Some(indent);
        }
        li + 1
    }

    /// `key: value` at byte `at` of line `li`, in the innermost (mapping) frame.
    fn map_entry(&mut self, li: usize, at: usize) -> usize {
        let Some(&line) = self.lines.get(li) else {
            return li + 1;
        };
        let code = &line[..code_len(line)];
        let text = &code[at..];
        let Some((key, vstart)) = key_end(text) else {
            return li + 1;
        };
        let Some(top) = self.frames.last() else {
            return li + 1;
        };
        let indent = top.indent;
        let path = join(&top.path, key);
        self.set_key(&path, li, at);
        let v = at + vstart;
        let rest = code[v.min(code.len())..].trim_start();
        let v = code.len() - rest.len();
        if rest.is_empty() {
            self.set_value(&path, li, at);
            self.set_pending(Some(path));
            return li + 1;
        }
        self.set_pending(None);
        self.set_value(&path, li, v);
        if rest.starts_with('[') || rest.starts_with('{') {
            return self.flow_from(&path, li, v);
        }
        if rest.starts_with('|') || rest.starts_with('>') {
            self.block_scalar = Some(indent);
        }
        li + 1
    }

    /// A flow collection starting at byte `at` of line `li`; returns the line after the
    /// one it ends on.
    fn flow_from(&mut self, path: &str, li: usize, at: usize) -> usize {
        let mut cur = Cursor { li, byte: at };
        self.flow_value(path, &mut cur, 0);
        cur.li + 1
    }

    fn peek(&self, cur: &Cursor) -> Option<char> {
        self.lines.get(cur.li)?.get(cur.byte..)?.chars().next()
    }

    fn bump(&self, cur: &mut Cursor) {
        if let Some(c) = self.peek(cur) {
            cur.byte += c.len_utf8();
        }
    }

    /// Skip white space, line ends and comments inside a flow collection.
    fn skip_ws(&self, cur: &mut Cursor) {
        loop {
            let Some(l) = self.lines.get(cur.li) else {
                return;
            };
            match l.get(cur.byte..).and_then(|s| s.chars().next()) {
                None => {
                    if cur.li + 1 >= self.lines.len() {
                        return;
                    }
                    cur.li += 1;
                    cur.byte = 0;
                }
                Some('#') => cur.byte = l.len(),
                Some(c) if c.is_whitespace() => cur.byte += c.len_utf8(),
                Some(_) => return,
            }
        }
    }

    /// Step to the next item of a flow collection that `close` ends, over white space
    /// and commas: `false` at its end (the `close` is stepped over) or the text's.
    fn next_flow_item(&self, cur: &mut Cursor, close: char) -> bool {
        loop {
            self.skip_ws(cur);
            match self.peek(cur) {
                None => return false,
                Some(c) if c == close => {
                    self.bump(cur);
                    return false;
                }
                Some(',') => self.bump(cur),
                _ => return true,
            }
        }
    }

    fn flow_value(&mut self, path: &str, cur: &mut Cursor, depth: usize) {
        self.skip_ws(cur);
        self.set_value(path, cur.li, cur.byte);
        if depth > 64 {
            return;
        }
        match self.peek(cur) {
            Some('[') => {
                self.bump(cur);
                let mut idx = 0;
                loop {
                    if !self.next_flow_item(cur, ']') {
                        return;
                    }
                    let before = *cur;
                    self.flow_value(&join(path, idx), cur, depth + 1);
                    idx += 1;
                    if *cur == before {
                        self.bump(cur);
                    }
                }
            }
            Some('{') => {
                self.bump(cur);
                loop {
                    if !self.next_flow_item(cur, '}') {
                        return;
                    }
                    let before = *cur;
                    let (kli, kbyte) = (cur.li, cur.byte);
                    let key = self.flow_scalar(cur, true);
                    let kpath = join(path, &key);
                    self.set_key(&kpath, kli, kbyte);
                    self.skip_ws(cur);
                    if self.peek(cur) == Some(':') {
                        self.bump(cur);
                        self.flow_value(&kpath, cur, depth + 1);
                    } else if self.peek(cur).is_none() {
                        return;
                    }
                    if *cur == before {
                        // A character that cannot start a key (`]`): step over it.
                        self.bump(cur);
                    }
                }
            }
            _ => {
                self.flow_scalar(cur, false);
            }
        }
    }

    /// A scalar inside a flow collection; returns its text (unquoted).
    fn flow_scalar(&self, cur: &mut Cursor, key: bool) -> String {
        let mut out = String::new();
        match self.peek(cur) {
            Some(q @ ('"' | '\'')) => {
                self.bump(cur);
                while let Some(c) = self.peek(cur) {
                    self.bump(cur);
                    if c == '\\' && q == '"' {
                        if let Some(n) = self.peek(cur) {
                            out.push(n);
                            self.bump(cur);
                        }
                    } else if c == q {
                        if q == '\'' && self.peek(cur) == Some('\'') {
                            out.push('\'');
                            self.bump(cur);
                        } else {
                            break;
                        }
                    } else {
                        out.push(c);
                    }
                }
            }
            _ => {
                let line = self.lines.get(cur.li).copied().unwrap_or("");
                while let Some(c) = self.peek(cur) {
                    if c == ',' || c == ']' || c == '}' {
                        break;
                    }
                    if c == ':' {
                        let next = line[cur.byte + 1..].chars().next();
                        if key || next.is_none_or(|n| n.is_whitespace()) {
                            break;
                        }
                    }
                    if c == '#' && out.ends_with(char::is_whitespace) {
                        break;
                    }
                    out.push(c);
                    self.bump(cur);
                }
            }
        }
        out.trim().to_string()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Cursor {
    li: usize,
    byte: usize,
}

/// If `text` starts with a mapping key (`key:` then white space or the end), the key
/// (unquoted) and the byte where its value may start.
fn key_end(text: &str) -> Option<(String, usize)> {
    if let Some(q @ ('"' | '\'')) = text.chars().next() {
        let close = text[1..].find(q)? + 1;
        let after = &text[close + 1..];
        let rest = after.trim_start();
        if let Some(r) = rest.strip_prefix(':') {
            if r.is_empty() || r.starts_with(char::is_whitespace) {
                let v = text.len() - r.len();
                return Some((text[1..close].to_string(), v));
            }
        }
        return None;
    }
    if text.starts_with(['[', '{', '|', '>', '&', '*', '!', '%', '@', '`']) {
        return None;
    }
    let mut from = 0;
    while let Some(k) = text[from..].find(':') {
        let i = from + k;
        let after = &text[i + 1..];
        if after.is_empty() || after.starts_with(char::is_whitespace) {
            let key = text[..i].trim_end();
            if key.is_empty() {
                return None;
            }
            return Some((key.to_string(), i + 1));
        }
        from = i + 1;
    }
    None
}

// ---------------------------------------------------------------------------------
// The loader's index: by section, id and key, from the words of each line.

/// Finds the line of a key in the source text, for messages about values serde has
/// already read (serde_yaml keeps no positions past parsing). Each block's key lines and
/// each line's words are indexed the first time they are asked for, so finding every
/// entry of a long list costs time linear in the list.
pub(crate) struct Lines<'a> {
    lines: Vec<&'a str>,
    /// Per id written `id: <id>` (or `- id: <id>`): the lines (0-based) it is on.
    ids: HashMap<&'a str, Vec<usize>>,
    /// Top-level keys written alone on their line (`provinces:`): their line (0-based).
    sections: HashMap<&'a str, usize>,
    /// Per block start (0-based) and key: the lines (0-based) of the block that begin
    /// with `key:`.
    keys: RefCell<HashMap<(usize, String), Vec<usize>>>,
    /// Per line (0-based): each whole word on it and its 1-based column (the first).
    words: RefCell<HashMap<usize, HashMap<&'a str, usize>>>,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '/' || c == '_' || c == '-'
}

/// The mapping entries that may begin on line `l`: the line itself (a block entry,
/// `- ` dropped) and each piece after a `{` or `,` (the entries of a flow mapping,
/// `{id: par, army: [bur]}`), trimmed. A piece that is not an entry (a list item, a
/// comma in a quoted name) only costs a look: a key is matched by its `key:`.
fn entries(l: &str) -> impl Iterator<Item = &str> {
    let block = l.trim_start().trim_start_matches("- ").trim();
    let flow = l
        .match_indices(['{', ','])
        .map(move |(k, _)| l.get(k + 1..).unwrap_or("").trim_start());
    std::iter::once(block).chain(flow)
}

/// The ids written on line `l` (`id: par`, `- id: par`, `{id: par, …}`).
fn ids_on(l: &str) -> impl Iterator<Item = &str> {
    entries(l).filter_map(|e| {
        let rest = e.strip_prefix("id: ")?;
        let id = rest.split([',', '}']).next().unwrap_or("").trim();
        (!id.is_empty()).then_some(id)
    })
}

impl<'a> Lines<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        let lines: Vec<&str> = src.lines().collect();
        let mut ids: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut sections = HashMap::new();
        for (i, l) in lines.iter().enumerate() {
            for id in ids_on(l) {
                ids.entry(id).or_default().push(i);
            }
            if let Some(key) = l.trim_end().strip_suffix(':') {
                sections.entry(key).or_insert(i);
            }
        }
        Lines {
            lines,
            ids,
            sections,
            keys: RefCell::default(),
            words: RefCell::default(),
        }
    }

    /// Line (1-based) of the block `- id: <id>` in `section`, or of the section.
    pub(crate) fn block(&self, section: &str, id: &str) -> usize {
        let start = self.sections.get(section).copied().unwrap_or(0);
        self.ids
            .get(id)
            .and_then(|v| v.iter().find(|&&i| i >= start))
            .map_or(start + 1, |&i| i + 1)
    }

    /// Line of `key:` (containing `word`, if given) in the list item that starts at
    /// line `from` (1-based), nested items included; `from` if not found.
    pub(crate) fn key(&self, from: usize, key: &str, word: Option<&str>) -> usize {
        let start = from.saturating_sub(1);
        let mut keys = self.keys.borrow_mut();
        let found = keys.entry((start, key.to_string())).or_insert_with(|| {
            let indent = |l: &str| l.len() - l.trim_start().len();
            let own = self.lines.get(start).map(|l| indent(l)).unwrap_or(0);
            let mut found = Vec::new();
            for (i, l) in self.lines.iter().enumerate().skip(start) {
                let t = l.trim_start();
                // The next item at this level or above ends the block (a flow item
                // `{id: …}` too).
                if i > start && (t.starts_with("- ") || t.starts_with('{')) && indent(l) <= own {
                    break;
                }
                if entries(l).any(|e| e.strip_prefix(key).is_some_and(|r| r.starts_with(':'))) {
                    found.push(i);
                }
            }
            found
        });
        found
            .iter()
            .find(|&&i| word.is_none_or(|w| self.word_column(i, w).is_some()))
            .map_or(from, |&i| i + 1)
    }

    /// The 1-based column of `w` as a whole word on line `i` (0-based), from the
    /// line's word index.
    fn word_column(&self, i: usize, w: &str) -> Option<usize> {
        let l = self.lines.get(i)?;
        let mut words = self.words.borrow_mut();
        let index = words.entry(i).or_insert_with(|| {
            let mut index = HashMap::new();
            let mut start: Option<(usize, usize)> = None;
            for (col, (k, c)) in l.char_indices().chain([(l.len(), ' ')]).enumerate() {
                match (is_word(c), start) {
                    (true, None) => start = Some((k, col)),
                    (false, Some((s, scol))) => {
                        index.entry(&l[s..k]).or_insert(scol + 1);
                        start = None;
                    }
                    _ => {}
                }
            }
            index
        });
        index.get(w).copied()
    }

    /// Line and column of `word` (else of `key:`) in the item starting at `from`.
    pub(crate) fn at(&self, from: usize, key: &str, word: Option<&str>) -> Pos {
        let line = self.key(from, key, word);
        Pos {
            line,
            column: self.column(line, word.unwrap_or(key)),
        }
    }

    /// Line and column of the `- id: <id>` of a block.
    pub(crate) fn at_block(&self, section: &str, id: &str) -> Pos {
        let line = self.block(section, id);
        Pos {
            line,
            column: self.column(line, id),
        }
    }

    /// 1-based column of `word` as a whole word on `line` (else of the first
    /// character that is not white space or a list dash).
    pub(crate) fn column(&self, line: usize, word: &str) -> usize {
        let Some(l) = line.checked_sub(1).and_then(|i| self.lines.get(i)) else {
            return 0;
        };
        let indent = l.chars().take_while(|&c| c == ' ' || c == '-').count() + 1;
        if word.is_empty() {
            return indent;
        }
        if word.chars().all(is_word) {
            return self.word_column(line - 1, word).unwrap_or(indent);
        }
        // A name of several words: looked for on its own line only (rare).
        let mut from = 0;
        while let Some(k) = l[from..].find(word) {
            let s = from + k;
            let e = s + word.len();
            let before = l[..s].chars().next_back().is_none_or(|c| !is_word(c));
            let after = l[e..].chars().next().is_none_or(|c| !is_word(c));
            if before && after {
                return l[..s].chars().count() + 1;
            }
            from = e;
        }
        indent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(l: &Locations, p: &str) -> (usize, usize) {
        let v = l.value(p).unwrap_or_else(|| panic!("no position for {p}"));
        (v.line, v.column)
    }

    #[test]
    fn block_and_flow() {
        let src = "\
# comment
name: tiny   # trailing
start: {season: spring, year: 1901}
description: >-
  text: with a colon
  - and a dash
powers:
  - id: red
    home: [aaa, 'b b']
    units:
    - A aaa
    -   F sss
provinces:
  - id: aaa
    army: [
      bbb,
      ccc]
    coasts:
      - id: nc
        fleet: [sss]
  -
    id: bbb
";
        let l = Locations::scan(src);
        assert_eq!(at(&l, "name"), (2, 7));
        assert_eq!(at(&l, "start.season"), (3, 17));
        assert_eq!(at(&l, "start.year"), (3, 31));
        assert_eq!(l.key("start.year").map(|p| p.column), Some(25));
        assert_eq!(at(&l, "description"), (4, 14));
        assert_eq!(at(&l, "powers.0.id"), (8, 9));
        assert_eq!(at(&l, "powers.0.home.1"), (9, 17));
        assert_eq!(at(&l, "powers.0.units.0"), (11, 7));
        assert_eq!(at(&l, "powers.0.units.1"), (12, 9));
        assert_eq!(at(&l, "provinces.0.army.0"), (16, 7));
        assert_eq!(at(&l, "provinces.0.army.1"), (17, 7));
        assert_eq!(at(&l, "provinces.0.coasts.0.id"), (19, 13));
        assert_eq!(at(&l, "provinces.0.coasts.0.fleet.0"), (20, 17));
        assert_eq!(at(&l, "provinces.1.id"), (22, 9));
        assert!(l.value("text").is_none());
        // Broken flow collections end; they do not hang the scan.
        for bad in [
            "a: {b: c ]",
            "a: [b, {c: ]",
            "a: {]]]",
            "a: [",
            "a: {b: [c, d}, e: f",
        ] {
            let _ = Locations::scan(bad);
        }
        assert_eq!(
            l.nearest("provinces.0.army.7"),
            Pos {
                line: 15,
                column: 11
            }
        );
    }

    /// List items are kept per list, by index; a mapping whose keys are numbers keeps
    /// the first position of each key, in whatever order its keys come.
    #[test]
    fn items_by_index_and_numbers_as_keys() {
        let src = "\
years:
  1: a
  0: b
  1: c
  01: d
list: [x, y,
  z]
nested:
  - [p, q]
  - r
";
        let l = Locations::scan(src);
        assert_eq!(at(&l, "years.1"), (2, 6));
        assert_eq!(at(&l, "years.0"), (3, 6));
        assert_eq!(at(&l, "years.01"), (5, 7));
        assert_eq!(at(&l, "list.0"), (6, 8));
        assert_eq!(at(&l, "list.2"), (7, 3));
        assert!(l.value("list.3").is_none());
        assert!(l.value("list.02").is_none());
        assert_eq!(at(&l, "nested.0"), (9, 5));
        assert_eq!(at(&l, "nested.0.1"), (9, 9));
        assert_eq!(at(&l, "nested.1"), (10, 5));
    }

    /// The loader's index answers by text, and differently from the path scan where
    /// that would move the loader's reported lines: a repeated id is found at its first
    /// block, a word on a later line of a flow list falls back to the item's line.
    #[test]
    fn lines_answer_by_text() {
        let src = "\
provinces:
  - id: aaa
    army: [bbb,
      ccc]
  - id: aaa
    name: 'Two Words'
";
        let l = Lines::new(src);
        assert_eq!(l.block("provinces", "aaa"), 2);
        let at = l.at_block("provinces", "aaa");
        assert_eq!((at.line, at.column), (2, 9));
        let at = l.at(2, "army", Some("bbb"));
        assert_eq!((at.line, at.column), (3, 12));
        assert_eq!(l.key(2, "army", Some("ccc")), 2);
        assert_eq!(l.column(6, "Two Words"), 12);
        let p = Locations::scan(src);
        assert_eq!(p.value("provinces.1.id").map(|p| p.line), Some(5));
        assert_eq!(p.value("provinces.0.army.1").map(|p| p.line), Some(4));
    }

    /// A map written in flow style (`{id: aaa, army: [bbb]}` per line): the loader's
    /// messages point at the item and the word, not at line 1.
    #[test]
    fn lines_answer_in_flow_style() {
        let src = "\
name: tiny
provinces: [
  {id: aaa, name: Aaa, kind: land, army: [bbb, zzz]},
  {id: bbb, name: Bbb, kind: land, army: [aaa]},
  { id: ccc, name: 'C, id: x', army: [qqq] }
]
";
        let l = Lines::new(src);
        assert_eq!(l.block("provinces", "aaa"), 3);
        assert_eq!(l.block("provinces", "ccc"), 5);
        let at = l.at_block("provinces", "bbb");
        assert_eq!((at.line, at.column), (4, 8));
        let at = l.at(3, "army", Some("zzz"));
        assert_eq!((at.line, at.column), (3, 48));
        // The next item ends the block: `aaa` on line 4 is not item 3's.
        assert_eq!(l.key(3, "army", Some("aaa")), 3);
        assert_eq!(l.key(5, "army", Some("qqq")), 5);
    }
}
