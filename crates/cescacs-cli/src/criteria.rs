//! `select`'s tag criteria and position conditions (issue 32, part B): the options
//! only; what they mean is `cescacs_convert`'s (`Glob::loose`, `TagCriterion`,
//! `read_criteria`).

use cescacs_convert::Filter;
use std::path::PathBuf;

/// Tag matching of `select`: case-insensitive substrings by default.
#[derive(clap::Args, Default)]
#[command(next_help_heading = "Tag criteria")]
pub(crate) struct Criteria {
    /// A tag condition, NAME=TEXT (case-insensitive substring, or a glob with * ? [..])
    /// or NAME OP VALUE with OP one of = != < <= > >= (numbers: `WhiteElo>=2700`;
    /// dates for …Date tags: `Date<2000`); repeatable, every one must hold.
    #[arg(long = "tag", value_name = "NAME=TEXT")]
    tags: Vec<String>,
    /// White, Black (or Red) contains this text (case-insensitive; a glob with * ? [..]).
    #[arg(long, value_name = "TEXT")]
    player: Option<String>,
    /// The Event tag contains this text (as --player).
    #[arg(long, value_name = "TEXT")]
    event: Option<String>,
    /// The Site tag contains this text (as --player).
    #[arg(long, value_name = "TEXT")]
    site: Option<String>,
    /// Text conditions compare the whole value, case-sensitively, with no wildcard.
    #[arg(long)]
    exact: bool,
    /// A game passes when any one tag condition holds (OR), not all of them.
    #[arg(long)]
    any: bool,
    /// Tag criteria from a file, pgn-extract -t style: `Name "value"` or
    /// `Name OP "value"` a line; lines on the same tag are ORed (docs/select.md).
    #[arg(long, value_name = "FILE")]
    criteria: Option<PathBuf>,
    /// The main line reaches a board matching this pattern (pgn-extract --fenpattern:
    /// FEN ranks with ? ! A a [..] [^..] *); repeatable, any one.
    #[arg(long, value_name = "PATTERN", help_heading = "Position criteria")]
    fen_pattern: Vec<String>,
    /// The main line reaches one of the boards listed in FILE (a FEN, board-only FEN or
    /// pattern a line; `%` or `#` starts a comment line).
    #[arg(long, value_name = "FILE", help_heading = "Position criteria")]
    positions: Option<PathBuf>,
    /// The main line reaches this material, either side's view (pgn-extract -z: `QR2 R`,
    /// `R+P* R`; or `Q+R vs R`); repeatable, any one (docs/select.md).
    #[arg(long, value_name = "SIGNATURE", help_heading = "Position criteria")]
    material: Vec<String>,
}

impl Criteria {
    /// Adds these conditions to `filter` (`cescacs_convert::Criteria` decides what they
    /// mean); an error names the option or the file's line.
    pub(crate) fn apply(&self, filter: &mut Filter) -> Result<(), String> {
        let read = |path: &Option<PathBuf>, option: &str| -> Result<_, String> {
            path.as_ref()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .map(|text| (p.display().to_string(), text))
                        .map_err(|e| format!("{option} {}: {e}", p.display()))
                })
                .transpose()
        };
        let criteria = cescacs_convert::Criteria {
            player: self.player.clone(),
            event: self.event.clone(),
            site: self.site.clone(),
            tags: self.tags.clone(),
            criteria: read(&self.criteria, "--criteria")?,
            exact: self.exact,
            any: self.any,
            fen_patterns: self.fen_pattern.clone(),
            positions: read(&self.positions, "--positions")?,
            material: self.material.clone(),
        };
        criteria.apply(filter)
    }
}
