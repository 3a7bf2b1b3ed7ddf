//! The seeded mutator of the stable harnesses: bit flips, random bytes, tokens that matter to
//! some parser, deletions, duplications, splices of another seed and truncations.

use std::path::Path;

/// splitmix64: tiny, seedable, good enough to spread mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces that matter to some parser: JSON and TOML syntax, dates, numbers at the edges.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\t",
    "\n",
    "\r\n",
    "=",
    "null",
    "true",
    "#",
    "[profiles.x]",
    "\"date\"",
    "\"fees\"",
    "ETHEREUM",
    "BASE",
    "eth",
    "2024-02-29",
    "2024-02-30",
    "0000-01-01",
    "1e999999999",
    "-0",
    "0.1",
    "12345678901234567890",
    "1E+",
    ".5",
    "01",
    "+",
    "\u{feff}",
    "\u{fffd}",
    "\\u0000",
    "\\ud800",
    "today",
    "w",
    "d",
    " ",
    "\"\"\"",
];

pub fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(input.len() + 1);
        match rng.below(8) {
            0 if !input.is_empty() => {
                let i = at.min(input.len() - 1);
                input[i] ^= 1 << rng.below(8);
            }
            1 => input.insert(at, rng.next() as u8),
            2 | 3 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                input.splice(at..at, token.iter().copied());
            }
            4 => {
                let end = (at + rng.below(16)).min(input.len());
                input.drain(at..end);
            }
            5 => {
                let end = (at + rng.below(32)).min(input.len());
                let copy = input[at..end].to_vec();
                let to = rng.below(input.len() + 1);
                input.splice(to..to, copy);
            }
            6 => {
                // Splices in part of another seed.
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(64)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            _ => input.truncate(at),
        }
    }
}

/// The seed inputs of an oracle, `fuzz/seeds/<oracle>/*` under `root`, in name order.
pub fn seeds(root: &Path, oracle: &str) -> Vec<Vec<u8>> {
    let folder = root.join("fuzz/seeds").join(oracle);
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.unwrap().path())
        .map(|p| (p.display().to_string(), std::fs::read(p).unwrap()))
        .collect();
    seeds.sort();
    seeds.into_iter().map(|(_, bytes)| bytes).collect()
}
