//! The whole game at once: `arbiter render GAME --all --dir DIR` (a picture, a PNG
//! and a printable page per phase, and an offline index.html) and `--gif FILE` (one
//! frame per phase), on a short game played with the referee's commands.

use std::path::Path;

use crate::common::{arbiter, code, has, new_game, s, slip, stderr, temp_dir};

/// A game judged through Spring and Fall 1901: France takes Spain and Portugal, so
/// Winter 1901 (France builds) is the current phase; nobody is dislodged, so both
/// retreat phases are skipped. Three phases to draw: S1901M, F1901M, W1901A.
fn short_game(dir: &Path) -> String {
    let game = new_game(dir);
    let spring = slip(
        dir,
        "france-s1901.txt",
        "France:\nA Par - Bur\nA Mar - Spa\nF Bre - MAO\n",
    );
    code(&arbiter(&["judge", &game, &spring]), 0);
    let fall = slip(dir, "france-f1901.txt", "France:\nF MAO - Por\nA Spa H\n");
    code(&arbiter(&["judge", &game, &fall]), 0);
    let status = arbiter(&["status", &game]);
    has(&crate::common::stdout(&status), "Winter 1901 adjustment");
    game
}

const STEMS: [&str; 3] = ["01-S1901M", "02-F1901M", "03-W1901A"];

/// Width and height from a PNG's header, after checking its signature.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

#[test]
fn all_writes_every_phase_and_an_offline_index() {
    let dir = temp_dir("album-all");
    let game = short_game(&dir);
    // The directory does not exist yet: it is created, parents included.
    let out = dir.join("pictures").join("demo");
    let o = arbiter(&["render", &game, "--all", "--dir", s(&out)]);
    code(&o, 0);
    has(&stderr(&o), "Drew 3 phases");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = STEMS
        .iter()
        .flat_map(|st| {
            [
                format!("{st}-page.png"),
                format!("{st}.png"),
                format!("{st}.svg"),
            ]
        })
        .collect();
    expected.push("index.html".into());
    expected.sort();
    assert_eq!(names, expected);
    for st in STEMS {
        let svg = std::fs::read_to_string(out.join(format!("{st}.svg"))).unwrap();
        assert!(svg.trim_start().starts_with("<svg"), "{st}.svg");
        assert!(svg.trim_end().ends_with("</svg>"), "{st}.svg");
        let (w, h) = png_size(&std::fs::read(out.join(format!("{st}.png"))).unwrap());
        assert!(w > 200 && h > 200, "{st}.png is {w} x {h}");
        // A4 portrait at 150 dpi.
        let page = std::fs::read(out.join(format!("{st}-page.png"))).unwrap();
        assert_eq!(png_size(&page), (1240, 1754), "{st}-page.png");
    }
    // Each picture is of its phase (the title of the current one says so).
    let first = std::fs::read_to_string(out.join("01-S1901M.svg")).unwrap();
    has(&first, "Spring 1901 movement");
    let last = std::fs::read_to_string(out.join("03-W1901A.svg")).unwrap();
    has(&last, "Winter 1901 adjustment");

    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for st in STEMS {
        for f in [
            format!("{st}.svg"),
            format!("{st}.png"),
            format!("{st}-page.png"),
        ] {
            has(&html, &format!("href=\"{f}\""));
        }
    }
    // Offline: no address on the web, no script or style from another file; every
    // picture is one of the files beside it.
    assert!(!html.contains("http://") && !html.contains("https://"));
    assert!(!html.contains("<link") && !html.contains("<script src"));
    for src in html.split("src=\"").skip(1) {
        let f = &src[..src.find('"').unwrap()];
        assert!(expected.iter().any(|e| e == f), "img src {f}");
    }
    // One phase at a time, with its sheet: the judge's results text, and the status for
    // the current phase.
    has(&html, "Movement results for Spring of 1901.");
    has(&html, "France: Army Paris -&gt; Burgundy.");
    has(&html, "Movement results for Fall of 1901.");
    has(&html, "France: Fleet Mid-Atlantic Ocean -&gt; Portugal.");
    has(&html, "Winter 1901 adjustment (current position)");
    has(&html, "France (5 centres, 3 units)");
    for part in [
        "id=\"prev\"",
        "id=\"next\"",
        "ArrowLeft",
        "ArrowRight",
        "<ol>",
    ] {
        has(&html, part);
    }
    // Drawing again replaces the files (same names, nothing added).
    code(&arbiter(&["render", &game, "--all", "--dir", s(&out)]), 0);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), expected.len());
}

#[test]
fn gif_has_one_frame_per_phase() {
    let dir = temp_dir("album-gif");
    let game = short_game(&dir);
    let gif = dir.join("game.gif");
    let o = arbiter(&["render", &game, "--gif", s(&gif)]);
    code(&o, 0);
    has(&stderr(&o), "3 frames");
    let bytes = std::fs::read(&gif).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(&bytes[..]).unwrap();
    assert_eq!(d.width(), 1000);
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        delays.push(f.delay);
    }
    // One frame per phase (S1901M, F1901M, W1901A): 1.5 s each, the last 4 s; looping.
    assert_eq!(delays, [150, 150, 400]);
    assert_eq!(d.repeat(), gif::Repeat::Infinite);
    // --gif alone writes nothing else.
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && !n.ends_with(".txt"))
        .collect();
    left.sort();
    assert_eq!(left, ["game.gif", "game.yaml", "game.yaml.bak"]);
}

#[test]
fn a_dir_that_is_a_file_is_refused() {
    let dir = temp_dir("album-refused");
    let game = short_game(&dir);
    let file = dir.join("pictures");
    std::fs::write(&file, "not a directory").unwrap();
    let gif = dir.join("game.gif");
    let o = arbiter(&[
        "render",
        &game,
        "--all",
        "--dir",
        s(&file),
        "--gif",
        s(&gif),
    ]);
    code(&o, 2);
    has(
        &stderr(&o),
        &format!(
            "cannot draw the game into `{}`: it is a file, not a directory; give --dir a \
             directory (it is created if missing)",
            s(&file)
        ),
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");
    assert!(!gif.exists(), "nothing is drawn");
    // A GIF over a directory, or over the game itself, is refused before any drawing.
    let o = arbiter(&["render", &game, "--gif", s(&dir)]);
    code(&o, 2);
    has(&stderr(&o), "it is a directory");
    let before = std::fs::read(&game).unwrap();
    let o = arbiter(&["render", &game, "--gif", &game]);
    code(&o, 2);
    has(&stderr(&o), "it is the input file");
    assert_eq!(std::fs::read(&game).unwrap(), before);
    // --all needs --dir, and draws no single phase.
    let o = arbiter(&["render", &game, "--all"]);
    code(&o, 2);
    has(&stderr(&o), "--dir");
    let o = arbiter(&[
        "render",
        &game,
        "--all",
        "--dir",
        s(&dir),
        "--phase",
        "S1901",
    ]);
    code(&o, 2);
    has(&stderr(&o), "cannot be used with");
}
