//! Hostile input, issue 28 (theme PERF): time and memory that grew faster than the
//! input. docs/CLI.md, "Bounds".

use crate::common::{arbiter, code, has, s, stderr, stdout, temp_dir};
use std::path::{Path, PathBuf};

/// A jDip suite of one case that passes.
const JDIP_CASE: &str = "VARIANT_ALL Standard
CASE 6.A.1 (Moving to an area that is not a neighbour)
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
    England: F nth
ORDERS
    England: F nth-pic
POSTSTATE_SAME
END
";

/// A chain of `depth` folders `a/a/…/a` under `root`, the case at its bottom.
fn chain(root: &Path, depth: usize) -> PathBuf {
    let mut p = root.to_path_buf();
    for _ in 0..depth {
        p.push("a");
    }
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(p.join("x.txt"), JDIP_CASE).unwrap();
    p
}

// ------------------------------------------------------- defect 5: `test DIR` deep

/// `arbiter test DIR` on a chain of 300 folders finds the case at the bottom; one
/// deeper than `MAX_DEPTH` (500) is named as such, not searched (before: every level
/// resolved the whole path, cubic time, 5 s at depth 1,000, and past the system's
/// path length only "its path cannot be resolved"); a link cycle is still found.
#[test]
fn test_dir_walks_a_deep_chain_and_names_one_too_deep() {
    let dir = temp_dir("hp-deep");
    let shallow = dir.join("d300");
    chain(&shallow, 300);
    let o = arbiter(&["test", s(&shallow)]);
    code(&o, 0);
    has(&stdout(&o), "6.A.1 ... ok");
    has(&stdout(&o), "1 passed, 0 failed");

    let deep = dir.join("d520");
    chain(&deep, 520);
    let o = arbiter(&["test", s(&deep)]);
    code(&o, 1);
    let out = stdout(&o);
    has(&out, "folders nest more than 500 deep");
    has(&out, "0 passed, 1 failed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cycle of links at the bottom of a deep chain is still found (by device and inode
/// now, no longer by resolving paths), and the case is run once.
#[test]
#[cfg(unix)]
fn test_dir_finds_a_cycle_at_depth() {
    let dir = temp_dir("hp-cycle");
    let bottom = chain(&dir.join("c"), 200);
    std::os::unix::fs::symlink("../..", bottom.join("up")).unwrap();
    let o = arbiter(&["test", s(&dir.join("c"))]);
    code(&o, 0);
    assert_eq!(
        stdout(&o).matches("6.A.1 ... ok").count(),
        1,
        "{}",
        stdout(&o)
    );
    has(&stderr(&o), "a cycle of links");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arbiter test EMPTY_DIR`: no case was found, said so and exit 1 (before: "0 passed,
/// 0 failed", exit 0, as if every case had passed).
#[test]
fn test_of_a_folder_without_suites_says_so() {
    let dir = temp_dir("hp-empty");
    std::fs::write(dir.join("notes.md"), "nothing to run\n").unwrap();
    let o = arbiter(&["test", s(&dir)]);
    code(&o, 1);
    has(
        &stdout(&o),
        "no suite file (*.yaml, *.yml, *.txt) in this folder or below",
    );
    has(&stdout(&o), "0 passed, 1 failed");
}

/// `arbiter test LOOP` (a link to itself) says it is a loop of links, and a link to
/// nothing says where it leads (before: both "no such file or folder").
#[test]
#[cfg(unix)]
fn test_of_a_link_loop_names_the_loop() {
    let dir = temp_dir("hp-loop");
    let lp = dir.join("loop");
    std::os::unix::fs::symlink("loop", &lp).unwrap();
    let o = arbiter(&["test", s(&lp)]);
    code(&o, 2);
    has(&stderr(&o), "it is a loop of symbolic links");
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink("nowhere.txt", &dangling).unwrap();
    let o = arbiter(&["test", s(&dangling)]);
    code(&o, 2);
    has(
        &stderr(&o),
        "it is a link to `nowhere.txt`, which does not exist",
    );
}

// ------------------------------------- defect 6: did-you-mean, the count of the rest

/// `n` distinct words of six letters from `q x z j` (no province is close to one).
fn strange_words(n: usize) -> Vec<String> {
    (0..n)
        .map(|mut k| {
            (0..6)
                .map(|_| {
                    let c = b"qxzj"[k % 4] as char;
                    k /= 4;
                    c
                })
                .collect()
        })
        .collect()
}

/// A slip of 1,000 orders for unknown provinces: the text shows 100 and then counts
/// the 900 others (before: "… and 1 more problem", the one diagnostic that counts
/// the 900 the parser did not keep, as if it were one).
#[test]
fn text_counts_every_problem_not_shown() {
    let dir = temp_dir("hp-count");
    let mut slip = String::from("France:\n");
    for w in strange_words(1000) {
        slip.push_str(&format!("A {w} - bur\n"));
    }
    let f = dir.join("orders.txt");
    std::fs::write(&f, slip).unwrap();
    let o = arbiter(&["adjudicate", s(&f), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 101, "{diags:?}");
    has(
        diags[100]["message"].as_str().unwrap(),
        "900 more problems in this text not listed",
    );
    let o = arbiter(&["adjudicate", s(&f)]);
    let err = stderr(&o);
    assert_eq!(err.matches("unknown province").count(), 100, "{err}");
    has(&err, "… and 900 more problems\n");
}

// ---------------------------------------- smaller: a jDip case of repeated orders

/// A jDip case that orders its one unit 200 times is refused as a slip is (at most ten
/// orders a unit and 100 more), naming the first order past the limit (before: judged,
/// passed, whatever the count: 400,000 lines of `A par-bur` ran as one order).
#[test]
fn jdip_case_with_too_many_orders_is_a_problem() {
    let dir = temp_dir("hp-jbig");
    let mut text = String::from(
        "VARIANT_ALL Standard\nCASE 9.Z.1 (many orders)\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n    France: A par\nORDERS\n",
    );
    for _ in 0..200 {
        text.push_str("    France: A par-bur\n");
    }
    text.push_str("POSTSTATE\n    France: A bur\nEND\n");
    let f = dir.join("jbig.txt");
    std::fs::write(&f, &text).unwrap();
    let o = arbiter(&["test", s(&f)]);
    code(&o, 1);
    let out = stdout(&o);
    has(&out, "200 orders for this phase: at most 110 are read");
    // Line 7 is the first order; the 111th is line 117.
    has(&out, "jbig.txt:117");
    // Ten orders a unit and 100 more are judged as before: identical orders are one.
    let few = text.replace(&"    France: A par-bur\n".repeat(90), "");
    std::fs::write(&f, few).unwrap();
    let o = arbiter(&["test", s(&f)]);
    code(&o, 0);
    has(&stdout(&o), "9.Z.1 ... ok");
}

// ------------------------------------------ defect 7: answers in flight, in total

/// A batch line asking for every legal order of 40 French units packed from the
/// Adriatic to Wales: an answer of about 28 KB, seventy times the line.
fn packed_line() -> String {
    let units = [
        "F adr", "A alb", "A apu", "F bal", "A bel", "F bla", "F bot", "A bud", "A bur", "A con",
        "F eas", "F eng", "A gal", "A gre", "A hol", "F iri", "A lon", "A lvp", "F mao", "A mos",
        "A naf", "A nap", "F nwg", "A par", "A pie", "A pru", "A ruh", "A ser", "A sil", "A smy",
        "A stp", "A tri", "A tus", "F tys", "A ven", "A wal", "F wes", "F aeg", "A ank", "A arm",
    ];
    let units: Vec<String> = units.iter().map(|u| format!("\"{u}\"")).collect();
    format!(
        "{{\"id\": 1, \"legal\": true, \"units\": {{\"france\": [{}]}}}}\n",
        units.join(", ")
    )
}

/// A writer that waits a second before its first write (the reader of the answers is
/// slow to start: every worker runs ahead meanwhile), then counts what it is given.
struct SlowStart {
    started: bool,
    bytes: usize,
}

impl std::io::Write for SlowStart {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if !self.started {
            self.started = true;
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
        self.bytes += b.len();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `adjudicate --batch --jobs N` holds at most `ANSWER_BUDGET` (16 MiB) of answers in
/// all, made and being made, plus the parts of the worker the writer waits for, however
/// many workers run ahead of a slow reader (before: a few MiB per worker, 5 MiB each for
/// `"legal": true` on a crowded board: 4,000 such lines on 256 threads peaked at 180 MB,
/// 8,000 at 340). Here 12 chunks of 128 lines with 3.6 MB of answers each: without a
/// total, 43 MB would be held (what the old design allowed, three parts a worker).
#[test]
fn batch_answers_in_flight_are_bounded_in_total() {
    use ::arbiter::batch::{stream, Maps, StreamOptions, ANSWER_BUDGET, MAX_LINE};
    let maps = Maps::new(::arbiter::map::Map::standard());
    let lines = packed_line().repeat(128 * 12);
    for jobs in [16, 256] {
        let options = StreamOptions {
            rules: ::arbiter::judge::Rules::default(),
            parse: ::arbiter::orders::ParseOptions::default(),
            jobs,
            max_line: MAX_LINE,
        };
        let mut out = SlowStart {
            started: false,
            bytes: 0,
        };
        let stats = stream(&mut lines.as_bytes(), &mut out, &maps, &options).unwrap();
        assert_eq!((stats.lines, stats.errors), (128 * 12, 0));
        let answer = out.bytes / (128 * 12);
        assert!(answer > 20_000, "answers of {answer} bytes");
        // The budget, and what the worker whose turn it is holds past it (it never
        // waits): its buffer and the two parts its channel holds, each up to a part
        // and an answer, and the work of one answer.
        let slack = 3 * ((1 << 20) + answer) + 10 * answer;
        assert!(
            stats.held_most as usize <= ANSWER_BUDGET + slack,
            "jobs {jobs}: {} bytes held at once, over {} + {slack}",
            stats.held_most,
            ANSWER_BUDGET
        );
        assert!(stats.held_most > 0);
    }
}
