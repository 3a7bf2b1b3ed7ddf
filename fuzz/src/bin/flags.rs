//! AFL++ target: the `flags` oracle of tests/oracles/ on every input; a wrong answer panics.

#[path = "../../../tests/oracles/mod.rs"]
mod oracles;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Err(problem) = oracles::flags::check(data) {
            panic!("{problem}");
        }
    });
}
