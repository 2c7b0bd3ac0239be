//! Running the `arbiter` binary from the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `arbiter ARGS` in the crate's directory, with `stdin` (written from a thread, so
/// a large input cannot block on a full pipe) or a closed standard input.
pub fn arbiter_bytes(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let input = child.stdin.take().unwrap();
    let data = stdin.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        let mut input = input;
        if let Some(d) = data {
            // The binary may stop reading early (an input over a limit).
            let _ = input.write_all(&d);
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
pub mod convoy_board;

/// Did the attack that dislodged `d` come by convoy (a retreat to the attacker's
/// province is then allowed, DATC 4.A.5)?
pub fn attack_by_convoy(
    map: &arbiter::map::Map,
    m: &arbiter::judge::MovementResult,
    d: &arbiter::state::Dislodged,
) -> bool {
    let here = map.prov_of(d.unit.loc);
    m.units
        .iter()
        .zip(&m.destination)
        .zip(&m.convoyed)
        .any(|((u, &to), &c)| c && map.prov_of(u.loc) == d.by && map.prov_of(to) == here)
}
