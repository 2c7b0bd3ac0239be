//! Conformance suites: files of cases in our YAML format (`test-cases/README.md`,
//! [`crate::cases`]) or in the jDip DATC text format ([`jdip`]). A file's text is read
//! into entries (cases, and the problems found reading it, each with its line), and each
//! case is run under an edition and checked against its expectation. No I/O here: the
//! caller (`arbiter test`, `src/cli/test.rs`) finds and reads the files and prints.

pub mod jdip;

use crate::cases::{parse_cases, TestCase};
use crate::judge::Rules;
use crate::map::Map;

/// The format of a suite file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Our YAML cases (`*.yaml`, `*.yml`).
    Yaml,
    /// The jDip DATC text format (`*.txt`).
    Jdip,
}

impl Format {
    /// The format a file name says: `.yaml`/`.yml` or `.txt`; `None` for any other.
    pub fn of_name(name: &str) -> Option<Format> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "yaml" | "yml" => Some(Format::Yaml),
            "txt" => Some(Format::Jdip),
            _ => None,
        }
    }

    /// The format of a text whose name says nothing: jDip when a line begins with
    /// `CASE` or `VARIANT_ALL`, else YAML.
    pub fn sniff(text: &str) -> Format {
        let jdip = text.lines().any(|l| {
            let w = l.split_whitespace().next().unwrap_or("");
            w.eq_ignore_ascii_case("CASE") || w.eq_ignore_ascii_case("VARIANT_ALL")
        });
        if jdip {
            Format::Jdip
        } else {
            Format::Yaml
        }
    }

    /// `yaml` or `jdip`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Yaml => "yaml",
            Format::Jdip => "jdip",
        }
    }
}

/// One case of a suite file, in either format.
#[derive(Clone, Debug)]
pub enum SuiteCase {
    Yaml(Box<TestCase>),
    Jdip(Box<jdip::JdipCase>),
}

/// A problem reading a file: the file or one of its cases cannot be read. It counts as
/// a failed case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line (1-based), when known.
    pub line: Option<usize>,
    /// The case it is in, when known.
    pub id: Option<String>,
    pub message: String,
}

/// What a file holds, in written order.
#[derive(Clone, Debug)]
pub enum Entry {
    Case {
        /// The line where the case begins, when known.
        line: Option<usize>,
        case: SuiteCase,
    },
    Problem(Problem),
}

/// What running one case under one edition found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Every difference from the expectation, in words; empty when the case passes.
    pub differences: Vec<String>,
    /// How the phase was judged (jDip cases): each order and its outcome, the retreat
    /// options given to dislodged units. Context for a failure, not a difference.
    pub judged: Vec<String>,
}

impl Checked {
    pub fn passed(&self) -> bool {
        self.differences.is_empty()
    }
}

/// Read a suite file's text. A file that cannot be read as a whole gives one problem
/// (with its line); a case that cannot be read gives a problem, and the other cases of
/// the file are still read. A file with no case at all gives a problem too.
pub fn read(map: &Map, format: Format, text: &str) -> Vec<Entry> {
    let entries = match format {
        Format::Yaml => read_yaml(text),
        Format::Jdip => jdip::parse(map, text)
            .into_iter()
            .map(|r| match r {
                Ok(c) => Entry::Case {
                    line: Some(c.line),
                    case: SuiteCase::Jdip(Box::new(c)),
                },
                Err(e) => Entry::Problem(Problem {
                    line: Some(e.line),
                    id: e.case,
                    message: e.message,
                }),
            })
            .collect(),
    };
    if entries.is_empty() {
        let what = match format {
            Format::Yaml => "a YAML list of cases (test-cases/README.md)",
            Format::Jdip => "`CASE id` ... `END` (the jDip DATC format)",
        };
        return vec![Entry::Problem(Problem {
            line: None,
            id: None,
            message: format!("no cases in the file: expected {what}"),
        })];
    }
    entries
}

/// [`read`], each entry handed to `each` as soon as it is read: a YAML suite in block
/// style is read item by item twice (once to see that every item reads, then to hand
/// each case on), so that its cases are never all held at once; any other file is
/// [`read`] whole. Stops at the first error `each` returns.
pub fn read_each<E>(
    map: &Map,
    format: Format,
    text: &str,
    mut each: impl FnMut(Entry) -> Result<(), E>,
) -> Result<(), E> {
    if matches!(format, Format::Yaml) {
        if let Some(items) = top_level_items(text) {
            if items.iter().all(|item| parse_cases(item).is_ok()) {
                let id_lines = id_lines(text);
                for item in items {
                    for c in parse_cases(item).unwrap_or_default() {
                        let line = id_lines.get(c.id.as_str()).copied();
                        each(Entry::Case {
                            line,
                            case: SuiteCase::Yaml(Box::new(c)),
                        })?;
                    }
                }
                return Ok(());
            }
        }
    }
    for e in read(map, format, text) {
        each(e)?;
    }
    Ok(())
}

/// The items of a YAML text that is a list in block style and nothing else: every line
/// at column 0 begins an item (`- `), is blank or is a comment. `None` for any other
/// text (a flow list, a mapping, a document marker, an indented line before the first
/// item), which is read whole.
fn top_level_items(text: &str) -> Option<Vec<&str>> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim_end_matches(['\n', '\r']);
        if l == "-" || l.starts_with("- ") {
            starts.push(at);
        } else if l.starts_with(' ') {
            if starts.is_empty() {
                return None;
            }
        } else if !(l.is_empty() || l.starts_with('#')) {
            return None;
        }
        at += line.len();
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    let items: Vec<&str> = starts
        .iter()
        .zip(ends)
        .filter_map(|(&a, b)| text.get(a..b))
        .collect();
    (!items.is_empty()).then_some(items)
}

/// The line (1-based) of the first `id: ID` (or `- id: ID`) of each id in a YAML text:
/// one pass over the text, so that finding every case's line is linear in the file,
/// not one scan from the top per case.
fn id_lines(text: &str) -> std::collections::HashMap<&str, usize> {
    let mut lines = std::collections::HashMap::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start().trim_start_matches('-').trim_start();
        if let Some(v) = t.strip_prefix("id:") {
            let v = v.split(" #").next().unwrap_or(v).trim();
            lines.entry(v.trim_matches(['"', '\''])).or_insert(i + 1);
        }
    }
    lines
}

fn read_yaml(text: &str) -> Vec<Entry> {
    let id_lines = id_lines(text);
    let line_of_id = |id: &str| id_lines.get(id).copied();
    let case_entry = |c: TestCase| Entry::Case {
        line: line_of_id(&c.id),
        case: SuiteCase::Yaml(Box::new(c)),
    };
    // A list in block style is read item by item: serde_yaml holds every event of
    // what it reads (about 200 bytes a value) before any of it is used, so a suite of
    // many cases took several times its size when read whole. Any item that does not
    // read sends the file down the whole-file path, which says why as before.
    if let Some(items) = top_level_items(text) {
        let mut cases = Vec::new();
        let all = items.into_iter().all(|item| match parse_cases(item) {
            Ok(mut c) => {
                cases.append(&mut c);
                true
            }
            Err(_) => false,
        });
        if all {
            return cases.into_iter().map(case_entry).collect();
        }
    }
    let whole = match parse_cases(text) {
        Ok(cases) => return cases.into_iter().map(case_entry).collect(),
        Err(e) => e,
    };
    let whole_problem = Problem {
        line: whole.location().map(|l| l.0),
        id: None,
        message: format!("cannot read the file: {whole}"),
    };
    // Recover case by case where the file is a list of mappings.
    let items = match whole {
        // Refused, or too dense to be held whole (streamed): the whole file's error.
        crate::yaml::YamlError::Guard(_) | crate::yaml::YamlError::Stream { .. } => None,
        _ => serde_yaml::from_str::<Vec<serde_yaml::Value>>(text).ok(),
    };
    let Some(items) = items else {
        return vec![Entry::Problem(whole_problem)];
    };
    let mut out = Vec::new();
    let mut bad = 0;
    for (i, item) in items.into_iter().enumerate() {
        let id = item.get("id").and_then(|v| match v {
            serde_yaml::Value::String(s) => Some(s.clone()),
            serde_yaml::Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        match serde_yaml::from_value::<TestCase>(item) {
            Ok(c) => out.push(case_entry(c)),
            Err(e) => {
                bad += 1;
                out.push(Entry::Problem(Problem {
                    line: id.as_deref().and_then(&line_of_id),
                    message: match &id {
                        Some(_) => format!("cannot read the case: {e}"),
                        None => format!("cannot read case number {} of the file: {e}", i + 1),
                    },
                    id,
                }));
            }
        }
    }
    if bad == 0 {
        out.push(Entry::Problem(whole_problem));
    }
    out
}

impl SuiteCase {
    pub fn id(&self) -> &str {
        match self {
            SuiteCase::Yaml(c) => &c.id,
            SuiteCase::Jdip(c) => &c.id,
        }
    }

    pub fn title(&self) -> &str {
        match self {
            SuiteCase::Yaml(c) => &c.title,
            SuiteCase::Jdip(c) => &c.title,
        }
    }

    pub fn format(&self) -> Format {
        match self {
            SuiteCase::Yaml(_) => Format::Yaml,
            SuiteCase::Jdip(_) => Format::Jdip,
        }
    }

    /// The editions to run the case under: those it names, else `default`. A jDip case
    /// names none.
    pub fn editions(&self, default: Rules) -> Result<Vec<Rules>, String> {
        match self {
            SuiteCase::Yaml(c) => c.editions_or(default),
            SuiteCase::Jdip(_) => Ok(vec![default]),
        }
    }

    /// Run the case under `rules` and compare with its expectation.
    pub fn check(&self, map: &Map, rules: Rules) -> Checked {
        match self {
            SuiteCase::Yaml(c) => Checked {
                differences: c.check_under(map, rules),
                judged: Vec::new(),
            },
            SuiteCase::Jdip(c) => c.check(map, rules),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_and_content() {
        assert_eq!(Format::of_name("a/6a.yaml"), Some(Format::Yaml));
        assert_eq!(Format::of_name("datc.TXT"), Some(Format::Jdip));
        assert_eq!(Format::of_name("README.md"), None);
        assert_eq!(Format::sniff("# x\nVARIANT_ALL Standard\n"), Format::Jdip);
        assert_eq!(Format::sniff("- id: 1\n"), Format::Yaml);
    }

    #[test]
    fn a_yaml_case_that_cannot_be_read_does_not_hide_the_others() {
        let map = Map::standard();
        let text = "- id: good\n  title: t\n  units: {austria: [A vie]}\n  orders: {}\n\
                    - id: bad\n  title: t\n  colour: red\n  orders: {}\n";
        let entries = read(&map, Format::Yaml, text);
        assert_eq!(entries.len(), 2);
        assert!(matches!(&entries[0], Entry::Case { line: Some(1), .. }));
        match &entries[1] {
            Entry::Problem(p) => {
                assert_eq!((p.line, p.id.as_deref()), (Some(5), Some("bad")));
                assert!(p.message.contains("colour"), "{}", p.message);
            }
            e => panic!("{e:?}"),
        }
        let broken = read(&map, Format::Yaml, "- id: [\n");
        assert!(matches!(
            &broken[..],
            [Entry::Problem(Problem { line: Some(_), .. })]
        ));
    }
}
