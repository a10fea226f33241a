//! TLPD (PDTL), the one-line C'escacs position string: a tolerant reader and an exact writer.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod codec;

pub use codec::{TlpdError, parse, parse_setup, parse_with, write, write_with};
