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
