//! AFL++ target: the `mask` oracle of tests/oracles/ on every input; a wrong answer panics.

#[path = "../../../tests/oracles/mod.rs"]
mod oracles;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Err(problem) = oracles::mask::check(data) {
            panic!("{problem}");
        }
    });
}
