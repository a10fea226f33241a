//! The parser generated from `grammar/ctl-pgn.pest` (the readable grammar). `Rule`
//! names the grammar's rules; see the grammar file for their meaning.
#![allow(missing_docs)]

/// Parser for `Rule::game` (one record) and `Rule::file` (a whole file).
// pest_derive resolves the path against this crate's `src` directory.
#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/ctl-pgn.pest"]
pub struct CtlPgnParser;
