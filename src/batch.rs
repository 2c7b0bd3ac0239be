//! Batch adjudication: one JSON case in, one JSON answer out, for every kind of phase.
//! The answer is the phase's JSON result (the same object as `--format json`, written
//! by [`crate::report::json::Writer`]) with the caller's `id` first. The binary only reads
//! lines and writes answers; a bad line gives `{"id": …, "error": …}`.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex, OnceLock};

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::game::{advance, PhaseResult};
use crate::judge::nationality_warnings;
use crate::judge::Rules;
use crate::map::{Map, Power, EMBEDDED};
use crate::orders::{parse_order_with, stated_nationality, Diagnostic, Order, ParseOptions};
use crate::report::json;
use crate::state::{DislodgedEntry, Phase, PhaseKind, Position};

mod quick;

/// One input line. Keys other than these are ignored (a line may carry the caller's
/// own data, such as an expected result). Strings are borrowed from the line where
/// they hold no escapes.
#[derive(Deserialize)]
struct BatchLine<'a> {
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    map: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    phase: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    rules: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    units: PowerLists<'a>,
    #[serde(default, borrow)]
    orders: PowerLists<'a>,
    /// Retreat phase: the dislodged units with their retreats.
    #[serde(default)]
    dislodged: Vec<DislodgedEntry>,
    /// Adjustment phase: supply-centre owners after the Fall, by power.
    /// (The protocol's key is `centers`, as the `diplomacy` package spells it.)
    #[serde(default, borrow, rename = "centers")]
    centres: Option<PowerLists<'a>>,
    /// Builds saved last winter for a colonial build, by power (each key once).
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    saved: std::collections::BTreeMap<String, u32>,
    /// A tournament game ends after this year's Fall turn.
    #[serde(default)]
    last_year: Option<i32>,
    /// Also answer every legal order of the position (before its orders).
    #[serde(default)]
    legal: bool,
}

/// `{"power": ["text", …], …}` in the order written; a power named twice is an error
/// (the second list would otherwise replace the first without a word). Every list's
/// strings are kept in one vector.
#[derive(Default)]
struct PowerLists<'a> {
    powers: Vec<(Text<'a>, std::ops::Range<usize>)>,
    items: Vec<Text<'a>>,
}

/// A string of the line: borrowed where it holds no escapes. (A bare `Cow<str>` borrows
/// only as a `#[serde(borrow)]` field, not inside a `Vec` or as a map key.)
#[derive(Deserialize)]
struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for PowerLists<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = PowerLists<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of lists of strings by power")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut m: M,
            ) -> Result<Self::Value, M::Error> {
                let mut out = PowerLists::default();
                while let Some(k) = m.next_key::<Text<'de>>()? {
                    if out.has(&k.0) {
                        return Err(serde::de::Error::custom(twice(&k.0)));
                    }
                    let v: Vec<Text<'de>> = m.next_value()?;
                    let start = out.items.len();
                    out.items.extend(v);
                    out.powers.push((k, start..out.items.len()));
                }
                Ok(out)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// The error for a power whose list is given twice.
fn twice(power: &str) -> String {
    format!(
        "`{}` is given twice: give each power's list once",
        crate::orders::name_invisibles(power)
    )
}

impl PowerLists<'_> {
    fn iter(&self) -> impl Iterator<Item = (&str, &[Text<'_>])> {
        self.powers
            .iter()
            .map(|(p, r)| (p.as_ref(), self.items.get(r.clone()).unwrap_or_default()))
    }

    /// Room for the lists of a usual line.
    fn with_capacity() -> Self {
        PowerLists {
            powers: Vec::with_capacity(8),
            items: Vec::with_capacity(64),
        }
    }

    /// Is `power`'s list given?
    fn has(&self, power: &str) -> bool {
        self.powers.iter().any(|(p, _)| p.0 == power)
    }
}

#[derive(Serialize)]
struct ErrorAnswer<'a> {
    id: serde_json::Value,
    error: &'a str,
}

/// The maps a batch line may name: the default map, the embedded maps (each loaded
/// once, on first use) and the maps the caller registered. Nothing else: a line cannot
/// make the program open a file.
pub struct Maps {
    default: Map,
    embedded: Vec<(&'static str, OnceLock<Map>)>,
    registered: Vec<(String, Map)>,
}

impl Maps {
    /// The default map (for lines that name none) and every embedded map.
    pub fn new(default: Map) -> Maps {
        Maps {
            default,
            embedded: EMBEDDED
                .iter()
                .map(|(name, _, _)| (*name, OnceLock::new()))
                .collect(),
            registered: Vec::new(),
        }
    }

    /// Let lines name `map` as `name` (`--map-file NAME=PATH`).
    pub fn register(&mut self, name: &str, map: Map) {
        self.registered.retain(|(n, _)| n != name);
        self.registered.push((name.to_string(), map));
    }

    /// The map a line names (`None`: the default map).
    pub fn get(&self, name: Option<&str>) -> Result<&Map, String> {
        let Some(name) = name else {
            return Ok(&self.default);
        };
        if name == self.default.name {
            return Ok(&self.default);
        }
        if let Some((_, m)) = self.registered.iter().find(|(n, _)| n == name) {
            return Ok(m);
        }
        let key = name.trim().to_ascii_lowercase();
        let key = if key == "classic" { "standard" } else { &key };
        if let Some((n, cell)) = self.embedded.iter().find(|(n, _)| *n == key) {
            if *n == self.default.name {
                return Ok(&self.default);
            }
            if let Some(m) = cell.get() {
                return Ok(m);
            }
            let m = Map::embedded(n)
                .ok_or_else(|| format!("unknown map `{}`", crate::orders::name_invisibles(name)))?;
            return Ok(cell.get_or_init(|| m));
        }
        let mut known: Vec<&str> = self.embedded.iter().map(|(n, _)| *n).collect();
        known.extend(self.registered.iter().map(|(n, _)| n.as_str()));
        Err(format!(
            "unknown map `{}`: a batch line may name an embedded or registered map ({}); \
             register a map file with `--map-file NAME=PATH`",
            name.chars().take(100).collect::<String>(),
            known.join(", ")
        ))
    }
}

/// Answer one line as JSON text; `Err` holds the error answer's text.
pub fn answer_line(
    line: &str,
    default_rules: Rules,
    options: ParseOptions,
    maps: &Maps,
) -> Result<String, String> {
    let mut out = Vec::new();
    let ok = answer_into(&mut out, line, default_rules, options, maps);
    let text = String::from_utf8(out).unwrap_or_default();
    if ok {
        Ok(text)
    } else {
        Err(text)
    }
}

/// Append the answer to one line to `out` (no newline); `false` when it is an error
/// answer.
pub fn answer_into(
    out: &mut Vec<u8>,
    line: &str,
    default_rules: Rules,
    options: ParseOptions,
    maps: &Maps,
) -> bool {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let start = out.len();
    let Err(e) = answer(out, line, default_rules, options, maps) else {
        return true;
    };
    out.truncate(start);
    // Only a failed line is read a second time, for whatever `id` it has.
    error_answer(out, line_id(line), &e);
    false
}

/// The `id` of a line that could not be answered, if it has one readable.
fn line_id(line: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(serde_json::Value::Null)
}

fn error_answer(out: &mut Vec<u8>, id: serde_json::Value, error: &str) {
    let start = out.len();
    let error = &crate::map::names::shown(error);
    if serde_json::to_writer(&mut *out, &ErrorAnswer { id, error }).is_err() {
        out.truncate(start);
        out.extend_from_slice(b"{\"id\":null,\"error\":\"cannot write the answer\"}");
    }
}

/// How [`stream`] works.
#[derive(Clone, Copy, Debug)]
pub struct StreamOptions {
    /// The edition for lines that name none.
    pub rules: Rules,
    pub parse: ParseOptions,
    /// Worker threads (1: everything on the calling thread), at most [`MAX_JOBS`]. A
    /// thread the system cannot start is done without (an error if none can be).
    pub jobs: usize,
    /// The longest line read, in bytes; a longer line gets an error answer.
    pub max_line: usize,
}

/// The most worker threads [`stream`] starts (a larger [`StreamOptions::jobs`] is taken
/// as this many), and the most `--jobs` the commands accept.
pub const MAX_JOBS: usize = 256;

/// The default for [`StreamOptions::max_line`]: 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// What [`stream`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamStats {
    /// Lines answered (blank lines are skipped).
    pub lines: u64,
    /// Of those, error answers.
    pub errors: u64,
    /// The most bytes the workers held at once, by [`ANSWER_BUDGET`]'s count: answer
    /// buffers, and the answers being made (0 on one thread, which holds one part).
    pub held_most: u64,
}

/// One line as read: its text, or why it cannot be read.
enum Raw {
    Line(std::ops::Range<usize>),
    TooLong(usize),
}

/// Lines read together and answered by one worker.
#[derive(Default)]
struct Chunk {
    /// Its place in the input: chunk `index` goes to worker `index % jobs`.
    index: u64,
    /// The line number of the first line.
    first: u64,
    bytes: Vec<u8>,
    lines: Vec<Raw>,
}

const CHUNK_LINES: usize = 128;
const CHUNK_BYTES: usize = 1 << 17;

/// The largest answer buffer kept for reuse.
const SPARE_MAX: usize = 4 << 20;
/// The answer bytes a worker gathers before it hands them on.
const PART_BYTES: usize = 1 << 20;
/// The bytes of answer buffers that the workers of [`stream`] hold at once, all
/// together (made, queued, being written or kept for reuse): see [`Budget`].
pub const ANSWER_BUDGET: usize = 16 << 20;
/// The answer expected before any is made (then: the largest made yet).
const FIRST_ANSWER: usize = 256 << 10;
/// The memory an answer takes while it is made, in answers of its size (measured: a
/// 296 KB answer of every legal order on a crowded board takes about 2.5 MB).
const WORK_PER_ANSWER: usize = 8;

/// The answer buffers of all workers, counted by their capacity, and the answers being
/// made (each counted as [`WORK_PER_ANSWER`] times the largest answer yet), against one
/// total ([`ANSWER_BUDGET`]): before each answer a worker makes room in its buffer for an
/// answer as large as the largest yet, and waits while that and the work would go over
/// the total;
/// the writer gives the room back when it drops a buffer written, and keeps a buffer
/// for reuse only while less than half the total is held. The worker whose chunk the
/// writer is waiting for never waits (its turn), so the stream always moves; the others
/// go on as the writer frees room. So the bytes in flight are bounded in total, not per
/// thread (256 threads of `"legal": true` on a crowded board held 5 MiB each).
struct Budget {
    held: Mutex<Held>,
    room: Condvar,
    /// The largest answer made so far: the room asked for before the next.
    largest: AtomicUsize,
}

struct Held {
    bytes: usize,
    /// The most `bytes` has been.
    most: usize,
    /// The chunk the writer is waiting for.
    turn: u64,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            held: Mutex::new(Held {
                bytes: 0,
                most: 0,
                turn: 0,
            }),
            room: Condvar::new(),
            largest: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Count `n` more bytes, waiting (unless `chunk` is the writer's turn, or nothing is
    /// held) while they would go over the total.
    fn take(&self, n: usize, chunk: u64) {
        let mut h = self.lock();
        while h.bytes > 0 && h.bytes + n > ANSWER_BUDGET && chunk != h.turn {
            h = self.room.wait(h).unwrap_or_else(|e| e.into_inner());
        }
        h.bytes += n;
        h.most = h.most.max(h.bytes);
    }

    /// Count `n` more bytes without waiting (a buffer grown past the room made for it).
    fn add(&self, n: usize) {
        let mut h = self.lock();
        h.bytes += n;
        h.most = h.most.max(h.bytes);
    }

    /// `n` bytes freed.
    fn give(&self, n: usize) {
        let mut h = self.lock();
        h.bytes = h.bytes.saturating_sub(n);
        drop(h);
        self.room.notify_all();
    }

    /// The writer now waits for chunk `k`.
    fn turn(&self, k: u64) {
        self.lock().turn = k;
        self.room.notify_all();
    }

    /// Is a buffer written worth keeping for reuse (less than half the total held)?
    fn keep(&self) -> bool {
        self.lock().bytes < ANSWER_BUDGET / 2
    }

    /// Before an answer is made into `out` for `chunk`: room in it for an answer as
    /// large as the largest yet, and the work of making it, counted (waiting for them if
    /// need be). Returns the capacity counted and the work counted.
    fn make_room(&self, out: &mut Vec<u8>, chunk: u64) -> (usize, usize) {
        let want = match self.largest.load(Ordering::Relaxed) {
            0 => FIRST_ANSWER,
            n => n,
        };
        let work = WORK_PER_ANSWER * want;
        let (len, cap) = (out.len(), out.capacity());
        if cap - len < want {
            // Grown as a vector grows (doubling), but never past a part and an answer.
            let target = (len + want).max((2 * cap).min(PART_BYTES + want));
            self.take(target - cap + work, chunk);
            out.reserve_exact(target - len);
            if out.capacity() > target {
                self.add(out.capacity() - target);
            }
        } else {
            self.take(work, chunk);
        }
        (out.capacity(), work)
    }

    /// After an answer of `made` bytes: count what the buffer grew past the room made,
    /// and give back the work.
    fn made(&self, (capacity, work): (usize, usize), grown_to: usize, made: usize) {
        if grown_to > capacity {
            self.add(grown_to - capacity);
        }
        self.give(work);
        self.largest.fetch_max(made, Ordering::Relaxed);
    }
}

/// Read one line of at most `max` bytes into `buf` (without its line end). `None` at
/// the end of the input; `Some(false)` when the line was longer (the rest of it is
/// skipped, not kept).
fn read_line(input: &mut dyn BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    let start = buf.len();
    let mut fits = true;
    let mut any = false;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', avail) {
            Some(k) => (k, true),
            None => (avail.len(), false),
        };
        if fits {
            if buf.len() - start + take > max {
                fits = false;
                buf.truncate(start);
            } else {
                buf.extend_from_slice(avail.get(..take).unwrap_or(avail));
            }
        }
        input.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if fits && buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(fits))
}

/// Read a chunk of lines into `c` (a spent chunk, its buffers reused); `None` at the end
/// of the input.
fn read_chunk(
    input: &mut dyn BufRead,
    mut c: Chunk,
    first: u64,
    max: usize,
) -> io::Result<Option<Chunk>> {
    c.first = first;
    c.bytes.clear();
    c.lines.clear();
    while c.lines.len() < CHUNK_LINES && c.bytes.len() < CHUNK_BYTES {
        let start = c.bytes.len();
        match read_line(input, &mut c.bytes, max)? {
            None => break,
            Some(true) => c.lines.push(Raw::Line(start..c.bytes.len())),
            Some(false) => c.lines.push(Raw::TooLong(max)),
        }
    }
    Ok((!c.lines.is_empty()).then_some(c))
}

/// Answer every line of a chunk into `out` (emptied first).
/// Answer the lines of `c` into `out`; whenever `out` holds [`PART_BYTES`] or more,
/// hand them to `part` (which empties `out`), so that a chunk of lines whose answers are
/// large (`"legal": true` on a crowded board: a hundred times the line) is never held
/// whole. An error of `part` stops the chunk.
fn answer_chunk(
    c: &Chunk,
    maps: &Maps,
    o: &StreamOptions,
    budget: Option<&Budget>,
    out: &mut Vec<u8>,
    part: &mut dyn FnMut(&mut Vec<u8>) -> io::Result<()>,
) -> io::Result<StreamStats> {
    out.clear();
    if budget.is_none() {
        out.reserve((c.bytes.len() * 5).min(PART_BYTES));
    }
    let mut stats = StreamStats::default();
    for (k, raw) in c.lines.iter().enumerate() {
        let n = c.first + k as u64;
        let before = out.len();
        let counted = budget.map(|b| b.make_room(out, c.index));
        let ok = match raw {
            Raw::TooLong(max) => {
                let e = format!(
                    "line {n} is longer than {max} bytes: it is not read \
                     (raise the limit with --max-line-bytes)"
                );
                error_answer(out, serde_json::Value::Null, &e);
                false
            }
            Raw::Line(r) => {
                let bytes = c.bytes.get(r.clone()).unwrap_or_default();
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match std::str::from_utf8(bytes) {
                    Ok(line) => answer_into(out, line, o.rules, o.parse, maps),
                    Err(e) => {
                        let id = line_id(&crate::encoding::lossy_latin1(bytes));
                        let e = crate::encoding::not_utf8_line(bytes, e.valid_up_to(), n);
                        error_answer(out, id, &e);
                        false
                    }
                }
            }
        };
        out.push(b'\n');
        if let (Some(b), Some(counted)) = (budget, counted) {
            b.made(counted, out.capacity(), out.len() - before);
        }
        stats.lines += 1;
        stats.errors += u64::from(!ok);
        if out.len() >= PART_BYTES {
            part(out)?;
        }
    }
    Ok(stats)
}

/// A worker's answers to a chunk, in parts: [`Piece::Part`]s as they fill, then the
/// rest and the chunk's counts.
enum Piece {
    Part(Vec<u8>),
    End(Vec<u8>, StreamStats),
}

/// Answer JSON Lines from `input` to `output`, line by line, in input order, on
/// `jobs` threads, in bounded memory (a few chunks of lines per thread). A bad line
/// gets an error answer and the batch goes on; only an I/O error stops it.
pub fn stream(
    input: &mut (dyn BufRead + Send),
    output: &mut dyn Write,
    maps: &Maps,
    o: &StreamOptions,
) -> io::Result<StreamStats> {
    let mut stats = StreamStats::default();
    let mut add = |s: StreamStats| {
        stats.lines += s.lines;
        stats.errors += s.errors;
    };
    // UTF-16 (its byte-order mark, or zero bytes beside the others) is no JSON Lines
    // this reads: one answer says so, not an error per piece of line.
    if let Some(order) = crate::encoding::utf16(input.fill_buf()?) {
        let mut out = Vec::new();
        error_answer(
            &mut out,
            serde_json::Value::Null,
            &crate::encoding::utf16_message(order).replace("the file is", "the input is"),
        );
        out.push(b'\n');
        output.write_all(&out)?;
        output.flush()?;
        return Ok(StreamStats {
            lines: 1,
            errors: 1,
            held_most: 0,
        });
    }
    let mut line = 1u64;
    let skip_bom = |c: &mut Chunk| {
        if let Some(Raw::Line(r)) = c.lines.first_mut() {
            if c.bytes
                .get(r.clone())
                .is_some_and(|b| b.starts_with("\u{feff}".as_bytes()))
            {
                r.start += 3;
            }
        }
    };
    if o.jobs <= 1 {
        let (mut spare, mut out) = (Chunk::default(), Vec::new());
        while let Some(mut c) = read_chunk(input, spare, line, o.max_line)? {
            if line == 1 {
                skip_bom(&mut c);
            }
            line += c.lines.len() as u64;
            let mut part = |out: &mut Vec<u8>| {
                let written = output.write_all(out);
                out.clear();
                written
            };
            add(answer_chunk(&c, maps, o, None, &mut out, &mut part)?);
            output.write_all(&out)?;
            spare = c;
        }
        output.flush()?;
        return Ok(stats);
    }
    let jobs = o.jobs.min(MAX_JOBS);
    let budget = &Budget::new();
    std::thread::scope(|scope| -> io::Result<()> {
        // Chunk `k` goes to worker `k % jobs`; the writer takes answers in the same
        // turn, so the output keeps the input's order with no reordering buffer.
        // Spent chunks go back to the reader and written answers back to their worker,
        // to be filled again: no buffer is made while the stream runs, only at its
        // start, and only as many as the bounded channels can hold.
        let mut to_workers = Vec::with_capacity(jobs);
        let mut from_workers = Vec::with_capacity(jobs);
        let mut spare_outs = Vec::with_capacity(jobs);
        let (spent_tx, spent_rx) = mpsc::channel::<Chunk>();
        for _ in 0..jobs {
            let (tx, rx) = mpsc::sync_channel::<Chunk>(2);
            let (atx, arx) = mpsc::sync_channel::<Piece>(2);
            let (stx, srx) = mpsc::channel::<Vec<u8>>();
            let spent_tx = spent_tx.clone();
            let started = std::thread::Builder::new().spawn_scoped(scope, move || {
                for c in rx {
                    let mut out = srx.try_recv().unwrap_or_default();
                    let mut part = |out: &mut Vec<u8>| {
                        let mut next = srx.try_recv().unwrap_or_default();
                        next.clear();
                        let full = std::mem::replace(out, next);
                        atx.send(Piece::Part(full))
                            .map_err(|_| io::Error::other("the writer stopped"))
                    };
                    let s = answer_chunk(&c, maps, o, Some(budget), &mut out, &mut part);
                    // The reader may have stopped; the chunk is then dropped.
                    let _ = spent_tx.send(c);
                    let Ok(s) = s else { break };
                    if atx.send(Piece::End(out, s)).is_err() {
                        break;
                    }
                }
            });
            match started {
                Ok(_) => {
                    to_workers.push(tx);
                    from_workers.push(arx);
                    spare_outs.push(stx);
                }
                // The system will start no more threads: go on with those started.
                Err(e) if to_workers.is_empty() => {
                    return Err(io::Error::other(format!("cannot start a thread: {e}")))
                }
                Err(_) => break,
            }
        }
        drop(spent_tx);
        let jobs = to_workers.len();
        let reader =
            std::thread::Builder::new().spawn_scoped(scope, move || -> io::Result<()> {
                let mut k = 0usize;
                let spare = || spent_rx.try_recv().unwrap_or_default();
                while let Some(mut c) = read_chunk(input, spare(), line, o.max_line)? {
                    if line == 1 {
                        skip_bom(&mut c);
                    }
                    c.index = k as u64;
                    line += c.lines.len() as u64;
                    // `jobs` channels were made above; `get` only guards the arithmetic.
                    let Some(tx) = to_workers.get(k % jobs) else {
                        break;
                    };
                    if tx.send(c).is_err() {
                        break;
                    }
                    k += 1;
                }
                Ok(())
            })?;
        let mut k = 0usize;
        let written = 'chunks: loop {
            budget.turn(k as u64);
            // The parts of chunk `k`, up to its end.
            loop {
                let Some(Ok(piece)) = from_workers.get(k % jobs).map(|rx| rx.recv()) else {
                    break 'chunks Ok(());
                };
                let (out, end) = match piece {
                    Piece::Part(out) => (out, None),
                    Piece::End(out, s) => (out, Some(s)),
                };
                if let Err(e) = output.write_all(&out) {
                    break 'chunks Err(e);
                }
                // An answer grown unusually large (a line near the length limit) is not
                // kept for reuse, nor any while half the budget is held.
                let capacity = out.capacity();
                let kept = capacity <= SPARE_MAX
                    && budget.keep()
                    && spare_outs
                        .get(k % jobs)
                        .is_some_and(|stx| stx.send(out).is_ok());
                if !kept {
                    budget.give(capacity);
                }
                if let Some(s) = end {
                    add(s);
                    break;
                }
            }
            k += 1;
        };
        drop(from_workers);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reading thread failed")));
        written?;
        read?;
        output.flush()
    })?;
    stats.held_most = budget.lock().most as u64;
    Ok(stats)
}

/// Answer one case: append its answer to `out` (`Err`: what to say instead; `out` may
/// then hold part of an answer).
fn answer(
    out: &mut Vec<u8>,
    line: &str,
    default_rules: Rules,
    options: ParseOptions,
    maps: &Maps,
) -> Result<(), String> {
    let c = read_case(line)?;
    if let Some(id) = c.id {
        check_id(id)?;
    }
    let map = maps.get(c.map.as_deref())?;
    let rules = match &c.rules {
        Some(r) => Rules::parse(r).ok_or_else(|| {
            format!(
                "unknown rules edition `{}`",
                crate::orders::name_invisibles(r)
            )
        })?,
        None => default_rules,
    };
    let phase = line_phase(map, c.phase.as_deref())?;
    let position = line_position(map, phase, &c)?;
    let legal = match c.legal {
        true => {
            let legal =
                crate::legal::legal_orders(map, &position, rules).map_err(|e| e.to_string())?;
            Some(crate::legal::to_json(map, &legal))
        }
        false => None,
    };
    if let Some(problem) = c
        .last_year
        .and_then(|y| crate::map::year_problem(i64::from(y)))
    {
        return Err(format!("`last_year`: {problem}"));
    }
    if let Some(problem) = c
        .last_year
        .and_then(|y| crate::state::past_last_year(phase, y))
    {
        return Err(format!(
            "`last_year`: {problem}: correct `last_year` or `phase`"
        ));
    }
    let mut orders = LineOrders::read(map, &c.orders, options)?;
    orders.warn_nationality(map, &position)?;
    let (result, _) =
        advance(map, rules, &position, &orders.parsed, c.last_year).map_err(|e| e.to_string())?;
    if result.input.len() < orders.parsed.len() || result.orders().len() < orders.parsed.len() {
        return Err("internal error: an order has no result".into());
    }
    write_answer(out, map, c.id, &result, &orders, legal.as_ref())
}

/// An `id` is echoed as written, so it must be JSON that readers can read back: a
/// number out of range (`1e400`, which is no `f64`) and a string that is not Unicode (a
/// lone surrogate, `"\ud800"`) are refused, not echoed.
fn check_id(id: &RawValue) -> Result<(), String> {
    let raw = id.get();
    // Only a number with an exponent can be out of range (a long integer reads as a
    // float), and only an escape can be a lone surrogate; anything else needs no second
    // reading.
    if !raw.bytes().any(|b| matches!(b, b'e' | b'E' | b'\\')) {
        return Ok(());
    }
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(_) => Ok(()),
        Err(e) => {
            let shown: String = raw.chars().take(40).collect();
            // serde_json names a lone surrogate's escape in its message.
            Err(if e.to_string().contains("escape") {
                format!(
                    "the `id` `{shown}` is not valid Unicode (it has a lone surrogate) ({e}): \
                     write the id as a string of Unicode characters"
                )
            } else {
                format!(
                    "the `id` `{shown}` cannot be read back by JSON readers ({e}): write the \
                     id as a string, or as a number in range"
                )
            })
        }
    }
}

/// The line read as a case: the fast reader's, or else serde's with its message.
fn read_case(line: &str) -> Result<BatchLine<'_>, String> {
    if !line.trim_start().starts_with('{') {
        return Err(
            "bad JSON: a batch line must be a JSON object (`{\"units\": …, \"orders\": …}`)".into(),
        );
    }
    match quick::read(line) {
        Some(c) => Ok(c),
        None => serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}")),
    }
}

/// The line's phase: a phase's name; or `movement` (the map's first movement phase),
/// `retreat` (that phase's retreats) or `adjustment` (the winter of the map's first
/// year); no phase: the map's first phase, whatever its kind (a map that starts in
/// winter starts with its adjustments).
fn line_phase(map: &Map, phase: Option<&str>) -> Result<Phase, String> {
    Ok(match phase.map(str::trim) {
        None => Phase::first(map),
        Some("movement") => Phase::first_movement(map),
        Some("retreat") => Phase {
            kind: PhaseKind::Retreat,
            ..Phase::first_movement(map)
        },
        Some("adjustment") => Phase {
            season: crate::map::Season::Winter,
            kind: PhaseKind::Adjustment,
            ..Phase::first(map)
        },
        Some(p) => {
            Phase::parse(p).map_err(|e| format!("{e}; or write movement, retreat or adjustment"))?
        }
    })
}

/// The line's position: its units, dislodged units, centres and saved builds.
fn line_position(map: &Map, phase: Phase, c: &BatchLine<'_>) -> Result<Position, String> {
    // A power given twice under one key is named with the key.
    let keyed = |key: &str| {
        let key = key.to_string();
        move |e: crate::state::PositionError| match e {
            crate::state::PositionError::PowerTwice { .. } => format!("`{key}`: {e}"),
            _ => e.to_string(),
        }
    };
    let mut position = Position::from_units(map, phase, c.units.iter()).map_err(keyed("units"))?;
    position
        .set_dislodged(map, &c.dislodged)
        .map_err(|e| e.to_string())?;
    position.check_dislodged().map_err(|e| e.to_string())?;
    if let Some(centres) = &c.centres {
        position
            .set_owners(map, centres.iter())
            .map_err(keyed("centers"))?;
    }
    position
        .set_saved_by_name(map, c.saved.iter().map(|(k, v)| (k.as_str(), *v)))
        .map_err(keyed("saved"))?;
    Ok(position)
}

/// The orders of a line, each parsed on its own: an unreadable one is kept in its
/// place with the reason.
struct LineOrders<'c> {
    /// The orders read, in the line's order.
    parsed: Vec<Order>,
    /// Per text written: its power, the text, and its order's index in `parsed` (or
    /// why it could not be read).
    slots: Vec<(Power, &'c str, Result<usize, String>)>,
    /// Per order read: its warnings.
    warnings: Vec<Vec<Diagnostic>>,
}

impl<'c> LineOrders<'c> {
    /// Parse each order of each power's list (an unknown power refuses the line).
    fn read(
        map: &Map,
        lists: &'c PowerLists<'_>,
        options: ParseOptions,
    ) -> Result<LineOrders<'c>, String> {
        let n = lists.items.len();
        let mut o = LineOrders {
            parsed: Vec::with_capacity(n),
            slots: Vec::with_capacity(n),
            warnings: Vec::with_capacity(n),
        };
        crate::state::unique_powers(map, lists.iter().map(|(k, _)| k))
            .map_err(|e| format!("`orders`: {e}"))?;
        for (power, list) in lists.iter() {
            let pw = map.power_by_name(power).ok_or_else(|| {
                format!("unknown power `{}`", crate::orders::name_invisibles(power))
            })?;
            for text in list {
                o.read_one(map, pw, text.as_ref(), options);
            }
        }
        Ok(o)
    }

    /// Parse one order listed under `pw`: read, or refused with the reason.
    #[inline]
    fn read_one(&mut self, map: &Map, pw: Power, text: &'c str, options: ParseOptions) {
        match parse_order_with(map, text, Some(pw), options) {
            Ok((o, _)) if o.power.is_some_and(|p| p != pw) => self.slots.push((
                pw,
                text,
                Err(format!(
                    "the order is written for {}, but it is listed under {}: \
                     list it under its own power",
                    map.power(o.power.unwrap_or(pw)).name,
                    map.power(pw).name
                )),
            )),
            Ok((o, w)) => {
                self.slots.push((pw, text, Ok(self.parsed.len())));
                self.parsed.push(o);
                self.warnings.push(w);
            }
            Err(d) => self.slots.push((
                pw,
                text,
                Err(match d.help {
                    Some(h) => format!("cannot read the order: {} ({h})", d.message),
                    None => format!("cannot read the order: {}", d.message),
                }),
            )),
        }
    }

    /// Add the nationality warnings: only an order that states a nationality can have
    /// one.
    fn warn_nationality(&mut self, map: &Map, position: &Position) -> Result<(), String> {
        for (k, o) in self.parsed.iter().enumerate() {
            if let (Some(w), Some(_)) = (self.warnings.get_mut(k), stated_nationality(o)) {
                let one = std::slice::from_ref(o);
                w.extend(
                    nationality_warnings(map, &position.units, one).map_err(|e| e.to_string())?,
                );
            }
        }
        Ok(())
    }
}

/// Write the answer: `{"id": …, ` and the result's keys: the result's orders as the
/// line wrote them, with their warnings, and the orders that could not be read in
/// their places; then the legal orders, if asked for.
fn write_answer(
    out: &mut Vec<u8>,
    map: &Map,
    id: Option<&RawValue>,
    result: &PhaseResult,
    orders: &LineOrders<'_>,
    legal: Option<&serde_json::Value>,
) -> Result<(), String> {
    out.extend_from_slice(b"{\"id\":");
    out.extend_from_slice(id.unwrap_or(RawValue::NULL).get().as_bytes());
    out.push(b',');
    let mut w = json::Writer::new(out);
    w.phase_keys(map, result, &[], |w| {
        for (power, text, slot) in &orders.slots {
            match slot {
                Ok(k) => {
                    let warned = orders.warnings.get(*k).map_or(&[][..], Vec::as_slice);
                    w.order(map, result, *k, text, warned);
                }
                Err(reason) => w.unread_order(&map.power(*power).id, text, reason),
            }
        }
    })
    .map_err(|e| e.to_string())?;
    if let Some(legal) = legal {
        w.raw(b",\"legal\":");
        w.serde(legal).map_err(|e| e.to_string())?;
    }
    w.raw(b"}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test compares of a case.
    fn lists(l: &PowerLists) -> Vec<(String, Vec<String>)> {
        l.iter()
            .map(|(p, l)| (p.to_string(), l.iter().map(|t| t.0.to_string()).collect()))
            .collect()
    }

    fn summary(c: &BatchLine) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {} {:?} {} {:?} {:?}",
            c.id.map(|v| v.get()),
            c.map,
            c.phase,
            c.rules,
            lists(&c.units),
            lists(&c.orders),
            c.dislodged.len(),
            c.centres.as_ref().map(lists),
            c.saved.len(),
            c.last_year,
            c.legal
        )
    }

    /// The strings of a line are borrowed from it unless they hold escapes.
    #[test]
    fn strings_without_escapes_are_borrowed() {
        let line = r#"{"units": {"france": ["A PAR", "A \u0042UR"]}, "orders": {"fr\u0061nce": ["A PAR H"]}}"#;
        let c: BatchLine = serde_json::from_str(line).unwrap();
        let borrowed = |t: &Text| matches!(t.0, Cow::Borrowed(_));
        assert!(c.units.powers.iter().all(|(p, _)| borrowed(p)));
        assert!(!c.orders.powers.iter().all(|(p, _)| borrowed(p)));
        let items: Vec<bool> = c
            .units
            .items
            .iter()
            .chain(&c.orders.items)
            .map(borrowed)
            .collect();
        assert_eq!(items, [true, false, true]);
    }

    /// The quick reader reads a line as serde does or leaves it to serde: on lines
    /// and on every one-byte change of them (a byte deleted, or replaced by JSON's
    /// punctuation), it never reads what serde refuses or reads it otherwise.
    #[test]
    fn the_quick_reader_agrees_with_serde() {
        let lines = [
            r#"{"id": 0, "phase": "Spring 1902 movement", "units": {"austria": ["F con", "F bar"], "england": []}, "orders": {"austria": ["F con - bul", "F Barents Sea - Norwegian Sea"]}}"#,
            r#"{"id":"x y","map":"standard","rules":"2000","units":{"france":["A PAR"]},"orders":{"france":["A PAR H"]},"legal":true,"last_year":1905}"#,
            r#" { "id" : -1.5e3 , "map" : null , "last_year" : null , "legal" : false , "units" : { } } "#,
            r#"{"id":null,"units":{"france":["A PAR"]},"orders":{"france":["A PAR H"],"germany":["A MUN - BUR"]}}"#,
            r#"{"id":true,"phase":"retreat","last_year":-5,"orders":{}}"#,
            r#"{}"#,
        ];
        let marks = [
            b'"', b',', b':', b'[', b']', b'{', b'}', b'\\', b' ', b'0', b'e', b'-', b'.', b'n',
        ];
        let mut checked = 0;
        let mut quick_read = 0;
        for line in lines {
            let mut variants = vec![line.to_string()];
            for i in 0..line.len() {
                let mut b = line.as_bytes().to_vec();
                b.remove(i);
                variants.extend(String::from_utf8(b).ok());
                for &m in &marks {
                    let mut b = line.as_bytes().to_vec();
                    b[i] = m;
                    variants.extend(String::from_utf8(b).ok());
                }
            }
            for v in &variants {
                let serde: Result<BatchLine, _> = serde_json::from_str(v);
                if let Some(q) = quick::read(v) {
                    quick_read += 1;
                    match serde {
                        Ok(s) => assert_eq!(summary(&q), summary(&s), "{v}"),
                        Err(e) => panic!("the quick reader read `{v}`, serde says {e}"),
                    }
                }
                checked += 1;
            }
        }
        // Every original line is read quickly, and some of the changed ones.
        assert!(quick_read > lines.len() * 10, "{quick_read} of {checked}");
        for line in lines {
            assert!(quick::read(line).is_some(), "{line}");
        }
    }
}
