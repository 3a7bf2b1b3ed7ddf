//! Removing a key from the config file without its neighbours' comments: the comment lines
//! above a key are kept in the file, moved onto whatever comes next, since only the user knows
//! what they describe (a file header, a section note, a commented-out alternative).

use toml_edit::{DocumentMut, Item, Table};

/// Removes `key` from the table of `profile` (the top level without one), keeping the comment
/// lines above it; false if it was not there.
pub(super) fn remove_keeping_comments(
    doc: &mut DocumentMut,
    profile: Option<&str>,
    key: &str,
) -> bool {
    let Some(table) = table_mut(doc, profile) else {
        return false;
    };
    let Some(index) = table.iter().position(|(name, _)| name == key) else {
        return false;
    };
    let comments = table
        .key(key)
        .and_then(|k| k.leaf_decor().prefix())
        .and_then(|p| p.as_str())
        .filter(|p| p.contains('#'))
        .map(str::to_owned);
    let position = table.position();
    table.remove(key);
    if let Some(comments) = comments {
        if !put_above_next_key(table, index, &comments) {
            // The top level's keys come before every header; a profile's before the next one.
            put_above_next_header(doc, profile.and(position), &comments);
        }
    }
    true
}

/// Puts `comments` above the first line from `index` on in `table` (a value, or a dotted key
/// such as `profiles.ci.retries = 1`); false if there is none.
fn put_above_next_key(table: &mut Table, index: usize, comments: &str) -> bool {
    let next = table
        .iter()
        .skip(index)
        .find(|(_, item)| on_a_line(item))
        .map(|(name, _)| name.to_owned());
    match next {
        Some(name) => put_above_line(table, &name, comments),
        None => false,
    }
}

/// A value, or a dotted table: what starts a `key = value` line of its table.
fn on_a_line(item: &Item) -> bool {
    item.is_value() || item.as_table().is_some_and(Table::is_dotted)
}

/// Puts `comments` above the line of `name` in `table`. A dotted key's line is written with
/// the decor of its last part (`retries` of `profiles.ci.retries`), found by going down.
fn put_above_line(table: &mut Table, name: &str, comments: &str) -> bool {
    if let Some(dotted) = table.get_mut(name).and_then(Item::as_table_mut) {
        let first = dotted
            .iter()
            .find(|(_, item)| on_a_line(item))
            .map(|(inner, _)| inner.to_owned());
        return first.is_some_and(|inner| put_above_line(dotted, &inner, comments));
    }
    let Some(mut key) = table.key_mut(name) else {
        return false;
    };
    let decor = key.leaf_decor_mut();
    let old = prefix_of(decor.prefix());
    decor.set_prefix(format!("{comments}{old}"));
    true
}

/// Puts `comments` above the first table header after document position `after`, or at the
/// end of the file when none follows.
fn put_above_next_header(doc: &mut DocumentMut, after: Option<isize>, comments: &str) {
    match next_table(doc.as_table_mut(), after) {
        Some(table) => {
            let decor = table.decor_mut();
            let old = prefix_of(decor.prefix());
            decor.set_prefix(format!("{comments}{old}"));
        }
        None => {
            let old = doc.trailing().as_str().unwrap_or("").to_owned();
            doc.set_trailing(format!("{comments}{old}"));
        }
    }
}

fn prefix_of(prefix: Option<&toml_edit::RawString>) -> String {
    prefix.and_then(|p| p.as_str()).unwrap_or("").to_owned()
}

/// The table a profile (or the top level) keeps its keys in, when it is a `[header]` table.
fn table_mut<'d>(doc: &'d mut DocumentMut, profile: Option<&str>) -> Option<&'d mut Table> {
    let root = doc.as_table_mut();
    match profile {
        None => Some(root),
        Some(name) => root
            .get_mut("profiles")?
            .as_table_mut()?
            .get_mut(name)?
            .as_table_mut(),
    }
}

/// The header table shown first after document position `after` (after none: the first).
fn next_table(root: &mut Table, after: Option<isize>) -> Option<&mut Table> {
    let mut positions = Vec::new();
    header_positions(root, &mut positions);
    let first = positions
        .into_iter()
        .filter(|p| after.is_none_or(|a| *p > a))
        .min()?;
    table_at(root, first)
}

/// The document positions of every `[header]` table under `table`.
fn header_positions(table: &Table, into: &mut Vec<isize>) {
    for (_, item) in table.iter() {
        if let Item::Table(table) = item {
            into.extend(table.position().filter(|_| !table.is_implicit()));
            header_positions(table, into);
        }
    }
}

fn table_at(table: &mut Table, position: isize) -> Option<&mut Table> {
    for (_, item) in table.iter_mut() {
        let Item::Table(table) = item else { continue };
        if table.position() == Some(position) && !table.is_implicit() {
            return Some(table);
        }
        if let Some(found) = table_at(table, position) {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_stays_above_the_dotted_key_that_follows() {
        let text = "# head\n\n# about timeout\ntimeout = 5\nprofiles.ci.retries = 1\nretries = 2\n";
        let mut doc: DocumentMut = text.parse().unwrap();
        assert!(remove_keeping_comments(&mut doc, None, "timeout"));
        assert_eq!(
            doc.to_string(),
            "# head\n\n# about timeout\nprofiles.ci.retries = 1\nretries = 2\n"
        );
    }
}
