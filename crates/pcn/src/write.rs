//! Deterministic writers.

use crate::error::{JsonPath, ReadError, Reason, Segment};
use crate::model::{Game, WithTail};
use serde_json::Value;

/// The document as a `serde_json::Value`, keys in the seed's order.
pub fn to_value(g: &Game) -> Value {
    // Serialising our own types into a Value cannot fail: every map key is a string and
    // no float is produced by the model itself.
    serde_json::to_value(g).unwrap_or(Value::Null)
}

/// Compact JSON, no whitespace.
pub fn to_string(g: &Game) -> String {
    let mut out = Vec::new();
    write_to(g, &mut out);
    // serde_json writes UTF-8 only (strings come from `String`s and escapes).
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Appends the compact JSON of `g` (the bytes of [`to_string`]) to `out`, serialising
/// the model straight into the buffer: no intermediate `serde_json::Value`, so a caller
/// that reuses `out` writes a document with no allocation of its own.
pub fn write_to(g: &Game, out: &mut Vec<u8>) {
    let start = out.len();
    // A document whose maps could name a key twice (an extension key equal to a seed
    // key, which a validated document never has) goes through `Value`, whose maps keep
    // one entry per key: the output stays the same whichever path writes it.
    if !may_repeat_key(g) {
        out.reserve(512 + 24 * g.previous_moves.len());
        if serde_json::to_writer(&mut *out, g).is_ok() {
            return;
        }
        out.truncate(start);
    }
    out.extend_from_slice(to_value(g).to_string().as_bytes());
}

/// Appends the compact JSON of `g` with one more extension entry, `key: value`, after
/// its own extension keys: the bytes [`write_to`] appends for the document whose
/// `extensions` end with `key` holding `serde_json::to_value(value)`, but the value is
/// serialised straight into `out`. A converter thus writes a large extension block
/// from its own typed model, with no `serde_json::Value` tree built and dropped per
/// document.
///
/// `key` must be an extension key (see [`crate::from_str`]) that `g.extensions` does
/// not hold, and `value` must serialise to JSON (string map keys): otherwise nothing
/// is appended and the error says why (for a bad key, in the words of the
/// [`ReadError`] a reader would give).
pub fn write_to_with<T: serde::Serialize + ?Sized>(
    g: &Game,
    key: &str,
    value: &T,
    out: &mut Vec<u8>,
) -> serde_json::Result<()> {
    use serde::ser::Error;
    let refuse = |reason: Reason| {
        let at = JsonPath(vec![Segment::Key(key.to_owned())]);
        serde_json::Error::custom(ReadError::new(&at, reason))
    };
    if !crate::read::is_extension_key(key) {
        return Err(refuse(Reason::BadExtensionKey(key.to_owned())));
    }
    if g.extensions.contains_key(key) {
        return Err(refuse(Reason::DuplicateKey(key.to_owned())));
    }
    let start = out.len();
    let doc = WithTail {
        game: g,
        key,
        value,
    };
    let written = if may_repeat_key(g) {
        // As in `write_to`: `Value`'s maps keep one entry per key.
        serde_json::to_value(&doc).and_then(|v| serde_json::to_writer(&mut *out, &v))
    } else {
        out.reserve(1024 + 24 * g.previous_moves.len());
        serde_json::to_writer(&mut *out, &doc)
    };
    written.inspect_err(|_| out.truncate(start))
}

/// Whether some map of the document would be given the same key twice by `Serialize`.
fn may_repeat_key(g: &Game) -> bool {
    use crate::model::{Cache, Move, SideCache};
    let moves_repeat = |moves: &[Move]| {
        moves.iter().flat_map(|m| &m.0).any(|a| {
            a.options
                .as_ref()
                .is_some_and(|o| o.promotion.is_some() && o.extensions.contains_key("promotion"))
        })
    };
    let side_repeats = |s: &Option<SideCache>| {
        s.as_ref().is_some_and(|s| {
            (s.dropable_pieces.is_some() && s.other.contains_key("dropable_pieces"))
                || (s.captures.is_some() && s.other.contains_key("captures"))
        })
    };
    let cache_repeats = |c: &Cache| {
        (c.current_position.is_some() && c.other.contains_key("current_position"))
            || (c.possible_moves.is_some() && c.other.contains_key("possible_moves"))
            || (c.topside.is_some() && c.other.contains_key("topside"))
            || (c.bottomside.is_some() && c.other.contains_key("bottomside"))
            || side_repeats(&c.topside)
            || side_repeats(&c.bottomside)
            || c.possible_moves.as_deref().is_some_and(moves_repeat)
    };
    let fixed = [
        ("started_at", g.started_at.is_some()),
        ("topside_player", g.topside_player.is_some()),
        ("bottomside_player", g.bottomside_player.is_some()),
        ("over?", true),
        ("...result?", true),
        ("starting_position", true),
        ("previous_moves", true),
        ("...cache", g.cache.is_some()),
    ];
    fixed
        .iter()
        .any(|(k, written)| *written && g.extensions.contains_key(*k))
        || moves_repeat(&g.previous_moves)
        || g.cache.as_ref().is_some_and(cache_repeats)
}

/// Pretty JSON for people: objects one key per line, indented by two spaces; an array
/// that holds no object and fits in 80 columns on one line (board rows, actions, short
/// moves) stays on one line. The layout depends only on the data, so it is
/// deterministic and idempotent.
pub fn to_string_pretty(g: &Game) -> String {
    let mut out = String::new();
    pretty(&to_value(g), 0, &mut out);
    out.push('\n');
    out
}

const WIDTH: usize = 80;

fn pretty(v: &Value, indent: usize, out: &mut String) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, val)) in m.iter().enumerate() {
                push_indent(indent + 1, out);
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                pretty(val, indent + 1, out);
                if i + 1 < m.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            push_indent(indent, out);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            if !contains_object(v) {
                let inline = spaced(a);
                if inline.len() + indent * 2 <= WIDTH {
                    out.push_str(&inline);
                    return;
                }
            }
            out.push_str("[\n");
            for (i, item) in a.iter().enumerate() {
                push_indent(indent + 1, out);
                pretty(item, indent + 1, out);
                if i + 1 < a.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            push_indent(indent, out);
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn spaced(a: &[Value]) -> String {
    let parts: Vec<String> = a
        .iter()
        .map(|x| match x {
            Value::Array(inner) if !inner.is_empty() => spaced(inner),
            other => other.to_string(),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn contains_object(v: &Value) -> bool {
    match v {
        Value::Object(_) => true,
        Value::Array(a) => a.iter().any(contains_object),
        _ => false,
    }
}

fn push_indent(n: usize, out: &mut String) {
    for _ in 0..n {
        out.push_str("  ");
    }
}
