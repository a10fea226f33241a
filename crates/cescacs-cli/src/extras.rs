//! The options of issue 32 part A on `convert` and `select`: tags added to each game
//! (`--eco`, `--plycount`, `--hash`). Their meaning is `cescacs-convert`'s ([`Annotate`],
//! [`EcoRange`]); this file only names them on the command line.

use cescacs_convert::{Annotate, EcoRange};
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
}

impl ConvertExtras {
    /// The library's settings.
    pub fn annotate(&self) -> Annotate {
        Annotate {
            eco: self.eco,
            plycount: self.plycount,
            hash: self.hash,
        }
    }
}

/// Tags `select` adds to every game written, and its opening filter.
#[derive(clap::Args, Debug, Default)]
pub struct SelectExtras {
    /// Add ECO, Opening and Variation tags to chess games (lichess chess-openings
    /// table, by position); with a RANGE (`A00-B99`, `B33`, `C`, `A00-A99,E60`) keep
    /// only the chess games whose opening is in it. Without a RANGE, put it after the
    /// inputs or before another option.
    #[arg(long, value_name = "RANGE", num_args = 0..=1, default_missing_value = "")]
    eco: Option<EcoArg>,
    /// Add a PlyCount tag (main-line half-moves) to every game written.
    #[arg(long)]
    plycount: bool,
    /// Add a HashCode tag: the game's 64-bit key from its start position and
    /// main-line moves (docs/select.md).
    #[arg(long)]
    hash: bool,
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
        s.parse().map(|r| EcoArg(Some(r))).map_err(|e| {
            if std::path::Path::new(s).exists() {
                format!("{e} ({s} is a file: write --eco after the inputs to add the tags without selecting)")
            } else {
                e
            }
        })
    }
}

impl SelectExtras {
    /// The library's settings.
    pub fn annotate(&self) -> Annotate {
        Annotate {
            eco: self.eco.is_some(),
            plycount: self.plycount,
            hash: self.hash,
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
