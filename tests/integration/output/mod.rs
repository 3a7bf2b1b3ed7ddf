//! What a run writes on stdout: every format (`formats`), tables and the terminal (`tables`,
//! `terminal`), the terminal chart (`chart`, `braille`), `-o` naming a stream (`streams`), and
//! results a script can trust (`scripting`).

mod braille;
mod chart;
mod formats;
mod scripting;
mod streams;
mod tables;
mod terminal;
