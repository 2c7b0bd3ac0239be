//! The library's layers run one way (docs/ARCHITECTURE.md, "Layers"): every `crate::…`
//! path in `src/` (in `use` lines, grouped `use crate::{a, b}` lines and inline paths)
//! names a module of the same layer or of a lower one. Test modules (`#[cfg(test)]`) may
//! reach higher layers for fixtures and are not read; nor are comments. The binary
//! (`src/main.rs`, `src/cli/`) is the face on top and names the library as `arbiter::`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may name its own layer and the ones before it.
const LAYERS: &[&[&str]] = &[
    &["yaml", "files", "encoding"],
    &["map"],
    &["draw"],
    &["orders"],
    &["state"],
    &["judge"],
    &["game"],
    &["report"],
    &["gamefile", "cases", "legal", "render", "mapcheck"],
    &["selfplay", "suite", "batch"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/judge/resolve.rs` → `judge`),
/// or `None` for the crate root and the binary.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    match name {
        "lib" | "main" | "cli" => None,
        _ => Some(name.to_string()),
    }
}

/// The text of a file without its comments and without its `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // Skip the item that follows: up to its closing brace at this indentation.
            let indent = line.len() - t.len();
            for l in lines.by_ref() {
                let lt = l.trim_start();
                if l.len() - lt.len() == indent && lt.starts_with('}') {
                    break;
                }
            }
            continue;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The first segment of every `crate::` path in `code`: `crate::map::Map` → `map`,
/// `crate::{game::Unit, judge}` → `game`, `judge`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        // `$crate::` and names ending in `crate` are not the crate root.
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The elements at the group's own depth.
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        start = false;
                        let name = ident(&group[k..]);
                        if !name.is_empty() {
                            out.insert(name);
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Every path from a module to one of a higher layer, as `file: module names higher`.
fn back_edges(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for f in &files {
        let Some(module) = module_of(src, f) else {
            continue;
        };
        let Some(own) = layer_of(&module) else {
            problems.push(format!(
                "{}: module `{module}` is in no layer (add it to LAYERS and to docs/ARCHITECTURE.md)",
                f.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap();
        for named in named_modules(&code(&text)) {
            if named == module {
                continue;
            }
            match layer_of(&named) {
                Some(l) if l < own => {}
                Some(l) if l == own => problems.push(format!(
                    "{}: `{module}` names `{named}` of the same layer",
                    f.display()
                )),
                Some(_) => problems.push(format!(
                    "{}: `{module}` names `{named}`, a higher layer",
                    f.display()
                )),
                None => problems.push(format!(
                    "{}: `{module}` names `crate::{named}`, in no layer",
                    f.display()
                )),
            }
        }
    }
    problems
}

#[test]
fn layers_run_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = back_edges(&src);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_finds_every_kind_of_path() {
    let text = "use crate::map::{Map, Loc};\n\
                use crate::{state::Unit, judge::{Rules, adjudicate}};\n\
                fn f() -> crate::report::Lookup { $crate::x::y() } // crate::batch\n\
                #[cfg(test)]\nmod tests {\n    use crate::cases;\n}\n\
                fn g() { let _ = crate::orders::parse_orders; }\n";
    let found = named_modules(&code(text));
    let want: BTreeSet<String> = ["map", "state", "judge", "report", "orders"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}

#[test]
fn a_back_edge_is_caught() {
    // A copy of `src/` with `map` naming the orders layer above it.
    let dir = std::env::temp_dir().join(format!("arbiter-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("map")).unwrap();
    std::fs::create_dir_all(dir.join("orders")).unwrap();
    std::fs::write(dir.join("map/mod.rs"), "use crate::orders::ORDER_WORDS;\n").unwrap();
    std::fs::write(dir.join("orders/mod.rs"), "use crate::map::Map;\n").unwrap();
    let problems = back_edges(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("`map` names `orders`, a higher layer"));
}
