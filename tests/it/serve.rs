//! `arbiter serve`: the HTTP side, against a real server process on 127.0.0.1 (a free
//! port). Each test starts its own game and server.

use std::sync::{Arc, Barrier};

use crate::common::http::{get, post_json, request, send_raw, Served};
use crate::common::{arbiter, code, has, new_game, slip, stderr, temp_dir};
use serde_json::json;

/// Spring 1901 orders for every power. By the rules: the fleets of Sevastopol and
/// Ankara bounce in the Black Sea, the armies of Warsaw and Vienna in Galicia; every
/// other move succeeds (Kiel is left by its fleet as the army of Berlin arrives).
const OPENINGS: [(&str, &str); 7] = [
    ("austria", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb\n"),
    ("england", "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n"),
    ("france", "A Par - Bur\nA Mar - Spa\nF Bre - Mao\n"),
    ("germany", "A Ber - Kie\nA Mun - Ruh\nF Kie - Den\n"),
    ("italy", "A Ven - Pie\nA Rom - Apu\nF Nap - Ion\n"),
    (
        "russia",
        "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot\n",
    ),
    ("turkey", "A Con - Bul\nA Smy - Con\nF Ank - Bla\n"),
];

const SPRING: &str = "Spring 1901 movement";

fn game_yaml(game: &str) -> serde_yaml::Value {
    serde_yaml::from_str(&std::fs::read_to_string(game).unwrap()).unwrap()
}

fn referee(s: &Served) -> String {
    s.referee.clone().unwrap()
}

/// A new game in a fresh temporary folder, served: the game file's path and the server.
fn served(tag: &str) -> (String, Served) {
    let game = new_game(&temp_dir(tag));
    let s = Served::start(std::path::Path::new(&game), &[]);
    (game, s)
}

/// Judge `phase` from the referee's page; the answer must be 200. Its JSON.
fn judge(s: &Served, phase: &str) -> serde_json::Value {
    let a = post_json(&format!("{}/judge", referee(s)), &json!({ "phase": phase }));
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()
}

fn submit(link: &str, phase: &str, text: &str) -> crate::common::http::Answer {
    post_json(
        &format!("{link}/orders"),
        &json!({ "phase": phase, "text": text }),
    )
}

/// Submit orders on a player's page; the answer must be 200.
fn submitted(link: &str, phase: &str, text: &str) {
    let a = submit(link, phase, text);
    assert_eq!(a.status, 200, "{}", a.body);
}

/// The outcome recorded for `order` of `power` in history entry `k`.
fn outcome(y: &serde_yaml::Value, k: usize, power: &str, order: &str) -> String {
    let results = y["history"][k]["results"].as_sequence().unwrap();
    let r = results
        .iter()
        .find(|r| r["power"].as_str() == Some(power) && r["order"].as_str() == Some(order))
        .unwrap_or_else(|| panic!("no result for {power} {order}"));
    r["outcome"].as_str().unwrap().to_string()
}

#[test]
fn seven_players_submit_at_once_and_every_order_is_kept() {
    let (game, s) = served("serve-seven");
    assert_eq!(s.links.len(), 7);
    let barrier = Arc::new(Barrier::new(7));
    let threads: Vec<_> = OPENINGS
        .iter()
        .map(|&(power, text)| {
            let link = s.links[power].clone();
            let b = barrier.clone();
            std::thread::spawn(move || {
                b.wait();
                submit(&link, SPRING, text)
            })
        })
        .collect();
    for t in threads {
        let a = t.join().unwrap();
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.json()["ok"], true);
    }
    // Every slip is in the game file, as typed.
    let y = game_yaml(&game);
    assert_eq!(y["serve"]["phase"].as_str(), Some(SPRING));
    for (power, text) in OPENINGS {
        assert_eq!(y["serve"]["pending"][power].as_str(), Some(text), "{power}");
    }
    // A player sees their own orders only; the referee sees who is in, not what.
    let g = get(&format!("{}/state", s.links["germany"])).json();
    assert_eq!(g["submitted"].as_str(), Some(OPENINGS[3].1));
    assert!(!g.to_string().contains("A Par - Bur"));
    let r = get(&format!("{}/state", referee(&s))).json();
    assert!(r["powers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["in"] == true));
    assert!(!r.to_string().contains("A Par - Bur"));
    // Judged as `arbiter judge` judges: the rules' outcomes.
    assert_eq!(judge(&s, SPRING)["phase"], "Fall 1901 movement");
    let y = game_yaml(&game);
    assert_eq!(y["phase"].as_str(), Some("Fall 1901 movement"));
    assert!(y["serve"].get("pending").is_none());
    assert_eq!(outcome(&y, 0, "france", "A Par - Bur"), "succeeds");
    assert_eq!(outcome(&y, 0, "germany", "A Ber - Kie"), "succeeds");
    assert_eq!(outcome(&y, 0, "russia", "F Sev - Bla"), "fails");
    assert_eq!(outcome(&y, 0, "turkey", "F Ank - Bla"), "fails");
    assert_eq!(outcome(&y, 0, "russia", "A War - Gal"), "fails");
    assert_eq!(outcome(&y, 0, "austria", "A Vie - Gal"), "fails");
    let files: Vec<&str> = y["history"][0]["orders"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|o| o["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 7);
    // The players now see the results and their units moved.
    let f = get(&format!("{}/state", s.links["france"])).json();
    assert_eq!(f["phase"], "Fall 1901 movement");
    has(
        f["last"]["sheet"].as_str().unwrap(),
        "France: Army Paris -> Burgundy.",
    );
    let units: Vec<&str> = f["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    assert!(units.contains(&"Army Burgundy"), "{units:?}");
}

#[test]
fn a_wrong_or_missing_token_gets_403_and_changes_nothing() {
    let (game, s) = served("serve-token");
    let before = std::fs::read(&game).unwrap();
    let wrong = format!("{}p/{}", s.base, "0".repeat(32));
    let a = submit(&wrong, SPRING, "A Par - Bur");
    assert_eq!(a.status, 403);
    has(&a.body, "not valid");
    assert_eq!(get(&format!("{wrong}/state")).status, 403);
    assert_eq!(get(&wrong).status, 403);
    // A player's token is not the referee's.
    let france = s.links["france"].clone();
    let as_ref = france.replace("/p/", "/r/");
    let a = post_json(&format!("{as_ref}/judge"), &json!({ "phase": SPRING }));
    assert_eq!(a.status, 403);
    // Nor is the referee's a player's.
    let a = submit(&referee(&s).replace("/r/", "/p/"), SPRING, "A Par - Bur");
    assert_eq!(a.status, 403);
    // No token at all.
    assert_eq!(
        submit(&format!("{}p/", s.base), SPRING, "A Par - Bur").status,
        403
    );
    assert_eq!(get(&format!("{}r/", s.base)).status, 403);
    assert_eq!(
        std::fs::read(&game).unwrap(),
        before,
        "the game file changed"
    );
    // Every answer keeps its address out of Referer headers and caches.
    let a = get(&format!("{france}/state"));
    assert_eq!(a.status, 200);
    assert_eq!(a.headers["referrer-policy"], "no-referrer");
    assert_eq!(a.headers["cache-control"], "no-store");
    has(&a.headers["content-security-policy"], "default-src 'none'");
    // A new link for France: the old one stops working, the new one works.
    let a = post_json(
        &format!("{}/link", referee(&s)),
        &json!({ "power": "france" }),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let new = a.json()["link"].as_str().unwrap().to_string();
    assert_ne!(new, france);
    assert_eq!(get(&format!("{france}/state")).status, 403);
    assert_eq!(get(&format!("{new}/state")).status, 200);
    // The game file keeps hashes only, never a token.
    let text = std::fs::read_to_string(&game).unwrap();
    for link in s.links.values().chain([&new, &referee(&s)]) {
        let token = link.rsplit('/').next().unwrap();
        assert!(!text.contains(token), "token {token} in the game file");
    }
}

#[test]
fn a_player_cannot_order_another_powers_units() {
    let (game, s) = served("serve-foreign");
    let before = std::fs::read(&game).unwrap();
    let france = &s.links["france"];
    // Germany's army, on France's page: the judge's own error.
    let a = submit(france, SPRING, "A Mun - Ruh\n");
    assert_eq!(a.status, 422, "{}", a.body);
    has(
        a.json()["rendered"].as_str().unwrap(),
        "belongs to Germany, not France",
    );
    // Germany's heading on France's page: refused too.
    let a = submit(france, SPRING, "Germany:\nA Mun - Ruh\n");
    assert_eq!(a.status, 422, "{}", a.body);
    has(&a.body, "this page orders France's units only");
    assert_eq!(
        std::fs::read(&game).unwrap(),
        before,
        "the game file changed"
    );
    // The check as typed shows the same diagnostics, with the CLI's did-you-mean.
    let a = request(
        "POST",
        &format!("{france}/check"),
        Some(("text/plain", b"A Par - Burgundee\nF Bre - Mao\n")),
    );
    assert_eq!(a.status, 200);
    let v = a.json();
    assert_eq!(v["errors"], 0);
    has(
        v["rendered"].as_str().unwrap(),
        "read `Burgundee` as `Burgundy`",
    );
    let a = request(
        "POST",
        &format!("{france}/check"),
        Some(("text/plain", b"A Par - Xyzzy\n")),
    );
    assert_eq!(a.json()["errors"], 1, "{}", a.body);
}

#[test]
fn oversized_and_malformed_requests_get_4xx() {
    let (game, s) = served("serve-malformed");
    let before = std::fs::read(&game).unwrap();
    let france = &s.links["france"];
    let big = vec![b'a'; 200 * 1024];
    let a = request(
        "POST",
        &format!("{france}/check"),
        Some(("text/plain", &big)),
    );
    assert_eq!(a.status, 413);
    let a = request(
        "POST",
        &format!("{france}/orders"),
        Some(("application/json", &big)),
    );
    assert_eq!(a.status, 413);
    // A slip over 16 KiB inside a body under the limit.
    let long = "A Par - Bur\n".repeat(2000);
    assert_eq!(submit(france, SPRING, &long).status, 413);
    let a = request(
        "POST",
        &format!("{france}/orders"),
        Some(("application/json", b"{not json")),
    );
    assert_eq!(a.status, 400);
    has(&a.body, "not the JSON expected");
    let a = post_json(
        &format!("{france}/orders"),
        &json!({ "text": "A Par - Bur" }),
    );
    assert_eq!(a.status, 400);
    let a = request(
        "POST",
        &format!("{france}/check"),
        Some(("text/plain", &[0xff, 0xfe, 0x41])),
    );
    assert_eq!(a.status, 400);
    let a = post_json(&format!("{}/judge", referee(&s)), &json!([1, 2, 3]));
    assert_eq!(a.status, 400);
    let a = post_json(
        &format!("{}/judge", referee(&s)),
        &json!({ "phase": "Sprung 1901" }),
    );
    assert_eq!(a.status, 409);
    // Not HTTP at all.
    let a = send_raw(&s.host(), b"HELLO\r\n\r\n");
    assert!((400..500).contains(&a.status), "{a:?}");
    assert_eq!(get(&format!("{}nowhere", s.base)).status, 404);
    // Nothing changed, and the server still answers.
    assert_eq!(
        std::fs::read(&game).unwrap(),
        before,
        "the game file changed"
    );
    assert_eq!(get(&format!("{france}/state")).status, 200);
}

#[test]
fn a_submission_racing_judge_is_refused_and_sees_the_new_phase() {
    let (game, s) = served("serve-race");
    let france = s.links["france"].clone();
    submitted(&france, SPRING, "A Par - Bur\n");
    let racer = std::thread::spawn(move || {
        let mut answers = Vec::new();
        loop {
            let a = submit(&france, SPRING, "A Par - Pic\n");
            let done = a.status != 200;
            answers.push(a);
            if done || answers.len() > 5000 {
                return answers;
            }
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
    judge(&s, SPRING);
    let answers = racer.join().unwrap();
    let last = answers.last().unwrap();
    assert!(answers[..answers.len() - 1].iter().all(|a| a.status == 200));
    assert_eq!(last.status, 409, "{}", last.body);
    assert_eq!(last.json()["phase"], "Fall 1901 movement");
    has(&last.body, "has been judged");
    // The judged slip is the last one kept before Judge; nothing is pending after it.
    let y = game_yaml(&game);
    let kept = y["history"][0]["orders"][0]["text"].as_str().unwrap();
    let expect = if answers.len() > 1 {
        "A Par - Pic\n"
    } else {
        "A Par - Bur\n"
    };
    assert_eq!(kept, expect);
    assert!(y["serve"].get("pending").is_none());
}

#[test]
fn killed_and_restarted_the_server_keeps_pending_orders_and_links() {
    let (game, mut s) = served("serve-kill");
    let france = s.links["france"].clone();
    let referee_link = referee(&s);
    submitted(&france, SPRING, "A Par - Bur\n");
    s.kill();
    let s2 = Served::start(std::path::Path::new(&game), &[]);
    assert!(s2.referee.is_none(), "a restart does not change the links");
    // The same links, on the new port.
    let port = |l: &str| l.replacen(&s.base, &s2.base, 1);
    let f = get(&format!("{}/state", port(&france)));
    assert_eq!(f.status, 200, "{}", f.body);
    assert_eq!(f.json()["submitted"], "A Par - Bur\n");
    let r = get(&format!("{}/state", port(&referee_link))).json();
    let fr = r["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "france")
        .unwrap()
        .clone();
    assert_eq!(fr["in"], true);
    // The referee's page derives the same player links.
    assert_eq!(fr["link"].as_str().unwrap(), port(&france));
    let a = post_json(
        &format!("{}/judge", port(&referee_link)),
        &json!({ "phase": SPRING }),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    has(
        a.json()["last"]["sheet"].as_str().unwrap(),
        "France: Army Paris -> Burgundy.",
    );
}

#[test]
fn cli_commands_that_change_the_game_refuse_while_it_is_served() {
    let dir = temp_dir("serve-lock");
    let game = new_game(&dir);
    let mut s = Served::start(std::path::Path::new(&game), &[]);
    let orders = slip(&dir, "france.txt", "A Par - Bur\n");
    let started = std::time::Instant::now();
    let o = arbiter(&["judge", &game, &orders]);
    code(&o, 2);
    let err = stderr(&o);
    has(&err, "is being served: arbiter serve (process");
    has(&err, &s.base);
    // At once, not after the lock's usual wait.
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
    let o = arbiter(&["undo", &game]);
    code(&o, 2);
    has(&stderr(&o), "is being served");
    // Reading works.
    code(&arbiter(&["status", &game]), 0);
    code(&arbiter(&["history", &game]), 0);
    // Stopped (even killed), the game is the referee's again. Orders submitted on the
    // pages and not judged there are not silently lost: judging from the command line
    // says they were not used.
    submitted(&s.links["germany"], SPRING, "A Mun - Ruh\n");
    s.kill();
    let o = arbiter(&["judge", &game, &orders]);
    code(&o, 0);
    has(
        &stderr(&o),
        "the orders submitted on `arbiter serve`'s pages (germany) were not used",
    );
    let y = game_yaml(&game);
    assert!(y["serve"].get("pending").is_none());
}

#[test]
fn a_damaged_serve_key_is_refused_by_name() {
    let dir = temp_dir("serve-damaged");
    let game = new_game(&dir);
    let text = std::fs::read_to_string(&game).unwrap().replace(
        "complete: true",
        "serve:\n  referee: not-a-hash\ncomplete: true",
    );
    std::fs::write(&game, text).unwrap();
    let o = arbiter(&["status", &game]);
    code(&o, 2);
    has(
        &stderr(&o),
        "serve: referee: not a SHA-256 hash (64 hex digits)",
    );
}

/// Spring 1901 to Winter 1901 over HTTP, as a table plays it: every order typed once, on
/// the players' pages, and judged from the referee's.
#[test]
fn a_table_plays_spring_to_winter_1901_over_http() {
    let (game, s) = served("serve-year");
    let judge = |phase: &str| judge(&s, phase);
    for (power, text) in OPENINGS {
        submitted(&s.links[power], SPRING, text);
    }
    assert_eq!(judge(SPRING)["phase"], "Fall 1901 movement");
    // Fall: France takes Portugal, Germany Holland and Belgium; the Austrian army in
    // Serbia and the Turkish one in Bulgaria stay, so those centres change hands too.
    let fall = "Fall 1901 movement";
    submitted(&s.links["france"], fall, "F Mao - Por\nA Spa H\nA Bur H\n");
    submitted(
        &s.links["germany"],
        fall,
        "A Kie - Hol\nA Ruh - Bel\nF Den H\n",
    );
    assert_eq!(judge(fall)["phase"], "Winter 1901 adjustment");
    // Winter: each page says what its power builds, and lists the builds it may order.
    let winter = "Winter 1901 adjustment";
    let f = get(&format!("{}/state", s.links["france"])).json();
    has(f["needs"].as_str().unwrap(), "You may build 2");
    let builds = f["legal"][0]["orders"].to_string();
    has(&builds, "BUILD A PAR");
    let g = get(&format!("{}/state", s.links["germany"])).json();
    has(g["needs"].as_str().unwrap(), "You may build 3");
    // A build in another power's centre is refused on the page, with the judge's reason.
    let a = submit(&s.links["germany"], winter, "Build A Par\n");
    assert_eq!(a.status, 422, "{}", a.body);
    submitted(&s.links["france"], winter, "Build A Par\nBuild F Bre\n");
    submitted(
        &s.links["germany"],
        winter,
        "Build A Ber\nBuild F Kie\nBuild A Mun\n",
    );
    // Austria and Turkey order nothing: their builds are waived.
    assert_eq!(judge(winter)["phase"], "Spring 1902 movement");
    let o = arbiter(&["status", &game, "--format", "json"]);
    code(&o, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["centres"]["france"], 5);
    assert_eq!(v["centres"]["germany"], 6);
    assert_eq!(v["centres"]["austria"], 4);
    assert_eq!(v["centres"]["turkey"], 4);
    assert_eq!(
        crate::common::units_of(&v, "france"),
        ["A BUR", "A PAR", "A SPA", "F BRE", "F POR"]
    );
    assert_eq!(
        crate::common::units_of(&v, "germany"),
        ["A BEL", "A BER", "A HOL", "A MUN", "F DEN", "F KIE"]
    );
    assert_eq!(crate::common::units_of(&v, "austria").len(), 3);
    // Three judged phases, each with the slips as typed.
    let y = game_yaml(&game);
    assert_eq!(y["history"].as_sequence().unwrap().len(), 3);
    assert_eq!(
        y["history"][2]["orders"][0]["text"].as_str(),
        Some("Build A Par\nBuild F Bre\n")
    );
}

#[test]
fn the_referee_explains_prints_and_undoes() {
    let (game, s) = served("serve-referee");
    let r = referee(&s);
    let a = post_json(&format!("{r}/explain"), &json!({ "province": "bur" }));
    assert_eq!(a.status, 409, "nothing judged yet: {}", a.body);
    submitted(&s.links["france"], SPRING, "A Par - Bur\n");
    judge(&s, SPRING);
    // Explain, as `arbiter explain GAME bur`.
    let a = post_json(&format!("{r}/explain"), &json!({ "province": "Burgundy" }));
    assert_eq!(a.status, 200, "{}", a.body);
    let text = a.json()["text"].as_str().unwrap().to_string();
    let o = arbiter(&["explain", &game, "bur"]);
    code(&o, 0);
    assert_eq!(text, crate::common::stdout(&o));
    // A misspelt province, as `arbiter explain` answers it.
    let a = post_json(&format!("{r}/explain"), &json!({ "province": "Burgundee" }));
    assert_eq!(a.status, 400);
    has(&a.body, "did you mean `Burgundy` (bur)?");
    // The print view, the pictures and a QR code.
    let a = get(&format!("{r}/print"));
    assert_eq!(a.status, 200);
    has(&a.body, "France: Army Paris -&gt; Burgundy.");
    has(&a.body, "judged.svg");
    for path in ["judged.svg", "board.svg", "qr/france.svg"] {
        let a = get(&format!("{r}/{path}"));
        assert_eq!(a.status, 200, "{path}");
        assert_eq!(a.headers["content-type"], "image/svg+xml", "{path}");
        has(&a.body, "<svg");
    }
    assert_eq!(get(&format!("{r}/qr/narnia.svg")).status, 404);
    // Undo: back to Spring 1901, as `arbiter undo`; the page must name the phase it shows.
    let fall = "Fall 1901 movement";
    assert_eq!(
        post_json(&format!("{r}/undo"), &json!({ "phase": SPRING })).status,
        409
    );
    let a = post_json(&format!("{r}/undo"), &json!({ "phase": fall }));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["phase"], SPRING);
    let y = game_yaml(&game);
    assert_eq!(y["phase"].as_str(), Some(SPRING));
    assert!(y["history"].as_sequence().unwrap().is_empty());
    let a = post_json(&format!("{r}/undo"), &json!({ "phase": SPRING }));
    assert_eq!(a.status, 409);
    has(&a.body, "nothing to undo");
}

#[test]
fn an_idle_or_half_sent_connection_is_closed() {
    use std::io::{Read, Write};
    let dir = temp_dir("serve-idle");
    let game = new_game(&dir);
    let s = Served::start_with(
        std::path::Path::new(&game),
        &[],
        &[("ARBITER_SERVE_IDLE_MS", "300")],
    );
    // Half a request, then nothing: the server closes the connection.
    let mut c = std::net::TcpStream::connect(s.host()).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let started = std::time::Instant::now();
    let mut buf = Vec::new();
    let _ = c.read_to_end(&mut buf);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the connection was kept open"
    );
    // A whole request is answered as usual.
    assert_eq!(get(&format!("{}/state", s.links["france"])).status, 200);
}

#[test]
fn the_referees_page_shows_links_on_the_address_it_was_opened_with() {
    let (_game, s) = served("serve-host");
    let r = referee(&s);
    let path = r
        .strip_prefix("http://")
        .unwrap()
        .split_once('/')
        .unwrap()
        .1;
    let raw = format!(
        "GET /{path}/state HTTP/1.1\r\nHost: 192.168.1.20:8080\r\nConnection: close\r\n\r\n"
    );
    let a = send_raw(&s.host(), raw.as_bytes());
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    let france = v["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "france")
        .unwrap()["link"]
        .as_str()
        .unwrap()
        .to_string();
    let token = s.links["france"].rsplit('/').next().unwrap();
    assert_eq!(france, format!("http://192.168.1.20:8080/p/{token}"));
    // A Host that is not a plain host and port is not used.
    let raw = format!(
        "GET /{path}/state HTTP/1.1\r\nHost: evil.example/<script>\r\nConnection: close\r\n\r\n"
    );
    let a = send_raw(&s.host(), raw.as_bytes());
    if a.status == 200 {
        assert!(!a.body.contains("evil.example"), "{}", a.body);
    }
}

/// A retreat on the pages: the dislodged unit's player sees where it may go, an illegal
/// retreat is refused with the judge's reason, a legal one is judged.
#[test]
fn a_retreat_is_ordered_on_the_players_page() {
    let (game, s) = served("serve-retreat");
    let judge = |phase: &str| judge(&s, phase)["phase"].as_str().unwrap().to_string();
    let (france, germany) = (&s.links["france"], &s.links["germany"]);
    submitted(france, SPRING, "A Par - Pic\nA Mar - Bur\n");
    submitted(germany, SPRING, "A Mun - Ruh\nA Ber - Mun\n");
    assert_eq!(judge(SPRING), "Fall 1901 movement");
    // Fall: the army of Ruhr, supported from Munich, dislodges the French army in
    // Burgundy.
    let fall = "Fall 1901 movement";
    submitted(germany, fall, "A Ruh - Bur\nA Mun S A Ruh - Bur\n");
    assert_eq!(judge(fall), "Fall 1901 retreat");
    // It may retreat to Belgium, Gascony, Marseilles or Paris: not to Ruhr (whence the
    // attack came), Munich or Picardy (held).
    let f = get(&format!("{france}/state")).json();
    let needs = f["needs"].as_str().unwrap();
    has(needs, "Army Burgundy may retreat to");
    for place in ["Belgium", "Gascony", "Marseilles", "Paris"] {
        has(needs, place);
    }
    let legal = f["legal"][0]["orders"].to_string();
    has(&legal, "A BUR - PAR");
    assert!(!legal.contains("RUH"), "{legal}");
    let retreat = "Fall 1901 retreat";
    let a = submit(france, retreat, "A Bur - Ruh\n");
    assert_eq!(a.status, 422, "{}", a.body);
    has(&a.body, "may retreat to");
    submitted(france, retreat, "A Bur - Par\n");
    // No centre changed hands, so nobody builds or removes: Winter 1901 is skipped.
    assert_eq!(judge(retreat), "Spring 1902 movement");
    let o = arbiter(&["status", &game, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        crate::common::units_of(&v, "france"),
        ["A PAR", "A PIC", "F BRE"]
    );
}

/// The two pages load the script they share before their own, and every script they
/// name is served.
#[test]
fn the_pages_scripts_are_served() {
    let (_game, s) = served("serve-scripts");
    for (page, own) in [
        (referee(&s), "referee"),
        (s.links["france"].clone(), "player"),
    ] {
        let html = get(&page).body;
        let common = html.find("<script src=\"/static/common.js\"></script>");
        let mine = html.find(&format!("<script src=\"/static/{own}.js\"></script>"));
        assert!(common.is_some() && common < mine, "{html}");
    }
    for script in ["common", "player", "referee"] {
        let a = get(&format!("http://{}/static/{script}.js", s.host()));
        assert_eq!(a.status, 200, "{script}.js");
        has(&a.body, "'use strict';");
    }
    has(
        &get(&format!("http://{}/static/common.js", s.host())).body,
        "const ArbiterPage",
    );
}
