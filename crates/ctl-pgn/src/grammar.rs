//! The parser generated from `grammar/ctl-pgn.pest` (the readable grammar). `Rule`
//! names the grammar's rules; see the grammar file for their meaning.
//!
//! pest_derive reads `src/ctl-pgn.pest`, a byte-identical copy of the workspace's
//! normative `grammar/ctl-pgn.pest`: a path outside the crate would not be in the
//! published package. `cargo test -p xtask` and `cargo xtask package-check` fail when
//! the two differ.
#![allow(missing_docs)]

/// Parser for `Rule::game` (one record) and `Rule::file` (a whole file).
// pest_derive resolves the path against this crate's `src` directory.
#[derive(pest_derive::Parser)]
#[grammar = "ctl-pgn.pest"]
pub struct CtlPgnParser;
