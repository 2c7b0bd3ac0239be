//! `arbiter adjudicate --batch`: JSON Lines in, JSON Lines out, one case per line, for
//! every kind of phase. The work is [`arbiter::batch::stream`]: line by line, on every
//! core, in input order, in bounded memory. This module opens the input and the output,
//! registers the maps lines may name, and reports throughput with `--stats`.

use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

use super::{load_map, parse_rules, AdjudicateArgs, Fatal, EXIT_DIAGNOSTICS, EXIT_OK};
use arbiter::batch::{stream, Maps, StreamOptions};

pub fn run(args: &AdjudicateArgs) -> Result<i32, Fatal> {
    let mut maps = Maps::new(load_map(&args.map)?);
    for spec in &args.map_file {
        let (name, path) = spec.split_once('=').ok_or_else(|| {
            Fatal(format!(
                "--map-file `{spec}`: write NAME=PATH, e.g. --map-file mine=maps/mine.yaml"
            ))
        })?;
        // A name that lines already reach (an embedded map, `--map`'s) or registered
        // twice would be silently shadowed: refused.
        let key = name.trim().to_ascii_lowercase();
        let taken = key.is_empty()
            || key == "classic"
            || arbiter::map::EMBEDDED.iter().any(|(n, _, _)| *n == key)
            || maps.get(Some(name)).is_ok();
        if taken {
            return Err(Fatal(format!(
                "--map-file `{spec}`: the name `{name}` is {}: give the map file a name of \
                 its own (e.g. --map-file mine={path})",
                if key.is_empty() {
                    "empty"
                } else {
                    "already taken (an embedded map, the --map map, or an earlier --map-file)"
                }
            )));
        }
        let map = load_map(path).map_err(|f| Fatal(format!("--map-file {name}: {}", f.0)))?;
        maps.register(name, map);
    }
    let options = StreamOptions {
        rules: parse_rules(&args.rules)?,
        parse: arbiter::orders::ParseOptions {
            strict: args.strict,
        },
        jobs: super::jobs(args.jobs)?,
        max_line: args.max_line_bytes,
    };
    let mut input: Box<dyn std::io::BufRead + Send> = if args.orders == "-" {
        Box::new(BufReader::with_capacity(1 << 16, std::io::stdin()))
    } else {
        let f = arbiter::files::open_input(std::path::Path::new(&args.orders))
            .map_err(|e| Fatal(format!("cannot read `{}`: {e}", args.orders)))?;
        super::write::record_input(std::path::Path::new(&args.orders), f.file());
        Box::new(BufReader::with_capacity(1 << 16, f))
    };
    let started = Instant::now();
    let stats = match args.output.as_deref() {
        None => {
            let stdout = std::io::stdout();
            let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
            let r = stream(&mut input, &mut out, &maps, &options);
            match r {
                Ok(s) => s,
                // The reader of our output went away (`| head`): stop quietly.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(EXIT_OK),
                Err(e) => return Err(Fatal(format!("batch stopped: {e}"))),
            }
        }
        Some(path) => {
            let mut stats = None;
            super::write_atomically(path, |f| {
                let mut out = BufWriter::with_capacity(1 << 16, f);
                stats = Some(stream(&mut input, &mut out, &maps, &options)?);
                out.flush()
            })?;
            stats.unwrap_or_default()
        }
    };
    if args.stats {
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "{} lines ({} errors) in {:.3} s: {:.0} lines/s on {} thread{}",
            stats.lines,
            stats.errors,
            secs,
            stats.lines as f64 / secs.max(1e-9),
            options.jobs,
            if options.jobs == 1 { "" } else { "s" }
        );
    }
    Ok(if stats.errors > 0 {
        EXIT_DIAGNOSTICS
    } else {
        EXIT_OK
    })
}
