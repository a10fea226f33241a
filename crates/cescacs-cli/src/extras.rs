//! The options of issue 32 on `convert` and `select`: tags added to each game (`--eco`,
//! `--plycount`, `--hash`, `--fix-results`) and the layout of the games written. Their
//! meaning is `cescacs-convert`'s ([`Annotate`], [`EcoRange`], [`Layout`]); this file only
//! names them on the command line.

use cescacs_convert::{Annotate, EcoRange, Layout};
use std::path::PathBuf;

/// Tags `convert` adds to every game written.
#[derive(clap::Args, Debug, Default)]
pub struct ConvertExtras {
    /// Add ECO, Opening and Variation tags to chess games, from the lichess
    /// chess-openings table matched by position (docs/select.md).
    #[arg(long)]
    eco: bool,
    /// Add a PlyCount tag (main-line half-moves) to every game.
    #[arg(long)]
    plycount: bool,
    /// Add a HashCode tag: the game's 64-bit key from its start position and
    /// main-line moves (docs/select.md).
    #[arg(long)]
    hash: bool,
    /// Set the Result tag from the game's end: checkmate or stalemate of the final
    /// position, else the movetext's result marker (a warning when they disagree).
    #[arg(long)]
    fix_results: bool,
    #[command(flatten)]
    pub layout: LayoutArgs,
}

impl ConvertExtras {
    /// The library's settings.
    pub fn annotate(&self) -> Annotate {
        Annotate {
            eco: self.eco,
            plycount: self.plycount,
            hash: self.hash,
            fix_results: self.fix_results,
        }
    }
}

/// How the games written are laid out and cut (pgn-extract's `--fencomments`, `-w`,
/// `--nomovenumbers`, `--noresults`, `--plylimit`, `--splitvariants`).
#[derive(clap::Args, Debug, Default)]
#[command(next_help_heading = "Layout of the games written")]
pub struct LayoutArgs {
    /// A comment after each main-line move holding the position: FEN (chess,
    /// xiangqi) or TLPD (C'escacs).
    #[arg(long)]
    fen_comments: bool,
    /// Write only the first N half-moves of each game's main line.
    #[arg(long, value_name = "N")]
    ply_limit: Option<usize>,
    /// Movetext lines of at most N characters (PGN, xiangqi PGN; default 80).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    line_length: Option<u64>,
    /// No move numbers in the movetext (PGN, xiangqi PGN).
    #[arg(long)]
    no_move_numbers: bool,
    /// No result marker at the end of the movetext (the Result tag stays).
    #[arg(long)]
    no_results: bool,
    /// Write each variation as a game of its own (after the main line, without
    /// variations; each with the moves before it and result *).
    #[arg(long)]
    split_variations: bool,
}

impl LayoutArgs {
    /// The library's settings.
    pub fn layout(&self) -> Layout {
        Layout {
            fen_comments: self.fen_comments,
            ply_limit: self.ply_limit,
            line_length: self.line_length.map(|n| n as usize),
            no_move_numbers: self.no_move_numbers,
            no_results: self.no_results,
            split_variations: self.split_variations,
        }
    }
}

/// Tags `select` adds to every game written, and its opening filter.
#[derive(clap::Args, Debug, Default)]
pub struct SelectExtras {
    /// Add ECO, Opening and Variation tags to chess games (lichess chess-openings
    /// table, by position); with a RANGE (`A00-B99`, `B33`, `C`, `A00-A99,E60`) keep
    /// only the chess games whose opening is in it. The word after --eco is its RANGE
    /// only when it reads as one (`--eco games.pgn` takes no range).
    #[arg(long, value_name = "RANGE", num_args = 0..=1, default_missing_value = "")]
    eco: Option<EcoArg>,
    /// Add a PlyCount tag (main-line half-moves) to every game written.
    #[arg(long)]
    plycount: bool,
    /// Add a HashCode tag: the game's 64-bit key from its start position and
    /// main-line moves (docs/select.md).
    #[arg(long)]
    hash: bool,
    /// Set the Result tag from the game's end: checkmate or stalemate of the final
    /// position, else the movetext's result marker (a warning when they disagree).
    #[arg(long)]
    fix_results: bool,
    /// Stop writing after N selected games (the games after them are not written).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after: Option<u64>,
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Write the duplicates dropped to this file (implies --dedupe), as they were
    /// (or converted with --to), written safely like -o.
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<PathBuf>,
    /// Write every game not selected, and every bad game, to this file as it was,
    /// written safely like -o.
    #[arg(long, value_name = "FILE")]
    pub rejected: Option<PathBuf>,
    /// Write the selected games into files of N games in the directory -o DIR
    /// (1.pgn, 2.pgn, …; created when missing), each written safely like -o.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub split: Option<u64>,
    /// Write the selected games into one file per value of a tag, or per ECO code of
    /// their opening (`eco`, by position), in the directory -o DIR (B33.pgn, …;
    /// a game without the tag or opening goes to _.pgn).
    #[arg(long, value_name = "TAG|eco")]
    pub split_by: Option<cescacs_convert::SplitBy>,
}

/// The command line with each `--eco` whose next word is not an ECO range written
/// `--eco=` (no range), so that `select --eco games.pgn` adds the tags to the games of
/// `games.pgn` instead of reading the file name as a range. A word that reads as a
/// range (`B33`, `C`, `A00-B99`) is still `--eco`'s.
pub fn eco_without_range(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = args.into_iter().collect();
    // `convert --eco` is a switch: only `select`'s takes a range.
    let Some(select) = args.iter().position(|a| a == "select") else {
        return args;
    };
    for i in select + 1..args.len() {
        if args[i] != "--eco" {
            continue;
        }
        let range = args
            .get(i + 1)
            .and_then(|w| w.to_str())
            .is_some_and(|w| w.parse::<EcoRange>().is_ok());
        if !range {
            args[i] = "--eco=".into();
        }
    }
    args
}

/// `--eco` on `select`: every opening (no value), or a range.
#[derive(Debug, Clone)]
pub struct EcoArg(Option<EcoRange>);

impl std::str::FromStr for EcoArg {
    type Err = String;

    fn from_str(s: &str) -> Result<EcoArg, String> {
        // `--eco` without a value (clap gives the empty string): tags only.
        if s.is_empty() {
            return Ok(EcoArg(None));
        }
        s.parse().map(|r| EcoArg(Some(r)))
    }
}

impl SelectExtras {
    /// The library's settings.
    pub fn annotate(&self) -> Annotate {
        Annotate {
            eco: self.eco.is_some(),
            plycount: self.plycount,
            hash: self.hash,
            fix_results: self.fix_results,
        }
    }

    /// The side output files, named for messages.
    pub fn side_outputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        let named = [
            ("--duplicates", &self.duplicates),
            ("--rejected", &self.rejected),
        ];
        named
            .into_iter()
            .filter_map(|(n, p)| Some((n, p.as_deref()?)))
            .collect()
    }

    /// The library's settings of each game's selection.
    pub fn selection(&self) -> cescacs_convert::SelectionExtras {
        cescacs_convert::SelectionExtras {
            eco: self.eco_range().cloned(),
            rejected: self.rejected.is_some(),
            split_by: self.split_by.clone(),
        }
    }

    /// The opening filter, when a range was given.
    pub fn eco_range(&self) -> Option<&EcoRange> {
        self.eco.as_ref().and_then(|e| e.0.as_ref())
    }
}
