//! The HTTP side of `arbiter serve`: routes, limits and headers (axum on tokio). The
//! handlers only check the token, read the request and call the game functions of
//! [`super`]; nothing here logs a request (a path holds a token).

// A refused request is answered with its response at once: `Result<_, Response>` is the
// handlers' own shape, and the response is built only when refusing.
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{Answer, Refusal, Server, Who};
use crate::cli::Fatal;
use arbiter::map::Power;

type S = Arc<Server>;

/// The largest request body read, in bytes (a slip is far smaller).
pub const MAX_BODY: usize = 64 * 1024;
/// The most connections served at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 256;
/// A connection that sends nothing for this long is closed (the pages poll every 2 s).
pub const IDLE: std::time::Duration = std::time::Duration::from_secs(30);

/// [`IDLE`], or `ARBITER_SERVE_IDLE_MS` (for tests).
fn idle() -> std::time::Duration {
    std::env::var("ARBITER_SERVE_IDLE_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(IDLE, std::time::Duration::from_millis)
}

const CSS: &str = include_str!("app.css");
const COMMON_JS: &str = include_str!("common.js");
const PLAYER_JS: &str = include_str!("player.js");
const REFEREE_JS: &str = include_str!("referee.js");
const PLAYER_HTML: &str = include_str!("player.html");
const REFEREE_HTML: &str = include_str!("referee.html");
const INDEX_HTML: &str = include_str!("index.html");

/// Serve until Ctrl-C (or SIGTERM).
pub fn run(server: S, listener: std::net::TcpListener) -> Result<(), Fatal> {
    let fail = |e: std::io::Error| Fatal(format!("the server failed: {e}"));
    listener.set_nonblocking(true).map_err(fail)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Saves, judging and drawing (see `blocking`): a few threads are plenty, and
        // each thread costs memory.
        .max_blocking_threads(4)
        .enable_all()
        .build()
        .map_err(fail)?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let bounded = Bounded {
            inner: listener,
            permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            idle: idle(),
        };
        axum::serve(bounded, router(server))
            .with_graceful_shutdown(stop())
            .await
    })
    .map_err(fail)
}

async fn stop() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
    eprintln!("arbiter serve: stopping; the game file is saved");
}

pub fn router(server: S) -> Router {
    Router::new()
        .route("/", get(|| async { html(INDEX_HTML) }))
        .route("/static/app.css", get(|| async { asset("text/css", CSS) }))
        .route(
            "/static/common.js",
            get(|| async { asset("text/javascript", COMMON_JS) }),
        )
        .route(
            "/static/player.js",
            get(|| async { asset("text/javascript", PLAYER_JS) }),
        )
        .route(
            "/static/referee.js",
            get(|| async { asset("text/javascript", REFEREE_JS) }),
        )
        .route("/p/{token}", get(player_page))
        .route("/p/{token}/state", get(player_state))
        .route("/p/{token}/check", post(player_check))
        .route("/p/{token}/orders", post(player_orders))
        .route("/p/{token}/board.svg", get(player_board))
        .route("/r/{token}", get(referee_page))
        .route("/r/{token}/state", get(referee_state))
        .route("/r/{token}/judge", post(referee_judge))
        .route("/r/{token}/undo", post(referee_undo))
        .route("/r/{token}/link", post(referee_link))
        .route("/r/{token}/explain", post(referee_explain))
        .route("/r/{token}/board.svg", get(referee_board))
        .route("/r/{token}/judged.svg", get(referee_judged))
        .route("/r/{token}/print", get(referee_print))
        .route("/r/{token}/qr/{power}", get(referee_qr))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(headers))
        .with_state(server)
}

/// Every answer: no caching, no `Referer` (a page's address holds its token), and a
/// content policy that allows this server's own scripts and nothing else.
async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
             frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

fn with_type(
    status: StatusCode,
    kind: &'static str,
    body: impl Into<axum::body::Body>,
) -> Response {
    let mut r = Response::new(body.into());
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r
}

fn html(body: &'static str) -> Response {
    with_type(StatusCode::OK, "text/html; charset=utf-8", body)
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    with_type(StatusCode::OK, kind, body)
}

fn text(status: StatusCode, body: &'static str) -> Response {
    with_type(status, "text/plain; charset=utf-8", body)
}

fn svg(body: String) -> Response {
    with_type(StatusCode::OK, "image/svg+xml", body)
}

fn json(status: StatusCode, v: &serde_json::Value) -> Response {
    with_type(status, "application/json", v.to_string())
}

fn answer(a: Answer) -> Response {
    match a {
        Ok(v) => json(StatusCode::OK, &v),
        Err(r) => refused(r),
    }
}

fn refused(r: Refusal) -> Response {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    json(status, &r.body)
}

/// No such page: 403 under `/p/` and `/r/` (a missing token), else 404.
async fn not_found(uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/p/") || path.starts_with("/r/") || path == "/p" || path == "/r" {
        forbidden()
    } else {
        text(StatusCode::NOT_FOUND, "not found")
    }
}

/// A wrong or missing token: 403, and nothing is done.
fn forbidden() -> Response {
    json(
        StatusCode::FORBIDDEN,
        &serde_json::json!({ "error": "this link is not valid (a wrong or old token): ask the referee for your link" }),
    )
}

fn as_player(s: &Server, token: &str) -> Result<Power, Response> {
    match s.who(token) {
        Some(Who::Player(p)) => Ok(p),
        _ => Err(forbidden()),
    }
}

fn as_referee(s: &Server, token: &str) -> Result<(), Response> {
    match s.who(token) {
        Some(Who::Referee) => Ok(()),
        _ => Err(forbidden()),
    }
}

/// A JSON body read into `T`, or a 400 that says what is wrong.
fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, Response> {
    serde_json::from_slice(bytes).map_err(|e| {
        json(
            StatusCode::BAD_REQUEST,
            &serde_json::json!({ "error": format!("the request is not the JSON expected: {e}") }),
        )
    })
}

/// The longest slip accepted, in bytes.
const MAX_SLIP: usize = 16 * 1024;

fn slip_size(text: &str) -> Result<(), Response> {
    if text.len() > MAX_SLIP {
        return Err(json(
            StatusCode::PAYLOAD_TOO_LARGE,
            &serde_json::json!({ "error": format!("the orders are longer than {MAX_SLIP} bytes") }),
        ));
    }
    Ok(())
}

/// `?v=N` of a state request: the version the page has (unchanged: 204).
fn known_version(uri: &Uri) -> Option<u64> {
    uri.query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("v="))
        .and_then(|v| v.parse().ok())
}

fn unchanged(s: &Server, uri: &Uri) -> bool {
    known_version(uri).is_some_and(|v| v == s.lock().version)
}

type R = Result<Response, Response>;

async fn player_page(State(s): State<S>, Path(token): Path<String>) -> R {
    as_player(&s, &token)?;
    Ok(html(PLAYER_HTML))
}

async fn player_state(State(s): State<S>, Path(token): Path<String>, uri: Uri) -> R {
    let p = as_player(&s, &token)?;
    if unchanged(&s, &uri) {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    Ok(answer(super::player_state(&s, p)))
}

async fn player_check(State(s): State<S>, Path(token): Path<String>, b: Bytes) -> R {
    let p = as_player(&s, &token)?;
    let text = arbiter::encoding::decode_str(&b).map_err(|why| {
        json(
            StatusCode::BAD_REQUEST,
            &serde_json::json!({ "error": format!("the orders are not UTF-8 text: {why}") }),
        )
    })?;
    slip_size(text)?;
    Ok(answer(super::check(&s, p, text)))
}

#[derive(Deserialize)]
struct Orders {
    phase: String,
    text: String,
}

async fn player_orders(State(s): State<S>, Path(token): Path<String>, b: Bytes) -> R {
    let p = as_player(&s, &token)?;
    let o: Orders = body(&b)?;
    slip_size(&o.text)?;
    blocking(move || answer(super::submit(&s, p, &o.phase, &o.text))).await
}

async fn player_board(State(s): State<S>, Path(token): Path<String>) -> R {
    as_player(&s, &token)?;
    blocking(move || board(&s)).await
}

fn board(s: &Server) -> Response {
    match super::board(s) {
        Ok(b) => svg(b.to_string()),
        Err(r) => refused(r),
    }
}

/// Run `f` (file writes, judging, drawing) on tokio's blocking threads, so that the
/// polls of the other pages go on meanwhile.
async fn blocking(f: impl FnOnce() -> Response + Send + 'static) -> R {
    tokio::task::spawn_blocking(f).await.map_err(|_| {
        json(
            StatusCode::INTERNAL_SERVER_ERROR,
            &serde_json::json!({ "error": "the request failed inside the server" }),
        )
    })
}

async fn referee_page(State(s): State<S>, Path(token): Path<String>) -> R {
    as_referee(&s, &token)?;
    Ok(html(REFEREE_HTML))
}

/// The request's `Host` header, if it is text.
fn host(h: &HeaderMap) -> Option<&str> {
    h.get(header::HOST).and_then(|v| v.to_str().ok())
}

async fn referee_state(State(s): State<S>, Path(token): Path<String>, uri: Uri, h: HeaderMap) -> R {
    as_referee(&s, &token)?;
    if unchanged(&s, &uri) {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    Ok(answer(super::referee_state(&s, &token, host(&h))))
}

#[derive(Deserialize)]
struct Judge {
    phase: String,
    #[serde(default)]
    accept: bool,
}

async fn referee_judge(State(s): State<S>, Path(token): Path<String>, b: Bytes) -> R {
    as_referee(&s, &token)?;
    let j: Judge = body(&b)?;
    blocking(move || answer(super::judge(&s, &j.phase, j.accept))).await
}

#[derive(Deserialize)]
struct Undo {
    phase: String,
}

async fn referee_undo(State(s): State<S>, Path(token): Path<String>, b: Bytes) -> R {
    as_referee(&s, &token)?;
    let u: Undo = body(&b)?;
    blocking(move || answer(super::undo(&s, &u.phase))).await
}

#[derive(Deserialize)]
struct Link {
    power: String,
}

async fn referee_link(State(s): State<S>, Path(token): Path<String>, h: HeaderMap, b: Bytes) -> R {
    as_referee(&s, &token)?;
    let l: Link = body(&b)?;
    let host = host(&h).map(str::to_string);
    blocking(move || answer(super::new_link(&s, &token, &l.power, host.as_deref()))).await
}

#[derive(Deserialize)]
struct Explain {
    #[serde(default)]
    province: String,
    #[serde(default)]
    phase: Option<String>,
}

async fn referee_explain(State(s): State<S>, Path(token): Path<String>, b: Bytes) -> R {
    as_referee(&s, &token)?;
    let e: Explain = body(&b)?;
    if e.province.len() > 200 {
        return Err(json(
            StatusCode::BAD_REQUEST,
            &serde_json::json!({ "error": "the province name is too long" }),
        ));
    }
    Ok(answer(super::explain(&s, &e.province, e.phase.as_deref())))
}

async fn referee_board(State(s): State<S>, Path(token): Path<String>) -> R {
    as_referee(&s, &token)?;
    blocking(move || board(&s)).await
}

async fn referee_judged(State(s): State<S>, Path(token): Path<String>) -> R {
    as_referee(&s, &token)?;
    blocking(move || match super::judged_board(&s) {
        Ok(b) => svg(b),
        Err(r) => refused(r),
    })
    .await
}

async fn referee_print(State(s): State<S>, Path(token): Path<String>) -> R {
    as_referee(&s, &token)?;
    Ok(with_type(
        StatusCode::OK,
        "text/html; charset=utf-8",
        super::print_page(&s),
    ))
}

async fn referee_qr(
    State(s): State<S>,
    Path((token, power)): Path<(String, String)>,
    h: HeaderMap,
) -> R {
    as_referee(&s, &token)?;
    super::qr(&s, &token, power.trim_end_matches(".svg"), host(&h))
        .map(svg)
        .map_err(refused)
}

// ---------------------------------------------------------------------------------
// At most MAX_CONNECTIONS connections at once
// ---------------------------------------------------------------------------------

/// A listener that accepts a connection only while fewer than its permits are open.
struct Bounded {
    inner: tokio::net::TcpListener,
    permits: Arc<Semaphore>,
    idle: std::time::Duration,
}

/// A connection holding its permit until it closes; closed when idle for [`IDLE`].
struct Conn {
    stream: tokio::net::TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: std::pin::Pin<Box<tokio::time::Sleep>>,
    idle_for: std::time::Duration,
}

impl axum::serve::Listener for Bounded {
    type Io = Conn;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Conn, std::net::SocketAddr) {
        loop {
            let Ok(permit) = self.permits.clone().acquire_owned().await else {
                // The semaphore is never closed; wait and try again.
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            };
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    let _ = stream.set_nodelay(true);
                    return (
                        Conn {
                            stream,
                            _permit: permit,
                            idle: Box::pin(tokio::time::sleep(self.idle)),
                            idle_for: self.idle,
                        },
                        addr,
                    );
                }
                // Too many open files and the like: wait a little, as axum does.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

use std::future::Future as _;

impl tokio::io::AsyncRead for Conn {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        let before = buf.filled().len();
        match std::pin::Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Pending => {
                if self.idle.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(std::io::ErrorKind::TimedOut.into()));
                }
                Poll::Pending
            }
            done => {
                if buf.filled().len() > before {
                    let next = tokio::time::Instant::now() + self.idle_for;
                    self.idle.as_mut().reset(next);
                }
                done
            }
        }
    }
}

impl tokio::io::AsyncWrite for Conn {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
