//! AFL++ target: the `sqlite_merge` oracle of tests/oracles/ on every input; a wrong answer panics.

#[path = "../../../tests/oracles/mod.rs"]
mod oracles;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Err(problem) = oracles::sqlite_merge::check(data) {
            panic!("{problem}");
        }
    });
}
