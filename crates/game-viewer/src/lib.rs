//! Every position of a game record, and a self-contained HTML page to look at games.
//!
//! * [`steps`]: a record of any format ([`cescacs_convert::Record`]: CTL-PGN, classic
//!   PGN, xiangqi PGN, PCN) as its start position and the position after every
//!   half-move of the main line and of every variation, with the moves as the source
//!   wrote them, comments, NAGs, clocks and evaluations. `cescacs replay --each` and
//!   `cescacs show INPUT --game N --ply K` print these positions.
//! * [`pages`]: one HTML file holding games, their boards drawn by `board-svg`, that
//!   steps through them in a browser without any network request (`cescacs view`).
//!   The positions are computed here; the page's script only places the men.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod jobs;
mod page;
mod play;
mod steps;

pub use jobs::{Plies, game_json, game_value, ply_svg, position_lines};
pub use page::{MAX_GAMES_PER_PAGE, PageWriter, pages, write_pages};
pub use play::{PlayError, PlayMove, XiangqiNotation, legal_moves, play, show, start};
pub use steps::{GameSteps, Shown, Step, StepsError, picture, steps};
