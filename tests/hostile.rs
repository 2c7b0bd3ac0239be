//! Hostile input: everything here once panicked, ran for seconds or gigabytes, or was
//! silently accepted (issue 15). Through the library and the binary, as `tests/cli.rs`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use arbiter::game::{Phase, Position};
use arbiter::map::Map;

fn arbiter(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let input = child.stdin.take().unwrap();
    let data = stdin.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        let mut input = input;
        if let Some(d) = data {
            let _ = input.write_all(&d);
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Write `text` to a fresh file `name` under the temporary directory; return its path.
fn temp_file(tag: &str, name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("arbiter-hostile-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn phase_names_with_non_ascii_or_loose_words_are_refused() {
    for bad in [
        "€ab",
        "€",
        "s€1901",
        "Spring ofofof1901",
        "Spring of 1901",
        "Spring 1901 movementxyz",
        "Spring 1901 movement now",
        "Fall 1901 retreatment",
        "S1901Mx",
        "Spring -1901",
        "Spring +1901",
        "W",
    ] {
        let e = Phase::parse(bad).expect_err(bad);
        assert!(e.to_string().contains("unknown phase"), "{bad}: {e}");
    }
    for good in [
        "Spring 1901",
        "spring 1901 movement",
        "Spring 1901 moves",
        "Autumn 1901",
        "Fall 1901 retreat",
        "Spring 1902 retreats",
        "Winter 1901 builds",
        "W1901B",
        "s1901",
        "F1901R",
    ] {
        assert!(Phase::parse(good).is_ok(), "{good}");
    }
    let map = Map::standard();
    let e = Position::from_yaml(&map, "phase: €ab\n").unwrap_err();
    assert!(e.to_string().contains("unknown phase `€ab`"), "{e}");
}

#[test]
fn a_non_ascii_phase_is_an_error_not_a_panic_in_the_binary() {
    let pos = temp_file("phase", "pos.yaml", "phase: €ab\n".as_bytes());
    let o = arbiter(
        &["adjudicate", "--position", &pos, "-"],
        Some(b"A Par - Bur\n"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("unknown phase"), "{}", stderr(&o));
    let o = arbiter(
        &["adjudicate", "--batch", "-"],
        Some(br#"{"phase":"\u20acab","units":{}}"#),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("unknown phase"), "{out}{}", stderr(&o));
    assert_ne!(o.status.code(), Some(101));
}
