//! `arbiter selfplay`: whole games with random legal orders for every power
//! ([`arbiter::selfplay::play_game`]), in parallel; games/s, phases/s and a summary;
//! `--out FILE` writes every phase as a batch line that replays it. Exit 1 when an
//! invariant fails (naming the game's seed and the phase).

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

use super::{load_map, parse_rules, Fatal, EXIT_DIAGNOSTICS, EXIT_OK};
use arbiter::selfplay::{batch_line, game_seed, play_game, GameRecord, Violation};

#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// How many games.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// The run's seed: game `i` plays with a seed made of it and `i`, so results do not
    /// depend on --jobs or the machine.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Map: an embedded map name (`standard`, `classic1913`, `world1914`) or a YAML file.
    #[arg(long, value_name = "NAME|FILE", default_value = "standard")]
    pub map: String,
    /// Game years to play, from the map's first year of moves (after the builds of a map
    /// that starts in winter); a game ends after the Fall turn of its last year, or when a
    /// power wins. The last year may not pass 9999, the last year arbiter plays.
    #[arg(long, default_value_t = 10)]
    pub years: u32,
    /// Threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[arg(long, default_value = "2023", value_name = "EDITION", help = super::RULES_HELP)]
    pub rules: String,
    /// Write every phase of every game as a batch line (with the result under `expect`)
    /// to FILE, atomically.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn run(args: &SelfplayArgs) -> Result<i32, Fatal> {
    let map = load_map(&args.map)?;
    let rules = parse_rules(&args.rules)?;
    if args.years == 0 {
        return Err(Fatal("--years must be at least 1".into()));
    }
    // Years of moves: a map starting in winter plays its builds, then its first year.
    let first = arbiter::state::Phase::first_movement(&map).year;
    let last_year = i64::from(first) + i64::from(args.years) - 1;
    if let Some(problem) = arbiter::map::year_problem(last_year) {
        return Err(Fatal(format!(
            "--years {} from {first} would end in {last_year}: {problem}",
            args.years
        )));
    }
    let last_year = i32::try_from(last_year).unwrap_or(*arbiter::map::YEARS.end());
    let jobs = super::jobs(args.jobs)?.min(usize::try_from(args.games.max(1)).unwrap_or(1));
    let play = Play {
        map: &map,
        rules,
        seed: args.seed,
        games: args.games,
        last_year,
        record: args.out.is_some(),
    };
    let start = Instant::now();
    let tally = match &args.out {
        None => play.run(jobs, &mut |_, _| Ok(()))?,
        Some(out) => {
            // The lines go to the file as each game ends, in game order (nothing is held
            // but the games in flight); the file appears, atomically, when all are written.
            let mut tally = None;
            let mut stopped = None;
            super::write_atomically(out, |f| {
                let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
                let mut lines = |g: u64, game: &GameRecord| -> std::io::Result<()> {
                    for (k, p) in game.record.iter().enumerate() {
                        let id = format!("{}-{g}-{k}", game.seed);
                        serde_json::to_writer(&mut w, &batch_line(&map, &id, last_year, p))?;
                        w.write_all(b"\n")?;
                    }
                    Ok(())
                };
                match play.run(jobs, &mut lines) {
                    Ok(t) => tally = Some(t),
                    Err(Fatal(e)) => {
                        stopped = Some(Fatal(e));
                        return Err(std::io::Error::other("self-play stopped"));
                    }
                }
                w.flush()
            })
            .map_err(|e| stopped.take().unwrap_or(e))?;
            tally.unwrap_or_default()
        }
    };
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let n = args.games as f64;
    outln!(
        "{} games on {} ({} rules, {} years, seed {}, {} jobs): {} phases in {:.3} s",
        args.games,
        map.name,
        rules.name(),
        args.years,
        args.seed,
        jobs,
        tally.phases,
        secs
    );
    outln!(
        "{:.1} games/s, {:.0} phases/s",
        n / secs,
        tally.phases as f64 / secs
    );
    let total_solos: u64 = tally.solos.iter().sum();
    outln!(
        "solos: {total_solos}, draws at the year limit: {}",
        tally.draws
    );
    for pw in map.power_ids() {
        let k = tally.solos.get(pw.0 as usize).copied().unwrap_or(0);
        if k > 0 {
            super::print_text(&format!("  {} won {k}\n", map.power(pw).name));
        }
    }
    Ok(if tally.failed == 0 {
        EXIT_OK
    } else {
        EXIT_DIAGNOSTICS
    })
}

/// What a run plays: `games` games of `map`, each to `last_year`.
struct Play<'m> {
    map: &'m arbiter::map::Map,
    rules: arbiter::judge::Rules,
    seed: u64,
    games: u64,
    last_year: i32,
    /// Keep every phase of a game (for `--out`).
    record: bool,
}

/// What the games came to.
#[derive(Default)]
struct Tally {
    phases: u64,
    /// Solos per power, in map order.
    solos: Vec<u64>,
    draws: u64,
    /// Games in which an invariant failed (each printed as it came).
    failed: u64,
}

impl Play<'_> {
    /// Play the games on `jobs` threads, handing each finished game to `each` in game
    /// order, and print each invariant that failed as it comes. Memory is bounded
    /// whatever the number of games: worker `j` plays games `j`, `j + jobs`, … and waits
    /// while its last game is not taken; nothing is sized by the number of games.
    fn run(
        &self,
        jobs: usize,
        each: &mut dyn FnMut(u64, &GameRecord) -> std::io::Result<()>,
    ) -> Result<Tally, Fatal> {
        let mut tally = Tally {
            solos: vec![0; self.map.powers.len()],
            ..Tally::default()
        };
        std::thread::scope(|s| {
            // Each worker learns how many workers started before it plays: a thread the
            // system will not start is done without.
            let mut workers = Vec::new();
            for j in 0..jobs {
                let (start_tx, start_rx) = mpsc::channel::<u64>();
                let (tx, rx) = mpsc::sync_channel::<Result<GameRecord, Violation>>(1);
                let started = std::thread::Builder::new().spawn_scoped(s, move || {
                    let Ok(step) = start_rx.recv() else { return };
                    let mut g = j as u64;
                    while g < self.games {
                        let seed = game_seed(self.seed, g);
                        let game =
                            play_game(self.map, self.rules, seed, self.last_year, self.record);
                        if tx.send(game).is_err() {
                            return;
                        }
                        let Some(next) = g.checked_add(step) else {
                            return;
                        };
                        g = next;
                    }
                });
                match started {
                    Ok(_) => workers.push((start_tx, rx)),
                    Err(e) if workers.is_empty() => {
                        return Err(Fatal(format!("cannot start a self-play thread: {e}")))
                    }
                    Err(_) => break,
                }
            }
            let step = workers.len() as u64;
            for (start, _) in &workers {
                let _ = start.send(step);
            }
            let mut g = 0u64;
            while g < self.games {
                let from = usize::try_from(g % step).unwrap_or(0);
                let Some(Ok(r)) = workers.get(from).map(|(_, rx)| rx.recv()) else {
                    return Err(Fatal(format!("a self-play thread stopped before game {g}")));
                };
                match r {
                    Ok(game) => {
                        tally.phases += game.phases as u64;
                        match game
                            .winner
                            .and_then(|pw| tally.solos.get_mut(pw.0 as usize))
                        {
                            Some(k) => *k += 1,
                            None => tally.draws += 1,
                        }
                        each(g, &game)
                            .map_err(|e| Fatal(format!("cannot write the games: {e}")))?;
                    }
                    Err(v) => {
                        tally.failed += 1;
                        eprintln!("invariant violated: {v}");
                    }
                }
                g += 1;
            }
            Ok(tally)
        })
    }
}
