//! `arbiter map check`, `list`, `show` and `import`, through the library and the binary:
//! every broken map of `test-cases/maps/` with its exact findings, every code with a
//! broken map and a row in `docs/MAPS.md`, the embedded maps clean, the classic board
//! against its reference edges, and the DPjudge import of the classic board round trip.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use arbiter::map::Severity;
use arbiter::map::{dpjudge, Map, Terrain, EMBEDDED, STANDARD_YAML};
use arbiter::mapcheck::{self as check, DrawingText, Finding, Reference, CODES};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn arbiter(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A fresh folder under the temporary directory.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-mapcheck-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The broken (and clean) maps of `test-cases/maps/`, by path relative to the root.
fn fixtures() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("test-cases/maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ymap"))
        .map(|p| {
            format!(
                "test-cases/maps/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    v.sort();
    v
}

/// `LINE:COL severity CODE`, with the file's name in front when the finding is in
/// another file (the reference list).
fn short(f: &Finding, file: &str) -> String {
    let at = format!("{}:{}", f.line, f.column);
    let at = if f.file == file {
        at
    } else {
        format!(
            "{}:{at}",
            Path::new(&f.file).file_name().unwrap().to_string_lossy()
        )
    };
    format!("{at} {} {}", f.severity.name(), f.code)
}

/// Check a fixture as its comments say: `# reference: FILE` (an edge list),
/// `# drawing: FILE` (the map's drawing), then compare with its `# expect:` lines.
fn run_fixture(rel: &str) -> (Vec<String>, Vec<String>) {
    let src = read(rel);
    let mut expected = Vec::new();
    let mut reference = None;
    let mut drawing = None;
    for line in src.lines() {
        if let Some(e) = line.strip_prefix("# expect: ") {
            if e.trim() != "nothing" {
                expected.push(e.trim().to_string());
            }
        } else if let Some(r) = line.strip_prefix("# reference: ") {
            reference = Some(format!("test-cases/maps/{}", r.trim()));
        } else if let Some(d) = line.strip_prefix("# drawing: ") {
            drawing = Some(format!("test-cases/maps/{}", d.trim()));
        }
    }
    assert!(
        src.contains("# expect: "),
        "{rel}: no `# expect:` line (write `# expect: nothing` for a clean map)"
    );
    let ref_text = reference.as_ref().map(|r| read(r));
    let r = reference.as_ref().map(|f| Reference {
        file: f,
        text: ref_text.as_deref().unwrap(),
    });
    let drawing_text = drawing.as_ref().map(|d| read(d));
    let d = drawing.as_ref().map(|f| DrawingText {
        file: f,
        text: drawing_text.as_deref().unwrap(),
    });
    let findings = check::check_with_drawing(&src, rel, r.as_ref(), d.as_ref());
    (expected, findings.iter().map(|f| short(f, rel)).collect())
}

#[test]
fn every_broken_map_reports_exactly_its_findings() {
    let all = fixtures();
    assert!(all.len() >= 45, "only {} fixtures", all.len());
    let mut failures = Vec::new();
    for rel in &all {
        let (expected, got) = run_fixture(rel);
        if expected != got {
            failures.push(format!("{rel}:\n  expected {expected:#?}\n  got {got:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_code_has_a_broken_map_and_a_row_in_the_docs() {
    let mut seen = BTreeSet::new();
    for rel in fixtures() {
        for e in run_fixture(&rel).0 {
            seen.insert(e.rsplit(' ').next().unwrap().to_string());
        }
    }
    let docs = read("docs/MAPS.md");
    let docs = docs
        .split_once("## Checking and importing maps")
        .expect("docs/MAPS.md has the section `## Checking and importing maps`")
        .1
        .to_string();
    let mut missing = Vec::new();
    for c in CODES {
        if !seen.contains(c.code) {
            missing.push(format!(
                "no broken map in test-cases/maps/ reports {}",
                c.code
            ));
        }
        let row = format!("| `{}` |", c.code);
        if !docs.contains(&row) {
            missing.push(format!("docs/MAPS.md has no row `{row}`"));
        }
    }
    for code in &seen {
        if check::code_info(code).is_none() {
            missing.push(format!(
                "{code} is expected by a fixture but is not in CODES"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_embedded_maps_check_without_error() {
    assert!(EMBEDDED.iter().any(|(n, _, _)| *n == "standard"));
    for (name, file, src) in EMBEDDED {
        let findings = check::check(src, file, None);
        let errors: Vec<String> = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| format!("{}:{}: {} {}", f.line, f.column, f.code, f.message))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    // The classic board: only the four canals, for the designer to confirm.
    let f = check::check(STANDARD_YAML, "maps/standard.yaml", None);
    let canals: Vec<&str> = f
        .iter()
        .map(|f| {
            assert_eq!(f.code, "CANAL", "{f:?}");
            f.key.trim_start_matches("provinces.")
        })
        .collect();
    assert_eq!(canals, ["con", "den", "kie", "swe"]);
}

#[test]
fn the_reference_list_finds_an_edge_left_out_at_both_ends() {
    let edges = read("tests/golden/standard-edges.csv");
    let r = Reference {
        file: "tests/golden/standard-edges.csv",
        text: &edges,
    };
    let f = check::check(STANDARD_YAML, "maps/standard.yaml", Some(&r));
    assert!(
        f.iter().all(|f| f.code == "CANAL"),
        "{:#?}",
        f.iter().filter(|f| f.code != "CANAL").collect::<Vec<_>>()
    );
    // Galicia–Ukraine taken out at both ends: the map still loads, only the reference
    // shows what is missing.
    let cut = STANDARD_YAML
        .replace(
            "army: [boh, bud, rum, sil, ukr, vie, war]",
            "army: [boh, bud, rum, sil, vie, war]",
        )
        .replace(
            "army: [gal, mos, rum, sev, war]",
            "army: [mos, rum, sev, war]",
        );
    assert_ne!(cut, STANDARD_YAML);
    assert!(Map::from_yaml(&cut, "cut.yaml").is_ok());
    let f: Vec<Finding> = check::check(&cut, "cut.yaml", Some(&r))
        .into_iter()
        .filter(|f| f.code != "CANAL")
        .collect();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].code, "REFERENCE_MISSING");
    assert!(f[0].message.contains("`gal`–`ukr`"), "{}", f[0].message);
}

/// Read included DPjudge files from the disk, for the library's import.
fn disk(p: &str) -> Result<String, String> {
    std::fs::read_to_string(root().join(p)).map_err(|e| e.to_string())
}

#[test]
fn importing_the_classic_dpjudge_file_gives_the_reference_board() {
    let file = "tests/fixtures/dpjudge/classic.map";
    let imp = dpjudge::import(file, &read(file), None, &mut disk).unwrap();
    assert!(imp.notes.is_empty(), "{:#?}", imp.notes);
    assert_eq!(
        (imp.name.as_str(), imp.powers, imp.provinces),
        ("classic", 7, 76)
    );
    // It checks clean, and its edges are the reference's, edge for edge.
    let edges = read("tests/golden/standard-edges.csv");
    let r = Reference {
        file: "edges.csv",
        text: &edges,
    };
    let f = check::check(&imp.yaml, "classic.yaml", Some(&r));
    let odd: Vec<&Finding> = f.iter().filter(|f| f.code != "CANAL").collect();
    assert!(odd.is_empty(), "{odd:#?}\n{}", imp.yaml);
    assert_eq!(f.len(), 4);
    // Provinces, centres, homes and units as in the reference tables.
    let map = Map::from_yaml(&imp.yaml, "classic.yaml").unwrap();
    let std = Map::standard();
    assert_eq!(map.victory, 18);
    assert_eq!((map.start_season, map.start_year), (std.start_season, 1901));
    for line in read("tests/golden/standard-provinces.csv").lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let l = map.loc_by_id(f[0]).unwrap_or_else(|| panic!("no {}", f[0]));
        if map.is_named_coast(l) {
            continue;
        }
        let p = map.province(map.prov_of(l));
        assert_eq!(p.name, f[1], "{}", f[0]);
        let kind = match f[2] {
            "sea" => Terrain::Sea,
            "coast" => Terrain::Coastal,
            "land" => Terrain::Land,
            _ => Terrain::Impassable,
        };
        assert_eq!(p.terrain, kind, "{}", f[0]);
        assert_eq!(p.supply, f[3] == "yes", "{}", f[0]);
        let home = p.home.map(|h| map.power(h).id.clone()).unwrap_or_default();
        assert_eq!(home, f[4], "{}", f[0]);
    }
    for pw in std.power_ids() {
        let (a, b) = (std.power(pw), map.power(pw));
        assert_eq!(
            (&a.id, &a.name, &a.adjective),
            (&b.id, &b.name, &b.adjective)
        );
        let ids = |m: &Map, v: &[(arbiter::map::UnitKind, arbiter::map::Loc)]| {
            let mut u: Vec<String> = v
                .iter()
                .map(|&(k, l)| format!("{} {}", k.letter(), m.loc_id(l)))
                .collect();
            u.sort();
            u
        };
        assert_eq!(ids(&std, &a.units), ids(&map, &b.units), "{}", a.id);
        assert_eq!(a.home.len(), b.home.len());
    }
    // Aliases came over (`+` is a space), coasts are named from their name lines.
    let mao = map.province(map.prov_by_id("mao").unwrap());
    assert!(
        mao.aliases.iter().any(|a| a == "mid atlantic"),
        "{:?}",
        mao.aliases
    );
    let nc = map.loc_by_id("spa/nc").unwrap();
    assert_eq!(map.coast(nc).unwrap().name, "North Coast");
}

#[test]
fn importing_a_variant_says_what_was_not_carried_over() {
    let file = "tests/fixtures/dpjudge/variant.map";
    let imp = dpjudge::import(file, &read(file), Some("myvariant"), &mut disk).unwrap();
    let notes: Vec<String> = imp
        .notes
        .iter()
        .map(|n| {
            let f = Path::new(&n.file).file_name().unwrap().to_string_lossy();
            format!("{f}:{} {}", n.line, n.message)
        })
        .collect();
    let expected = [
        ("variant.map:5 ", "the first one (17) is kept"),
        ("variant.map:6 ", "`FLOW"),
        ("variant.map:7 ", "`RULE PROXY_OK`"),
        (
            "variant.map:11 ",
            "`PORT HIO` is imported as a coast province",
        ),
        ("variant.map:15 ", "`*NAF` (MAO): the special border marker"),
        (
            "variant.map:16 ",
            "`R:BUL/SC` (AEG): only units of power `R`",
        ),
        (
            "variant.map:17 ",
            "`CON(ANK)` (BLA): only the owner of `ANK`",
        ),
        ("variant.map:25 ", "alias `spa/wc` of `spa/sc`"),
        ("variant.map:26 ", "`levant?`: an ambiguous alias"),
        (
            "variant.map:27 ",
            "`atl` has a name line but no terrain line",
        ),
        ("variant.map:29 ", "`*ALB`: a partisan site"),
        ("variant.map:32 ", "`DUMMY AUSTRIA`"),
        ("variant.map:34 ", "variant directives"),
        (
            "variant.map:37 ",
            "the retreat phase is passed at once (as DPjudge does): the map starts in Winter 1901",
        ),
    ];
    assert_eq!(notes.len(), expected.len(), "{notes:#?}");
    for (n, (at, text)) in notes.iter().zip(expected) {
        assert!(
            n.starts_with(at) && n.contains(text),
            "{n:?} is not {at}… {text}…"
        );
    }
    let map = Map::from_yaml(&imp.yaml, "v.yaml").unwrap_or_else(|e| panic!("{e}\n{}", imp.yaml));
    assert_eq!(map.name, "myvariant");
    assert_eq!(map.victory, 17);
    assert_eq!(map.start_year, 1901);
    // `BEGIN Fall 1901 Retreats`: nobody is dislodged, so the next phase, the winter's.
    assert_eq!(map.start_season.to_string(), "Winter");
    let id = |s: &str| map.prov_by_id(s).unwrap();
    // The mixed-case border: fleets only.
    assert!(map.fleet_adjacent(id("pie").into(), id("tus").into()));
    assert!(!map.army_adjacent(id("pie"), id("tus")));
    // Markers are ordinary borders; the new island is there; Turkey owns Bulgaria.
    assert!(map.fleet_adjacent(id("mao").into(), id("naf").into()));
    assert!(map.fleet_adjacent(id("hio").into(), id("hel").into()));
    let turkey = map.power_by_name("turkey").unwrap();
    assert_eq!(map.power(turkey).owns, vec![id("bul")]);
    let f = check::check(&imp.yaml, "v.yaml", None);
    assert_eq!(check::count(&f).0, 0, "{f:#?}");
}

#[test]
fn check_from_the_command_line() {
    // The embedded maps: no error (warnings and notes allowed), exit 0.
    let o = arbiter(&["map", "check", "standard", "classic1913", "world1914"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("maps/standard.yaml: 0 errors, 0 warnings, 4 notes"));
    assert!(out(&o).contains("3 maps checked: 0 errors"), "{}", out(&o));

    // A broken map: exit 1, each finding with its place, rule and hint.
    let o = arbiter(&["map", "check", "test-cases/maps/one-sided-edge.ymap"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("check_one_sided_edge", out(&o));

    // Warnings alone: exit 0.
    let o = arbiter(&["map", "check", "test-cases/maps/victory-not-majority.ymap"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));

    // JSON.
    let o = arbiter(&[
        "map",
        "check",
        "--format",
        "json",
        "--reference",
        "test-cases/maps/reference-base.csv",
        "test-cases/maps/reference-missing.ymap",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(j["errors"], 1);
    let f = &j["files"][0]["findings"][0];
    assert_eq!(f["code"], "REFERENCE_MISSING");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["file"], "test-cases/maps/reference-missing.ymap");
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(23), Some(5))
    );
    for k in ["key", "message", "rule", "hint"] {
        assert!(f[k].is_string(), "{k}: {f}");
    }

    // Usage and I/O errors: exit 2.
    let o = arbiter(&["map", "check", "no/such/map.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("cannot read `no/such/map.yaml`"),
        "{}",
        err(&o)
    );
    let o = arbiter(&["map", "check"]);
    assert_eq!(o.status.code(), Some(2));
    let o = arbiter(&["map", "check", "--reference", "nope.csv", "standard"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn list_and_show() {
    let o = arbiter(&["map", "list"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    let standard = text
        .lines()
        .find(|l| l.starts_with("standard "))
        .unwrap_or_else(|| panic!("{text}"));
    let cols: Vec<&str> = standard.split_whitespace().collect();
    assert!(
        standard.contains("Classic Diplomacy")
            && cols.ends_with(&["7", "75", "34", "18", "Spring", "1901"]),
        "{standard}"
    );
    assert_eq!(
        text.lines().filter(|l| !l.is_empty()).count(),
        EMBEDDED.len() + 2
    );

    let o = arbiter(&["map", "show", "standard"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    let spa = text.lines().find(|l| l.starts_with("spa ")).unwrap();
    assert!(
        spa.contains("gas mar por") && spa.contains("nc: gas mao por; sc: lyo mao mar por wes"),
        "{spa}"
    );
    assert!(text.contains("Russia (russia)"), "{text}");

    let o = arbiter(&["map", "show", "standard", "St Petersburg"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(text.starts_with("St Petersburg (stp)\n"), "{text}");
    assert!(
        text.contains("  fleet moves from stp/sc (South Coast) to: bot (Gulf of Bothnia), fin (Finland), lvn (Livonia)\n"),
        "{text}"
    );

    let o = arbiter(&["map", "show", "standard", "Burgandi"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("Burgundy"), "{}", err(&o));

    // A map file works too.
    let o = arbiter(&["map", "show", "test-cases/maps/clean-split.ymap"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    insta::assert_snapshot!("show_clean_split", out(&o));
    let o = arbiter(&["map", "show", "test-cases/maps/clean-split.ymap", "Beta"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    insta::assert_snapshot!("show_clean_split_bbb", out(&o));
}

#[test]
fn import_from_the_command_line() {
    let dir = temp_dir("import");
    let yaml = dir.join("classic.yaml");
    let o = arbiter(&[
        "map",
        "import",
        "tests/fixtures/dpjudge/classic.map",
        "-o",
        yaml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("Everything in tests/fixtures/dpjudge/classic.map was carried over."));
    assert!(
        out(&o).contains("(7 powers, 76 provinces): 0 errors, 0 warnings, 4 notes"),
        "{}",
        out(&o)
    );
    let o = arbiter(&[
        "map",
        "check",
        "--reference",
        "tests/golden/standard-edges.csv",
        yaml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));

    // Without -o: the map on standard output, the report on standard error.
    let o = arbiter(&["map", "import", "tests/fixtures/dpjudge/variant.map"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("# Imported from tests/fixtures/dpjudge/variant.map"));
    assert!(err(&o).contains("Not carried over (14):"), "{}", err(&o));

    // A one-way border: the map is written, the check finds the error, exit 1.
    let src = dir.join("oneway.map");
    let mut f = std::fs::File::create(&src).unwrap();
    writeln!(
        f,
        "Alpha = aaa\nBeta = bbb\nRED (REDDISH) AAA\nBLUE (BLUISH) BBB\nLAND AAA ABUTS BBB\nLAND BBB ABUTS\nVICTORY 2"
    )
    .unwrap();
    let o = arbiter(&[
        "map",
        "import",
        src.to_str().unwrap(),
        "-o",
        dir.join("oneway.yaml").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("error[ONE_SIDED_EDGE]"), "{}", out(&o));
    assert!(dir.join("oneway.yaml").exists());

    // An include that is not there: exit 2, nothing written.
    let src = dir.join("broken.map");
    std::fs::write(&src, "# a variant\nUSE nothere\n").unwrap();
    let o = arbiter(&[
        "map",
        "import",
        src.to_str().unwrap(),
        "-o",
        dir.join("broken.yaml").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("broken.map:2: cannot read"), "{}", err(&o));
    assert!(err(&o).contains("nothere.map"), "{}", err(&o));
    assert!(!dir.join("broken.yaml").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small deterministic generator (xorshift), for the garbage test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn damaged_files_never_panic() {
    let sources = [
        read("test-cases/maps/clean-split.ymap"),
        read("test-cases/maps/reference-missing.ymap"),
        STANDARD_YAML
            .lines()
            .take(120)
            .collect::<Vec<_>>()
            .join("\n"),
    ];
    let bits = [
        "",
        " ",
        "\n",
        "-",
        "- ",
        ":",
        ": ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "#",
        "'",
        "\"",
        "é",
        "→",
        "|",
        ">",
        "\t",
        "/",
        "aaa",
        "ccc/nc",
        "  - id: x\n",
        "army: [",
        "fleet: ",
    ];
    let edges = read("test-cases/maps/reference-base.csv");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..400 {
        let base = &sources[round % sources.len()];
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(chars.len() + 1);
            if rng.below(2) == 0 && at < chars.len() {
                let n = 1 + rng.below(8);
                chars.drain(at..(at + n).min(chars.len()));
            } else {
                let bit = bits[rng.below(bits.len())];
                for (k, c) in bit.chars().enumerate() {
                    chars.insert(at + k, c);
                }
            }
        }
        let text: String = chars.into_iter().collect();
        let r = Reference {
            file: "edges.csv",
            text: &edges,
        };
        let f = check::check(&text, "damaged.yaml", Some(&r));
        let _ = check::render(&f, |_| Some(text.as_str()));
        let mut no = |_: &str| Err("no includes".to_string());
        if let Ok(imp) = dpjudge::import("damaged.map", &text, None, &mut no) {
            let _ = check::check(&imp.yaml, "imported.yaml", None);
        }
    }
    // Every DPjudge fixture line, damaged, imports without a panic too.
    let dp = read("tests/fixtures/dpjudge/classic.borders")
        + &read("tests/fixtures/dpjudge/variant.map");
    for round in 0..200 {
        let mut lines: Vec<String> = dp.lines().map(str::to_string).collect();
        let i = rng.below(lines.len());
        let bit = bits[rng.below(bits.len())];
        let l = &mut lines[i];
        let at = l
            .char_indices()
            .map(|(k, _)| k)
            .nth(rng.below(l.chars().count() + 1))
            .unwrap_or(l.len());
        l.insert_str(at, bit);
        let text = lines.join("\n");
        let mut no = |_: &str| Err("no includes".to_string());
        // `variant.map` includes `classic.map`, which this reader refuses: an error, not a
        // panic.
        let name = format!("d{round}");
        if let Ok(imp) = dpjudge::import("damaged.map", &text, Some(&name), &mut no) {
            let _ = check::check(&imp.yaml, "imported.yaml", None);
        }
    }
}

/// One finding per mistake, with the fix the rest of the file implies (issue 25, item 9).
#[test]
fn hints_name_the_fix_the_rest_of_the_file_implies() {
    let hints = |rel: &str| -> Vec<(String, String, String)> {
        check::check(&read(rel), rel, None)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| (f.code.to_string(), f.message, f.hint.unwrap_or_default()))
            .collect()
    };
    // `dun` lists `kar`: only `kar/sc` lists `dun` back, so that is the coast to write.
    let f = hints("test-cases/maps/coast-hint.ymap");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].0, "COAST_NOT_NAMED");
    assert!(f[0].1.contains("(`kar/sc`)"), "{f:#?}");
    assert!(f[0].2.contains("write `kar/sc`"), "{f:#?}");
    // `kar/nc` written for `kar/sc`: one finding, with the coast that lists `dun`.
    let f = hints("test-cases/maps/wrong-coast.ymap");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].0, "ONE_SIDED_EDGE");
    assert!(f[0].1.contains("wrong coast"), "{f:#?}");
    assert!(f[0].2.starts_with("write `kar/sc` here"), "{f:#?}");
    // `rvi` for `riv`: did you mean, and no one-sided edge at `riv`.
    let f = hints("test-cases/maps/did-you-mean.ymap");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].0, "UNKNOWN_PROVINCE");
    assert!(f[0].2.contains("did you mean `riv`?"), "{f:#?}");
    // A unit on a split province without its coast, in the same run as an edge problem.
    let f = hints("test-cases/maps/unit-and-edge.ymap");
    let codes: Vec<&str> = f.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(codes, ["UNIT_PLACEMENT", "UNKNOWN_PROVINCE"], "{f:#?}");
    assert!(
        f[0].1.contains("name the coast: kar/nc or kar/sc"),
        "{f:#?}"
    );
}

/// Levels (issue 25, item 11): a victory count above the centres is an error, and every
/// command that loads a map file reports its problems as `map check` does: the same
/// checks (connectivity, victory), with codes, file:line, caret, in line order.
#[test]
fn every_door_reports_a_broken_map_as_map_check_does() {
    let o = arbiter(&["map", "check", "test-cases/maps/victory-unreachable.ymap"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        out(&o).contains("error[VICTORY_UNREACHABLE]"),
        "{}",
        out(&o)
    );

    let dir = temp_dir("doors");
    let game = dir.join("g.yaml");
    let game = game.to_str().unwrap();
    for map in [
        "test-cases/maps/victory-unreachable.ymap",
        "test-cases/maps/separate-components.ymap",
        "test-cases/maps/unit-and-edge.ymap",
    ] {
        let code = check::check(&read(map), map, None)
            .into_iter()
            .find(|f| f.severity == Severity::Error)
            .unwrap()
            .code;
        for args in [
            vec!["adjudicate", "--map", map, "-"],
            vec!["render", "--map", map],
            vec!["selfplay", "--map", map, "--games", "1"],
            vec!["new", game, "--map", map],
            vec!["test", "--map", map, "test-cases/maps"],
        ] {
            let o = arbiter(&args);
            let e = err(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
            assert!(e.contains(&format!("error[{code}]: ")), "{args:?}: {e}");
            assert!(e.contains(&format!("--> {map}:")), "{args:?}: {e}");
            assert!(e.contains(" | ") && e.contains('^'), "{args:?}: {e}");
        }
    }
    // In line order, every problem at once.
    let o = arbiter(&[
        "adjudicate",
        "--map",
        "test-cases/maps/unit-and-edge.ymap",
        "-",
    ]);
    let e = err(&o);
    let unit = e.find("error[UNIT_PLACEMENT]").expect(&e);
    let edge = e.find("error[UNKNOWN_PROVINCE]").expect(&e);
    assert!(unit < edge, "{e}");
    assert!(
        e.contains("unit-and-edge.ymap: 2 errors, 0 warnings"),
        "{e}"
    );
}

/// Import findings point at the source (issue 25, item 12): the DPjudge file and line
/// the designer edits (here an included file), with a caret under the word; the YAML's
/// line is kept in the message. Coast aliases (`gnc`, `gsc`) are carried over.
#[test]
fn import_findings_name_the_dpjudge_file_and_line() {
    let dir = temp_dir("import-lines");
    let yaml = dir.join("lines.yaml");
    let o = arbiter(&[
        "map",
        "import",
        "tests/fixtures/dpjudge/lines.map",
        "-o",
        yaml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let report = out(&o);
    assert!(
        report.contains(
            "error[ONE_SIDED_EDGE]: one-sided edge: `bbb` lists `ggg` but `ggg` does not list `bbb` (imported as "
        ),
        "{report}"
    );
    assert!(
        report.contains(" --> tests/fixtures/dpjudge/lines.borders:3:21\n"),
        "{report}"
    );
    assert!(
        report.contains("3 | COAST BBB ABUTS AAA ggg NOS\n  |                     ^^^\n"),
        "{report}"
    );
    assert!(!report.contains("lines.yaml:30:"), "{report}");
    assert!(
        report.contains("Everything in tests/fixtures/dpjudge/lines.map was carried over."),
        "{report}"
    );
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(
        text.contains("        name: North Coast\n        aliases: [gnc]\n"),
        "{text}"
    );
    assert!(
        text.contains("        name: South Coast\n        aliases: [gsc]\n"),
        "{text}"
    );
    // The library gives the origin of every line of a province and of each neighbour.
    let src = read("tests/fixtures/dpjudge/lines.map");
    let imp = dpjudge::import("lines.map", &src, None, &mut |p: &str| {
        std::fs::read_to_string(root().join("tests/fixtures/dpjudge").join(p))
            .map_err(|e| e.to_string())
    })
    .unwrap();
    let line_of = |needle: &str| imp.yaml.lines().position(|l| l == needle).unwrap() + 1;
    let army = line_of("    army: [aaa, ggg]");
    let o = imp
        .origins
        .iter()
        .find(|o| o.yaml_line == army && o.item.as_deref() == Some("ggg"))
        .unwrap();
    assert_eq!((o.file.as_str(), o.line), ("lines.borders", 3));
    let name = line_of("    name: Beta");
    let o = imp.origins.iter().find(|o| o.yaml_line == name).unwrap();
    assert_eq!((o.file.as_str(), o.line), ("lines.map", 6));
}

/// A map written in flow style (one `{id: …}` item per line): the loader's findings
/// (unknown neighbours, home centres) point at the item's line and the word, as the
/// checker's do, not at line 1.
#[test]
fn flow_style_map_findings_point_at_their_lines() {
    let dir = temp_dir("flow");
    let path = dir.join("flow.yaml");
    std::fs::write(
        &path,
        "name: tiny\n\
         title: Tiny\n\
         start: {season: spring, year: 1901}\n\
         victory: 2\n\
         powers: [\n  \
           {id: red, name: Red, adjective: Reddish, home: [aaa], units: [A aaa]},\n  \
           {id: blue, name: Blue, adjective: Bluish, home: [bbb], units: [A bbb]}\n\
         ]\n\
         provinces: [\n  \
           {id: aaa, name: Aaa, kind: land, supply: true, army: [bbb, zzz]},\n  \
           {id: bbb, name: Bbb, kind: land, supply: true, army: [aaa]},\n  \
           {id: ccc, name: Ccc, kind: land, army: [qqq]}\n\
         ]\n",
    )
    .unwrap();
    let o = arbiter(&["map", "check", path.to_str().unwrap()]);
    let text = format!("{}{}", out(&o), err(&o));
    for (finding, at) in [
        ("unknown province `zzz`", "flow.yaml:10:62"),
        ("unknown province `qqq`", "flow.yaml:12:43"),
        ("`aaa` is listed as a home centre", "flow.yaml:6:51"),
    ] {
        let Some(k) = text.find(finding) else {
            panic!("no `{finding}` in:\n{text}")
        };
        let next = text.get(k..).and_then(|t| t.lines().nth(1)).unwrap_or("");
        assert!(
            next.ends_with(at),
            "`{finding}` at `{next}`, not {at}:\n{text}"
        );
    }
    assert!(!text.contains("flow.yaml:1:1"), "{text}");
}
