//! A fixed-width bit set of provinces: the adjacency tables and the resolver's scratch sets.

// Words are indexed by `Prov >> 6`: the map loader refuses a map of more than
// MAX_PROVINCES provinces (build.rs, size limits), so every province id of a loaded
// map is below MAX_PROVINCES = 64 * WORDS and `p.0 >> 6 < WORDS`. An id from
// outside the map is refused by `game::check_ids` first. Out of range is a bug.
#![allow(clippy::indexing_slicing)]

use super::Prov;

/// Machine words in a [`ProvSet`]: 8 × 64 = 512 provinces ([`super::MAX_PROVINCES`]).
const WORDS: usize = super::MAX_PROVINCES / 64;

/// A set of provinces (up to [`super::MAX_PROVINCES`]), eight machine words, `Copy`.
///
/// The width is fixed so a set never allocates and every operation is a short loop
/// over words that the compiler unrolls and vectorises. On the classic board only
/// the first two words are ever set; the others cost a few more word operations.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ProvSet([u64; WORDS]);

impl ProvSet {
    pub const EMPTY: ProvSet = ProvSet([0; WORDS]);

    #[inline]
    pub fn insert(&mut self, p: Prov) {
        self.0[(p.0 >> 6) as usize] |= 1 << (p.0 & 63);
    }

    #[inline]
    pub fn remove(&mut self, p: Prov) {
        self.0[(p.0 >> 6) as usize] &= !(1 << (p.0 & 63));
    }

    #[inline]
    pub fn contains(&self, p: Prov) -> bool {
        self.0[(p.0 >> 6) as usize] & (1 << (p.0 & 63)) != 0
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub fn and(&self, o: &ProvSet) -> ProvSet {
        ProvSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    #[inline]
    pub fn or(&self, o: &ProvSet) -> ProvSet {
        ProvSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    #[inline]
    pub fn minus(&self, o: &ProvSet) -> ProvSet {
        ProvSet(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    #[inline]
    pub fn intersects(&self, o: &ProvSet) -> bool {
        (0..WORDS).fold(0, |acc, i| acc | (self.0[i] & o.0[i])) != 0
    }

    /// The set as one `u128` (bit `i`: province `i`), when every member is below 128.
    #[inline]
    pub fn as_u128(&self) -> Option<u128> {
        if self.0[2..].iter().any(|&w| w != 0) {
            return None;
        }
        Some(u128::from(self.0[0]) | u128::from(self.0[1]) << 64)
    }

    /// The members in increasing order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            words: &self.0,
            word: 0,
            bits: self.0[0],
        }
    }
}

/// How many members are left to return: those of the current word not yet
/// returned and those of the words after it.
#[inline]
fn remaining(bits: u64, later: &[u64]) -> usize {
    (bits.count_ones() + later.iter().map(|w| w.count_ones()).sum::<u32>()) as usize
}

/// The members of a [`ProvSet`] in increasing order.
pub struct Iter<'a> {
    words: &'a [u64; WORDS],
    /// The word `bits` came from.
    word: usize,
    /// The members of that word not yet returned.
    bits: u64,
}

impl Iterator for Iter<'_> {
    type Item = Prov;

    #[inline]
    fn next(&mut self) -> Option<Prov> {
        while self.bits == 0 {
            self.word += 1;
            if self.word == WORDS {
                self.word -= 1;
                return None;
            }
            self.bits = self.words[self.word];
        }
        let t = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(Prov((self.word as u32 * 64 + t) as u16))
    }

    /// Exact, so that collecting a set reserves its room once.
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = remaining(self.bits, &self.words[self.word + 1..]);
        (n, Some(n))
    }
}

/// The members of a [`ProvSet`] taken by value, in increasing order.
pub struct IntoIter {
    words: [u64; WORDS],
    word: usize,
    bits: u64,
}

impl Iterator for IntoIter {
    type Item = Prov;

    #[inline]
    fn next(&mut self) -> Option<Prov> {
        while self.bits == 0 {
            self.word += 1;
            if self.word == WORDS {
                self.word -= 1;
                return None;
            }
            self.bits = self.words[self.word];
        }
        let t = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(Prov((self.word as u32 * 64 + t) as u16))
    }

    /// Exact, so that collecting a set reserves its room once.
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = remaining(self.bits, &self.words[self.word + 1..]);
        (n, Some(n))
    }
}

impl IntoIterator for ProvSet {
    type Item = Prov;
    type IntoIter = IntoIter;

    #[inline]
    fn into_iter(self) -> IntoIter {
        IntoIter {
            words: self.0,
            word: 0,
            bits: self.0[0],
        }
    }
}

impl std::fmt::Debug for ProvSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter().map(|p| p.0)).finish()
    }
}

impl FromIterator<Prov> for ProvSet {
    fn from_iter<I: IntoIterator<Item = Prov>>(it: I) -> Self {
        let mut s = ProvSet::EMPTY;
        for p in it {
            s.insert(p);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_province_up_to_the_limit_fits() {
        let all: ProvSet = (0..super::super::MAX_PROVINCES as u16).map(Prov).collect();
        assert_eq!(all.len(), super::super::MAX_PROVINCES);
        let last = Prov(super::super::MAX_PROVINCES as u16 - 1);
        assert!(all.contains(last));
        let mut s = ProvSet::EMPTY;
        s.insert(last);
        s.insert(Prov(300));
        s.insert(Prov(3));
        assert_eq!(s.iter().collect::<Vec<_>>(), [Prov(3), Prov(300), last]);
        assert!(s.intersects(&all) && !s.minus(&all).intersects(&all));
        s.remove(Prov(300));
        assert_eq!(s.len(), 2);
        assert_eq!(s.as_u128(), None);
        s.remove(last);
        assert_eq!(s.as_u128(), Some(1 << 3));
        assert!(!s.is_empty() && ProvSet::EMPTY.is_empty());
    }
}
