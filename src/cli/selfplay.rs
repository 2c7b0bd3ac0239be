//! `arbiter selfplay`: whole games with random legal orders for every power
//! ([`arbiter::selfplay::play_game`]), in parallel; games/s, phases/s and a summary;
//! `--out FILE` writes every phase as a batch line that replays it. Exit 1 when an
//! invariant fails (naming the game's seed and the phase).

use std::fmt::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::{load_map, parse_rules, write_output, Fatal, EXIT_DIAGNOSTICS, EXIT_OK};
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
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
        .min(args.games.max(1) as usize);
    let record = args.out.is_some();
    let start = Instant::now();
    // Worker `j` plays games j, j + jobs, …; the results are put back in game order.
    let mut games: Vec<Option<Result<GameRecord, Violation>>> = Vec::new();
    games.resize_with(args.games as usize, || None);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let map = &map;
                s.spawn(move || {
                    (j as u64..args.games)
                        .step_by(jobs)
                        .map(|g| {
                            let seed = game_seed(args.seed, g);
                            (g, play_game(map, rules, seed, last_year, record))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(done) => {
                    for (g, r) in done {
                        games[g as usize] = Some(r);
                    }
                }
                Err(_) => return Err(Fatal("a self-play thread panicked".into())),
            }
        }
        Ok(())
    })?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);

    let mut failed = Vec::new();
    let mut phases = 0usize;
    let mut solos = vec![0usize; map.powers.len()];
    let mut draws = 0usize;
    let mut lines = String::new();
    for (g, r) in games.into_iter().enumerate() {
        match r {
            Some(Ok(game)) => {
                phases += game.phases;
                match game.winner {
                    Some(pw) => solos[pw.0 as usize] += 1,
                    None => draws += 1,
                }
                for (k, p) in game.record.iter().enumerate() {
                    let id = format!("{}-{g}-{k}", game.seed);
                    let _ = writeln!(lines, "{}", batch_line(&map, &id, last_year, p));
                }
            }
            Some(Err(v)) => failed.push(v),
            None => failed.push(Violation {
                seed: game_seed(args.seed, g as u64),
                phase: arbiter::state::Phase::first(&map),
                what: "the game was not played".into(),
            }),
        }
    }
    if let Some(out) = &args.out {
        write_output(Some(out), &lines)?;
    }
    let n = args.games as f64;
    println!(
        "{} games on {} ({} rules, {} years, seed {}, {} jobs): {} phases in {:.3} s",
        args.games,
        map.name,
        rules.name(),
        args.years,
        args.seed,
        jobs,
        phases,
        secs
    );
    println!(
        "{:.1} games/s, {:.0} phases/s",
        n / secs,
        phases as f64 / secs
    );
    let total_solos: usize = solos.iter().sum();
    println!("solos: {total_solos}, draws at the year limit: {draws}");
    for pw in map.power_ids() {
        let k = solos[pw.0 as usize];
        if k > 0 {
            super::print_text(&format!("  {} won {k}\n", map.power(pw).name));
        }
    }
    for v in &failed {
        eprintln!("invariant violated: {v}");
    }
    Ok(if failed.is_empty() {
        EXIT_OK
    } else {
        EXIT_DIAGNOSTICS
    })
}
