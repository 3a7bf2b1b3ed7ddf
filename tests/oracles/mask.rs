//! The masker of foreign text: a key spelled in any way a service or a file may write it
//! (whole, split by a line break, CR LF or another control, with invisible format characters
//! inside, percent-encoded byte by byte in either hex case or a mix) inside random text shows
//! as `****` and nothing else of it: the message is the text around it, made safe, with the
//! mask where the key was, so no piece of the key (5 characters or more) is left.

use chain_metrics::message_shown;

use super::Input;

/// What may split a key: line breaks, controls, invisible format characters (Unicode Cf), and
/// two of them percent-encoded.
const FILLERS: [&str; 12] = [
    "\n",
    "\r\n",
    "\u{1}",
    "\u{1b}",
    "\u{7f}",
    "\u{200b}",
    "\u{ad}",
    "\u{200d}",
    "\u{2060}",
    "\u{feff}",
    "%0A",
    "%E2%80%8b",
];

/// Input: the pick, then the key (its bytes made `[A-Z0-9_]`), a newline, the text before it,
/// a newline, the text after it (their bytes made lower-case letters and punctuation, so no
/// piece of the key is in them by chance).
pub fn check(data: &[u8]) -> Result<(), String> {
    let input = Input::new(data);
    let mut fields = input.rest.split(|b| *b == b'\n');
    // The next line of the input, each byte made a character by `made`.
    let mut next = |made: fn(u8) -> char| -> String {
        let field = fields.next().unwrap_or_default();
        field.iter().map(|b| made(*b)).collect()
    };
    let key = next(key_char);
    if key.len() < 8 {
        return Ok(());
    }
    let before = next(text_char);
    let after = next(text_char);
    let spelled = spell(&key, input.pick);
    let shown = message_shown(&format!("{before}{spelled}{after}"), &key);
    let expected = format!(
        "{}****{}",
        message_shown(&before, &key),
        message_shown(&after, &key)
    );
    if shown != expected {
        return Err(format!(
            "{spelled:?} in {before:?}…{after:?} shown as {shown:?}, not {expected:?}"
        ));
    }
    match (0..=key.len() - 5).find(|&i| shown.contains(&key[i..i + 5])) {
        Some(i) => Err(format!(
            "{:?} of the key shown in {shown:?}",
            &key[i..i + 5]
        )),
        None => Ok(()),
    }
}

/// The key spelled as `pick` says: its low 2 bits pick plain, percent-encoded upper case,
/// lower case or mixed; the rest, fillers between characters (none, one, or one at every
/// other place) and which.
fn spell(key: &str, pick: u8) -> String {
    let encoding = pick & 3;
    let filler = FILLERS[usize::from(pick >> 2) % FILLERS.len()];
    let where_ = (pick >> 2) / FILLERS.len() as u8;
    let mut spelled = String::new();
    for (n, c) in key.chars().enumerate() {
        let at_split = match where_ {
            0 => false,
            1 => n == key.len() / 2,
            _ => n % 2 == 1,
        };
        if n > 0 && at_split {
            spelled.push_str(filler);
        }
        let upper = format!("%{:02X}", c as u32);
        spelled.push_str(&match (encoding, n % 2) {
            (0, _) => c.to_string(),
            (1, _) | (3, 0) => upper,
            _ => upper.to_lowercase(),
        });
    }
    spelled
}

fn key_char(b: u8) -> char {
    const KEY: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    KEY[usize::from(b) % KEY.len()] as char
}

fn text_char(b: u8) -> char {
    const TEXT: &[u8] = b"abcdefghijklmnopqrstuvwxyz .,;:!?(){}<>=&/'\"%\t-";
    TEXT[usize::from(b) % TEXT.len()] as char
}
