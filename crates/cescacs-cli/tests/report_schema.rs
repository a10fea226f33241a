//! The report (`--report`) against its documented JSON Schema, `docs/report.schema.json`,
//! for every command and both shapes (`.json`, `.jsonl`), with a small validator of the
//! keywords the schema uses (`type`, `enum`, `const`, `minimum`, `required`,
//! `properties`, `additionalProperties: false`, `items`, `anyOf`, `$ref` into `$defs`):
//! a keyword it does not know fails the test, so the schema cannot outgrow the check.
//! Also: errors are located at the error (`byte_offset`), not at the game's start, and
//! each command names its counts (a `check` report has no `games_converted`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn schema() -> Value {
    let path = test_support::workspace_root().join("docs/report.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The errors of `value` against `schema` (`root` holds the `$defs`), at `path`.
fn validate(root: &Value, schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    let Value::Object(keywords) = schema else {
        panic!("{path}: a schema is an object");
    };
    for (key, want) in keywords {
        match key.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" => {}
            "$ref" => {
                let name = want
                    .as_str()
                    .unwrap()
                    .strip_prefix("#/$defs/")
                    .expect("a local $ref");
                validate(root, &root["$defs"][name], value, path, errors);
            }
            "type" => {
                let ok = match want.as_str().unwrap() {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "integer" => value.is_u64() || value.is_i64(),
                    "boolean" => value.is_boolean(),
                    other => panic!("type {other} not known to the validator"),
                };
                if !ok {
                    errors.push(format!("{path}: not of type {want}: {value}"));
                }
            }
            "enum" => {
                if !want.as_array().unwrap().contains(value) {
                    errors.push(format!("{path}: {value} not in {want}"));
                }
            }
            "const" => {
                if want != value {
                    errors.push(format!("{path}: {value} is not {want}"));
                }
            }
            "minimum" => {
                if value.as_f64().is_some_and(|v| v < want.as_f64().unwrap()) {
                    errors.push(format!("{path}: {value} below {want}"));
                }
            }
            "required" => {
                for name in want.as_array().unwrap() {
                    let name = name.as_str().unwrap();
                    if value.as_object().is_some_and(|o| !o.contains_key(name)) {
                        errors.push(format!("{path}: {name} missing"));
                    }
                }
            }
            "properties" => {
                if let Some(object) = value.as_object() {
                    for (name, v) in object {
                        if let Some(s) = want.get(name) {
                            validate(root, s, v, &format!("{path}.{name}"), errors);
                        }
                    }
                }
            }
            "additionalProperties" => {
                assert_eq!(want, &Value::Bool(false), "only `false` is known");
                if let Some(object) = value.as_object() {
                    for name in object.keys() {
                        if keywords["properties"].get(name).is_none() {
                            errors.push(format!("{path}: {name} is not in the schema"));
                        }
                    }
                }
            }
            "items" => {
                for (i, v) in value.as_array().into_iter().flatten().enumerate() {
                    validate(root, want, v, &format!("{path}[{i}]"), errors);
                }
            }
            "anyOf" => {
                let fits = want.as_array().unwrap().iter().any(|s| {
                    let mut e = Vec::new();
                    validate(root, s, value, path, &mut e);
                    e.is_empty()
                });
                if !fits {
                    errors.push(format!("{path}: fits none of anyOf: {value}"));
                }
            }
            other => panic!("keyword {other} not known to the validator"),
        }
    }
}

fn check_against(def: &str, value: &Value) {
    let root = schema();
    let mut errors = Vec::new();
    validate(&root, &root["$defs"][def], value, "$", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}\n{value:#}");
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{args:?}: {out:?}"
    );
}

/// Two games: a good one, and one with an illegal move at line 9, column 13.
const GAMES: &str = "[Event \"a\"]\n[White \"x\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[White \"y\"]\n\n1. e4 e5 2. Ke3 *\n";

fn reports(command: &[&str], name: &str) -> (Value, Vec<Value>) {
    let dir = scratch();
    let input = dir.join(format!("{name}.pgn"));
    std::fs::write(&input, GAMES).unwrap();
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let (json, jsonl) = (
        dir.join(format!("{name}.json")),
        dir.join(format!("{name}.jsonl")),
    );
    for report in [&json, &jsonl] {
        let mut args = command.to_vec();
        args.extend([
            "--report",
            report.to_str().unwrap(),
            input.to_str().unwrap(),
        ]);
        run(&args);
    }
    let document: Value = serde_json::from_str(&read(&json)).unwrap();
    let lines = read(&jsonl)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (document, lines)
}

#[test]
fn every_command_writes_a_report_that_fits_the_schema() {
    let out = scratch().join("out.pgn");
    let commands: [(&[&str], &str, &str); 3] = [
        (&["check"], "check", "games_valid"),
        (
            &["convert", "--to", "pgn", "-o", out.to_str().unwrap()],
            "convert",
            "games_converted",
        ),
        (
            &["select", "--player", "y", "--count"],
            "select",
            "games_without_error",
        ),
    ];
    for (args, command, good) in commands {
        let (document, lines) = reports(args, command);
        check_against("document", &document);
        lines.iter().for_each(|l| check_against("line", l));
        let summary = &lines.last().unwrap()["summary"];
        check_against("summaryLine", lines.last().unwrap());
        for s in [&document, summary] {
            assert_eq!(s["command"], command);
            assert!(s.get(good).is_some(), "{command}: {good} in {s}");
            for other in ["games_valid", "games_converted", "games_without_error"] {
                assert!(
                    other == good || s.get(other).is_none(),
                    "{command} says {other}: {s}"
                );
            }
        }
    }
}

#[test]
fn errors_are_located_at_the_error() {
    let (document, _) = reports(&["check"], "located");
    let d = &document["diagnostics"][0];
    assert_eq!(
        (d["game"].as_u64(), d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(9), Some(13))
    );
    let at = d["byte_offset"].as_u64().unwrap() as usize;
    assert!(
        GAMES[at..].starts_with("Ke3"),
        "byte_offset {at}: {:?}",
        &GAMES[at..]
    );
    let start = d["game_offset"].as_u64().unwrap() as usize;
    assert!(GAMES[start..].starts_with("[Event \"b\"]"), "{start}");
}

#[test]
fn the_validator_refuses_what_the_schema_forbids() {
    let mut bad = serde_json::json!({"severity": "fatal", "file": "f", "game": 1, "line": 1,
        "column": 1, "byte_offset": 0, "game_offset": 0, "message": "m", "extra": 1});
    let root = schema();
    let mut errors = Vec::new();
    validate(&root, &root["$defs"]["diagnostic"], &bad, "$", &mut errors);
    assert_eq!(errors.len(), 2, "{errors:?}");
    bad["severity"] = "error".into();
    bad.as_object_mut().unwrap().remove("extra");
    bad.as_object_mut().unwrap().remove("line");
    errors.clear();
    validate(&root, &root["$defs"]["diagnostic"], &bad, "$", &mut errors);
    assert_eq!(errors, ["$: line missing"]);
}
