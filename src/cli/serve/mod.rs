//! `arbiter serve GAME`: the game's web pages, for the referee's laptop and the
//! players' phones (docs/SERVE.md). One process holds the game's lock for as long as
//! it serves; every change (an order submitted, a phase judged or undone, a new link)
//! is saved to the game file atomically before it is answered, so a killed server
//! loses nothing.
//!
//! Links carry secret tokens in their path (`/r/TOKEN` for the referee, `/p/TOKEN`
//! for a player). The referee's token is random (128 bits); a player's token is
//! derived from it (SHA-256 of the referee's token, the power and the link's issue),
//! so the referee's page can show the players' links again after a restart. The game
//! file keeps only a SHA-256 hash of each token; a token presented is hashed and
//! compared with the stored hashes in constant time.

mod http;

use std::fmt::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::game::{centres_out, explained, judge_orders, province, record_and_save, rejudged};
use super::game::{status_text, CentresFormat};
use super::render::esc;
use super::store::{self, Loaded};
use super::write::SERVER_MARK;
use super::{Fatal, EXIT_OK};
use arbiter::gamefile::{Found, Game, LinkRecord, OrderFile, ServeRecord};
use arbiter::map::{Map, Power};
use arbiter::orders::{render_diagnostics, Diagnostic, Severity};
use arbiter::state::Phase;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The game file to serve. The server holds its lock while it runs: commands that
    /// change the game refuse, naming the server; those that read it work.
    pub game: PathBuf,
    /// The port to listen on (0: any free port; the first line printed names it).
    #[arg(long, default_value_t = 8080, value_name = "PORT")]
    pub port: u16,
    /// The address to listen on. The default serves this computer only; give the
    /// laptop's address on the room's network (`--bind 192.168.1.20`) for phones to
    /// reach it. Plain HTTP: anyone on that network can read the traffic.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// Issue new links for the referee and every power: the old ones stop working.
    /// Needed when the referee's link is lost (tokens are not kept, only their hashes).
    #[arg(long)]
    pub new_links: bool,
}

/// Who a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Referee,
    Player(Power),
}

/// The served game: the loaded game, the bytes on disk, and a counter every change
/// bumps (pages poll it).
pub struct Inner {
    pub game: Game,
    pub bytes: Vec<u8>,
    pub version: u64,
    /// Bumped when the position changes (a phase judged or undone): the board's version.
    pub board_version: u64,
    board: Option<(u64, Arc<String>)>,
}

pub struct Server {
    pub path: PathBuf,
    pub map: Map,
    /// `http://ADDR:PORT` as printed.
    pub base: String,
    pub inner: Mutex<Inner>,
    /// Held while the board is drawn.
    drawing: Mutex<()>,
}

/// A failure answered with a status code and a message (JSON `{"error": ...}`).
#[derive(Debug)]
pub struct Refusal {
    pub status: u16,
    pub body: serde_json::Value,
}

impl Refusal {
    pub fn new(status: u16, msg: impl Into<String>) -> Refusal {
        Refusal {
            status,
            body: serde_json::json!({ "error": msg.into() }),
        }
    }
}

impl From<Fatal> for Refusal {
    fn from(Fatal(e): Fatal) -> Refusal {
        Refusal::new(500, e)
    }
}

pub type Answer = Result<serde_json::Value, Refusal>;

// ---------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The SHA-256 (hex) of a token: what the game file keeps.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A new random token: 128 bits, hex.
fn random_token() -> Result<String, Fatal> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| {
        Fatal(format!(
            "cannot make a random token (the system's random source: {e})"
        ))
    })?;
    Ok(hex(&b))
}

/// A player's token: derived from the referee's token, the power and the link's issue
/// (128 bits of SHA-256, hex).
pub fn player_token(referee: &str, power: &str, issue: u32) -> String {
    let mut h = Sha256::new();
    h.update(b"arbiter serve link\0");
    h.update(referee.as_bytes());
    h.update(b"\0");
    h.update(power.as_bytes());
    h.update(b"\0");
    h.update(issue.to_le_bytes());
    let d = h.finalize();
    hex(d.get(..16).unwrap_or_default())
}

/// A `Host` header that is only a host name or address and a port.
fn plain_host(h: &str) -> bool {
    !h.is_empty()
        && h.len() <= 100
        && h.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
}

/// Equal strings, in time that depends on their length only.
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Server {
    /// Who `token` is, if anyone: its hash compared with every stored hash.
    pub fn who(&self, token: &str) -> Option<Who> {
        if token.len() > 128 {
            return None;
        }
        let h = token_hash(token);
        let inner = self.lock();
        let s = inner.game.serve.as_ref()?;
        let mut found = None;
        if same(&h, &s.referee) {
            found = Some(Who::Referee);
        }
        for (id, link) in &s.links {
            if same(&h, &link.hash) {
                if let Some(p) = self.map.power_by_name(id) {
                    found = Some(Who::Player(p));
                }
            }
        }
        found
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn link(&self, kind: &str, token: &str) -> String {
        format!("{}/{kind}/{token}", self.base)
    }

    /// A link as the referee's page shows it: on the address the referee's browser
    /// reached (its `Host`, when it is a plain host and port), else as printed. A
    /// server bound to `0.0.0.0` so shows links that phones on that network can open.
    fn link_for(&self, host: Option<&str>, kind: &str, token: &str) -> String {
        match host.filter(|h| plain_host(h)) {
            Some(h) => format!("http://{h}/{kind}/{token}"),
            None => self.link(kind, token),
        }
    }
}

/// Save the game now in `inner` (atomically, over the bytes it was loaded from) and
/// bump the version.
fn save(server: &Server, inner: &mut Inner) -> Result<(), Refusal> {
    let text = inner.game.to_yaml(&server.map);
    store::save(&server.path, &server.map, &text, &inner.bytes)?;
    inner.bytes = text.into_bytes();
    inner.version += 1;
    Ok(())
}

// ---------------------------------------------------------------------------------
// Starting
// ---------------------------------------------------------------------------------

pub fn run(args: &ServeArgs) -> Result<i32, Fatal> {
    let lock = store::lock(&args.game)?;
    let Loaded {
        mut game,
        map,
        bytes,
    } = store::load(&args.game)?;
    let listener =
        std::net::TcpListener::bind(SocketAddr::new(args.bind, args.port)).map_err(|e| {
            Fatal(format!(
                "cannot listen on {}:{}: {e} (another program may use the port: choose \
                 another with --port)",
                args.bind, args.port
            ))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| Fatal(format!("cannot listen: {e}")))?;
    let base = format!("http://{addr}");
    let shown = args.game.display().to_string();
    lock.announce(&format!(
        "{SERVER_MARK} (process {}) at {base}/",
        std::process::id()
    ))
    .map_err(|e| Fatal(format!("cannot write the lock file of `{shown}`: {e}")))?;
    let mut new_token = None;
    if game.serve.is_none() || args.new_links {
        let referee = random_token()?;
        let old = game.serve.take().unwrap_or_default();
        let links = map
            .power_ids()
            .map(|p| {
                let id = map.power(p).id.clone();
                let issue = old.links.get(&id).map_or(0, |l| l.issue + 1);
                let hash = token_hash(&player_token(&referee, &id, issue));
                (id, LinkRecord { issue, hash })
            })
            .collect();
        game.serve = Some(ServeRecord {
            referee: token_hash(&referee),
            links,
            phase: old.phase,
            pending: old.pending,
        });
        new_token = Some(referee);
    }
    let server = Arc::new(Server {
        path: args.game.clone(),
        map,
        base: base.clone(),
        inner: Mutex::new(Inner {
            game,
            bytes,
            version: 1,
            board_version: 1,
            board: None,
        }),
        drawing: Mutex::new(()),
    });
    if new_token.is_some() {
        let mut inner = server.lock();
        save(&server, &mut inner).map_err(|r| Fatal(refusal_text(&r)))?;
    }
    // The first line names the address (tests and scripts read it).
    outln!("arbiter serve: {base}/ serving `{shown}` (Ctrl-C stops)");
    match &new_token {
        Some(t) => {
            outln!("Referee: {}", server.link("r", t));
            for p in server.map.power_ids() {
                let id = &server.map.power(p).id;
                let issue = {
                    let inner = server.lock();
                    inner
                        .game
                        .serve
                        .as_ref()
                        .and_then(|s| s.links.get(id))
                        .map_or(0, |l| l.issue)
                };
                outln!(
                    "{}: {}",
                    server.map.power(p).name,
                    server.link("p", &player_token(t, id, issue))
                );
            }
            outln!(
                "Keep the referee's link: it is shown only now (the game file keeps hashes, \
                 not links). The referee's page shows the players' links and QR codes."
            );
        }
        None => outln!(
            "The links are those printed when `{shown}` was first served (the game file keeps \
             only their hashes): open the referee's link to see the players' links again. \
             Lost it? Stop and run `arbiter serve {shown} --new-links` (every link changes)."
        ),
    }
    if args.bind.is_unspecified() {
        outln!(
            "Listening on every network interface: in the links, put the laptop's address for \
             {}; the referee's page, opened so, shows the players' links and QR codes with it.",
            args.bind
        );
    }
    {
        use std::io::Write;
        let _ = std::io::stdout().flush();
    }
    let code = http::run(server.clone(), listener);
    // Stopped: the lock file no longer names a server.
    let _ = lock.announce("");
    drop(lock);
    code.map(|()| EXIT_OK)
}

fn refusal_text(r: &Refusal) -> String {
    r.body
        .get("error")
        .and_then(|e| e.as_str())
        .unwrap_or("refused")
        .to_string()
}

// ---------------------------------------------------------------------------------
// What pages ask
// ---------------------------------------------------------------------------------

/// A diagnostic as JSON, with the rendered text the CLI prints.
#[derive(Serialize)]
struct DiagJson<'a> {
    severity: &'static str,
    line: u32,
    start: u32,
    end: u32,
    message: &'a str,
    help: Option<&'a str>,
}

fn diags_json(ds: &[Diagnostic]) -> Vec<serde_json::Value> {
    ds.iter()
        .map(|d| {
            serde_json::to_value(DiagJson {
                severity: match d.severity {
                    Severity::Error => "error",
                    _ => "warning",
                },
                line: d.span.line,
                start: d.span.start,
                end: d.span.end,
                message: &d.message,
                help: d.help.as_deref(),
            })
            .unwrap_or_default()
        })
        .collect()
}

/// The file name a power's submitted slip is judged (and recorded) under.
fn slip_name(map: &Map, p: Power) -> String {
    format!("serve/{}.txt", map.power(p).id)
}

/// A player's slip checked as `arbiter judge` checks it (the same parser, the same
/// binding and the same messages), plus: every order must be this power's.
fn check_slip(map: &Map, game: &Game, me: Power, text: &str) -> Result<Vec<Diagnostic>, Refusal> {
    let file = OrderFile {
        file: slip_name(map, me),
        text: text.to_string(),
    };
    let (j, _) = judge_orders(game, map, std::slice::from_ref(&file), false)?;
    let mut ds = j.diagnostics.into_iter().next().unwrap_or_default();
    let name = &map.power(me).name;
    for o in &j.result.input {
        if let Some(p) = o.power.filter(|&p| p != me) {
            if ds
                .iter()
                .any(|d| d.span == o.span && d.severity == Severity::Error)
            {
                continue;
            }
            ds.push(Diagnostic::error(
                o.span,
                format!(
                    "`{}` is an order for {}: this page orders {name}'s units only",
                    o.text,
                    map.power(p).name
                ),
                Some(format!(
                    "remove the order (and any `{}:` heading); each power orders on its own page",
                    map.power(p).name
                )),
            ));
        }
    }
    ds.sort_by_key(|d| (d.span.line, d.span.start));
    Ok(ds)
}

fn check_json(map: &Map, me: Power, text: &str, ds: &[Diagnostic]) -> serde_json::Value {
    let errors = ds.iter().filter(|d| d.severity == Severity::Error).count();
    serde_json::json!({
        "errors": errors,
        "diagnostics": diags_json(ds),
        "rendered": render_diagnostics(ds, text, &slip_name(map, me)),
    })
}

/// `POST /p/TOKEN/check`: the diagnostics of a slip as typed (nothing is kept).
pub fn check(server: &Server, me: Power, text: &str) -> Answer {
    let inner = server.lock();
    let ds = check_slip(&server.map, &inner.game, me, text)?;
    Ok(check_json(&server.map, me, text, &ds))
}

/// The phase a page says it acts on must be the game's phase now.
fn same_phase(game: &Game, phase: &str, what: &str) -> Result<(), Refusal> {
    let now = game.position.phase;
    if game.over.is_some() {
        return Err(Refusal {
            status: 409,
            body: serde_json::json!({
                "error": format!("the game is over: {what} refused"),
                "phase": now.to_string(),
            }),
        });
    }
    if Phase::parse(phase).ok() != Some(now) {
        return Err(Refusal {
            status: 409,
            body: serde_json::json!({
                "error": format!(
                    "{what} refused: it was for {phase}, but that phase has been judged (or \
                     undone); the game is now at {now}. The page shows the new phase."
                ),
                "phase": now.to_string(),
            }),
        });
    }
    Ok(())
}

/// `POST /p/TOKEN/orders`: keep a player's slip for the phase (an empty one withdraws
/// it). Refused with its diagnostics if it has errors.
pub fn submit(server: &Server, me: Power, phase: &str, text: &str) -> Answer {
    let mut inner = server.lock();
    same_phase(&inner.game, phase, "these orders were")?;
    let ds = check_slip(&server.map, &inner.game, me, text)?;
    let result = check_json(&server.map, me, text, &ds);
    if ds.iter().any(|d| d.severity == Severity::Error) {
        let mut body = result;
        body["error"] =
            "the orders have errors (below): fix them and submit again; nothing was kept".into();
        return Err(Refusal { status: 422, body });
    }
    let now = inner.game.position.phase.to_string();
    let id = server.map.power(me).id.clone();
    let Some(s) = inner.game.serve.as_mut() else {
        return Err(Refusal::new(500, "the game has no links"));
    };
    if s.phase.as_deref() != Some(now.as_str()) {
        s.pending.clear();
        s.phase = Some(now);
    }
    if text.trim().is_empty() {
        s.pending.remove(&id);
    } else {
        s.pending.insert(id, text.to_string());
    }
    save(server, &mut inner)?;
    let mut body = result;
    body["ok"] = true.into();
    body["version"] = inner.version.into();
    Ok(body)
}

/// What a power must do this phase, in words, and its units.
fn player_needs(map: &Map, game: &Game, me: Power) -> (String, Vec<String>) {
    use arbiter::state::PhaseKind;
    let p = &game.position;
    let units: Vec<String> = p
        .units
        .iter()
        .filter(|u| u.power == me)
        .map(|u| format!("{} {}", u.kind.word(), map.loc_name(u.loc)))
        .collect();
    if game.over.is_some() {
        return ("The game is over.".into(), units);
    }
    let needs = match p.phase.kind {
        PhaseKind::Movement => {
            if units.is_empty() {
                "You have no units: nothing to order.".to_string()
            } else {
                "Order every unit; a unit without an order holds.".to_string()
            }
        }
        PhaseKind::Retreat => {
            let mine: Vec<String> = p
                .dislodged
                .iter()
                .filter(|d| d.unit.power == me)
                .map(|d| {
                    let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
                    let to = if places.is_empty() {
                        "nowhere to go: it is disbanded".to_string()
                    } else {
                        format!("may retreat to {} or disband", places.join(", "))
                    };
                    format!("{} {} {to}.", d.unit.kind.word(), map.loc_name(d.unit.loc))
                })
                .collect();
            if mine.is_empty() {
                "None of your units was dislodged: nothing to order.".to_string()
            } else {
                format!(
                    "Dislodged: {} A unit without an order is disbanded.",
                    mine.join(" ")
                )
            }
        }
        PhaseKind::Adjustment => {
            let owed = arbiter::judge::owed(map, &p.owners, &p.units, &p.saved).unwrap_or_default();
            match owed.iter().find(|o| o.power == me).map(|o| o.change) {
                Some(d) if d > 0 => format!("You may build {d} (builds not ordered are waived)."),
                Some(d) if d < 0 => format!(
                    "You must remove {} (removals not ordered are made for you).",
                    -d
                ),
                _ => "You neither build nor remove: nothing to order.".to_string(),
            }
        }
    };
    (needs, units)
}

/// A power's legal orders now, unit by unit (adjustments: one group).
fn legal(map: &Map, game: &Game, me: Power) -> Vec<serde_json::Value> {
    let Ok(l) = arbiter::legal::legal_orders(map, &game.position, game.rules) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in l.units.iter().filter(|u| u.unit.power == me) {
        let orders: Vec<&str> = u.orders.iter().map(|o| o.text.as_str()).collect();
        out.push(serde_json::json!({
            "unit": format!("{} {}", u.unit.kind.word(), map.loc_name(u.unit.loc)),
            "orders": orders,
        }));
    }
    for p in l.powers.iter().filter(|p| p.power == me) {
        let orders: Vec<&str> = p.orders.iter().map(|o| o.text.as_str()).collect();
        out.push(serde_json::json!({
            "unit": if p.change > 0 { "Builds" } else { "Removals" },
            "orders": orders,
        }));
    }
    out
}

fn last_sheet(game: &Game) -> serde_json::Value {
    match game.history.last() {
        Some(h) => serde_json::json!({ "phase": h.phase().to_string(), "sheet": h.sheet }),
        None => serde_json::Value::Null,
    }
}

fn over_text(map: &Map, game: &Game) -> Option<String> {
    use arbiter::gamefile::Over;
    game.over.map(|o| match o {
        Over::Winner(w) => format!("The game is over: {} wins.", map.power(w).name),
        Over::LastYear(y) => format!("The game is over: its last year, {y}, has been played."),
    })
}

/// `GET /p/TOKEN/state`: what a player's page shows (only this power's orders).
pub fn player_state(server: &Server, me: Power) -> Answer {
    let inner = server.lock();
    let map = &server.map;
    let game = &inner.game;
    let id = &map.power(me).id;
    let (needs, units) = player_needs(map, game, me);
    let pending = game.pending();
    Ok(serde_json::json!({
        "version": inner.version,
        "board": inner.board_version,
        "game": game.name,
        "power": map.power(me).name,
        "power_id": id,
        "phase": game.position.phase.to_string(),
        "over": over_text(map, game),
        "needs": needs,
        "units": units,
        "submitted": pending.get(id),
        "legal": legal(map, game, me),
        "last": last_sheet(game),
    }))
}

/// `GET /r/TOKEN/state`: what the referee's page shows. `token`: the referee's own,
/// from which the players' links are derived.
pub fn referee_state(server: &Server, token: &str, host: Option<&str>) -> Answer {
    let inner = server.lock();
    let map = &server.map;
    let game = &inner.game;
    let pending = game.pending();
    let links = game.serve.as_ref().map(|s| &s.links);
    let powers: Vec<serde_json::Value> = map
        .power_ids()
        .map(|p| {
            let id = &map.power(p).id;
            let (needs, units) = player_needs(map, game, p);
            let issue = links.and_then(|l| l.get(id)).map_or(0, |l| l.issue);
            serde_json::json!({
                "id": id,
                "name": map.power(p).name,
                "units": units.len(),
                "needs": needs,
                "in": pending.contains_key(id),
                "link": server.link_for(host, "p", &player_token(token, id, issue)),
            })
        })
        .collect();
    let history: Vec<serde_json::Value> = game
        .history
        .iter()
        .map(|h| serde_json::json!({ "phase": h.phase().to_string(), "sheet": h.sheet }))
        .collect();
    Ok(serde_json::json!({
        "version": inner.version,
        "board": inner.board_version,
        "game": game.name,
        "phase": game.position.phase.to_string(),
        "over": over_text(map, game),
        "status": status_text(map, game),
        "powers": powers,
        "history": history,
        "centres": centres_out(game, map, CentresFormat::Text)?,
        "last": last_sheet(game),
    }))
}

/// `POST /r/TOKEN/judge`: judge the phase with the orders submitted, as `arbiter judge`
/// does with one slip per power; with errors, nothing is judged unless `accept`.
pub fn judge(server: &Server, phase: &str, accept: bool) -> Answer {
    let mut inner = server.lock();
    let map = &server.map;
    same_phase(&inner.game, phase, "Judge")?;
    let pending = inner.game.pending();
    let mut files: Vec<OrderFile> = map
        .power_ids()
        .filter_map(|p| {
            pending.get(&map.power(p).id).map(|t| OrderFile {
                file: slip_name(map, p),
                text: t.clone(),
            })
        })
        .collect();
    // A slip kept for one power orders that power's units only. The page refuses
    // anything else, so another power's order here was written into the game file by
    // hand (`serve.pending`): refused, even with --accept, until the player submits again.
    for p in map.power_ids() {
        let Some(text) = pending.get(&map.power(p).id) else {
            continue;
        };
        let read = arbiter::orders::parse_slip(map, &slip_name(map, p), text, Default::default());
        if let Some(o) = read.orders.iter().find(|o| o.power.is_some_and(|q| q != p)) {
            return Err(Refusal::new(
                422,
                format!(
                    "the orders kept for {me} hold `{}`, an order for {other} (line {}): a \
                     page orders its own power's units only, so the game file's \
                     `serve.pending` was edited; nothing was judged. Ask {me} to submit \
                     the orders again",
                    o.text,
                    o.span.line,
                    me = map.power(p).name,
                    other = o
                        .power
                        .map_or("another power", |q| map.power(q).name.as_str()),
                ),
            ));
        }
    }
    if files.is_empty() {
        // A judged phase records its order files: nobody ordered, every unit holds.
        files.push(OrderFile {
            file: "serve/no-orders.txt".into(),
            text: String::new(),
        });
    }
    let (j, errors) = judge_orders(&inner.game, map, &files, false)?;
    let diagnostics: Vec<serde_json::Value> = files
        .iter()
        .zip(&j.diagnostics)
        .filter(|(_, ds)| !ds.is_empty())
        .map(|(f, ds)| {
            serde_json::json!({
                "file": f.file,
                "rendered": render_diagnostics(ds, &f.text, &f.file),
                "errors": ds.iter().filter(|d| d.severity == Severity::Error).count(),
            })
        })
        .collect();
    if errors > 0 && !accept {
        return Err(Refusal {
            status: 422,
            body: serde_json::json!({
                "error": format!(
                    "{errors} error{} in the orders (below): nothing was judged. Ask the \
                     players to fix them, or judge anyway: orders that cannot be read are \
                     left out (those units hold), illegal ones are void",
                    if errors == 1 { "" } else { "s" }
                ),
                "errors": errors,
                "diagnostics": diagnostics,
            }),
        });
    }
    let judged = j.result.phase;
    let loaded = std::mem::take(&mut inner.bytes);
    let saved = record_and_save(
        &server.path,
        &mut inner.game,
        map,
        files,
        j,
        errors > 0,
        &loaded,
    );
    match saved {
        Ok(b) => inner.bytes = b,
        Err(e) => {
            // Nothing was saved: the game on disk is the one loaded.
            inner.bytes = loaded;
            if let Ok(Loaded { game, bytes, .. }) = store::load(&server.path) {
                inner.game = game;
                inner.bytes = bytes;
            }
            return Err(e.into());
        }
    }
    inner.version += 1;
    inner.board_version += 1;
    Ok(serde_json::json!({
        "ok": true,
        "judged": judged.to_string(),
        "phase": inner.game.position.phase.to_string(),
        "diagnostics": diagnostics,
        "last": last_sheet(&inner.game),
    }))
}

/// `POST /r/TOKEN/undo`: take back the last judged phase (pending orders are dropped).
pub fn undo(server: &Server, phase: &str) -> Answer {
    let mut inner = server.lock();
    let now = inner.game.position.phase;
    if Phase::parse(phase).ok() != Some(now) {
        return Err(Refusal::new(
            409,
            format!("Undo refused: the page showed {phase}, but the game is at {now}"),
        ));
    }
    let Some(last) = inner.game.undo() else {
        return Err(Refusal::new(
            409,
            "nothing to undo: no phase has been judged",
        ));
    };
    save(server, &mut inner)?;
    inner.board_version += 1;
    Ok(serde_json::json!({
        "ok": true,
        "undone": last.phase().to_string(),
        "phase": inner.game.position.phase.to_string(),
    }))
}

/// `POST /r/TOKEN/link`: a new link for a power; its old link stops working.
pub fn new_link(server: &Server, token: &str, power: &str, host: Option<&str>) -> Answer {
    let mut inner = server.lock();
    let p = server.map.power_by_name(power).ok_or_else(|| {
        Refusal::new(
            400,
            format!(
                "unknown power `{}`",
                arbiter::orders::name_invisibles(power)
            ),
        )
    })?;
    let id = server.map.power(p).id.clone();
    let Some(s) = inner.game.serve.as_mut() else {
        return Err(Refusal::new(500, "the game has no links"));
    };
    let issue = s.links.get(&id).map_or(0, |l| l.issue + 1);
    let t = player_token(token, &id, issue);
    s.links.insert(
        id,
        LinkRecord {
            issue,
            hash: token_hash(&t),
        },
    );
    save(server, &mut inner)?;
    Ok(serde_json::json!({ "ok": true, "link": server.link_for(host, "p", &t) }))
}

/// `POST /r/TOKEN/explain`: why each order about a province succeeded or failed, in a
/// judged phase (default: the last).
pub fn explain(server: &Server, prov: &str, phase: Option<&str>) -> Answer {
    let inner = server.lock();
    let map = &server.map;
    let game = &inner.game;
    let k = match phase.filter(|s| !s.trim().is_empty()) {
        None => game
            .history
            .len()
            .checked_sub(1)
            .ok_or_else(|| Refusal::new(409, "no phase has been judged yet"))?,
        Some(s) => {
            let ph = Phase::parse(s).map_err(|e| Refusal::new(400, e.to_string()))?;
            match game.find(ph) {
                Some(Found::Judged(k)) => k,
                _ => return Err(Refusal::new(400, format!("{ph} has not been judged"))),
            }
        }
    };
    let province = if prov.trim().is_empty() {
        None
    } else {
        Some(province(map, prov.trim()).map_err(|Fatal(e)| Refusal::new(400, e))?)
    };
    let j = rejudged(game, map, k)?;
    Ok(serde_json::json!({ "text": explained(map, &j.result, province) }))
}

/// The current board as SVG (cached per version).
pub fn board(server: &Server) -> Result<Arc<String>, Refusal> {
    let cached = |inner: &Inner| match &inner.board {
        Some((v, svg)) if *v == inner.board_version => Some(svg.clone()),
        _ => None,
    };
    if let Some(svg) = cached(&server.lock()) {
        return Ok(svg);
    }
    // One drawing at a time, without the game's lock held: the other requests go on
    // meanwhile, and those that want the picture wait for this one.
    let _drawing = server.drawing.lock().unwrap_or_else(|e| e.into_inner());
    let (name, position, at) = {
        let inner = server.lock();
        if let Some(svg) = cached(&inner) {
            return Ok(svg);
        }
        (
            inner.game.name.clone(),
            inner.game.position.clone(),
            inner.board_version,
        )
    };
    let svg = Arc::new(super::render::picture(&server.map, &name, &position, None)?);
    let mut inner = server.lock();
    if inner.board_version == at {
        inner.board = Some((at, svg.clone()));
    }
    Ok(svg)
}

/// The last judged phase's picture (its position and orders with their outcomes).
pub fn judged_board(server: &Server) -> Result<String, Refusal> {
    let inner = server.lock();
    let g = &inner.game;
    let Some(k) = g.history.len().checked_sub(1) else {
        return Ok(super::render::picture(
            &server.map,
            &g.name,
            &g.position,
            None,
        )?);
    };
    let j = rejudged(g, &server.map, k)?;
    let before = g.history.get(k).map(|h| &h.before).unwrap_or(&g.position);
    Ok(super::render::picture(
        &server.map,
        &g.name,
        before,
        Some(&j.result),
    )?)
}

/// A QR code (SVG) of a power's link.
pub fn qr(
    server: &Server,
    token: &str,
    power: &str,
    host: Option<&str>,
) -> Result<String, Refusal> {
    let inner = server.lock();
    let p = server.map.power_by_name(power).ok_or_else(|| {
        Refusal::new(
            404,
            format!(
                "unknown power `{}`",
                arbiter::orders::name_invisibles(power)
            ),
        )
    })?;
    let id = &server.map.power(p).id;
    let issue = inner
        .game
        .serve
        .as_ref()
        .and_then(|s| s.links.get(id))
        .map_or(0, |l| l.issue);
    let link = server.link_for(host, "p", &player_token(token, id, issue));
    let code = qrcode::QrCode::new(link.as_bytes())
        .map_err(|e| Refusal::new(500, format!("cannot draw the QR code: {e}")))?;
    Ok(code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .build())
}

/// `GET /r/TOKEN/print`: the last sheet and its picture, for printing.
pub fn print_page(server: &Server) -> String {
    let inner = server.lock();
    let g = &inner.game;
    let (title, sheet) = match g.history.last() {
        Some(h) => (h.phase().to_string(), h.sheet.clone()),
        None => (
            g.position.phase.to_string(),
            "No phase has been judged yet.".to_string(),
        ),
    };
    let centres = centres_out(g, &server.map, CentresFormat::Text).unwrap_or_default();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} — {}</title><link rel=\"stylesheet\" href=\"/static/app.css\"></head>\
         <body class=\"print\"><h1>{} — {}</h1><img class=\"board\" src=\"judged.svg\" alt=\"the board\">\
         <pre class=\"sheet\">{}</pre><pre class=\"sheet\">{}</pre></body></html>",
        esc(&g.name),
        esc(&title),
        esc(&g.name),
        esc(&title),
        esc(&sheet),
        esc(&centres),
    )
}
