//! The `arbiter` binary: parse arguments, run one subcommand, choose the exit code.
//! Exit codes: 0 adjudicated; 1 the orders had diagnostics (errors); 2 usage or I/O error.

mod cli;

/// mimalloc: a phase makes many small short-lived allocations (order texts, canonical
/// forms, JSON strings); mimalloc serves them in about half the time of glibc's malloc
/// (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's options, by their index in its `mi_option_t` (`mimalloc.h` of v3, the version
// the `mimalloc` crate builds without its `v2` feature: `mi_option_purge_delay` is 15).
extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}
/// `mi_option_purge_delay`: how long freed memory is kept before it is given back.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() {
    // mimalloc v3 keeps freed memory a second (1000 ms) before it gives it back: a
    // command that reads a large YAML file (serde_yaml holds every event while it
    // reads, in a vector that doubles as it grows) then peaked at the reading plus
    // what the reading had freed. Given back at once, a command peaks at what it holds
    // at once: a 1.5 MB map's check took 98 MB (release build) and now takes 45, a
    // 0.8 MB map of 261,000 neighbours 84 and now 61 (docs/CLI.md, "Memory, command by
    // command"); the batch and the other commands measured the same time (at most 2 %
    // slower on one thread; docs/PERFORMANCE.md).
    // SAFETY: sets an integer option of the allocator linked in by `mimalloc`
    // (libmimalloc-sys), whose `mi_option_set(mi_option_t, long)` this declares; any
    // value is valid for this option, and options may be set at any time.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    std::process::exit(cli::run());
}
