//! Lossless conversion of C'escacs, xiangqi and classic chess game records to and from PCN.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cescacs;
pub mod chess;
mod chess_direct;
mod common;
pub mod xiangqi;

pub use common::{ConvertError, EDITION, PCN_EDITION, PGN_KEY, Warning};
