//! Hostile files (issue 28, items 1, 3, 4, 5, 10): one writer at a time at every door,
//! one write helper (a `.bak` is never a link), one year range, game files that grow
//! past the input limit, FIFOs and other special files at every path a command opens,
//! and link cycles under `arbiter test DIR`. docs/CLI.md, "Files: one reader, one
//! writer, one lock".

use crate::common::{code, s, stderr, stdout, temp_dir};
use crate::writes::{game, judged};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("ARBITER_FIFO_WAIT_MS", "300")
        .env("ARBITER_LOCK_WAIT_MS", "300");
    cmd
}

/// Run the binary; a run that takes longer than `limit` is killed and fails the test
/// (a hang, before the fix).
fn within(limit: Duration, args: &[&str]) -> Output {
    let mut child = bin().args(args).spawn().unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "`arbiter {}` hung (killed after {limit:?}); stderr: {}",
                args.join(" "),
                stderr(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn arbiter(args: &[&str]) -> Output {
    within(Duration::from_secs(60), args)
}

#[cfg(unix)]
fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(st.success());
}

// ------------------------------------------------------------------ item 10: FIFOs

/// Every path a command opens, given a FIFO nobody writes: a clear error within a
/// few seconds, never a hang (before: each of these blocked forever in `open`).
#[test]
#[cfg(unix)]
fn a_fifo_nobody_writes_is_refused_at_every_path_not_a_hang() {
    let dir = temp_dir("hf-fifo");
    let (g, slip) = game(&dir);
    let fifo = dir.join("f.yaml");
    mkfifo(&fifo);
    let f = s(&fifo);
    // A map whose drawing beside it is a FIFO (before: passed over in silence).
    let m = dir.join("m.yaml");
    std::fs::copy("maps/standard.yaml", &m).unwrap();
    mkfifo(&dir.join("m.drawing.yaml"));
    let cases: Vec<Vec<&str>> = vec![
        vec!["adjudicate", "--map", s(&m), s(&slip)],
        vec!["status", f],
        vec!["history", f],
        vec!["judge", s(&g), f],
        vec!["judge", f, s(&slip)],
        vec!["undo", f],
        vec!["adjudicate", "--position", f],
        vec!["adjudicate", f],
        vec!["adjudicate", "--batch", f],
        vec!["adjudicate", "--map", f],
        vec!["map", "check", f],
        vec!["map", "show", f],
        vec!["test", f],
        vec!["render", f],
    ];
    for args in cases {
        let o = within(Duration::from_secs(15), &args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let e = stderr(&o) + &stdout(&o);
        assert!(
            e.contains("FIFO"),
            "{args:?}: the error does not say FIFO: {e}"
        );
    }
}

/// A FIFO (and a pipe through `/dev/stdin`) that a program writes is still read.
#[test]
#[cfg(unix)]
fn a_fifo_a_program_writes_is_read() {
    let dir = temp_dir("hf-fifo-ok");
    let (g, _) = game(&dir);
    let fifo = dir.join("slip-fifo.txt");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            use std::os::unix::fs::OpenOptionsExt;
            // Opened after the command has opened its end (and waits for a writer);
            // never blocking, so a command that failed early cannot hang the test.
            std::thread::sleep(Duration::from_millis(100));
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(10) {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .custom_flags(libc::O_NONBLOCK)
                    .open(&fifo);
                if let Ok(mut f) = f {
                    f.write_all(b"France:\nA Par H\n").unwrap();
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let o = within(Duration::from_secs(15), &["judge", s(&g), s(&fifo)]);
    writer.join().unwrap();
    code(&o, 0);
    assert_eq!(judged(&g), 1);
    // Standard input reached as a path.
    let mut child = bin()
        .args(["adjudicate", "/dev/stdin"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut i = child.stdin.take().unwrap();
        i.write_all(b"France: A Par - Bur\n").unwrap();
    }
    let o = child.wait_with_output().unwrap();
    code(&o, 0);
    assert!(stdout(&o).contains("Bur"), "{}", stdout(&o));
}

/// An output that is a FIFO nobody reads: refused at once (before: blocked forever).
#[test]
#[cfg(unix)]
fn an_output_fifo_nobody_reads_is_refused_not_a_hang() {
    let dir = temp_dir("hf-fifo-out");
    let fifo = dir.join("out.txt");
    mkfifo(&fifo);
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France: A Par H\n").unwrap();
    let o = within(
        Duration::from_secs(15),
        &["adjudicate", s(&slip), "-o", s(&fifo)],
    );
    code(&o, 2);
    let e = stderr(&o);
    assert!(e.contains("no program is reading it"), "{e}");
}

/// A folder or a socket given as a file is refused saying what it is.
#[test]
#[cfg(unix)]
fn a_folder_or_socket_as_a_file_is_refused_saying_what_it_is() {
    let dir = temp_dir("hf-sock");
    let (g, _) = game(&dir);
    let o = arbiter(&["judge", s(&g), s(&dir)]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("a folder"), "{}", stderr(&o));
    let sock = dir.join("s.txt");
    let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let o = arbiter(&["judge", s(&g), s(&sock)]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("a socket"), "{}", stderr(&o));
    assert_eq!(judged(&g), 0);
}

// ------------------------------------------------------------------ item 10: test DIR

const CASE: &str = "\
- id: hold
  units:
    france: [A par]
  orders:
    france:
      - A Paris Hold: succeeds
  dislodged: {}
  contested: []
";

/// `arbiter test DIR` with a link cycle and a link out of the folder: each is a
/// warning and is not followed; the cases inside are run once (before: the cycle was
/// followed until the path was too long, running the cases again at every turn, and
/// the link out of the folder was searched).
#[test]
#[cfg(unix)]
fn test_dir_detects_link_cycles_and_links_out_of_the_folder() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("hf-cycle");
    let suite = dir.join("suite");
    std::fs::create_dir_all(suite.join("sub")).unwrap();
    std::fs::write(suite.join("sub/a.yaml"), CASE).unwrap();
    symlink(&suite, suite.join("sub/back")).unwrap();
    symlink("..", suite.join("sub/up")).unwrap();
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("b.yaml"), CASE.replace("hold", "stranger")).unwrap();
    symlink(&outside, suite.join("out")).unwrap();
    symlink(outside.join("b.yaml"), suite.join("b.yaml")).unwrap();
    // A link beside the file it names: the file is read once.
    symlink("a.yaml", suite.join("sub/again.yaml")).unwrap();
    mkfifo(&suite.join("pipe.yaml"));
    let o = within(Duration::from_secs(30), &["test", s(&suite)]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(out.matches("hold").count(), 1, "{out}");
    assert!(!out.contains("stranger"), "{out}");
    assert!(err.contains("a cycle of links"), "{err}");
    assert!(err.contains("outside the folder searched"), "{err}");
    assert!(err.contains("already read: not read again"), "{err}");
    assert!(
        out.contains("pipe.yaml") && out.contains("not a regular file"),
        "{out}"
    );
}

// ------------------------------------------------------------------ item 3: backups

/// A `GAME.bak` (or `MAP.bak`) that is a link to another file: the save replaces the
/// link with a regular file holding the previous version; the file it pointed at is
/// untouched. (This held before issue 28 for the binary; the Python door, which kept
/// no backup at all, is tested in python/tests/test_hostile_files.py.)
#[test]
#[cfg(unix)]
fn a_backup_is_never_a_link_and_never_written_through_one() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("hf-bak");
    let (g, slip) = game(&dir);
    let before = std::fs::read(&g).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    symlink(&victim, dir.join("g.yaml.bak")).unwrap();
    code(&arbiter(&["judge", s(&g), s(&slip)]), 0);
    let bak = dir.join("g.yaml.bak");
    assert!(std::fs::symlink_metadata(&bak).unwrap().is_file());
    assert_eq!(std::fs::read(&bak).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    // `map layout` keeps MAP.bak the same way.
    let map = dir.join("m.yaml");
    // The standard map with one province's position taken out: `layout` places it.
    let src = std::fs::read_to_string("maps/standard.yaml").unwrap();
    let first = src
        .lines()
        .find(|l| l.trim_start().starts_with("at:"))
        .unwrap();
    std::fs::write(&map, src.replacen(&format!("{first}\n"), "", 1)).unwrap();
    let map_before = std::fs::read(&map).unwrap();
    symlink(&victim, dir.join("m.yaml.bak")).unwrap();
    let o = arbiter(&["map", "layout", s(&map)]);
    code(&o, 0);
    assert_ne!(std::fs::read(&map).unwrap(), map_before);
    let mbak = dir.join("m.yaml.bak");
    assert!(std::fs::symlink_metadata(&mbak).unwrap().is_file());
    assert_eq!(std::fs::read(&mbak).unwrap(), map_before);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
}

// ------------------------------------------------------------------ item 5: big games

/// A game that would grow past the input limit is not saved (before: saved, and then
/// every command refused it); one that nears the limit is saved with a warning.
#[test]
fn a_game_past_the_input_limit_is_not_saved_and_one_near_it_warns() {
    let dir = temp_dir("hf-big");
    let (g, slip) = game(&dir);
    let before = std::fs::read(&g).unwrap();
    // The size of the game after one phase, judged on a copy.
    let probe = dir.join("probe.yaml");
    std::fs::copy(&g, &probe).unwrap();
    code(&arbiter(&["judge", s(&probe), s(&slip)]), 0);
    let after = std::fs::metadata(&probe).unwrap().len();
    assert!(after > before.len() as u64);
    let limit = (after - 1).to_string();
    let o = arbiter(&["judge", "--max-input-bytes", &limit, s(&g), s(&slip)]);
    assert!(!o.status.success(), "saved past the limit");
    let e = stderr(&o);
    assert!(
        e.contains("was not saved") && e.contains("--max-input-bytes"),
        "{e}"
    );
    assert_eq!(std::fs::read(&g).unwrap(), before, "the file was changed");
    // Still readable under the same limit.
    code(&arbiter(&["status", "--max-input-bytes", &limit, s(&g)]), 0);
    // Near the limit: saved, with a warning, and readable back.
    let limit = (after + 10).to_string();
    let o = arbiter(&["judge", "--max-input-bytes", &limit, s(&g), s(&slip)]);
    code(&o, 0);
    assert!(
        stderr(&o).contains("near the input limit"),
        "{}",
        stderr(&o)
    );
    code(&arbiter(&["status", "--max-input-bytes", &limit, s(&g)]), 0);
    assert_eq!(judged(&g), 1);
}

// ------------------------------------------------------------------ item 4: years

/// The standard map starting in `year`.
fn map_starting(dir: &Path, year: &str) -> PathBuf {
    let src = std::fs::read_to_string("maps/standard.yaml").unwrap();
    let p = dir.join(format!("start{year}.yaml"));
    std::fs::write(
        &p,
        src.replacen(
            "start: {season: spring, year: 1901}",
            &format!("start: {{season: spring, year: {year}}}"),
            1,
        ),
    )
    .unwrap();
    p
}

/// One range of years everywhere, 1 to 9999 (before: a map could start in any `i32`
/// year, phase names read six digits, and a game could reach a year no command could
/// open; batch and `selfplay --years` wrapped).
#[test]
fn one_year_range_everywhere() {
    use arbiter::state::{Phase, PhaseError};
    // Phase names.
    for ok in ["Spring 1", "S9999M", "Winter 9999", "Fall 0001 retreat"] {
        assert!(Phase::parse(ok).is_ok(), "{ok}");
    }
    for out in [
        "Spring 10000",
        "S1000000M",
        "Spring 0",
        "W0A",
        "Spring 999999999",
    ] {
        assert!(
            matches!(Phase::parse(out), Err(PhaseError::Year(_))),
            "{out}: {:?}",
            Phase::parse(out)
        );
        assert!(Phase::parse(out)
            .unwrap_err()
            .to_string()
            .contains("1 to 9999"));
    }
    let dir = temp_dir("hf-years");
    // The map loader.
    for year in ["2147483647", "-5", "0", "10000"] {
        let m = map_starting(&dir, year);
        let o = arbiter(&["map", "check", s(&m)]);
        assert!(!o.status.success(), "{year}");
        let e = stdout(&o) + &stderr(&o);
        assert!(
            e.contains("outside the years arbiter plays, 1 to 9999"),
            "{year}: {e}"
        );
        let g = dir.join(format!("g{year}.yaml"));
        let o = arbiter(&["new", s(&g), "--map", s(&m)]);
        assert!(!o.status.success(), "{year}: a game was started");
    }
    // A winter start in 9999 would move first in 10000.
    let src = std::fs::read_to_string("maps/standard.yaml").unwrap();
    let w = dir.join("w9999.yaml");
    std::fs::write(
        &w,
        src.replacen(
            "start: {season: spring, year: 1901}",
            "start: {season: winter, year: 9999}",
            1,
        ),
    )
    .unwrap();
    let o = arbiter(&["map", "check", s(&w)]);
    assert!(!o.status.success());
    assert!(
        (stdout(&o) + &stderr(&o)).contains("would move first in 10000"),
        "{}",
        stdout(&o)
    );
    // A DPjudge map's `BEGIN` (map import).
    let dpj = dir.join("dpj");
    std::fs::create_dir_all(&dpj).unwrap();
    for f in [
        "builds.map",
        "classic.names",
        "classic.borders",
        "classic.powers",
    ] {
        std::fs::copy(format!("tests/fixtures/dpjudge/{f}"), dpj.join(f)).unwrap();
    }
    let b = dpj.join("builds.map");
    let src = std::fs::read_to_string(&b).unwrap();
    std::fs::write(
        &b,
        src.replace(
            "BEGIN  WINTER 1900 ADJUSTMENTS",
            "BEGIN Spring 10000 Movement",
        ),
    )
    .unwrap();
    let o = arbiter(&["map", "import", s(&b), "-o", s(&dpj.join("b.yaml"))]);
    let e = stdout(&o) + &stderr(&o);
    assert!(
        e.contains("builds.map:15: `BEGIN Spring 10000 Movement`: the year 10000 is outside"),
        "{e}"
    );
    // `--last-year`, a game file's `last_year`, batch lines, `selfplay --years`.
    let g = dir.join("g.yaml");
    let o = arbiter(&["new", s(&g), "--last-year", "10000"]);
    assert!(stderr(&o).contains("1 to 9999"), "{}", stderr(&o));
    code(&arbiter(&["new", s(&g), "--last-year", "1905"]), 0);
    let text = std::fs::read_to_string(&g).unwrap();
    assert!(text.contains("last_year: 1905"), "{text}");
    std::fs::write(&g, text.replace("last_year: 1905", "last_year: 2147483647")).unwrap();
    let o = arbiter(&["status", s(&g)]);
    assert!(stderr(&o).contains("1 to 9999"), "{}", stderr(&o));
    let lines = "{\"id\":1,\"phase\":\"Winter 2147483647\",\"units\":{\"france\":[\"A PAR\"]},\"orders\":{}}\n\
                 {\"id\":2,\"units\":{\"france\":[\"A PAR\"]},\"orders\":{},\"last_year\":-5}\n";
    let batch = dir.join("b.jsonl");
    std::fs::write(&batch, lines).unwrap();
    let o = arbiter(&["adjudicate", "--batch", s(&batch)]);
    let out = stdout(&o);
    assert!(!out.contains("-2147483648"), "{out}");
    assert_eq!(out.matches("1 to 9999").count(), 2, "{out}");
    let o = arbiter(&["selfplay", "--years", "4294967295", "--games", "1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("1 to 9999"), "{}", stderr(&o));
}

/// A game on a map that starts in 9999 ends after the Fall turn of 9999 (before: it went
/// on to Spring 10000, and from a later start to a year no command could open).
#[test]
fn a_game_ends_after_the_last_year_arbiter_plays() {
    let dir = temp_dir("hf-9999");
    let m = map_starting(&dir, "9999");
    let g = dir.join("g.yaml");
    code(&arbiter(&["new", s(&g), "--map", s(&m)]), 0);
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France:\nA Par H\n").unwrap();
    code(&arbiter(&["judge", s(&g), s(&slip)]), 0);
    code(&arbiter(&["judge", s(&g), s(&slip)]), 0);
    let text = std::fs::read_to_string(&g).unwrap();
    assert!(!text.contains("10000"), "{text}");
    assert!(text.contains("over:"), "{text}");
    // Every command still opens it, and nothing more can be judged.
    code(&arbiter(&["status", s(&g)]), 0);
    code(&arbiter(&["history", s(&g)]), 0);
    let o = arbiter(&["judge", s(&g), s(&slip)]);
    assert!(!o.status.success());
    // A batch line of Winter 9999 has no next phase.
    let batch = dir.join("b.jsonl");
    std::fs::write(
        &batch,
        "{\"id\":1,\"phase\":\"Winter 9999\",\"units\":{\"france\":[\"A PAR\"]},\"orders\":{}}\n",
    )
    .unwrap();
    let o = arbiter(&["adjudicate", "--batch", s(&batch)]);
    assert!(stdout(&o).contains("\"next\":null"), "{}", stdout(&o));
}

/// No command saves a game that would not load again: the text is read back before it
/// is saved. (A hand-edited retreat option into an occupied province, issue 28 item 2,
/// made `judge` save two units in Munich; the file could then not be opened. Whether
/// the hand-edited game is refused at load or its judgement refused at the save, the
/// file that could be opened can still be opened.)
#[test]
fn no_command_saves_a_game_that_would_not_load_again() {
    let dir = temp_dir("hf-readback");
    let g = dir.join("g.yaml");
    code(&arbiter(&["new", s(&g)]), 0);
    let text = std::fs::read_to_string(&g)
        .unwrap()
        .replace("phase: Spring 1901 movement", "phase: Spring 1901 retreat")
        .replacen(
            "    france: [F BRE, A MAR, A PAR]\n",
            "    france: [F BRE, A MAR, A PAR, A BUR]\n",
            1,
        )
        .replacen(
            "  owners:\n",
            "  dislodged:\n    - {power: germany, unit: A RUH, by: BUR, retreats: [MUN, HOL]}\n  owners:\n",
            1,
        );
    std::fs::write(&g, &text).unwrap();
    let loads_before = arbiter(&["status", s(&g)]).status.success();
    let slip = dir.join("germany.txt");
    std::fs::write(&slip, "Germany:\nA Ruh R Mun\n").unwrap();
    let judged = arbiter(&["judge", s(&g), s(&slip)]);
    let after = arbiter(&["status", s(&g)]);
    if judged.status.success() || loads_before {
        assert!(
            after.status.success(),
            "judge: {}\nstatus after: {}",
            stderr(&judged),
            stderr(&after)
        );
    }
    if loads_before && !judged.status.success() {
        assert!(
            stderr(&judged).contains("would not load again"),
            "{}",
            stderr(&judged)
        );
        assert_eq!(std::fs::read_to_string(&g).unwrap(), text);
    }
}

// ------------------------------------------------------------ session 9: outputs

/// A new game and a French slip in a fresh folder.
fn game_and_slip(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = temp_dir(tag);
    let g = dir.join("g.yaml");
    code(&bin().args(["new", s(&g)]).output().unwrap(), 0);
    let fr = dir.join("france.txt");
    std::fs::write(&fr, "France:\nA PAR - BUR\n").unwrap();
    (dir, g, fr)
}

fn phases_in(g: &Path) -> usize {
    std::fs::read_to_string(g)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("- phase:"))
        .count()
}

/// Every output of `judge` is checked before any work against every input (the game,
/// by any path: itself, a link, a hard link; its backup; an order file) and against
/// the other output: refused, exit 2, nothing judged, nothing written.
#[test]
fn judge_refuses_an_output_that_is_an_input_or_the_other_output_before_any_work() {
    let (dir, g, fr) = game_and_slip("judge-outputs");
    let link = dir.join("link.yaml");
    std::os::unix::fs::symlink(&g, &link).unwrap();
    let hard = dir.join("hard.yaml");
    std::fs::hard_link(&g, &hard).unwrap();
    let bak = dir.join("g.yaml.bak");
    let before = std::fs::read(&g).unwrap();
    for (flag, out, says) in [
        ("--png", &g, "input file of this command, the game file"),
        ("--png", &link, "input file of this command, the game file"),
        ("--svg", &hard, "input file of this command, the game file"),
        ("--png", &fr, "input file of this command, the order file"),
        (
            "--svg",
            &bak,
            "input file of this command, the backup of the game file",
        ),
    ] {
        let o = bin()
            .args(["judge", s(&g), s(&fr), flag, s(out)])
            .output()
            .unwrap();
        code(&o, 2);
        let e = stderr(&o);
        assert!(e.contains(says) && e.contains("Nothing was done"), "{e}");
        assert_eq!(std::fs::read(&g).unwrap(), before, "{flag} {}", s(out));
        assert_eq!(phases_in(&g), 0);
        assert_eq!(
            std::fs::read_to_string(&fr).unwrap(),
            "France:\nA PAR - BUR\n"
        );
    }
    assert!(!bak.exists());
    // Two outputs, one file (by name, or by a link to it).
    let pic = dir.join("pic");
    let pic_link = dir.join("pic-link");
    std::os::unix::fs::symlink(&pic, &pic_link).unwrap();
    for other in [&pic, &pic_link] {
        let o = bin()
            .args(["judge", s(&g), s(&fr), "--svg", s(&pic), "--png", s(other)])
            .output()
            .unwrap();
        code(&o, 2);
        assert!(
            stderr(&o).contains("another output of this command"),
            "{}",
            stderr(&o)
        );
        assert!(!pic.exists());
        assert_eq!(phases_in(&g), 0);
    }
    // Distinct outputs, and two outputs that are a device written in place: judged.
    let o = bin()
        .args([
            "judge",
            s(&g),
            s(&fr),
            "--svg",
            "/dev/null",
            "--png",
            "/dev/null",
        ])
        .output()
        .unwrap();
    code(&o, 0);
    assert_eq!(phases_in(&g), 1);
}

/// `render --all --dir D --gif D/01-….png`: the GIF would replace a picture written
/// into the folder; refused before anything is written.
#[test]
fn render_refuses_a_gif_that_is_one_of_the_pictures_of_dir() {
    let (dir, g, fr) = game_and_slip("album-outputs");
    code(&bin().args(["judge", s(&g), s(&fr)]).output().unwrap(), 0);
    let d = dir.join("album");
    let gif = d.join("01-S1901M.png");
    let o = bin()
        .args(["render", s(&g), "--all", "--dir", s(&d), "--gif", s(&gif)])
        .output()
        .unwrap();
    code(&o, 2);
    assert!(
        stderr(&o).contains("another output of this command"),
        "{}",
        stderr(&o)
    );
    assert!(!gif.exists() && !d.join("index.html").exists());
}

/// No output and no save may replace a file named as a game's lock file: writing over
/// the lock of a served game let a second writer in.
#[test]
fn no_output_is_written_over_a_lock_file() {
    let (dir, g, fr) = game_and_slip("lock-outputs");
    let lock = dir.join(".sv.yaml.lock");
    std::fs::write(&lock, "arbiter serve (process 1) at http://127.0.0.1:1/").unwrap();
    let text = std::fs::read(&lock).unwrap();
    let (new_lock, other_lock) = (dir.join(".n.yaml.lock"), dir.join(".other.lock"));
    let runs: [&[&str]; 5] = [
        &["judge", s(&g), s(&fr), "--svg", s(&lock)],
        &["render", s(&g), "-o", s(&lock)],
        &["adjudicate", s(&fr), "-o", s(&lock)],
        &["new", s(&new_lock)],
        &["render", s(&g), "--png", "-o", s(&other_lock)],
    ];
    for args in runs {
        let o = bin().args(args).output().unwrap();
        code(&o, 2);
        assert!(
            stderr(&o).contains("named as a game's lock file"),
            "{}",
            stderr(&o)
        );
    }
    assert_eq!(std::fs::read(&lock).unwrap(), text);
    assert_eq!(phases_in(&g), 0);
    assert!(!new_lock.exists() && !other_lock.exists());
}

/// A `.bak` that is a folder: the save fails naming the backup and what to do.
#[test]
fn a_backup_that_is_a_folder_is_named_in_the_error() {
    let (dir, g, _) = game_and_slip("bak-folder");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    std::fs::create_dir(dir.join("g.yaml.bak")).unwrap();
    let o = bin().args(["judge", s(&g), s(&empty)]).output().unwrap();
    code(&o, 2);
    let e = stderr(&o);
    assert!(
        e.contains("its backup `") && e.contains("g.yaml.bak` cannot be written"),
        "{e}"
    );
    assert!(e.contains("it is a folder: move or remove it"), "{e}");
    assert_eq!(phases_in(&g), 0);
}

// ------------------------------------------------- session 9: files beside a map

/// A folder with a copy of the standard map and a "secret" file outside it.
fn map_folder(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = temp_dir(tag);
    let mm = dir.join("mm");
    std::fs::create_dir(&mm).unwrap();
    let map = mm.join("standard.yaml");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/standard.yaml"),
        &map,
    )
    .unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(
        &secret,
        "root:x:0:0:SECRET-LINE-ONE:/root:/bin/bash\nSECRET-LINE-TWO\n",
    )
    .unwrap();
    (dir, map, secret)
}

/// A drawing beside a map (or a game's `map_file`) that is a link leading out of the
/// map's folder is refused, as `map import` refuses such a `USE`, and never read; a
/// geography beside a map likewise for `map draw`.
#[test]
fn a_drawing_or_geography_beside_a_map_that_leads_out_of_its_folder_is_refused() {
    let (dir, map, secret) = map_folder("beside-out");
    let g = dir.join("g.yaml");
    code(
        &bin()
            .args(["new", s(&g), "--map", s(&map)])
            .output()
            .unwrap(),
        0,
    );
    let drawing = map.with_file_name("standard.drawing.yaml");
    std::os::unix::fs::symlink(&secret, &drawing).unwrap();
    for args in [
        vec!["render", s(&g), "-o", "/dev/null"],
        vec!["render", "--map", s(&map), "-o", "/dev/null"],
        vec!["status", s(&g)],
        vec!["map", "check", s(&map)],
    ] {
        let o = bin().args(&args).output().unwrap();
        code(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains("is a link that leads out of the map's folder"),
            "{e}"
        );
        assert!(!e.contains("SECRET-LINE"), "{e}");
    }
    std::fs::remove_file(&drawing).unwrap();
    let geo = map.with_file_name("standard.geo.yaml");
    std::os::unix::fs::symlink(&secret, &geo).unwrap();
    let o = bin()
        .args(["map", "draw", s(&map), "-o", s(&dir.join("d.yaml"))])
        .output()
        .unwrap();
    code(&o, 2);
    let e = stderr(&o);
    assert!(e.contains("the geography beside the map"), "{e}");
    assert!(!e.contains("SECRET-LINE"), "{e}");
}

/// A file read as a drawing or a geography that is not one (here inside the map's
/// folder, so it is read) is said not to be one, with the place, and never quoted.
#[test]
fn a_file_that_is_not_a_drawing_or_geography_is_never_quoted() {
    let (_dir, map, _) = map_folder("beside-kind");
    let passwd = map.with_file_name("passwd");
    std::fs::write(
        &passwd,
        "root:x:0:0:SECRET-LINE-ONE:/root:/bin/bash\nSECRET-LINE-TWO\n",
    )
    .unwrap();
    let drawing = map.with_file_name("standard.drawing.yaml");
    std::os::unix::fs::symlink("passwd", &drawing).unwrap();
    let o = bin()
        .args(["render", "--map", s(&map), "-o", "/dev/null"])
        .output()
        .unwrap();
    code(&o, 2);
    let e = stderr(&o);
    assert!(e.contains("is not a drawing file: line 1, column 1"), "{e}");
    assert!(!e.contains("SECRET-LINE") && !e.contains("root:x"), "{e}");
    // `map check` names the place but shows no line of it.
    let o = bin().args(["map", "check", s(&map)]).output().unwrap();
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("is not a drawing file: line 1, column 1"),
        "{out}"
    );
    assert!(
        !out.contains("SECRET-LINE") && !out.contains("root:x"),
        "{out}"
    );
    std::fs::remove_file(&drawing).unwrap();
    std::os::unix::fs::symlink("passwd", map.with_file_name("standard.geo.yaml")).unwrap();
    let o = bin()
        .args(["map", "draw", s(&map), "-o", "/dev/null"])
        .output()
        .unwrap();
    let e = stderr(&o);
    assert!(
        e.contains("is not a geography file: line 1, column 1"),
        "{e}"
    );
    assert!(!e.contains("SECRET-LINE") && !e.contains("root:x"), "{e}");
}

/// A value an error quotes from a file is cut to 40 characters: a mapping that is not
/// a drawing shows at most the start of a key.
#[test]
fn a_quoted_value_in_a_yaml_error_is_cut_short() {
    let (_dir, map, _) = map_folder("beside-cap");
    std::fs::write(
        map.with_file_name("standard.drawing.yaml"),
        "width: \"0123456789012345678901234567890123456789-SECRET-TAIL\"\n",
    )
    .unwrap();
    let o = bin()
        .args(["render", "--map", s(&map), "-o", "/dev/null"])
        .output()
        .unwrap();
    code(&o, 2);
    let e = stderr(&o);
    assert!(
        e.contains("0123456789012345678901234567890123456789…"),
        "{e}"
    );
    assert!(!e.contains("SECRET-TAIL"), "{e}");
}

/// `judge --png` over the game's map file (read when the game loads) is refused before
/// the phase is judged: the game keeps no phase.
#[test]
fn judge_refuses_a_picture_over_the_games_map_file_before_judging() {
    let (dir, map, _) = map_folder("judge-map-output");
    let g = dir.join("g.yaml");
    code(
        &bin()
            .args(["new", s(&g), "--map", s(&map)])
            .output()
            .unwrap(),
        0,
    );
    let fr = dir.join("france.txt");
    std::fs::write(&fr, "France:\nA PAR - BUR\n").unwrap();
    let before = std::fs::read(&map).unwrap();
    let o = bin()
        .args(["judge", s(&g), s(&fr), "--png", s(&map)])
        .output()
        .unwrap();
    code(&o, 2);
    assert!(stderr(&o).contains("Nothing was done"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&map).unwrap(), before);
    assert_eq!(phases_in(&g), 0);
}

/// A geography's `land:` is read from its folder only: `..`, a root, or a link that
/// leads out is refused, and nothing of the file is read.
#[test]
fn a_geographys_land_file_outside_its_folder_is_refused() {
    let (dir, map, secret) = map_folder("land-out");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let geo_text = std::fs::read_to_string(repo.join("maps/standard.geo.yaml")).unwrap();
    let geo = map.with_file_name("standard.geo.yaml");
    let land_link = map.with_file_name("land.json");
    std::os::unix::fs::symlink(&secret, &land_link).unwrap();
    for land in ["../secret.txt", s(&secret), "land.json"] {
        let text = geo_text.replace("land: geo/europe-land.json", &format!("land: {land}"));
        std::fs::write(&geo, text).unwrap();
        let o = bin()
            .args(["map", "draw", s(&map), "-o", s(&dir.join("d.yaml"))])
            .output()
            .unwrap();
        code(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains("the land file is read from the geography's folder"),
            "{e}"
        );
        assert!(!e.contains("SECRET-LINE"), "{e}");
    }
}
