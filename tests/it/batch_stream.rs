//! `arbiter adjudicate --batch` as a stream: order kept on every thread count, bad
//! bytes and over-long lines answered in place, maps limited to embedded and
//! registered ones, and an order string cannot order another power's units.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use arbiter::batch::{stream, Maps, StreamOptions};
use arbiter::judge::Rules;
use arbiter::map::Map;

fn arbiter(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn answers(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Line `i`: France and Germany on the classic board, with a bounce in Burgundy every
/// third line, and an unreadable line every 97th.
fn line(i: usize) -> String {
    if i % 97 == 50 {
        return format!("{{\"id\": {i}, \"units\": \"oops\"}}");
    }
    let german = if i.is_multiple_of(3) {
        "A MUN - BUR"
    } else {
        "A MUN H"
    };
    format!(
        r#"{{"id": {i}, "units": {{"france": ["A PAR", "A MAR"], "germany": ["A MUN"]}}, "orders": {{"france": ["A PAR - BUR"], "germany": ["{german}"]}}}}"#
    )
}

#[test]
fn every_thread_count_gives_the_same_answers_in_input_order() {
    // 1,300 lines: several chunks of 128 lines for every worker.
    let input: String = (0..1300).map(|i| line(i) + "\n").collect();
    let mut outputs = Vec::new();
    for jobs in [1, 2, 3, 8] {
        let mut out = Vec::new();
        let maps = Maps::new(Map::standard());
        let o = StreamOptions {
            rules: Rules::default(),
            parse: Default::default(),
            jobs,
            max_line: arbiter::batch::MAX_LINE,
        };
        let stats = stream(&mut input.as_bytes(), &mut out, &maps, &o).unwrap();
        assert_eq!(stats.lines, 1300);
        assert_eq!(
            stats.errors,
            (0..1300).filter(|i| i % 97 == 50).count() as u64
        );
        outputs.push(out);
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    let text = String::from_utf8(outputs.remove(0)).unwrap();
    for (i, l) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["id"], i, "answers keep the input order");
        if i % 97 == 50 {
            assert!(v["error"].as_str().unwrap().contains("bad JSON"));
            continue;
        }
        // Paris moves unless Munich goes to Burgundy too (1 against 1: both bounce).
        let paris = &v["orders"][0]["outcome"];
        assert_eq!(
            paris,
            if i % 3 == 0 { "fails" } else { "succeeds" },
            "line {i}"
        );
    }
}

#[test]
fn bad_bytes_bom_and_long_lines_are_answered_in_place() {
    let mut input = Vec::new();
    input.extend_from_slice("\u{feff}".as_bytes());
    input.extend_from_slice(line(1).as_bytes());
    input.extend_from_slice(b"\n{\"id\": \"bad\", \"units\": {\"france\": [\"A P\xffR\"]}}\n");
    input.extend_from_slice(
        format!("{{\"id\": \"long\", \"pad\": \"{}\"}}\n", "x".repeat(5000)).as_bytes(),
    );
    input.extend_from_slice(line(2).as_bytes());
    input.extend_from_slice(b"\r\n");
    let o = arbiter(
        &["adjudicate", "--batch", "--max-line-bytes", "2000"],
        &input,
    );
    assert_eq!(o.status.code(), Some(1));
    let a = answers(&o);
    assert_eq!(a.len(), 4);
    assert_eq!(a[0]["id"], 1, "a byte-order mark before line 1 is skipped");
    assert_eq!(a[1]["id"], "bad");
    let e = a[1]["error"].as_str().unwrap();
    assert!(e.contains("line 2") && e.contains("UTF-8"), "{e}");
    let e = a[2]["error"].as_str().unwrap();
    assert!(
        e.contains("line 3") && e.contains("--max-line-bytes"),
        "{e}"
    );
    assert_eq!(a[3]["id"], 2, "a CRLF line end is read");
    assert_eq!(a[3]["orders"][0]["outcome"], "succeeds");
}

#[test]
fn lines_name_embedded_and_registered_maps_only() {
    let by_path = r#"{"id": 1, "map": "maps/standard.yaml", "units": {}, "orders": {}}"#;
    let by_name = r#"{"id": 2, "map": "mine", "units": {"france": ["A PAR"]}, "orders": {"france": ["A PAR - BUR"]}}"#;
    let embedded = r#"{"id": 3, "map": "World1914", "units": {}, "orders": {}}"#;
    let input = format!("{by_path}\n{by_name}\n{embedded}\n");
    let o = arbiter(&["adjudicate", "--batch"], input.as_bytes());
    let a = answers(&o);
    let e = a[0]["error"].as_str().unwrap();
    assert!(e.contains("unknown map") && e.contains("--map-file"), "{e}");
    assert!(a[1]["error"]
        .as_str()
        .unwrap()
        .contains("unknown map `mine`"));
    assert_eq!(a[2]["map"], "world1914");
    let o = arbiter(
        &[
            "adjudicate",
            "--batch",
            "--map-file",
            "mine=maps/standard.yaml",
        ],
        input.as_bytes(),
    );
    let a = answers(&o);
    assert!(a[0]["error"].is_string(), "a path is still not a map name");
    assert_eq!(a[1]["orders"][0]["outcome"], "succeeds");
    // A registered map that cannot be loaded stops the command before any line.
    let o = arbiter(
        &["adjudicate", "--batch", "--map-file", "x=no/such/file.yaml"],
        input.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

#[test]
fn an_order_string_cannot_order_another_powers_unit() {
    let input = r#"{"id": 1, "units": {"france": ["A PAR"], "germany": ["A MUN"]}, "orders": {"germany": ["France: A Par - Pic", "A Mun - Ruh"]}}"#;
    let a = answers(&arbiter(&["adjudicate", "--batch"], input.as_bytes()));
    let o = &a[0]["orders"];
    assert_eq!(o[0]["outcome"], "illegal");
    assert_eq!(o[0]["power"], "germany");
    let why = o[0]["reason"].as_str().unwrap();
    assert!(why.contains("France") && why.contains("Germany"), "{why}");
    assert_eq!(o[1]["outcome"], "succeeds");
    assert_eq!(a[0]["units_after"]["france"], serde_json::json!(["A PAR"]));
}

#[test]
fn arrays_and_powers_named_twice_are_refused() {
    let input = concat!(
        r#"[1, "standard", "Spring 1901"]"#,
        "\n",
        r#"{"id": 2, "units": {"france": ["A PAR"], "france": ["A MAR"]}, "orders": {}}"#,
        "\n",
    );
    let a = answers(&arbiter(&["adjudicate", "--batch"], input.as_bytes()));
    assert!(a[0]["error"].as_str().unwrap().contains("JSON object"));
    assert_eq!(a[1]["id"], 2);
    assert!(a[1]["error"].as_str().unwrap().contains("twice"));
}

#[test]
fn stats_go_to_standard_error() {
    let input: String = (0..10).map(|i| line(i) + "\n").collect();
    let o = arbiter(
        &["adjudicate", "--batch", "--stats", "--jobs", "2"],
        input.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(answers(&o).len(), 10);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("10 lines (0 errors)") && err.contains("lines/s"),
        "{err}"
    );
}
