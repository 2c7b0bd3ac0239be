//! Names people write (issue 23, item 6): short forms generated from the map's names
//! (truncations, contractions and dropped vowels, compass letters), sound-alike
//! misspellings, and the sentences sites print.

use arbiter::map::Map;
use arbiter::orders::{
    normalize, order_words, parse_orders, parse_orders_with, short_forms, ParseOptions,
};

fn boards() -> Vec<Map> {
    ["standard", "classic1913", "world1914"]
        .iter()
        .map(|b| Map::embedded(b).unwrap())
        .collect()
}

/// `text` read strict on the standard board: its canonical orders, and the messages.
fn read(text: &str) -> (Vec<String>, Vec<String>) {
    let map = Map::standard();
    let p = parse_orders(&map, text);
    (
        p.orders.iter().map(|o| o.canonical(&map, None)).collect(),
        p.diagnostics.iter().map(|d| d.message.clone()).collect(),
    )
}

fn one(text: &str) -> String {
    let (orders, diags) = read(text);
    assert!(diags.is_empty(), "{text:?}: {diags:?}");
    assert_eq!(orders.len(), 1, "{text:?}: {orders:?}");
    orders[0].clone()
}

/// The forms of the issue, each of which failed with no suggestion before.
#[test]
fn the_short_forms_players_write() {
    for (text, want) in [
        ("F Lvp - Lpool", "F LVP - LVP"),
        ("F Lon - Lvpl", "F LON - LVP"),
        ("F Lon - Nth Sea", "F LON - NTH"),
        ("F Lon - Nrth Sea", "F LON - NTH"),
        ("F Lon - N Sea", "F LON - NTH"),
        ("F Bre - Mid Atl", "F BRE - MAO"),
        ("F Ion - E Med", "F ION - EAS"),
        ("F Lyo - Wes Med", "F LYO - WES"),
        ("F Lyo - W Med", "F LYO - WES"),
        ("F Lyo - Wst Med", "F LYO - WES"),
        ("F Nth Atl - Nwg", "F NAO - NWG"),
        ("F Mid Atl S F Bre - Eng", "F MAO S F BRE - ENG"),
        ("F Lon - Eng Chan", "F LON - ENG"),
        ("F Nrth Sea H", "F NTH H"),
        ("A Par - Pcrdy", "A PAR - PIC"),
        ("F Eng - Iri Sea", "F ENG - IRI"),
    ] {
        assert_eq!(one(text), want, "{text:?}");
    }
}

/// A short form that fits two provinces is an error naming both, never a guess; an
/// order word is never a short form (`Hld` is *hold*, not Holland).
#[test]
fn ambiguous_short_forms_list_the_candidates() {
    for (text, names) in [
        ("F Lon - Nor Sea", &["North Sea", "Norwegian Sea"][..]),
        (
            "F Lon - Nort",
            &["North Africa", "North Atlantic Ocean", "North Sea"],
        ),
        ("F Lon - Gulf", &["Gulf of Bothnia", "Gulf of Lyon"]),
        ("F Edi - Norw", &["Norwegian Sea", "Norway"]),
    ] {
        let (orders, diags) = read(text);
        assert!(orders.is_empty(), "{text:?}: {orders:?}");
        assert_eq!(diags.len(), 1, "{text:?}: {diags:?}");
        assert!(
            diags[0].starts_with("ambiguous name"),
            "{text:?}: {diags:?}"
        );
        for n in names {
            assert!(diags[0].contains(n), "{text:?}: {diags:?} lacks {n}");
        }
    }
    // `Hld`, after an arrow, is the order word *hold* (`A Bud - Holds`), never Holland.
    assert_eq!(one("F Lon - Hld"), "F LON H");
    let (orders, diags) = read("A Bel S Hld");
    assert!(orders.is_empty() && !diags.is_empty(), "{orders:?}");
    // `S` is support: `S Med` is no short form.
    assert!(!read("F Lon - S Med").1.is_empty());
}

/// No generated short form is an order word or another province's name, on any of the
/// shipped boards; and each reads as its province (alone, or in an error naming it).
#[test]
fn generated_short_forms_are_never_order_words_or_other_names() {
    let words: Vec<String> = order_words().map(normalize).collect();
    for map in boards() {
        let names = map.names();
        let mut count = 0;
        for p in map.provs() {
            let id = map.province(p).id.clone();
            for f in short_forms(&map, p) {
                count += 1;
                assert!(
                    !words.contains(&f),
                    "{}: `{f}` ({id}) is an order word",
                    map.name
                );
                for w in f.split(' ') {
                    assert!(
                        !words.iter().any(|k| k == w),
                        "{}: `{f}` has an order word",
                        map.name
                    );
                }
                assert!(
                    names.place(&f).is_empty(),
                    "{}: `{f}` ({id}) is a name",
                    map.name
                );
                assert!(names.power(&f).is_none(), "{}: `{f}` is a power", map.name);
                let read = names.short_places(&map, &f);
                assert!(
                    read.contains(&p.into()),
                    "{}: `{f}` ({id}) reads {read:?}",
                    map.name
                );
                // End to end, now and then: as a move's destination, it reads as the
                // province or as an ambiguity naming it.
                if count % 7 == 0 {
                    let text = format!("A {id} - {f}");
                    let parsed = parse_orders(&map, &text);
                    let ok = parsed.orders.first().is_some_and(|o| match o.kind {
                        arbiter::orders::OrderKind::Move { to, .. } => map.prov_of(to) == p,
                        _ => false,
                    }) || parsed
                        .diagnostics
                        .iter()
                        .any(|d| d.message.contains(&format!("({id})")));
                    assert!(ok, "{}: {text:?}: {:?}", map.name, parsed.diagnostics);
                }
            }
        }
        assert!(count > 1000, "{}: {count} forms", map.name);
    }
}

/// The sentences webDiplomacy prints, `convoys A from X to Y`, and a hold word before
/// the place.
#[test]
fn sentences_sites_print() {
    for (text, want) in [
        ("The army at Paris move to Burgundy.", "A PAR - BUR"),
        (
            "The fleet at North Sea convoy an army to Norway from London",
            "F NTH C A LON - NWY",
        ),
        (
            "The fleet at North Sea convoy an army to Norway from London.",
            "F NTH C A LON - NWY",
        ),
        ("The army at Munich support hold to Berlin", "A MUN S BER"),
        (
            "The army at Munich support move to Kiel from Berlin",
            "A MUN S BER - KIE",
        ),
        ("F NTH convoys A from Lon to Nwy", "F NTH C A LON - NWY"),
        ("F Nth C A from Lon to Nwy", "F NTH C A LON - NWY"),
        (
            "F Nth convoys an army from London to Norway",
            "F NTH C A LON - NWY",
        ),
        ("fleet stands English Channel", "F ENG H"),
        ("army holds Paris", "A PAR H"),
        ("Army holds at Paris.", "A PAR H"),
    ] {
        assert_eq!(one(text), want, "{text:?}");
    }
}

/// A misspelling that sounds right is read when exactly one province sounds so (with a
/// warning; in strict mode an error that suggests it).
#[test]
fn misspellings_that_sound_right() {
    let map = Map::standard();
    let p = parse_orders_with(&map, "A Par - Bergendee", ParseOptions { strict: false });
    assert_eq!(p.orders.len(), 1, "{:?}", p.diagnostics);
    assert_eq!(p.orders[0].canonical(&map, None), "A PAR - BUR");
    assert_eq!(p.diagnostics.len(), 1);
    assert!(
        p.diagnostics[0].message.contains("Burgundy"),
        "{:?}",
        p.diagnostics
    );
    let (orders, diags) = read("A Par - Bergendee");
    assert!(orders.is_empty());
    let help = parse_orders(&map, "A Par - Bergendee").diagnostics[0]
        .help
        .clone();
    assert!(help.is_some_and(|h| h.contains("Burgundy")), "{diags:?}");
    assert_eq!(
        map.names().sounds_like(&map, "bergendee"),
        map.names().place("bur").to_vec()
    );
}

/// A did-you-mean names every province as near as the nearest: `Bu` is one letter from
/// Budapest, Bulgaria and Burgundy, so naming only Budapest would mislead.
#[test]
fn did_you_mean_lists_every_nearest_province() {
    let map = Map::standard();
    let help = |text: &str| {
        let p = parse_orders(&map, text);
        p.diagnostics[0].help.clone().unwrap_or_default()
    };
    assert_eq!(
        help("A Par - Bu"),
        "did you mean one of `Budapest` (bud), `Bulgaria` (bul), `Burgundy` (bur)?"
    );
    assert_eq!(
        help("A Mar - Ty"),
        "did you mean one of `Tyrolia` (tyr), `Tyrrhenian Sea` (tys)?"
    );
    // One nearest: one name.
    assert_eq!(help("A Par - Burgandyy"), "did you mean `Burgundy` (bur)?");
}
