//! Text that is not UTF-8, told the same way at every door (the commands, batch, the
//! server, the Python package): UTF-16 by its byte-order mark or its zero bytes, else
//! the line and column of the first byte that is not UTF-8 and, for a Latin-1 or
//! Windows-1252 byte, the character it would be there; each says to save the text as
//! UTF-8.

/// Bytes as UTF-8 text. A leading byte-order mark (as Windows editors and jDip write)
/// is dropped. Text in another encoding is refused with what it seems to be and where
/// ([`not_utf8`]).
pub fn decode(mut bytes: Vec<u8>) -> Result<String, String> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    if let Some(order) = utf16(&bytes) {
        return Err(utf16_message(order));
    }
    String::from_utf8(bytes).map_err(|e| not_utf8(e.as_bytes(), e.utf8_error().valid_up_to()))
}

/// [`decode`] of borrowed bytes: the text, or why it is not UTF-8.
pub fn decode_str(bytes: &[u8]) -> Result<&str, String> {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(order) = utf16(b) {
        return Err(utf16_message(order));
    }
    std::str::from_utf8(b).map_err(|e| not_utf8(b, e.valid_up_to()))
}

/// `Some("UTF-16 (little-endian)")` (or big-endian, or UTF-32) if `bytes` look like
/// UTF-16 or UTF-32: a byte-order mark, or zero bytes beside nine in ten of the first
/// characters (text that is mostly ASCII).
pub fn utf16(bytes: &[u8]) -> Option<&'static str> {
    let head = bytes.get(..bytes.len().min(512)).unwrap_or_default();
    // UTF-32 first: its byte-order mark begins as UTF-16's does.
    let quads = head.len() / 4;
    let wide = |at: usize| {
        head.chunks_exact(4)
            .filter(|q| q.iter().enumerate().all(|(i, &b)| i == at || b == 0))
            .count()
            * 10
            >= quads * 9
    };
    if head.starts_with(b"\xFF\xFE\x00\x00") || (quads > 0 && wide(0)) {
        return Some("UTF-32 (little-endian)");
    }
    if head.starts_with(b"\x00\x00\xFE\xFF") || (quads > 0 && wide(3)) {
        return Some("UTF-32 (big-endian)");
    }
    let zeros = |odd: bool| {
        head.iter()
            .enumerate()
            .filter(|&(i, &b)| (i % 2 == 1) == odd && b == 0)
            .count()
    };
    let pairs = head.len() / 2;
    if head.starts_with(b"\xFF\xFE") || (pairs > 0 && zeros(true) * 10 >= pairs * 9) {
        Some("UTF-16 (little-endian)")
    } else if head.starts_with(b"\xFE\xFF") || (pairs > 0 && zeros(false) * 10 >= pairs * 9) {
        Some("UTF-16 (big-endian)")
    } else {
        None
    }
}

/// The refusal of UTF-16 or UTF-32 text (`encoding`, as [`utf16`] names it).
pub fn utf16_message(encoding: &str) -> String {
    format!(
        "the file is {encoding}, not UTF-8: save it as UTF-8 (in a text editor: Save As, \
         encoding UTF-8)"
    )
}

/// Why `bytes` are not UTF-8 text, from the first bad byte at `at`: UTF-16, or the
/// line and column of that byte and what it would be in Latin-1.
pub fn not_utf8(bytes: &[u8], at: usize) -> String {
    if let Some(order) = utf16(bytes) {
        return utf16_message(order);
    }
    let before = bytes.get(..at).unwrap_or_default();
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    bad_byte(bytes, at, start, line)
}

/// Why the line `bytes` (line `line` of its text) is not UTF-8, from its first bad
/// byte at `at`: its column and what it would be in Latin-1 (batch reads one line at
/// a time).
pub fn not_utf8_line(bytes: &[u8], at: usize, line: u64) -> String {
    bad_byte(bytes, at, 0, line)
}

fn bad_byte(bytes: &[u8], at: usize, line_start: usize, line: impl std::fmt::Display) -> String {
    let column = String::from_utf8_lossy(bytes.get(line_start..at).unwrap_or_default())
        .chars()
        .count()
        + 1;
    let byte = bytes.get(at).copied().unwrap_or(0);
    let latin1 = if byte >= 0xA0 {
        format!(
            " (in Latin-1 or Windows-1252 it is `{}`: the file seems to be in that encoding)",
            char::from(byte)
        )
    } else if byte >= 0x80 {
        " (the file seems to be in Windows-1252 or another 8-bit encoding)".to_string()
    } else {
        String::new()
    };
    format!(
        "line {line}, column {column}: byte 0x{byte:02X} is not UTF-8{latin1}: save the file as \
         UTF-8 (in a text editor: Save As, encoding UTF-8)"
    )
}

/// `bytes` read as the message of [`not_utf8`] guesses: UTF-8 where they are, each
/// other byte as Latin-1 (`caf\xE9` → `café`), for quoting (an id echoed by batch).
pub fn lossy_latin1(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|&b| char::from(b)));
    }
    out
}
