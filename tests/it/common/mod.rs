//! Running the `arbiter` binary from the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `arbiter ARGS` in the crate's directory, with `stdin` (written from a thread, so
/// a large input cannot block on a full pipe) or a closed standard input.
pub fn arbiter_bytes(args: &[&str], stdin: Option<&[u8]>) -> Output {
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
            // The binary may stop reading early (an input over a limit).
            let _ = input.write_all(&d);
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
pub mod convoy_board;
#[cfg(feature = "serve")]
pub mod http;
pub mod svg;
#[cfg(feature = "serve")]
pub mod webdriver;

/// Did the attack that dislodged `d` come by convoy (a retreat to the attacker's
/// province is then allowed, DATC 4.A.5)?
pub fn attack_by_convoy(
    map: &arbiter::map::Map,
    m: &arbiter::judge::MovementResult,
    d: &arbiter::state::Dislodged,
) -> bool {
    let here = map.prov_of(d.unit.loc);
    m.units
        .iter()
        .zip(&m.destination)
        .zip(&m.convoyed)
        .any(|((u, &to), &c)| c && map.prov_of(u.loc) == d.by && map.prov_of(to) == here)
}

/// A command's standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A command's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Assert the exit code, showing both outputs if it differs.
pub fn code(o: &Output, expected: i32) {
    assert_eq!(
        o.status.code(),
        Some(expected),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A fresh, empty directory for one test, unique within this run.
pub fn temp_dir(tag: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arbiter-it-{}-{n}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as text.
pub fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// Assert that `text` contains `part`, showing the text if not.
pub fn has(text: &str, part: &str) {
    assert!(text.contains(part), "missing {part:?} in\n{text}");
}

/// A power's units in a `status --format json` answer, sorted.
pub fn units_of(v: &serde_json::Value, power: &str) -> Vec<String> {
    let mut u: Vec<String> = v["units"][power]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    u.sort();
    u
}

/// `arbiter ARGS` with a closed standard input.
pub fn arbiter(args: &[&str]) -> Output {
    arbiter_bytes(args, None)
}

/// A new game on the classic board in `dir`, at Spring 1901 movement.
pub fn new_game(dir: &std::path::Path) -> String {
    let game = dir.join("game.yaml");
    code(&arbiter(&["new", s(&game)]), 0);
    s(&game).to_string()
}

/// Write a slip named `name` in `dir`.
pub fn slip(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    s(&path).to_string()
}

/// One order of each power for the opening (classic map), each legal: repeated, they
/// make large order files.
pub const SEVEN_ORDERS: [&str; 7] = [
    "France: A Par - Bur",
    "England: F Lon - Nth",
    "Germany: A Ber - Kie",
    "Russia: F Sev - Bla",
    "Italy: A Ven H",
    "Austria: A Vie - Gal",
    "Turkey: F Ank - Bla",
];
