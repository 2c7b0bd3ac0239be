//! A tiny WebDriver client (over [`super::http`]) for the browser test: chromedriver
//! driving headless Chromium.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::http::{request, Answer};
use serde_json::{json, Value};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub struct Driver {
    child: Child,
    base: String,
    session: String,
}

fn call(method: &str, url: &str, body: Option<&Value>) -> Value {
    let text = body.map(|b| b.to_string());
    let a: Answer = request(
        method,
        url,
        text.as_deref().map(|t| ("application/json", t.as_bytes())),
    );
    let v = a.json();
    assert!(a.status < 400, "WebDriver {method} {url}: {} {v}", a.status);
    v["value"].clone()
}

impl Driver {
    /// Start chromedriver on a free port and open a headless Chromium session.
    pub fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(std::env::var("CHROMEDRIVER").unwrap_or("chromedriver".into()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian: apt-get install chromium chromium-driver)");
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut options = json!({
            "args": ["--headless", "--no-sandbox", "--disable-gpu",
                     "--disable-background-networking", "--disable-dev-shm-usage",
                     "--hide-scrollbars"]
        });
        if let Ok(bin) = std::env::var("CHROMIUM") {
            options["binary"] = bin.into();
        } else if std::path::Path::new("/usr/bin/chromium").exists() {
            options["binary"] = "/usr/bin/chromium".into();
        }
        let v = call(
            "POST",
            &format!("{base}/session"),
            Some(&json!({ "capabilities": { "alwaysMatch": {
                "browserName": "chrome", "goog:chromeOptions": options } } })),
        );
        let session = v["sessionId"].as_str().unwrap().to_string();
        Driver {
            child,
            base,
            session,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/session/{}{path}", self.base, self.session)
    }

    pub fn post(&self, path: &str, body: Value) -> Value {
        call("POST", &self.url(path), Some(&body))
    }

    pub fn get(&self, path: &str) -> Value {
        call("GET", &self.url(path), None)
    }

    /// Open a new window (a tab), switch to it and load `url`; returns its handle.
    pub fn open(&self, url: &str) -> String {
        let v = self.post("/window/new", json!({ "type": "tab" }));
        let handle = v["handle"].as_str().unwrap().to_string();
        self.switch(&handle);
        self.post("/url", json!({ "url": url }));
        handle
    }

    pub fn switch(&self, handle: &str) {
        self.post("/window", json!({ "handle": handle }));
    }

    pub fn size(&self, width: u32, height: u32) {
        self.post("/window/rect", json!({ "width": width, "height": height }));
    }

    pub fn find(&self, css: &str) -> String {
        let v = self.post("/element", json!({ "using": "css selector", "value": css }));
        v[ELEMENT].as_str().unwrap().to_string()
    }

    /// Click `css`, finding it again if the page rebuilt it meanwhile.
    pub fn click(&self, css: &str) {
        for _ in 0..10 {
            let e = self.find(css);
            let a = request(
                "POST",
                &self.url(&format!("/element/{e}/click")),
                Some(("application/json", b"{}")),
            );
            if a.status < 400 {
                return;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("cannot click `{css}`");
    }

    pub fn clear(&self, css: &str) {
        let e = self.find(css);
        self.post(&format!("/element/{e}/clear"), json!({}));
    }

    pub fn type_text(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.post(&format!("/element/{e}/value"), json!({ "text": text }));
    }

    /// The text of `css` as shown (read by a script: the pages rebuild parts of
    /// themselves, so an element found may be gone a moment later).
    pub fn text(&self, css: &str) -> String {
        let script = format!(
            "const e = document.querySelector({}); return e ? e.innerText : '';",
            serde_json::to_string(css).unwrap()
        );
        self.script(&script)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub fn script(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": [] }))
    }

    /// Wait (up to 20 s) until the text of `css` contains `part`; returns the text.
    pub fn wait_text(&self, css: &str, part: &str) -> String {
        let started = Instant::now();
        loop {
            let t = self.text(css);
            if t.contains(part) {
                return t;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "`{css}` never showed {part:?}; it shows {t:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The window as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let v = self.get("/screenshot");
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = request(
            "DELETE",
            &format!("{}/session/{}", self.base, self.session),
            None,
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
