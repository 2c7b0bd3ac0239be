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

/// Every name a player may write, normalized, with what it means.
#[derive(Debug, Clone)]
pub struct NameIndex {
    places: HashMap<String, Vec<Loc>>,
    /// Coast words (`nc`, `north coast`, `north`) to coast ids of the map.
    coasts: HashMap<String, String>,
    powers: HashMap<String, Power>,
    /// Longest name, in words.
    pub max_words: usize,
}

impl NameIndex {
    pub fn new(map: &Map) -> NameIndex {
        let mut places: HashMap<String, Vec<Loc>> = HashMap::new();
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
        let max_words = places.keys().map(|k| k.split(' ').count()).max().unwrap_or(1);
        let mut coasts = HashMap::new();
        for c in &map.coasts {
            let id = c.id.clone();
            coasts.insert(normalize(&c.id), id.clone());
            coasts.insert(normalize(&c.name), id.clone());
            if let Some(first) = normalize(&c.name).split(' ').next() {
                coasts.insert(first.to_string(), id.clone());
                if let Some(ch) = first.chars().next() {
                    coasts.insert(ch.to_string(), id.clone());
                    coasts.insert(format!("{ch} c"), id.clone());
                }
            }
        }
        let mut powers = HashMap::new();
        for pw in map.power_ids() {
            let info = map.power(pw);
            for n in [&info.id, &info.name, &info.adjective] {
                powers.insert(normalize(n), pw);
            }
        }
        NameIndex { places, coasts, powers, max_words: max_words.max(1) }
    }

    /// The locations a normalized name may mean (empty if none).
    pub fn place(&self, norm: &str) -> &[Loc] {
        self.places.get(norm).map(|v| v.as_slice()).unwrap_or(&[])
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
            if d <= limit && best.is_none_or(|(bd, bn, _)| d < bd || (d == bd && name.as_str() < bn)) {
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
