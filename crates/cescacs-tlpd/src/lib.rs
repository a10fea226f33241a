#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The reader and writer live in `cescacs_rules::tlpd`, so that `Position` implements
// `FromStr` and `Display` with them (the orphan rule forbids doing it here); this
// crate stays the notation's documented home and keeps its API.
pub use cescacs_rules::tlpd::{TlpdError, parse, parse_setup, parse_with, write, write_with};
