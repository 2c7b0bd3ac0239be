//! The `arbiter` binary: parse arguments, run one subcommand, choose the exit code.
//! Exit codes: 0 adjudicated; 1 the orders had diagnostics (errors); 2 usage or I/O error.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
