//! The `arbiter` binary: parse arguments, run one subcommand, choose the exit code.
//! Exit codes: 0 adjudicated; 1 the orders had diagnostics (errors); 2 usage or I/O error.

mod cli;

/// mimalloc: a phase makes many small short-lived allocations (order texts, canonical
/// forms, JSON strings); mimalloc serves them in about half the time of glibc's malloc
/// (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::run());
}
