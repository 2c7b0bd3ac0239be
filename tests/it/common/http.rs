//! A tiny HTTP/1.1 client (std only) and an `arbiter serve` child process, for the
//! server's tests, its browser test and its load example.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// An answer: its status, headers (names in lower case) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: BTreeMap<String, String>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
}

/// `http://HOST:PORT/PATH` → (`HOST:PORT`, `/PATH`).
fn split(url: &str) -> (String, String) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    match rest.find('/') {
        Some(i) => (rest[..i].to_string(), rest[i..].to_string()),
        None => (rest.to_string(), "/".to_string()),
    }
}

/// Send one request (the connection is closed after it) and read the answer.
pub fn request(method: &str, url: &str, body: Option<(&str, &[u8])>) -> Answer {
    let (host, path) = split(url);
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some((kind, b)) = body {
        head.push_str(&format!(
            "Content-Type: {kind}\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    head.push_str("\r\n");
    let mut raw = head.into_bytes();
    if let Some((_, b)) = body {
        raw.extend_from_slice(b);
    }
    send_raw(&host, &raw)
}

/// Write `raw` bytes to the server and read its answer (to its Content-Length, or
/// to the end of the connection).
pub fn send_raw(host: &str, raw: &[u8]) -> Answer {
    let mut s = TcpStream::connect(host).expect("connect to the server");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // The server may answer (413) before reading all of a large body.
    let _ = s.write_all(raw);
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        out.extend_from_slice(&buf[..n]);
        if let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&out[..end]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|len| out.len() >= end + 4 + len) {
                break;
            }
        }
    }
    parse(&out)
}

fn parse(out: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(out).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head:?}"));
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    let body = if headers
        .get("transfer-encoding")
        .is_some_and(|t| t == "chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

pub fn get(url: &str) -> Answer {
    request("GET", url, None)
}

pub fn post_json(url: &str, v: &serde_json::Value) -> Answer {
    request(
        "POST",
        url,
        Some(("application/json", v.to_string().as_bytes())),
    )
}

/// A running `arbiter serve GAME --port 0`, killed when dropped.
pub struct Served {
    pub child: Child,
    /// `http://127.0.0.1:PORT/`
    pub base: String,
    /// The referee's link, if this start printed the links.
    pub referee: Option<String>,
    /// Power id → link, if this start printed the links.
    pub links: BTreeMap<String, String>,
}

impl Served {
    pub fn start(game: &Path, extra: &[&str]) -> Served {
        Served::start_with(game, extra, &[])
    }

    /// [`Served::start`] with environment variables.
    pub fn start_with(game: &Path, extra: &[&str], env: &[(&str, &str)]) -> Served {
        let err = game.with_extension(format!("serve-{}.err", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("serve")
            .arg(game)
            .args(["--port", "0"])
            .args(extra)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| {
                panic!(
                    "no address in {line:?}; stderr: {}",
                    std::fs::read_to_string(&err).unwrap_or_default()
                )
            })
            .to_string();
        let mut referee = None;
        let mut links = BTreeMap::new();
        loop {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                break;
            }
            let l = line.trim();
            if l.starts_with("Keep the referee's link") || l.starts_with("The links are") {
                break;
            }
            if let Some((who, url)) = l.split_once(": ") {
                if who == "Referee" {
                    referee = Some(url.to_string());
                } else {
                    links.insert(who.to_lowercase(), url.to_string());
                }
            }
        }
        Served {
            child,
            base,
            referee,
            links,
        }
    }

    /// `host:port`.
    pub fn host(&self) -> String {
        split(&self.base).0
    }

    /// Kill with SIGKILL (no clean stop) and wait.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.kill();
    }
}
