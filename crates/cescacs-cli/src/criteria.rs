//! `select`'s tag criteria and position conditions (issue 32, part B): the options
//! only; what they mean is `cescacs_convert`'s (`Glob::loose`, `TagCriterion`,
//! `read_criteria`).

use cescacs_convert::{BoardPattern, BoardTest, Filter, Glob, Material, TagCriterion};
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
    fen_pattern: Vec<BoardPattern>,
    /// The main line reaches one of the boards listed in FILE (a FEN, board-only FEN or
    /// pattern a line; `%` or `#` starts a comment line).
    #[arg(long, value_name = "FILE", help_heading = "Position criteria")]
    positions: Option<PathBuf>,
    /// The main line reaches this material, either side's view (pgn-extract -z: `QR2 R`,
    /// `R+P* R`; or `Q+R vs R`); repeatable, any one (docs/select.md).
    #[arg(long, value_name = "SIGNATURE", help_heading = "Position criteria")]
    material: Vec<Material>,
}

impl Criteria {
    /// Adds these conditions to `filter`; an error names the option or the file's line.
    pub(crate) fn apply(&self, filter: &mut Filter) -> Result<(), String> {
        let text = |t: &str| match self.exact {
            true => Ok(Glob::exact(t)),
            false => Glob::loose(t),
        };
        if let Some(p) = &self.player {
            filter.player = Some(text(p).map_err(|e| format!("--player: {e}"))?);
        }
        for (name, value) in [("Event", &self.event), ("Site", &self.site)] {
            if let Some(v) = value {
                let c = TagCriterion::new(name, cescacs_convert::Compare::Eq, v, self.exact)?;
                filter.criteria.push(vec![c]);
            }
        }
        for t in &self.tags {
            let c = TagCriterion::parse(t, self.exact).map_err(|e| format!("--tag: {e}"))?;
            filter.criteria.push(vec![c]);
        }
        if let Some(path) = &self.criteria {
            let file = std::fs::read_to_string(path)
                .map_err(|e| format!("--criteria {}: {e}", path.display()))?;
            let groups = cescacs_convert::read_criteria(&file, self.exact)
                .map_err(|e| format!("--criteria {}: {e}", path.display()))?;
            filter.criteria.extend(groups);
        }
        filter.any = self.any;
        let mut boards: Vec<BoardTest> = self
            .fen_pattern
            .iter()
            .cloned()
            .map(BoardTest::Pattern)
            .collect();
        if let Some(path) = &self.positions {
            let fail = |e: String| format!("--positions {}: {e}", path.display());
            let file = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
            for (n, line) in file.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with(['%', '#']) {
                    continue;
                }
                let board = line
                    .parse()
                    .map_err(|e| fail(format!("line {}: {e}", n + 1)))?;
                boards.push(BoardTest::Pattern(board));
            }
            if boards.is_empty() {
                return Err(fail("no position in the file".into()));
            }
        }
        if !boards.is_empty() {
            filter.reach.push(boards);
        }
        if !self.material.is_empty() {
            filter.reach.push(
                self.material
                    .iter()
                    .cloned()
                    .map(BoardTest::Material)
                    .collect(),
            );
        }
        Ok(())
    }
}
