//! Hostile input, issue 28 items 9, 11 and 12 (theme BOUNDS): what once panicked, ran in
//! quadratic time or held memory without bound. Through the library and the binary.

use crate::common::{arbiter, arbiter_bytes, code, has, s, stderr, stdout, temp_dir};

// ---- item 9: panics ----

#[test]
fn a_jdip_phase_with_a_multibyte_character_is_an_error_not_a_panic() {
    // `€ab` ends with `b` and is five bytes long: it once was read as `F1901B` and sliced
    // inside the `€`.
    assert_eq!(::arbiter::suite::jdip::parse_phase("€ab"), None);
    assert_eq!(::arbiter::suite::jdip::parse_phase("é1901a"), None);
    assert!(::arbiter::suite::jdip::parse_phase("F1901A").is_some());
    let dir = temp_dir("jdip-euro");
    let file = dir.join("cases.txt");
    std::fs::write(
        &file,
        "CASE 1\nPRESTATE_SETPHASE €ab\nPRESTATE\nFrance: A par\nORDERS\nFrance: A par H\nPOSTSTATE_SAME\nEND\n",
    )
    .unwrap();
    let o = arbiter(&["test", s(&file)]);
    assert_ne!(o.status.code(), Some(101), "{}", stderr(&o));
    has(
        &format!("{}{}", stdout(&o), stderr(&o)),
        "unknown phase `€ab`",
    );
}

#[test]
fn a_deep_chain_of_use_files_is_refused_not_a_stack_overflow() {
    // 20,000 files, each using the next: the reader once recursed per file and overflowed
    // the stack (about 7,000 files in the binary; fewer on a test thread's stack).
    let mut read = |path: &str| -> Result<String, String> {
        let n: usize = path
            .trim_start_matches('f')
            .trim_end_matches(".map")
            .parse()
            .map_err(|_| "no such file".to_string())?;
        Ok(if n < 20_000 {
            format!("USE f{}\n", n + 1)
        } else {
            "LAND Par ABUTS Bur\n".into()
        })
    };
    let e = ::arbiter::map::dpjudge::import("f0.map", "USE f1\n", None, &mut read).unwrap_err();
    let limit = ::arbiter::map::dpjudge::MAX_USE_DEPTH;
    assert_eq!(e.from, format!("f{limit}.map"), "{e}");
    has(&e.to_string(), &format!("nest more than {limit} deep"));

    // In the binary, a chain as deep as the limit is read; one more is refused, naming
    // the file and line.
    let dir = temp_dir("use-chain");
    for i in 0..=limit {
        let text = if i < limit {
            format!("USE f{}\n", i + 1)
        } else {
            "LAND Par ABUTS Bur\n".into()
        };
        std::fs::write(dir.join(format!("f{i}.map")), text).unwrap();
    }
    let o = arbiter(&["map", "import", s(&dir.join("f0.map"))]);
    assert!(!stderr(&o).contains("nest more than"), "{}", stderr(&o));
    std::fs::write(dir.join("g.map"), "USE f0\n").unwrap();
    let o = arbiter(&["map", "import", s(&dir.join("g.map"))]);
    code(&o, 2);
    has(&stderr(&o), &format!("f{}.map:1: cannot read", limit - 1));
    has(&stderr(&o), &format!("nest more than {limit} deep"));
}

/// Run `arbiter ARGS` with a standard output whose reader is already gone (`| head`
/// that has read what it wanted): every write to it fails with a broken pipe.
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_standard_output_stops_the_output_not_the_command() {
    let dir = temp_dir("closed-stdout");
    let game = dir.join("g.yaml");
    let g = s(&game);
    // `new` prints after it creates the game: the game is still created, exit 0.
    let o = with_closed_stdout(&["new", g]);
    code(&o, 0);
    assert!(game.exists());
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France:\nA Par - Bur\n").unwrap();
    // `judge` prints the sheet after saving, then writes its picture: both still happen.
    let svg = dir.join("board.svg");
    let o = with_closed_stdout(&["judge", g, s(&slip), "--svg", s(&svg)]);
    code(&o, 0);
    assert!(svg.exists(), "{}", stderr(&o));
    has(&std::fs::read_to_string(&game).unwrap(), "A Par - Bur");
    for args in [
        &["status", g][..],
        &["history", g],
        &["centres", g],
        &["selfplay", "--games", "2", "--years", "1"],
        &["map", "show", "standard"],
    ] {
        let o = with_closed_stdout(args);
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        code(&o, 0);
    }
    // Another write error is still an error, named at the end.
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["status", g])
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        code(&o, 2);
        has(&stderr(&o), "cannot write output");
    }
}

#[test]
fn jobs_beyond_the_bound_are_refused_and_the_library_caps_them() {
    let max = ::arbiter::batch::MAX_JOBS;
    let too_many = (max + 1).to_string();
    for args in [
        &["selfplay", "--jobs", "100000"][..],
        &["selfplay", "--jobs", &too_many],
        &["adjudicate", "--batch", "-", "--jobs", "100000"],
    ] {
        let o = arbiter_bytes(args, Some(b"{}\n"));
        code(&o, 2);
        has(&stderr(&o), &format!("at most {max} threads"));
    }
    let o = arbiter(&["selfplay", "--jobs", "0"]);
    code(&o, 2);
    has(&stderr(&o), "--jobs must be at least 1");
    // The library (the Python package's door) takes a larger count as MAX_JOBS.
    let maps = ::arbiter::batch::Maps::new(::arbiter::map::Map::standard());
    let options = ::arbiter::batch::StreamOptions {
        rules: ::arbiter::judge::Rules::default(),
        parse: ::arbiter::orders::ParseOptions::default(),
        jobs: 1_000_000,
        max_line: ::arbiter::batch::MAX_LINE,
    };
    let lines = "{\"id\": 1, \"phase\": \"Spring 1901\", \"units\": {\"france\": [\"A Par\"]}, \"orders\": {\"france\": [\"A Par - Bur\"]}}\n".repeat(600);
    let mut out = Vec::new();
    let stats = ::arbiter::batch::stream(&mut lines.as_bytes(), &mut out, &maps, &options).unwrap();
    assert_eq!(stats.lines, 600);
    assert_eq!(stats.errors, 0, "{}", String::from_utf8_lossy(&out));
}

#[test]
fn a_huge_game_count_plays_on_without_sizing_anything_by_it() {
    // `--games 18446744073709551615` once made a vector of that many results (capacity
    // overflow, exit 101). Now the games stream: it plays until stopped.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "selfplay",
            "--games",
            "18446744073709551615",
            "--years",
            "1",
            "--jobs",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let o = child.wait_with_output().unwrap();
    assert!(still_running, "exited early: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}
