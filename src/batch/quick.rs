//! A quick reader for the common batch line: an object with `id`, `map`, `phase`,
//! `rules`, `units`, `orders`, `legal` and `last_year`, strings without escapes. It
//! reads a line exactly as serde would or not at all: on anything else (another key,
//! an escape, a key given twice, any doubt about the syntax) it gives `None` and the
//! line is read by serde, which also words every error. The format is serde's
//! [`BatchLine`]; this only skips serde's work on the lines that need none of it.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::{BatchLine, PowerLists, Text};

/// `line` as serde reads it into a [`BatchLine`], or `None`: let serde read it.
pub(super) fn read(line: &str) -> Option<BatchLine<'_>> {
    let mut r = Reader { line, at: 0 };
    let mut c = BatchLine {
        id: None,
        map: None,
        phase: None,
        rules: None,
        units: PowerLists::with_capacity(),
        orders: PowerLists::with_capacity(),
        dislodged: Vec::new(),
        centres: None,
        saved: Default::default(),
        last_year: None,
        legal: false,
    };
    let mut seen = 0u8;
    r.punct(b'{')?;
    if !r.eat(b'}') {
        loop {
            let key = r.string()?;
            r.punct(b':')?;
            let bit = match key {
                "id" => {
                    // As serde reads an `Option`: `null` is none.
                    c.id = r.raw_value().map(|v| (v.get() != "null").then_some(v))?;
                    1
                }
                "map" => {
                    c.map = r.opt_string()?.map(Cow::Borrowed);
                    2
                }
                "phase" => {
                    c.phase = r.opt_string()?.map(Cow::Borrowed);
                    4
                }
                "rules" => {
                    c.rules = r.opt_string()?.map(Cow::Borrowed);
                    8
                }
                "units" => {
                    r.power_lists(&mut c.units)?;
                    16
                }
                "orders" => {
                    r.power_lists(&mut c.orders)?;
                    32
                }
                "legal" => {
                    c.legal = r.boolean()?;
                    64
                }
                "last_year" => {
                    c.last_year = r.opt_year()?;
                    128
                }
                _ => return None,
            };
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            if !r.eat(b',') {
                break;
            }
        }
        r.punct(b'}')?;
    }
    r.ws();
    (r.at == line.len()).then_some(c)
}

struct Reader<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.line.as_bytes().get(self.at).copied()
    }

    /// Skip JSON whitespace.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// After whitespace, `b`: eat it.
    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        let here = self.peek() == Some(b);
        if here {
            self.at += 1;
        }
        here
    }

    fn punct(&mut self, b: u8) -> Option<()> {
        self.eat(b).then_some(())
    }

    /// A string with no escape (and no control character).
    fn string(&mut self) -> Option<&'a str> {
        self.punct(b'"')?;
        let bytes = self.line.as_bytes();
        let start = self.at;
        let mut i = start;
        // Eight bytes at a time: the first byte that is a quote, a backslash or a
        // control character ends the string, or the quick reading.
        while let Some(w) = bytes
            .get(i..i + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
        {
            let found = escapes(u64::from_le_bytes(w));
            if found != 0 {
                i += (found.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        loop {
            match *bytes.get(i)? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => i += 1,
            }
        }
        self.at = i + 1;
        // `start` and `i` are at ASCII quotes: both are character boundaries.
        self.line.get(start..i)
    }

    /// A string or `null`.
    fn opt_string(&mut self) -> Option<Option<&'a str>> {
        if self.literal("null") {
            return Some(None);
        }
        self.string().map(Some)
    }

    /// After whitespace, the word `w` (not followed by more of a word).
    fn literal(&mut self, w: &str) -> bool {
        self.ws();
        let rest = self.line.get(self.at..).unwrap_or_default();
        let here = rest.starts_with(w)
            && !rest
                .as_bytes()
                .get(w.len())
                .is_some_and(u8::is_ascii_alphanumeric);
        if here {
            self.at += w.len();
        }
        here
    }

    fn boolean(&mut self) -> Option<bool> {
        if self.literal("true") {
            Some(true)
        } else if self.literal("false") {
            Some(false)
        } else {
            None
        }
    }

    /// `null` or a year: an integer that fits an `i32`, written plainly.
    fn opt_year(&mut self) -> Option<Option<i32>> {
        if self.literal("null") {
            return Some(None);
        }
        self.ws();
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        let text = self.line.get(start..self.at)?;
        // No leading zero, no `-0` (a float to serde), no fraction or exponent: those
        // are serde's to judge.
        let plain = match self.line.as_bytes().get(digits..self.at)? {
            [] | [b'0', _, ..] => false,
            [b'0'] => digits == start,
            _ => true,
        };
        if !plain || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        text.parse().ok().map(Some)
    }

    /// The `id`: a number, a string without escapes, `true`, `false` or `null`, as
    /// written (checked by serde).
    fn raw_value(&mut self) -> Option<&'a RawValue> {
        self.ws();
        let start = self.at;
        match self.peek()? {
            b'"' => {
                self.string()?;
            }
            b'-' | b'0'..=b'9' => {
                while self
                    .peek()
                    .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    self.at += 1;
                }
            }
            b't' | b'f' | b'n' => {
                if !(self.literal("true") || self.literal("false") || self.literal("null")) {
                    return None;
                }
            }
            _ => return None,
        }
        serde_json::from_str(self.line.get(start..self.at)?).ok()
    }

    /// `{"power": ["text", …], …}`, each power once.
    fn power_lists(&mut self, out: &mut PowerLists<'a>) -> Option<()> {
        self.punct(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let power = self.string()?;
            if out.has(power) {
                return None;
            }
            self.punct(b':')?;
            self.punct(b'[')?;
            let start = out.items.len();
            if !self.eat(b']') {
                loop {
                    out.items.push(Text(Cow::Borrowed(self.string()?)));
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.punct(b']')?;
            }
            out.powers
                .push((Text(Cow::Borrowed(power)), start..out.items.len()));
            if !self.eat(b',') {
                break;
            }
        }
        self.punct(b'}')
    }
}

/// The bytes of `x` that need an escape in a JSON string (`"`, `\`, below 0x20), as
/// the high bit of each byte. The lowest bit set is exact (and none is set if none
/// needs one): a borrow can only mark a byte above one marked rightly.
fn escapes(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v;
    let control = x.wrapping_sub(ONES * 0x20) & !x;
    let quote = zero(x ^ (ONES * u64::from(b'"')));
    let backslash = zero(x ^ (ONES * u64::from(b'\\')));
    (control | quote | backslash) & HIGH
}
