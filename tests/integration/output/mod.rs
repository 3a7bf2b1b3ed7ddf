//! What a run writes on stdout: every format (`formats`), tables and the terminal (`tables`,
//! `terminal`, its styles and TERM=dumb in `terminal_styles`), the terminal chart (`chart`,
//! `braille`), `-o` naming a stream (`streams`), and results a script can trust (`scripting`).

mod braille;
mod chart;
mod formats;
mod scripting;
mod streams;
mod tables;
mod terminal;
mod terminal_styles;

use crate::support::{Env, Reply, Stub};

/// A server giving `body` (JSON) to every request, and an environment pointed at it in a
/// UTF-8 locale (`LANG=C.UTF-8`).
fn utf8_env(body: &str) -> (Stub, Env) {
    let stub = Stub::always(Reply::json(200, body));
    let mut env = Env::with_service(&stub.url);
    env.set("LANG", "C.UTF-8");
    (stub, env)
}
