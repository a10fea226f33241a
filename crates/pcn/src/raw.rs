//! First pass: JSON text to a raw tree that keeps duplicate keys detectable and
//! remembers where a syntax error happened.
//!
//! `serde_json::Value` silently keeps the last of two equal keys and loses the location
//! of an error inside nested data, so we build our own tree through a `DeserializeSeed`
//! that pushes/pops a shared path stack: when parsing fails, the stack still holds the
//! path of the value being read.

use crate::error::{JsonPath, ReadError, Reason, Segment};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Raw {
    Null,
    Bool(bool),
    Num(Number),
    Str(String),
    Arr(Vec<Raw>),
    Obj(Vec<(String, Raw)>),
}

impl Raw {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Raw::Null => "null",
            Raw::Bool(_) => "a boolean",
            Raw::Num(_) => "a number",
            Raw::Str(_) => "a string",
            Raw::Arr(_) => "an array",
            Raw::Obj(_) => "an object",
        }
    }

    pub(crate) fn to_value(&self) -> Value {
        match self {
            Raw::Null => Value::Null,
            Raw::Bool(b) => Value::Bool(*b),
            Raw::Num(n) => Value::Number(n.clone()),
            Raw::Str(s) => Value::String(s.clone()),
            Raw::Arr(v) => Value::Array(v.iter().map(Raw::to_value).collect()),
            Raw::Obj(v) => {
                Value::Object(v.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }
}

pub(crate) struct Tracker {
    path: RefCell<Vec<Segment>>,
    duplicate: RefCell<Option<String>>,
}

impl Tracker {
    pub(crate) fn new() -> Tracker {
        Tracker {
            path: RefCell::new(Vec::new()),
            duplicate: RefCell::new(None),
        }
    }
    pub(crate) fn path(&self) -> JsonPath {
        JsonPath(self.path.borrow().clone())
    }
    pub(crate) fn duplicate(&self) -> Option<String> {
        self.duplicate.borrow().clone()
    }
}

/// Reads one value. `segment` is the value's place in its parent; it is pushed only
/// once the deserializer actually starts the value, so an error in the text *between*
/// values (a missing `,`, the end of input) is reported at the enclosing container.
/// The parent pops it after a success.
pub(crate) struct RawSeed<'t> {
    pub(crate) tracker: &'t Tracker,
    pub(crate) segment: Option<Segment>,
}

impl<'t> RawSeed<'t> {
    pub(crate) fn root(tracker: &'t Tracker) -> Self {
        RawSeed {
            tracker,
            segment: None,
        }
    }
}

impl<'de> DeserializeSeed<'de> for RawSeed<'_> {
    type Value = Raw;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        if let Some(seg) = self.segment {
            self.tracker.path.borrow_mut().push(seg);
        }
        d.deserialize_any(RawVisitor(self.tracker))
    }
}

struct RawVisitor<'t>(&'t Tracker);

impl<'de> Visitor<'de> for RawVisitor<'_> {
    type Value = Raw;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Raw, E> {
        Ok(Raw::Num(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Raw, E> {
        Ok(Raw::Num(n.into()))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Raw, E> {
        Number::from_f64(n)
            .map(Raw::Num)
            .ok_or_else(|| E::custom("number is not finite"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Raw, E> {
        Ok(Raw::Str(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Raw, E> {
        Ok(Raw::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut out = Vec::new();
        loop {
            let seed = RawSeed {
                tracker: self.0,
                segment: Some(Segment::Index(out.len())),
            };
            match seq.next_element_seed(seed)? {
                Some(v) => out.push(v),
                None => break,
            }
            self.0.path.borrow_mut().pop();
        }
        Ok(Raw::Arr(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut out: Vec<(String, Raw)> = Vec::new();
        let mut seen = HashSet::new();
        while let Some(k) = map.next_key::<String>()? {
            if !seen.insert(k.clone()) {
                *self.0.duplicate.borrow_mut() = Some(k);
                return Err(de::Error::custom("duplicate key"));
            }
            let seed = RawSeed {
                tracker: self.0,
                segment: Some(Segment::Key(k.clone())),
            };
            let v = map.next_value_seed(seed)?;
            self.0.path.borrow_mut().pop();
            out.push((k, v));
        }
        Ok(Raw::Obj(out))
    }
}

/// Parses JSON text into the raw tree, with a located error on failure. Bytes rather
/// than `&str` so that invalid UTF-8 inside a string is reported at that string's path.
pub(crate) fn parse(text: &[u8]) -> Result<Raw, ReadError> {
    let tracker = Tracker::new();
    let mut de = serde_json::Deserializer::from_slice(text);
    let result = RawSeed::root(&tracker)
        .deserialize(&mut de)
        .and_then(|raw| de.end().map(|()| raw));
    result.map_err(|e| {
        let path = tracker.path();
        if let Some(k) = tracker.duplicate() {
            // Reported at the object that holds the key twice.
            return ReadError {
                path,
                reason: Reason::DuplicateKey(k),
            };
        }
        syntax_error(path, &e)
    })
}

fn syntax_error(path: JsonPath, e: &serde_json::Error) -> ReadError {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    ReadError {
        path,
        reason: Reason::Syntax {
            message,
            line: e.line(),
            column: e.column(),
        },
    }
}
