//! Hostile input, what a person is shown (issue 28, session 9, second probe): every
//! message on standard error, in a batch answer or in a Python exception names the
//! invisible characters it quotes and quotes at most 60 characters of a word, whatever
//! made it; a map refuses ids and names no one can see or type, and ids past 100
//! characters; UTF-32 is named as such.

use crate::common::{arbiter, arbiter_bytes, code, has, s, stderr, stdout, temp_dir};

#[test]
fn every_message_names_invisible_characters_and_cuts_long_words() {
    let dir = temp_dir("shown-messages");
    let orders = dir.join("o.txt");
    std::fs::write(&orders, "France:\nA PAR H\n").unwrap();
    // `--rules` and `--map` quoted raw: a right-to-left mark, a zero-width space.
    let o = arbiter(&["adjudicate", "--rules", "20\u{200f}23", s(&orders)]);
    code(&o, 2);
    has(&stderr(&o), "<U+200F");
    assert!(!stderr(&o).contains('\u{200f}'));
    let o = arbiter(&["adjudicate", "--map", "stan\u{200b}dard", s(&orders)]);
    code(&o, 2);
    has(&stderr(&o), "<U+200B");
    // A position file's unknown power of 900 letters: quoted in 60.
    let position = dir.join("p.yaml");
    let long = "Q".repeat(900);
    std::fs::write(&position, format!("units:\n  {long}: [A PAR]\n")).unwrap();
    let o = arbiter(&["adjudicate", "--position", s(&position), s(&orders)]);
    code(&o, 2);
    let err = stderr(&o);
    has(&err, &format!("{}…", "Q".repeat(59)));
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
    // Batch: the same, in the answer.
    let line =
        format!("{{\"id\":1,\"rules\":\"{long}\"}}\n{{\"id\":2,\"map\":\"stan\\u200bdard\"}}\n");
    let o = arbiter_bytes(&["adjudicate", "--batch", "-"], Some(line.as_bytes()));
    code(&o, 1);
    let out = stdout(&o);
    let answers: Vec<&str> = out.lines().collect();
    assert!(answers[0].len() < 400, "{}", answers[0]);
    has(answers[0], "…");
    has(answers[1], "<U+200B");
}

#[test]
fn a_map_refuses_ids_and_names_no_one_can_see_and_ids_past_100_characters() {
    let base = include_str!("../../test-cases/maps/clean-base.ymap");
    let dir = temp_dir("shown-map");
    for (what, map, says) in [
        (
            "a zero-width space in an id",
            base.replace("sss", "s\u{200b}s"),
            "without a character no one can see",
        ),
        (
            "a direction override in a name",
            base.replacen("name: Alpha", "name: \"Al\u{202e}pha\"", 1),
            "no control or invisible character",
        ),
        (
            "an id of 101 characters",
            base.replace("sss", &"s".repeat(101)),
            "an id is at most 100 characters, not 101",
        ),
        (
            "a map name of 300 characters",
            base.replacen("name: tiny", &format!("name: {}", "m".repeat(300)), 1),
            "a map's name is at most 100 characters",
        ),
    ] {
        let file = dir.join("m.yaml");
        std::fs::write(&file, &map).unwrap();
        let o = arbiter(&["map", "check", s(&file)]);
        assert_eq!(o.status.code(), Some(1), "{what}: {}", stdout(&o));
        has(&stdout(&o), says);
    }
}

#[test]
fn utf32_is_named_as_such() {
    let dir = temp_dir("shown-utf32");
    let f = dir.join("o.txt");
    let text = "France:\nA Par - Bur\n";
    let mut le = vec![0xFF, 0xFE, 0, 0];
    let mut be = vec![0, 0, 0xFE, 0xFF];
    for c in text.chars() {
        le.extend_from_slice(&(c as u32).to_le_bytes());
        be.extend_from_slice(&(c as u32).to_be_bytes());
    }
    for (bytes, order) in [(&le, "little"), (&be, "big")] {
        for with_bom in [true, false] {
            let b = if with_bom { &bytes[..] } else { &bytes[4..] };
            std::fs::write(&f, b).unwrap();
            let o = arbiter(&["adjudicate", s(&f)]);
            code(&o, 2);
            has(&stderr(&o), &format!("UTF-32 ({order}-endian)"));
        }
    }
}
