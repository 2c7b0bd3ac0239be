//! Compile a [`MapFile`] into a [`Map`]: assign dense ids, build the adjacency tables,
//! and reject every inconsistency with file, line and key.

use std::collections::HashMap;

use super::file::MapFile;
use super::{Coast, Loc, Map, Power, PowerInfo, Prov, ProvSet, Province, Terrain, UnitKind};

/// One problem in a map file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapProblem {
    pub line: usize,
    pub key: String,
    pub message: String,
}

/// A map that could not be loaded: every problem found, each with its line.
#[derive(Debug, thiserror::Error)]
#[error("{}", render(.file, .problems))]
pub struct MapError {
    pub file: String,
    pub problems: Vec<MapProblem>,
}

fn render(file: &str, problems: &[MapProblem]) -> String {
    problems
        .iter()
        .map(|p| format!("{file}:{}: {}: {}", p.line, p.key, p.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Finds the line of a key in the source text, for messages about values serde has
/// already read (serde_yaml keeps no positions past parsing).
struct Lines<'a> {
    lines: Vec<&'a str>,
}

impl<'a> Lines<'a> {
    fn new(src: &'a str) -> Self {
        Lines {
            lines: src.lines().collect(),
        }
    }

    /// Line (1-based) of the block `- id: <id>` in `section`, or of the section.
    fn block(&self, section: &str, id: &str) -> usize {
        let start = self
            .lines
            .iter()
            .position(|l| l.trim_end() == format!("{section}:"))
            .unwrap_or(0);
        for (i, l) in self.lines.iter().enumerate().skip(start) {
            let t = l.trim_start().trim_start_matches("- ").trim();
            if t == format!("id: {id}") {
                return i + 1;
            }
        }
        start + 1
    }

    /// Line of `key:` (containing `word`, if given) in the list item that starts at
    /// line `from` (1-based), nested items included; `from` if not found.
    fn key(&self, from: usize, key: &str, word: Option<&str>) -> usize {
        let start = from.saturating_sub(1);
        let indent = |l: &str| l.len() - l.trim_start().len();
        let own = self.lines.get(start).map(|l| indent(l)).unwrap_or(0);
        for (i, l) in self.lines.iter().enumerate().skip(start) {
            let t = l.trim_start();
            // The next item at this level or above ends the block.
            if i > start && t.starts_with("- ") && indent(l) <= own {
                break;
            }
            let t = t.trim_start_matches("- ");
            if t.starts_with(&format!("{key}:")) && word.is_none_or(|w| contains_word(t, w)) {
                return i + 1;
            }
        }
        from
    }
}

fn contains_word(line: &str, w: &str) -> bool {
    line.split(|c: char| !(c.is_alphanumeric() || c == '/' || c == '_' || c == '-'))
        .any(|t| t == w)
}

impl Map {
    /// Load a map from YAML text; `file` names it in error messages.
    pub fn from_yaml(src: &str, file: &str) -> Result<Map, MapError> {
        let parsed: MapFile = serde_yaml::from_str(src).map_err(|e| MapError {
            file: file.to_string(),
            problems: vec![MapProblem {
                line: e.location().map(|l| l.line()).unwrap_or(0),
                key: "yaml".into(),
                message: e.to_string(),
            }],
        })?;
        build(parsed, src, file)
    }
}

fn build(f: MapFile, src: &str, file: &str) -> Result<Map, MapError> {
    let lines = Lines::new(src);
    let mut problems = Vec::new();
    let mut problem = |line: usize, key: String, message: String| {
        problems.push(MapProblem { line, key, message });
    };

    if f.provinces.len() > super::MAX_PROVINCES {
        problem(
            lines.key(1, "provinces", None),
            "provinces".into(),
            format!(
                "{} provinces; a map may have at most {}",
                f.provinces.len(),
                super::MAX_PROVINCES
            ),
        );
    }
    if f.powers.len() > 64 {
        problem(
            lines.key(1, "powers", None),
            "powers".into(),
            "at most 64 powers".into(),
        );
    }

    // Province ids and names.
    let n = f.provinces.len().min(super::MAX_PROVINCES);
    let mut prov_ids: HashMap<String, Prov> = HashMap::new();
    // Every id is a name too: a name or alias may not be another province's id.
    let mut names: HashMap<String, String> = f
        .provinces
        .iter()
        .map(|p| (super::names::normalize(&p.id), p.id.to_ascii_lowercase()))
        .collect();
    for (i, p) in f.provinces.iter().take(n).enumerate() {
        let line = lines.block("provinces", &p.id);
        let id = p.id.to_ascii_lowercase();
        if id.is_empty() || id.contains('/') || id.contains(char::is_whitespace) {
            problem(
                line,
                format!("provinces.{}.id", p.id),
                "an id is one word without `/`".into(),
            );
        }
        if prov_ids.insert(id.clone(), Prov(i as u8)).is_some() {
            problem(
                line,
                format!("provinces.{}.id", p.id),
                format!("duplicate province id `{}`", p.id),
            );
        }
        for (k, name) in
            std::iter::once(("name", &p.name)).chain(p.aliases.iter().map(|a| ("aliases", a)))
        {
            let norm = super::names::normalize(name);
            if let Some(other) = names.get(&norm) {
                if other != &id {
                    problem(
                        lines.key(line, k, None),
                        format!("provinces.{}.{k}", p.id),
                        format!("duplicate name `{name}`: already a name or id of `{other}`"),
                    );
                }
            } else {
                names.insert(norm, id.clone());
            }
        }
    }
    // Powers.
    let mut power_ids: HashMap<String, Power> = HashMap::new();
    for (i, p) in f.powers.iter().enumerate() {
        let line = lines.block("powers", &p.id);
        if power_ids
            .insert(p.id.to_ascii_lowercase(), Power(i as u8))
            .is_some()
        {
            problem(
                line,
                format!("powers.{}.id", p.id),
                format!("duplicate power id `{}`", p.id),
            );
        }
    }

    // Locations: provinces, then coasts.
    let mut coasts: Vec<Coast> = Vec::new();
    let mut provinces: Vec<Province> = Vec::new();
    for (i, p) in f.provinces.iter().take(n).enumerate() {
        let line = lines.block("provinces", &p.id);
        let home = p.home.as_ref().and_then(|h| {
            let r = power_ids.get(&h.to_ascii_lowercase()).copied();
            if r.is_none() {
                problem(
                    lines.key(line, "home", None),
                    format!("provinces.{}.home", p.id),
                    format!("unknown power `{h}`"),
                );
            }
            r
        });
        if home.is_some() && !p.supply {
            problem(
                lines.key(line, "home", None),
                format!("provinces.{}.home", p.id),
                "a home province must be a supply centre (`supply: true`)".into(),
            );
        }
        let mut locs = Vec::new();
        for c in &p.coasts {
            locs.push(Loc((n + coasts.len()) as u16));
            coasts.push(Coast {
                province: Prov(i as u8),
                id: c.id.to_ascii_lowercase(),
                name: c.name.clone(),
                aliases: c.aliases.clone(),
                at: c.at,
            });
        }
        if !p.coasts.is_empty() && p.kind != Terrain::Coast {
            problem(
                lines.key(line, "coasts", None),
                format!("provinces.{}.coasts", p.id),
                "only a `coast` province may have named coasts".into(),
            );
        }
        if !p.coasts.is_empty() && !p.fleet.is_empty() {
            problem(
                lines.key(line, "fleet", None),
                format!("provinces.{}.fleet", p.id),
                "a split province lists fleet neighbours under each coast, not `fleet`".into(),
            );
        }
        provinces.push(Province {
            id: p.id.to_ascii_lowercase(),
            name: p.name.clone(),
            aliases: p.aliases.clone(),
            terrain: p.kind,
            supply: p.supply,
            home,
            at: p.at,
            coasts: locs,
        });
    }
    let nlocs = n + coasts.len();
    let resolve_loc = |s: &str| -> Option<Loc> {
        let s = s.trim().to_ascii_lowercase();
        match s.split_once('/') {
            None => prov_ids.get(&s).map(|&p| Loc::from(p)),
            Some((p, c)) => {
                let p = *prov_ids.get(p)?;
                provinces[p.0 as usize]
                    .coasts
                    .iter()
                    .copied()
                    .find(|l| coasts[l.0 as usize - n].id == c)
            }
        }
    };

    // Adjacency.
    let mut army_adj = vec![ProvSet::EMPTY; n];
    let mut fleet_adj: Vec<Vec<Loc>> = vec![Vec::new(); nlocs];
    for (i, p) in f.provinces.iter().take(n).enumerate() {
        let line = lines.block("provinces", &p.id);
        let me = Prov(i as u8);
        for a in &p.army {
            let key = format!("provinces.{}.army", p.id);
            let l = lines.key(line, "army", Some(a));
            match resolve_loc(a) {
                None => problem(l, key, format!("unknown province `{a}`")),
                Some(loc) if loc.0 as usize >= n => problem(
                    l,
                    key,
                    format!("an army neighbour names a province, not a coast: `{a}`"),
                ),
                Some(loc) => {
                    let q = Prov(loc.0 as u8);
                    if matches!(p.kind, Terrain::Sea | Terrain::Impassable) {
                        problem(
                            l,
                            key,
                            format!("a {:?} province has no army neighbours", p.kind)
                                .to_lowercase(),
                        );
                    } else if q == me {
                        problem(l, key, "a province is not its own neighbour".into());
                    } else {
                        army_adj[i].insert(q);
                    }
                }
            }
        }
        let mut fleet_lists: Vec<(Loc, &Vec<String>, String, usize)> = Vec::new();
        if p.coasts.is_empty() {
            fleet_lists.push((
                me.into(),
                &p.fleet,
                format!("provinces.{}.fleet", p.id),
                line,
            ));
        } else {
            for (c, cl) in p.coasts.iter().zip(provinces[i].coasts.clone()) {
                let cline = lines.key(line, "id", Some(&c.id));
                fleet_lists.push((
                    cl,
                    &c.fleet,
                    format!("provinces.{}.coasts.{}.fleet", p.id, c.id),
                    cline,
                ));
            }
        }
        for (from, list, key, bl) in fleet_lists {
            for t in list {
                let l = lines.key(bl, "fleet", Some(t));
                match resolve_loc(t) {
                    None => problem(l, key.clone(), format!("unknown location `{t}`")),
                    Some(to) => {
                        let tp = if (to.0 as usize) < n {
                            Prov(to.0 as u8)
                        } else {
                            coasts[to.0 as usize - n].province
                        };
                        if !provinces[tp.0 as usize].coasts.is_empty() && (to.0 as usize) < n {
                            problem(
                                l,
                                key.clone(),
                                format!(
                                    "`{t}` has named coasts: write which one (`{t}/{}`)",
                                    coasts[provinces[tp.0 as usize].coasts[0].0 as usize - n].id
                                ),
                            );
                        } else if matches!(p.kind, Terrain::Land | Terrain::Impassable) {
                            problem(
                                l,
                                key.clone(),
                                "an inland province has no fleet neighbours".into(),
                            );
                        } else if tp == me {
                            problem(l, key.clone(), "a province is not its own neighbour".into());
                        } else {
                            fleet_adj[from.0 as usize].push(to);
                        }
                    }
                }
            }
        }
    }
    // Both ends.
    let loc_name = |l: Loc| -> String {
        if (l.0 as usize) < n {
            provinces[l.0 as usize].id.clone()
        } else {
            let c = &coasts[l.0 as usize - n];
            format!("{}/{}", provinces[c.province.0 as usize].id, c.id)
        }
    };
    let prov_of = |l: Loc| -> Prov {
        if (l.0 as usize) < n {
            Prov(l.0 as u8)
        } else {
            coasts[l.0 as usize - n].province
        }
    };
    for a in 0..n {
        for b in army_adj[a].iter() {
            if !army_adj[b.0 as usize].contains(Prov(a as u8)) {
                let pa = &f.provinces[a];
                let line = lines.key(
                    lines.block("provinces", &pa.id),
                    "army",
                    Some(&provinces[b.0 as usize].id),
                );
                problem(line, format!("provinces.{}.army", pa.id), format!("one-sided edge: `{}` lists `{}` but `{}` does not list `{}`; add it there or remove it here", pa.id, provinces[b.0 as usize].id, provinces[b.0 as usize].id, pa.id));
            }
        }
    }
    for a in 0..nlocs {
        for &b in &fleet_adj[a] {
            if !fleet_adj[b.0 as usize].contains(&Loc(a as u16)) {
                let pa = prov_of(Loc(a as u16));
                let pf = &f.provinces[pa.0 as usize];
                let mut from = lines.block("provinces", &pf.id);
                let mut key = format!("provinces.{}.fleet", pf.id);
                if a >= n {
                    let c = &coasts[a - n].id;
                    from = lines.key(from, "id", Some(c));
                    key = format!("provinces.{}.coasts.{c}.fleet", pf.id);
                }
                let line = lines.key(from, "fleet", Some(&loc_name(b)));
                let (here, there) = (loc_name(Loc(a as u16)), loc_name(b));
                problem(
                    line,
                    key,
                    format!("one-sided edge: `{here}` lists `{there}` but `{there}` does not list `{here}`; add it there or remove it here"),
                );
            }
        }
    }

    // Powers.
    let mut powers = Vec::new();
    for p in &f.powers {
        let line = lines.block("powers", &p.id);
        let mut home = Vec::new();
        for h in &p.home {
            match prov_ids.get(&h.to_ascii_lowercase()) {
                Some(&q) => {
                    home.push(q);
                    let ph = provinces[q.0 as usize].home;
                    if ph != power_ids.get(&p.id.to_ascii_lowercase()).copied() {
                        problem(lines.key(line, "home", Some(h)), format!("powers.{}.home", p.id), format!("`{h}` is listed as a home centre but the province does not say `home: {}`", p.id));
                    }
                }
                None => problem(
                    lines.key(line, "home", Some(h)),
                    format!("powers.{}.home", p.id),
                    format!("unknown province `{h}`"),
                ),
            }
        }
        let mut units = Vec::new();
        for u in &p.units {
            let l = lines.key(line, "units", None);
            let mut it = u.split_whitespace();
            let kind = match it.next().map(|s| s.to_ascii_uppercase()) {
                Some(k) if k == "A" => Some(UnitKind::Army),
                Some(k) if k == "F" => Some(UnitKind::Fleet),
                _ => None,
            };
            match (kind, it.next().and_then(&resolve_loc)) {
                (Some(k), Some(loc)) => units.push((k, loc)),
                _ => problem(
                    l,
                    format!("powers.{}.units", p.id),
                    format!("cannot read unit `{u}`: write `A par` or `F stp/sc`"),
                ),
            }
        }
        powers.push(PowerInfo {
            id: p.id.to_ascii_lowercase(),
            name: p.name.clone(),
            adjective: p.adjective.clone(),
            home,
            units,
        });
    }
    for (i, p) in provinces.iter().enumerate() {
        if let Some(h) = p.home {
            if !powers[h.0 as usize].home.contains(&Prov(i as u8)) {
                let line = lines.key(lines.block("provinces", &p.id), "home", None);
                problem(
                    line,
                    format!("provinces.{}.home", p.id),
                    format!(
                        "`{}` is not in the home list of power `{}`",
                        p.id, powers[h.0 as usize].id
                    ),
                );
            }
        }
    }

    if !problems.is_empty() {
        return Err(MapError {
            file: file.to_string(),
            problems,
        });
    }

    let mut seas = ProvSet::EMPTY;
    let mut shores = ProvSet::EMPTY;
    for (i, p) in provinces.iter().enumerate() {
        match p.terrain {
            Terrain::Sea => seas.insert(Prov(i as u8)),
            Terrain::Coast => shores.insert(Prov(i as u8)),
            _ => {}
        }
    }
    let fleet_reach: Vec<ProvSet> = fleet_adj
        .iter()
        .map(|v| v.iter().map(|&l| prov_of(l)).collect())
        .collect();
    let fleet_reach_any = (0..n)
        .map(|i| {
            let mut s = fleet_reach[i];
            for c in &provinces[i].coasts {
                s = s.or(&fleet_reach[c.0 as usize]);
            }
            s
        })
        .collect();
    let map = Map {
        name: f.name,
        title: f.title.unwrap_or_default(),
        provinces,
        coasts,
        powers,
        victory: f.victory,
        start_season: f.start.season,
        start_year: f.start.year,
        army_adj,
        fleet_adj,
        fleet_reach,
        fleet_reach_any,
        seas,
        shores,
        names: std::sync::OnceLock::new(),
    };
    // Starting units must stand where such a unit can.
    for (pw, pf) in map.powers.iter().zip(&f.powers) {
        for &(kind, loc) in &pw.units {
            if let Some(why) = map.placement_problem(kind, loc) {
                let line = lines.key(lines.block("powers", &pf.id), "units", None);
                problems.push(MapProblem {
                    line,
                    key: format!("powers.{}.units", pf.id),
                    message: format!("{} {}: {why}", kind.letter(), map.loc_id(loc)),
                });
            }
        }
    }
    if !problems.is_empty() {
        return Err(MapError {
            file: file.to_string(),
            problems,
        });
    }
    Ok(map)
}
