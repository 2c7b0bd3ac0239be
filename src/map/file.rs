//! The map file schema, as serde reads it (documented in `docs/MAPS.md`).
//! [`super::build`] turns this into a [`super::Map`] and checks it.

use serde::Deserialize;

use super::{BuildRule, Season, Terrain};

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    /// Who designed the board.
    #[serde(default)]
    pub designer: Option<String>,
    /// Where the board was published or transcribed from.
    #[serde(default)]
    pub source: Option<String>,
    /// A few sentences on the board for players.
    #[serde(default)]
    pub description: Option<String>,
    pub start: Start,
    pub victory: u16,
    /// Where a power may build (default: its home centres).
    #[serde(default)]
    pub builds: BuildRule,
    pub powers: Vec<PowerFile>,
    pub provinces: Vec<ProvinceFile>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Start {
    pub season: Season,
    pub year: i32,
    /// The first phase's kind; by default the season's first (`winter`: adjustment,
    /// else movement). A start in a retreat phase is refused (nobody is dislodged).
    #[serde(default)]
    pub kind: Option<StartKind>,
}

/// The kind of the first phase, as a map file writes it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum StartKind {
    Movement,
    Retreat,
    Adjustment,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PowerFile {
    pub id: String,
    pub name: String,
    pub adjective: String,
    pub home: Vec<String>,
    /// Supply centres owned at the start that are not home centres (colonies).
    #[serde(default)]
    pub owns: Vec<String>,
    /// Home centres of this power that start unowned (a DPjudge `OWNS` list that
    /// leaves them out).
    #[serde(default)]
    pub unowned_homes: Vec<String>,
    /// Starting units, `A par`, `F stp/sc`.
    #[serde(default)]
    pub units: Vec<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ProvinceFile {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub kind: Terrain,
    #[serde(default)]
    pub supply: bool,
    #[serde(default)]
    pub home: Option<String>,
    /// `false`: no unit may be built in this supply centre, whatever the build rule.
    #[serde(default)]
    pub build: Option<bool>,
    #[serde(default)]
    pub at: Option<(i32, i32)>,
    /// Provinces an army may move to.
    #[serde(default)]
    pub army: Vec<String>,
    /// Locations a fleet may move to (`spa/nc` for a coast of a split province).
    /// Only for provinces without named coasts.
    #[serde(default)]
    pub fleet: Vec<String>,
    #[serde(default)]
    pub coasts: Vec<CoastFile>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CoastFile {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub at: Option<(i32, i32)>,
    /// Locations a fleet on this coast may move to.
    pub fleet: Vec<String>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_streaming_reader_reads_a_map_as_serde_yaml_does() {
        let maps = crate::yaml::repo_texts("maps", ".yaml")
            .into_iter()
            .filter(|(name, _)| !name.ends_with(".drawing.yaml") && !name.ends_with(".geo.yaml"));
        for (name, text) in maps.chain(crate::yaml::repo_texts("test-cases/maps", ".ymap")) {
            crate::yaml::assert_readers_agree::<super::MapFile>(&text, &name);
        }
    }
}
