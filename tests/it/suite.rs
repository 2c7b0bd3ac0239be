//! `arbiter test` end to end: our YAML cases (test-cases/), the jDip-format fixtures in
//! tests/fixtures/jdip/ (DATC cases written by hand, a file with broken cases and one with
//! wrong expectations), the count line, exit codes, --filter, --rules and --format json.

use std::process::{Command, Output};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The last line of the output, which must be `N passed, M failed`: (N, M).
fn counts(out: &str) -> (usize, usize) {
    let last = out.lines().last().unwrap_or("");
    let words: Vec<&str> = last.split(' ').collect();
    match words[..] {
        [n, "passed,", m, "failed"] => (n.parse().unwrap(), m.parse().unwrap()),
        _ => panic!("the last line is not `N passed, M failed`: {last:?}\n{out}"),
    }
}

/// Write `text` to a fresh file under the temporary directory; return its path.
fn temp_file(tag: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("arbiter-suite-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn our_own_cases_all_pass() {
    let o = arbiter(&["test", "test-cases/"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let (passed, failed) = counts(&out);
    assert_eq!(failed, 0, "{out}");
    // Every DATC case of 6.A-6.J is there at least once.
    assert!(passed >= 164, "{out}");
    assert!(!out.contains("FAILED"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("6.A.1 ") && l.ends_with(" ... ok")),
        "{out}"
    );
    // One line per case and edition, the count alone on the last line.
    let lines = out.lines().filter(|l| l.ends_with(" ... ok")).count();
    assert_eq!(lines, passed);
}

#[test]
fn jdip_files_run_case_by_case() {
    for (file, ids) in [
        (
            "tests/fixtures/jdip/datc-6a.txt",
            &[
                "6.A.1", "6.A.2", "6.A.3", "6.A.5", "6.A.6", "6.A.8", "6.A.11", "6.A.12",
            ][..],
        ),
        (
            "tests/fixtures/jdip/datc-6f.txt",
            &["6.F.2", "6.F.3", "6.F.4"],
        ),
        (
            "tests/fixtures/jdip/datc-6h.txt",
            &["6.H.5", "6.H.6", "6.H.6b", "6.H.11", "6.H.16"],
        ),
        (
            "tests/fixtures/jdip/datc-6ij.txt",
            &["6.I.1", "arbiter.build-on-a-coast", "6.J.1", "6.J.3"],
        ),
    ] {
        let o = arbiter(&["test", file]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{file}:\n{out}{}", stderr(&o));
        for id in ids {
            assert!(
                out.contains(&format!("\n{id} ... ok\n"))
                    || out.starts_with(&format!("{id} ... ok\n")),
                "{id} in\n{out}"
            );
        }
        assert_eq!(counts(&out), (ids.len(), 0), "{out}");
        assert!(out.ends_with(&format!("\n\n{} passed, 0 failed\n", ids.len())));
    }
}

#[test]
fn a_wrong_expectation_fails_unit_by_unit() {
    let o = arbiter(&["test", "tests/fixtures/jdip/wrong.txt"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(counts(&out), (0, 2));
    for line in [
        "6.A.11 ... FAILED\n",
        "    Simple bounce, expected wrongly (at tests/fixtures/jdip/wrong.txt:6)\n",
        "    - expected Austria: A tyr after the phase: it is not there\n",
        "    - Austria: A vie is on the board after the phase: not expected\n",
        "      Austria: A vie-tyr: fails (bounced: attack strength 1 did not beat A VEN - TYR (prevent strength 1))\n",
        "6.A.8 ... FAILED\n",
        "    - Austria: F tri is dislodged: not expected\n",
        "    - Italy: A tri is on the board after the phase: not expected\n",
        "      Austria: F tri S F tri: illegal (illegal: a unit cannot support itself)\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
}

#[test]
fn a_broken_case_is_reported_with_its_line_and_the_rest_still_runs() {
    let o = arbiter(&["test", "tests/fixtures/jdip/broken.txt"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(counts(&out), (2, 2), "{out}");
    for line in [
        "6.A.1 ... ok\n",
        "6.A.2 ... FAILED\n    at tests/fixtures/jdip/broken.txt:18\n    - power england: cannot read unit `A lvq`",
        "6.A.3 ... FAILED\n    at tests/fixtures/jdip/broken.txt:25\n    - the case has no END",
        "6.A.11 ... ok\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
}

#[test]
fn a_folder_is_searched_recursively_and_counts_add_up() {
    let o = arbiter(&["test", "tests/fixtures/jdip/"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // 8 + 3 + 5 + 4 cases pass, 2 broken in broken.txt (whose 2 others pass), 2 wrong.
    assert_eq!(counts(&out), (22, 4), "{out}");
    // Several paths, files and folders mixed.
    let o = arbiter(&[
        "test",
        "tests/fixtures/jdip/datc-6f.txt",
        "tests/fixtures/jdip/datc-6a.txt",
    ]);
    assert_eq!(counts(&stdout(&o)), (11, 0));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn filter_picks_cases_by_id() {
    let o = arbiter(&[
        "test",
        "--filter",
        "6.H",
        "tests/fixtures/jdip/",
        "test-cases/",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let runs: Vec<&str> = out.lines().filter(|l| l.contains(" ... ")).collect();
    assert!(!runs.is_empty());
    assert!(runs.iter().all(|l| l.starts_with("6.H.")), "{out}");
    assert!(out.contains("6.H.16 ... ok\n"), "{out}");
    // The broken cases of broken.txt are not picked: their ids do not contain 6.H.
    assert!(!out.contains("FAILED"), "{out}");
    let o = arbiter(&["test", "--filter", "no such case", "test-cases/"]);
    assert_eq!(stdout(&o), "\n0 passed, 0 failed\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn rules_set_the_edition_of_cases_that_name_none() {
    let o = arbiter(&[
        "test",
        "--rules",
        "datc-2.4",
        "--format",
        "json",
        "tests/fixtures/jdip/datc-6ij.txt",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    for line in out.lines() {
        let j: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(j["edition"], "2000", "{line}");
    }
    // A YAML case that names its editions runs under each, one line per edition; one
    // that names none runs under --rules.
    let yaml = temp_file(
        "rules",
        "editions.yaml",
        "- id: two-editions\n  title: Simple bounce\n  rules: [\"2023\", \"1982\"]\n  \
         units: {austria: [A vie], italy: [A ven]}\n  orders:\n    austria:\n      \
         - A Vienna - Tyrolia: fails\n    italy:\n      - A Venice - Tyrolia: fails\n\
         - id: no-edition\n  title: Simple move\n  units: {austria: [A vie]}\n  orders:\n    \
         austria:\n      - A Vienna - Tyrolia: succeeds\n",
    );
    let o = arbiter(&["test", "--rules", "1971", &yaml]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(
        out,
        "two-editions [2023] ... ok\ntwo-editions [1982] ... ok\nno-edition ... ok\n\n3 passed, 0 failed\n"
    );
    let o = arbiter(&["test", "--rules", "1066", "test-cases/"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown rules edition `1066`: the editions are 2023"));
}

#[test]
fn json_gives_one_object_per_case_and_edition() {
    let o = arbiter(&[
        "test",
        "--format",
        "json",
        "tests/fixtures/jdip/wrong.txt",
        "tests/fixtures/jdip/broken.txt",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The count goes to standard error, so that standard output is JSON Lines only.
    assert_eq!(stderr(&o), "2 passed, 4 failed\n");
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 6);
    let first = &objects[0];
    assert_eq!(first["id"], "6.A.11");
    assert_eq!(first["title"], "Simple bounce, expected wrongly");
    assert_eq!(first["edition"], "2023");
    assert_eq!(first["file"], "tests/fixtures/jdip/wrong.txt");
    assert_eq!(first["line"], 6);
    assert_eq!(first["format"], "jdip");
    assert_eq!(first["passed"], false);
    assert_eq!(
        first["differences"][0],
        "expected Austria: A tyr after the phase: it is not there"
    );
    assert_eq!(
        first["judged"][1],
        "Italy: A ven-tyr: fails (bounced: attack strength 1 did not beat A VIE - TYR (prevent strength 1))"
    );
    let broken = &objects[3];
    assert_eq!(broken["id"], "6.A.2");
    assert_eq!(broken["line"], 18);
    assert_eq!(broken["passed"], false);
    assert_eq!(broken["edition"], serde_json::Value::Null);
    let ok = &objects[2];
    assert_eq!(
        (ok["id"].as_str(), ok["passed"].as_bool()),
        (Some("6.A.1"), Some(true))
    );
    assert_eq!(ok["differences"], serde_json::json!([]));
}

#[test]
fn yaml_cases_fail_order_by_order_and_broken_files_are_reported() {
    let wrong = temp_file(
        "yaml",
        "wrong.yaml",
        "- id: wrong.1\n  title: A bounce expected as a move\n  \
         units: {austria: [A vie], italy: [A ven]}\n  orders:\n    austria:\n      \
         - A Vienna - Tyrolia: succeeds\n    italy:\n      - A Venice - Tyrolia: fails\n",
    );
    let o = arbiter(&["test", &wrong]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.starts_with("wrong.1 ... FAILED\n"), "{out}");
    assert!(
        out.contains("    - `A Vienna - Tyrolia`: expected succeeds, got fails\n"),
        "{out}"
    );
    assert!(out.contains(&format!("(at {wrong}:1)")), "{out}");
    assert_eq!(counts(&out), (0, 1));

    // A YAML syntax error: the file is reported with its line; the other files run.
    let broken = temp_file("yaml", "broken.yaml", "- id: x\n  title: [unclosed\n");
    let o = arbiter(&["test", &broken, "tests/fixtures/jdip/datc-6f.txt"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.starts_with(&format!("{broken}:")), "{out}");
    assert!(out.contains("cannot read the file"), "{out}");
    assert_eq!(counts(&out), (3, 1));

    // A case that cannot be read does not hide the others; an unknown edition fails.
    let mixed = temp_file(
        "yaml",
        "mixed.yaml",
        "- id: good\n  title: t\n  units: {austria: [A vie]}\n  orders: {}\n\
         - id: bad\n  title: t\n  colour: red\n  orders: {}\n\
         - id: old\n  title: t\n  rules: \"1066\"\n  orders: {}\n",
    );
    let o = arbiter(&["test", &mixed]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("good ... ok\n"), "{out}");
    assert!(
        out.contains(&format!("bad ... FAILED\n    at {mixed}:5\n")),
        "{out}"
    );
    assert!(out.contains("unknown field `colour`"), "{out}");
    assert!(out.contains("old ... FAILED\n"), "{out}");
    assert!(out.contains("unknown rules edition `1066`"), "{out}");
    assert_eq!(counts(&out), (1, 2));

    // A file with no cases at all is not passed over in silence.
    let empty = temp_file("yaml", "empty.txt", "# nothing here\n");
    let o = arbiter(&["test", &empty]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("no cases in the file"));
}

#[test]
fn usage_errors_exit_2() {
    let o = arbiter(&["test", "no/such/folder"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read `no/such/folder`"));
    assert_eq!(stdout(&o), "");
    let o = arbiter(&["test"]);
    assert_eq!(o.status.code(), Some(2));
    let o = arbiter(&["test", "--format", "xml", "test-cases/"]);
    assert_eq!(o.status.code(), Some(2));
}
