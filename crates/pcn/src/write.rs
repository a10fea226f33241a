//! Deterministic writers.

use crate::model::Game;
use serde_json::Value;

/// The document as a `serde_json::Value`, keys in the seed's order.
pub fn to_value(g: &Game) -> Value {
    // Serialising our own types into a Value cannot fail: every map key is a string and
    // no float is produced by the model itself.
    serde_json::to_value(g).unwrap_or(Value::Null)
}

/// Compact JSON, no whitespace.
pub fn to_string(g: &Game) -> String {
    to_value(g).to_string()
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
