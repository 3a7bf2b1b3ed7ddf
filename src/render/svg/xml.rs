//! The two things every SVG and HTML line needs: text escaped for markup, and coordinates
//! written the same way every time (one decimal, no `-0.0`), so the same input gives the same
//! bytes.

/// `text` safe inside an element or a double-quoted attribute.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with one decimal.
pub(crate) fn at(value: f64) -> String {
    let text = format!("{value:.1}");
    match text.as_str() {
        "-0.0" => "0.0".to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_and_numbers_are_stable() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(at(-0.04), "0.0");
        assert_eq!(at(12.345), "12.3");
    }
}
