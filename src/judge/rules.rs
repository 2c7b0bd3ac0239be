//! Rule editions: named values, kept apart from the engine (see `docs/RULES.md`).

/// The rules in force. Only the default edition (`2023`: the 2023 rulebook with
/// every DATC v3.0 preference) is implemented so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    #[default]
    Edition2023,
}

impl Rules {
    /// The edition's name as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Edition2023 => "2023",
        }
    }

    /// Read an edition name.
    pub fn parse(s: &str) -> Option<Rules> {
        match s.trim() {
            "2023" | "default" | "datc-3.0" => Some(Rules::Edition2023),
            _ => None,
        }
    }
}
