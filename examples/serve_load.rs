//! A load test of `arbiter serve` on 127.0.0.1: 100 clients poll their page's state
//! every 2 s as the pages do (a 204 when nothing changed; on a change, the state, and the
//! board picture when the position changed), while seven players submit orders over and over and the referee
//! judges every few seconds. Prints the poll response times (p50, p99, max) and the
//! server's peak memory (VmHWM). Results: docs/PERFORMANCE.md.
//!
//! ```sh
//! cargo build && cargo run --example serve_load            # the debug binary
//! cargo build --release && cargo run --release --example serve_load
//! ```
//!
//! The server binary is `ARBITER_BIN`, else the `arbiter` beside this example's folder
//! (`target/<profile>/arbiter`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const POLLERS: usize = 100;
const SECONDS: u64 = 20;
const JUDGE_EVERY: Duration = Duration::from_secs(4);
const POLL_EVERY: Duration = Duration::from_secs(2);

fn request(url: &str, method: &str, body: Option<&str>) -> (u16, String) {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut s = TcpStream::connect(host).unwrap();
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn field(body: &str, key: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(body).ok()?;
    v.get(key)?.as_str().map(str::to_string)
}

fn main() {
    let bin = std::env::var("ARBITER_BIN")
        .map(Into::into)
        .unwrap_or_else(|_| {
            let exe = std::env::current_exe().unwrap();
            exe.parent().unwrap().parent().unwrap().join("arbiter")
        });
    let dir = std::env::temp_dir().join(format!("arbiter-serve-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("load.yaml");
    let ok = Command::new(&bin).arg("new").arg(&game).output().unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let mut child = Command::new(&bin)
        .arg("serve")
        .arg(&game)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut referee = String::new();
    let mut players = Vec::new();
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 {
        let l = line.trim().to_string();
        line.clear();
        if l.starts_with("Keep") {
            break;
        }
        if let Some((who, url)) = l.split_once(": ") {
            if who == "Referee" {
                referee = url.to_string();
            } else if url.starts_with("http://") && who != "arbiter serve" {
                players.push(url.to_string());
            }
        }
    }
    assert_eq!(players.len(), 7);
    let stop = Arc::new(AtomicBool::new(false));
    let times = Arc::new(Mutex::new(Vec::<(Duration, bool)>::new()));
    let submitted = Arc::new(AtomicUsize::new(0));
    let mut threads = Vec::new();
    for i in 0..POLLERS {
        let link = players[i % 7].clone();
        let (stop, times) = (stop.clone(), times.clone());
        threads.push(std::thread::spawn(move || {
            // Spread the clients over the poll interval.
            std::thread::sleep(POLL_EVERY * i as u32 / POLLERS as u32);
            let (mut version, mut board) = (0u64, 0u64);
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let mut drew = false;
                let (status, body) = request(&format!("{link}/state?v={version}"), "GET", None);
                if status == 200 {
                    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                    version = v["version"].as_u64().unwrap_or(0);
                    // The page loads the picture again only when the position changed.
                    let b = v["board"].as_u64().unwrap_or(0);
                    if b != board {
                        board = b;
                        drew = true;
                        let (s, _) = request(&format!("{link}/board.svg"), "GET", None);
                        assert_eq!(s, 200);
                    }
                } else {
                    assert_eq!(status, 204, "{body}");
                }
                times.lock().unwrap().push((t.elapsed(), drew));
                std::thread::sleep(POLL_EVERY);
            }
        }));
    }
    for link in players.clone() {
        let (stop, submitted) = (stop.clone(), submitted.clone());
        threads.push(std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let (_, state) = request(&format!("{link}/state"), "GET", None);
                let phase = field(&state, "phase").unwrap_or_default();
                // Every unit holds, named as the page lists it (`Army Paris` → `A Paris H`).
                let v: serde_json::Value = serde_json::from_str(&state).unwrap();
                let text: String = v["units"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| {
                        let u = u.as_str().unwrap();
                        let (kind, place) = u.split_once(' ').unwrap();
                        format!("{} {place} H\n", &kind[..1])
                    })
                    .collect();
                let body = serde_json::json!({ "phase": phase, "text": text }).to_string();
                let (s, b) = request(&format!("{link}/orders"), "POST", Some(&body));
                assert!(s == 200 || s == 409 || s == 422, "{s} {b}");
                if s == 200 {
                    n += 1;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            submitted.fetch_add(n, Ordering::Relaxed);
        }));
    }
    let started = Instant::now();
    let mut judged = 0;
    while started.elapsed() < Duration::from_secs(SECONDS) {
        std::thread::sleep(JUDGE_EVERY);
        let (_, state) = request(&format!("{referee}/state"), "GET", None);
        let phase = field(&state, "phase").unwrap_or_default();
        let body = serde_json::json!({ "phase": phase, "accept": true }).to_string();
        let (s, b) = request(&format!("{referee}/judge"), "POST", Some(&body));
        assert_eq!(s, 200, "{b}");
        judged += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let peak = status
        .lines()
        .find(|l| l.starts_with("VmHWM"))
        .unwrap_or("VmHWM: ?")
        .to_string();
    let _ = child.kill();
    let _ = child.wait();
    let all = times.lock().unwrap().clone();
    let mut t: Vec<Duration> = all.iter().map(|x| x.0).collect();
    t.sort();
    let at = |q: f64| t[((t.len() as f64 * q) as usize).min(t.len() - 1)];
    let mut light: Vec<Duration> = all.iter().filter(|x| !x.1).map(|x| x.0).collect();
    light.sort();
    let light_p99 = light[((light.len() as f64 * 0.99) as usize).min(light.len() - 1)];
    println!(
        "{POLLERS} polling clients, 7 submitting, {judged} phases judged in {SECONDS} s: \
         {} polls, {} submissions kept",
        t.len(),
        submitted.load(Ordering::Relaxed)
    );
    println!(
        "poll response time: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; server peak RSS: {}",
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        t.last().unwrap().as_secs_f64() * 1000.0,
        peak.split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "polls without a new board picture ({}): p99 {:.1} ms",
        light.len(),
        light_p99.as_secs_f64() * 1000.0
    );
    let _ = std::fs::remove_dir_all(&dir);
}
