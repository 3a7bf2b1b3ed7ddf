//! The lines under a standalone svg's title that say where its data came from and when it
//! was made, cut at spaces so that none runs past the picture's right edge (a long service
//! address, the file `render` drew).

use super::super::caption::Caption;

/// The widest a character of the source line (12-px italic) is on average, in pixels, with
/// room to spare: Chromium lays out a typical line at 6.3.
const CHAR: f64 = 6.5;

/// The provenance line of `caption` cut into lines of at most `width` pixels; none when the
/// caption knows neither the source nor the time.
pub(super) fn lines(caption: &Caption, width: f64) -> Vec<String> {
    let Some(text) = caption.provenance_line() else {
        return Vec::new();
    };
    let room = (width / CHAR).max(1.0) as usize;
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > room {
            lines.push(String::new());
        }
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines
}
