//! Name lookup: ids, full names and aliases of provinces, coasts and powers, all
//! normalized once when the index is built; "did you mean" by edit distance.

use std::collections::HashMap;

use crate::map::{Loc, Map, Power};

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
                if space && n > 0 {
                    buf[n] = b' ';
                    n += 1;
                }
                space = false;
                buf[n] = b.to_ascii_lowercase();
                n += 1;
            }
        }
    }
    f(std::str::from_utf8(&buf[..n]).expect("ASCII"))
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

/// Every name a player may write, normalized, with what it means.
#[derive(Debug, Clone)]
pub struct NameIndex {
    places: FastMap<String, Vec<Loc>>,
    /// Coast words (`nc`, `north coast`, `north`) to coast ids of the map.
    coasts: FastMap<String, String>,
    powers: FastMap<String, Power>,
    /// Longest name, in words.
    pub max_words: usize,
}

impl NameIndex {
    pub fn new(map: &Map) -> NameIndex {
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
        let max_words = places
            .keys()
            .map(|k| k.split(' ').count())
            .max()
            .unwrap_or(1);
        let mut coasts = FastMap::default();
        for c in &map.coasts {
            let id = c.id.clone();
            coasts.insert(normalize(&c.id), id.clone());
            coasts.insert(normalize(&c.name), id.clone());
            for a in &c.aliases {
                coasts.insert(normalize(a), id.clone());
            }
            if let Some(first) = normalize(&c.name).split(' ').next() {
                coasts.insert(first.to_string(), id.clone());
                if let Some(ch) = first.chars().next() {
                    coasts.insert(ch.to_string(), id.clone());
                    coasts.insert(format!("{ch} c"), id.clone());
                }
            }
        }
        let mut powers = FastMap::default();
        for pw in map.power_ids() {
            let info = map.power(pw);
            for n in [&info.id, &info.name, &info.adjective] {
                powers.insert(normalize(n), pw);
            }
        }
        NameIndex {
            places,
            coasts,
            powers,
            max_words: max_words.max(1),
        }
    }

    /// The locations a normalized name may mean (empty if none).
    pub fn place(&self, norm: &str) -> &[Loc] {
        self.places.get(norm).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// The provinces whose name or alias starts with `norm` (at least three letters),
    /// for names written short (`Gasc`, `North Atl`). Used only when nothing matches
    /// exactly.
    pub fn by_prefix(&self, map: &Map, norm: &str) -> Vec<Loc> {
        let mut out: Vec<Loc> = Vec::new();
        if norm.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
            return out;
        }
        for (name, locs) in &self.places {
            if name.starts_with(norm) {
                for &l in locs {
                    if !out.contains(&l) {
                        out.push(l);
                    }
                }
            }
        }
        out.sort_by_key(|&l| map.loc_id(l));
        out
    }

    /// The coast id a normalized coast word means.
    pub fn coast(&self, norm: &str) -> Option<&str> {
        self.coasts.get(norm).map(|s| s.as_str())
    }

    /// The power a normalized name or adjective means.
    pub fn power(&self, norm: &str) -> Option<Power> {
        self.powers.get(norm).copied()
    }

    /// The closest known place name to `word`, if close enough to be a likely typo.
    pub fn suggest(&self, map: &Map, word: &str) -> Option<String> {
        let w = normalize(word);
        if w.is_empty() {
            return None;
        }
        let limit = (w.chars().count() / 3).clamp(1, 3);
        let mut best: Option<(usize, &str, Loc)> = None;
        for (name, locs) in &self.places {
            let d = levenshtein(&w, name);
            if d <= limit
                && best.is_none_or(|(bd, bn, _)| d < bd || (d == bd && name.as_str() < bn))
            {
                best = Some((d, name, locs[0]));
            }
        }
        best.map(|(_, _, loc)| {
            let p = map.province(map.prov_of(loc));
            format!("did you mean `{}` ({})?", p.name, p.id)
        })
    }
}

/// Edit distance (insert, delete, substitute), on chars.
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
    fn edit_distance() {
        assert_eq!(levenshtein("burgandi", "burgundy"), 2);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("kiel", "kiel"), 0);
    }
}
