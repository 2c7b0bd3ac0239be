//! Writing files (issue 23, items 8–10): links are followed and kept, a game keeps its
//! mode, FIFOs and character devices are written in place, an input is never an output,
//! empty position files are refused with their name and line, and two commands on one
//! game run one after the other (the lock file beside it).

use crate::common::{code, s, stderr, temp_dir};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn arbiter(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// A new standard game `g.yaml` in `dir` and France's slip holding Paris (valid in
/// every movement phase of 1901).
pub(crate) fn game(dir: &Path) -> (PathBuf, PathBuf) {
    let g = dir.join("g.yaml");
    code(&arbiter(&["new", s(&g)]), 0);
    let slip = dir.join("france.txt");
    std::fs::write(&slip, "France:\nA Par H\n").unwrap();
    (g, slip)
}

/// The number of judged phases in a game file.
pub(crate) fn judged(g: &Path) -> usize {
    std::fs::read_to_string(g)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("- phase:"))
        .count()
}

#[cfg(unix)]
fn file_type(p: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(p).unwrap().file_type()
}

#[test]
#[cfg(unix)]
fn a_symlinked_game_and_output_stay_links_and_their_targets_are_written() {
    let dir = temp_dir("links");
    let (g, slip) = game(&dir);
    let link = dir.join("link.yaml");
    std::os::unix::fs::symlink("g.yaml", &link).unwrap();
    code(&arbiter(&["judge", s(&link), s(&slip)]), 0);
    assert!(file_type(&link).is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("g.yaml"));
    assert_eq!(judged(&g), 1, "the game the link names was judged");
    // The backup is beside the game, a regular file (never a link).
    let bak = dir.join("g.yaml.bak");
    assert!(file_type(&bak).is_file(), "{bak:?} is not a regular file");
    assert_eq!(judged(&bak), 0);
    // A second judge through the link: the backup is still a file, of one phase.
    code(&arbiter(&["judge", s(&link), s(&slip)]), 0);
    assert!(file_type(&link).is_symlink());
    assert!(file_type(&bak).is_file());
    assert_eq!((judged(&g), judged(&bak)), (2, 1));

    // An output that is a link (here through a chain of two).
    let target = dir.join("picture.svg");
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, dir.join("mid.svg")).unwrap();
    std::os::unix::fs::symlink("mid.svg", dir.join("out.svg")).unwrap();
    code(&arbiter(&["render", "-o", s(&dir.join("out.svg"))]), 0);
    assert!(file_type(&dir.join("out.svg")).is_symlink());
    assert!(file_type(&dir.join("mid.svg")).is_symlink());
    let svg = std::fs::read_to_string(&target).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{svg:.80}"
    );
    // A dangling link: its target is created.
    std::os::unix::fs::symlink("made.txt", dir.join("dangling.txt")).unwrap();
    code(
        &arbiter(&["adjudicate", s(&slip), "-o", s(&dir.join("dangling.txt"))]),
        0,
    );
    assert!(file_type(&dir.join("dangling.txt")).is_symlink());
    assert!(std::fs::read_to_string(dir.join("made.txt"))
        .unwrap()
        .contains("Paris"));
}

#[test]
#[cfg(unix)]
fn a_0600_game_stays_0600_and_outputs_keep_their_mode() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let dir = temp_dir("mode");
    let (g, slip) = game(&dir);
    std::fs::set_permissions(&g, std::fs::Permissions::from_mode(0o600)).unwrap();
    code(&arbiter(&["judge", s(&g), s(&slip)]), 0);
    assert_eq!(judged(&g), 1);
    assert_eq!(mode(&g), 0o600, "judge changed the game's mode");
    code(&arbiter(&["undo", s(&g)]), 0);
    assert_eq!(mode(&g), 0o600, "undo changed the game's mode");
    // An output file keeps its mode too.
    let out = dir.join("sheet.txt");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    code(&arbiter(&["adjudicate", s(&slip), "-o", s(&out)]), 0);
    assert_eq!(mode(&out), 0o640);
    assert!(std::fs::read_to_string(&out).unwrap().contains("Paris"));
}

#[test]
#[cfg(target_os = "linux")]
fn a_fifo_is_written_in_place() {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let dir = temp_dir("fifo");
    let (_, slip) = game(&dir);
    let fifo = dir.join("sheet.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // Open the reading end without waiting for a writer (O_NONBLOCK), so the binary's
    // open for writing does not block; the sheet is far smaller than a pipe's buffer.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(0o4000)
        .open(&fifo)
        .unwrap();
    code(&arbiter(&["adjudicate", s(&slip), "-o", s(&fifo)]), 0);
    assert!(file_type(&fifo).is_fifo(), "the FIFO was replaced");
    let mut got = String::new();
    reader.read_to_string(&mut got).unwrap();
    assert!(got.contains("Paris"), "{got}");
}

#[test]
#[cfg(target_os = "linux")]
fn a_character_device_is_written_in_place_and_dev_null_stays_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir("chardev");
    // A private null device (1, 3): only root may make one. Writing to it first is
    // the guard for /dev/null below: a binary that replaced it fails here, on a node
    // of its own, and never reaches /dev/null.
    let node = dir.join("null");
    let made = Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: cannot make a device node here (not root)");
        return;
    }
    code(&arbiter(&["render", "-o", s(&node)]), 0);
    assert!(file_type(&node).is_char_device(), "the device was replaced");
    assert!(
        std::fs::read_dir(&dir).unwrap().count() == 1,
        "a temporary file was left"
    );

    let null = Path::new("/dev/null");
    assert!(file_type(null).is_char_device());
    code(&arbiter(&["render", "-o", "/dev/null"]), 0);
    assert!(file_type(null).is_char_device(), "/dev/null was replaced");
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = temp_dir("same");
    let (g, slip) = game(&dir);
    let before = std::fs::read(&g).unwrap();
    // `--svg` on the game itself: refused before anything is judged.
    let o = arbiter(&["judge", s(&g), s(&slip), "--svg", s(&g)]);
    code(&o, 2);
    assert!(stderr(&o).contains("input file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&g).unwrap(), before, "the game was changed");
    // `--svg` on an order file, by another path to it.
    let other = format!(
        "{}/../{}/france.txt",
        s(&dir),
        dir.file_name().unwrap().to_str().unwrap()
    );
    let o = arbiter(&["judge", s(&g), s(&slip), "--svg", &other]);
    code(&o, 2);
    assert_eq!(std::fs::read(&g).unwrap(), before);
    // `-o` equal to the orders, the position or the map read.
    let o = arbiter(&["adjudicate", s(&slip), "-o", s(&slip)]);
    code(&o, 2);
    let e = stderr(&o);
    assert!(e.contains("refused") && e.contains("france.txt"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&slip).unwrap(),
        "France:\nA Par H\n"
    );
    let pos = dir.join("pos.yaml");
    std::fs::write(&pos, "units: {}\n").unwrap();
    let o = arbiter(&["render", "--position", s(&pos), "-o", s(&pos)]);
    code(&o, 2);
    assert_eq!(std::fs::read_to_string(&pos).unwrap(), "units: {}\n");
    #[cfg(unix)]
    {
        let link = dir.join("alias.txt");
        std::os::unix::fs::symlink(&slip, &link).unwrap();
        code(&arbiter(&["adjudicate", s(&slip), "-o", s(&link)]), 2);
        assert_eq!(
            std::fs::read_to_string(&slip).unwrap(),
            "France:\nA Par H\n"
        );
    }
}

#[test]
fn an_empty_position_file_is_refused_with_its_name_and_line() {
    let dir = temp_dir("empty");
    for (name, text) in [
        ("zero.yaml", ""),
        ("blank.yaml", "\n  \n"),
        ("comments.yaml", "# the position\n\n# nothing yet\n"),
    ] {
        let pos = dir.join(name);
        std::fs::write(&pos, text).unwrap();
        for cmd in [
            vec!["adjudicate", "--position", s(&pos), "-"],
            vec!["render", "--position", s(&pos)],
        ] {
            let o = bin().args(&cmd).stdin(Stdio::null()).output().unwrap();
            code(&o, 2);
            let e = stderr(&o);
            assert!(
                e.contains(&format!("{name}: line 1")) && e.contains("units: {}"),
                "{cmd:?}: {e}"
            );
        }
    }
    // The written empty board is read.
    let pos = dir.join("board.yaml");
    std::fs::write(&pos, "# an empty board\nunits: {}\n").unwrap();
    let o = bin()
        .args(["adjudicate", "--position", s(&pos), "-"])
        .output()
        .unwrap();
    code(&o, 0);
    // Other errors name their line and column.
    for (text, at, says) in [
        (
            "units:\n  france: [A Par]\n  franc: [A Bur]\n",
            "line 3, column 3",
            "franc",
        ),
        (
            "units:\n  france: [A Par, A Xyz]\n",
            "line 2, column 19",
            "A Xyz",
        ),
        (
            "units:\n  france: [A Par]\n  germany:\n    - A Mun\n    - A Par\n",
            "line 5, column 7",
            "two units in Paris",
        ),
        (
            "units: {}\nowners:\n  france: [par, xyz]\n",
            "line 3, column 17",
            "xyz",
        ),
        (
            "phase: Sprung 1901\nunits: {}\n",
            "line 1, column 8",
            "Sprung",
        ),
    ] {
        std::fs::write(&pos, text).unwrap();
        let o = bin()
            .args(["adjudicate", "--position", s(&pos), "-"])
            .output()
            .unwrap();
        code(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains(&format!("board.yaml: {at}:")) && e.contains(says),
            "{text:?}: {e}"
        );
    }
}

#[test]
fn a_held_lock_refuses_with_the_game_and_lock_file_named() {
    let dir = temp_dir("held");
    let (g, slip) = game(&dir);
    let before = std::fs::read(&g).unwrap();
    let lock_path = dir.join(".g.yaml.lock");
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .unwrap();
    lock.lock().unwrap();
    for args in [vec!["judge", s(&g), s(&slip)], vec!["undo", s(&g)]] {
        let o = bin()
            .args(&args)
            .env("ARBITER_LOCK_WAIT_MS", "300")
            .output()
            .unwrap();
        code(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains("g.yaml` is in use") && e.contains(".g.yaml.lock"),
            "{args:?}: {e}"
        );
        assert_eq!(std::fs::read(&g).unwrap(), before);
    }
    // Released: the next judge waits for nothing.
    lock.unlock().unwrap();
    code(&arbiter(&["judge", s(&g), s(&slip)]), 0);
    assert_eq!(judged(&g), 1);
}

#[test]
fn a_backup_leftover_is_reported() {
    let dir = temp_dir("leftover");
    let (g, _) = game(&dir);
    let left = dir.join("g.yaml.bak.tmp-4242");
    std::fs::write(&left, "half").unwrap();
    let o = arbiter(&["status", s(&g)]);
    code(&o, 0);
    let e = stderr(&o);
    assert!(
        e.contains("g.yaml.bak.tmp-4242") && e.contains("left over"),
        "{e}"
    );
}

/// Two commands started together on one game.
fn pair(g: &Path, a: &[&str], b: &[&str]) -> [(Output, &'static str); 2] {
    let start = |args: &[&str]| -> Child {
        let mut full: Vec<&str> = args.to_vec();
        full.insert(1, s(g));
        bin().args(&full).spawn().unwrap()
    };
    let (ca, cb) = (start(a), start(b));
    let kind = |args: &[&str]| if args[0] == "judge" { "judge" } else { "undo" };
    [
        (ca.wait_with_output().unwrap(), kind(a)),
        (cb.wait_with_output().unwrap(), kind(b)),
    ]
}

#[test]
fn concurrent_commands_on_one_game_lose_no_phase() {
    let dir = temp_dir("race");
    let (g, slip) = game(&dir);
    // A game with one phase judged, for the undo races.
    let g1 = dir.join("g1.yaml");
    std::fs::copy(&g, &g1).unwrap();
    code(&arbiter(&["judge", s(&g1), s(&slip)]), 0);
    let slip = s(&slip).to_string();
    let judge = ["judge", slip.as_str()];
    let undo = ["undo"];
    let mut checked = 0;
    for round in 0..8 {
        // Four games at a time: two judge-judge races, two judge-undo races.
        let mut runs = Vec::new();
        for k in 0..4 {
            let copy = dir.join(format!("c{round}-{k}.yaml"));
            let (from, b): (&Path, &[&str]) = if k % 2 == 0 {
                (&g, &judge)
            } else {
                (&g1, &undo)
            };
            std::fs::copy(from, &copy).unwrap();
            let start = judged(&copy);
            runs.push((copy, start, b));
        }
        let results: Vec<_> = std::thread::scope(|sc| {
            let hs: Vec<_> = runs
                .iter()
                .map(|(copy, _, b)| sc.spawn(move || pair(copy, &judge, b)))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for ((copy, start, _), outs) in runs.iter().zip(results) {
            let mut expected = *start as i64;
            for (o, kind) in &outs {
                let e = stderr(o);
                if o.status.success() {
                    assert!(e.contains("saved") || kind == &"undo", "{e}");
                    expected += if *kind == "judge" { 1 } else { -1 };
                } else {
                    assert!(
                        e.contains("is in use") && e.contains(".lock"),
                        "{kind} failed without the lock message: {e}"
                    );
                }
            }
            assert_eq!(
                judged(copy) as i64,
                expected,
                "{copy:?}: a command said it saved but its phase is not in the file"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 32);
}
