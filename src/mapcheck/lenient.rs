//! The map file read without the schema's strictness, straight into the checker's own
//! types: a wrong key or value is passed over (the loader reports it), the rest is
//! kept; a list item of the wrong shape is kept as an empty one, so that item `i` of a
//! list stays item `i` of its path.
//!
//! It reads what a `serde_yaml::Value` tree reads (a string, number or boolean is
//! text; a tagged value is nothing) without building that tree: the tree of a map of a
//! few MB (about 80 bytes for each neighbour of each list, besides its text) took over
//! 20 times the file.

use serde::de::{self, Deserialize, Deserializer, EnumAccess, IgnoredAny, MapAccess};
use serde::de::{SeqAccess, VariantAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// A scalar as YAML gives it.
pub(super) enum Scalar<'a> {
    Str(&'a str),
    Int(i64),
    UInt(u64),
    Float(f64),
    Bool(bool),
    /// `null`, `~` or nothing.
    Null,
}

/// A type read leniently: from a scalar, a list or a mapping, each answer by default
/// the type's default (the value passed over).
pub(super) trait Lenient<'de>: Sized + Default {
    fn scalar(_: Scalar) -> Self {
        Self::default()
    }
    fn seq<A: SeqAccess<'de>>(mut s: A) -> Result<Self, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
    fn map<A: MapAccess<'de>>(mut m: A) -> Result<Self, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
}

struct V<T>(PhantomData<T>);

impl<'de, T: Lenient<'de>> Visitor<'de> for V<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        Ok(T::scalar(Scalar::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Ok(T::scalar(Scalar::Int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok(T::scalar(Scalar::UInt(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Ok(T::scalar(Scalar::Float(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(T::scalar(Scalar::Str(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok(T::scalar(Scalar::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Ok(T::scalar(Scalar::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<T, A::Error> {
        T::seq(s)
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<T, A::Error> {
        T::map(m)
    }
    fn visit_enum<A: EnumAccess<'de>>(self, e: A) -> Result<T, A::Error> {
        // A tagged value (`!tag value`): nothing, as `Value::Tagged` was.
        let (_, v) = e.variant::<IgnoredAny>()?;
        v.newtype_variant::<IgnoredAny>()?;
        Ok(T::default())
    }
}

/// `Deserialize` for a [`Lenient`] type.
macro_rules! deserialize_leniently {
    ($($t:ty),*) => {$(
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(V::<Self>(PhantomData))
            }
        }
    )*};
}

/// Text: a string, a number or a boolean as written; anything else is empty.
#[derive(Default)]
pub(super) struct Text(pub String);

impl Lenient<'_> for Text {
    fn scalar(s: Scalar) -> Self {
        Text(match s {
            Scalar::Str(s) => s.to_string(),
            Scalar::Int(n) => n.to_string(),
            Scalar::UInt(n) => n.to_string(),
            Scalar::Float(n) => serde_yaml::Number::from(n).to_string(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Null => String::new(),
        })
    }
}

/// A boolean, else nothing.
#[derive(Default)]
pub(super) struct Bool(pub Option<bool>);

impl Lenient<'_> for Bool {
    fn scalar(s: Scalar) -> Self {
        Bool(match s {
            Scalar::Bool(b) => Some(b),
            _ => None,
        })
    }
}

/// A number, else nothing.
#[derive(Default)]
pub(super) struct Num(pub Option<f64>);

impl Lenient<'_> for Num {
    fn scalar(s: Scalar) -> Self {
        Num(match s {
            Scalar::Int(n) => Some(n as f64),
            Scalar::UInt(n) => Some(n as f64),
            Scalar::Float(n) => Some(n),
            _ => None,
        })
    }
}

/// An integer that fits an `i64`, else nothing.
#[derive(Default)]
pub(super) struct Int(pub Option<i64>);

impl Lenient<'_> for Int {
    fn scalar(s: Scalar) -> Self {
        Int(match s {
            Scalar::Int(n) => Some(n),
            Scalar::UInt(n) => i64::try_from(n).ok(),
            _ => None,
        })
    }
}

/// A drawing position: a list of exactly two numbers, else nothing.
#[derive(Default)]
pub(super) struct At(pub Option<(f64, f64)>);

impl<'de> Lenient<'de> for At {
    fn seq<A: SeqAccess<'de>>(mut s: A) -> Result<Self, A::Error> {
        let mut xy = [None, None];
        let mut n = 0usize;
        while let Some(Num(v)) = s.next_element::<Num>()? {
            if let Some(slot) = xy.get_mut(n) {
                *slot = v;
            }
            n += 1;
        }
        Ok(At(match (n, xy) {
            (2, [Some(x), Some(y)]) => Some((x, y)),
            _ => None,
        }))
    }
}

/// A list of lenient items; anything else is empty.
pub(super) struct List<T>(pub Vec<T>);

impl<T> Default for List<T> {
    fn default() -> Self {
        List(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Lenient<'de> for List<T> {
    fn seq<A: SeqAccess<'de>>(mut s: A) -> Result<Self, A::Error> {
        let mut out = Vec::new();
        while let Some(x) = s.next_element::<T>()? {
            out.push(x);
        }
        Ok(List(out))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(V::<Self>(PhantomData))
    }
}

/// `T` read from a mapping (its fields lenient, each with a default), its default from
/// anything else.
#[derive(Default)]
pub(super) struct Or<T>(pub T);

impl<'de, T: Deserialize<'de> + Default> Lenient<'de> for Or<T> {
    fn map<A: MapAccess<'de>>(m: A) -> Result<Self, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(m)).map(Or)
    }
}

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for Or<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(V::<Self>(PhantomData))
    }
}

deserialize_leniently!(Text, Bool, Num, Int, At);

/// The parts of a map file the checker reads.
#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(super) struct File {
    pub provinces: List<Or<Province>>,
    pub powers: List<Or<Power>>,
    pub victory: Int,
    pub builds: Text,
}

#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(super) struct Province {
    pub id: Text,
    pub name: Text,
    pub aliases: List<Text>,
    pub kind: Text,
    pub supply: Bool,
    pub build: Bool,
    pub at: At,
    pub army: List<Text>,
    pub fleet: List<Text>,
    pub coasts: List<Or<Coast>>,
}

#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(super) struct Coast {
    pub id: Text,
    pub name: Text,
    pub fleet: List<Text>,
}

#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(super) struct Power {
    pub id: Text,
    pub name: Text,
    pub adjective: Text,
    pub home: List<Text>,
    pub owns: List<Text>,
    pub units: List<Text>,
}

/// Read `src` leniently: `None` when it is not YAML (the loader says why).
pub(super) fn read(src: &str) -> Option<File> {
    // The provinces a few at a time, as the loader reads them (`check_all` has let the
    // text through the guard; its count says whether the rest may be read whole).
    let put = |f: &mut Or<File>, provinces| f.0.provinces = List(provinces);
    let guarded = crate::yaml::guard(src).ok()?;
    crate::yaml::read_with_pieces(src, guarded, "provinces", put)
        .ok()
        .map(|f| f.0)
}
