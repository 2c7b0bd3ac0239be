//! A fixed-width bit set of provinces: the adjacency tables and the resolver's scratch sets.

use super::Prov;

/// A set of provinces (up to [`super::MAX_PROVINCES`]), four machine words, `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ProvSet([u64; 4]);

impl ProvSet {
    pub const EMPTY: ProvSet = ProvSet([0; 4]);

    pub fn insert(&mut self, p: Prov) {
        self.0[(p.0 >> 6) as usize] |= 1 << (p.0 & 63);
    }

    pub fn remove(&mut self, p: Prov) {
        self.0[(p.0 >> 6) as usize] &= !(1 << (p.0 & 63));
    }

    pub fn contains(&self, p: Prov) -> bool {
        self.0[(p.0 >> 6) as usize] & (1 << (p.0 & 63)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn and(&self, o: &ProvSet) -> ProvSet {
        ProvSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    pub fn or(&self, o: &ProvSet) -> ProvSet {
        ProvSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    pub fn minus(&self, o: &ProvSet) -> ProvSet {
        ProvSet(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    pub fn intersects(&self, o: &ProvSet) -> bool {
        (0..4).any(|i| self.0[i] & o.0[i] != 0)
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Prov> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let t = b.trailing_zeros();
                b &= b - 1;
                Some(Prov((w as u32 * 64 + t) as u8))
            })
        })
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
