//! Diagnostics with a line and column span, rendered rustc-style with a caret.

use std::fmt::Write;

/// Where something was written: a line (1-based) and a byte range within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Span {
    pub line: u32,
    pub start: u32,
    pub end: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in the orders.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// What to do about it ("did you mean ...").
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>, help: Option<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            help,
        }
    }
    pub fn warning(span: Span, message: impl Into<String>, help: Option<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            span,
            message: message.into(),
            help,
        }
    }
}

/// Render diagnostics against the source text:
///
/// ```text
/// error: unknown province `Burgandi`
///   --> orders.txt:4:9
///    |
///  4 | A Par - Burgandi
///    |         ^^^^^^^^ did you mean `Burgundy` (bur)?
/// ```
pub fn render_diagnostics(diags: &[Diagnostic], source: &str, file: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for d in diags {
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let text = lines
            .get(d.span.line.saturating_sub(1) as usize)
            .copied()
            .unwrap_or("");
        let start = (d.span.start as usize).min(text.len());
        let end = (d.span.end as usize).clamp(start, text.len());
        let col = text[..start].chars().count() + 1;
        let width = text[start..end].chars().count().max(1);
        let num = d.span.line.to_string();
        let pad = " ".repeat(num.len());
        let _ = writeln!(out, "{sev}: {}", d.message);
        let _ = writeln!(out, "{pad}--> {file}:{}:{col}", d.span.line);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{num} | {text}");
        let _ = write!(out, "{pad} | {}{}", " ".repeat(col - 1), "^".repeat(width));
        match &d.help {
            Some(h) => {
                let _ = writeln!(out, " {h}");
            }
            None => out.push('\n'),
        }
        out.push('\n');
    }
    out
}
