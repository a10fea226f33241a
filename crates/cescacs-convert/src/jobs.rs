//! The per-game functions of each command over grouped inputs ([`crate::open_inputs`]):
//! check or convert, replay to the final position, select. Each becomes one
//! [`cescacs_batch::Group`] per input format, ready for a [`cescacs_batch::Session`].

use crate::{Converter, Filter, Format, InputList, Options, Record, Selection};
use cescacs_batch::{GameOutcome, Group, RawGame};
use std::hash::RandomState;

/// One [`Converter`] per format group (`to`: `None` checks only). The error names the
/// first input of a group whose format cannot be converted to `to`.
pub fn converters<'a>(
    groups: Vec<(Format, InputList)>,
    to: Option<Format>,
    options: &Options,
) -> Result<Vec<Group<'a>>, String> {
    groups
        .into_iter()
        .map(|(format, inputs)| {
            let converter = Converter::new(format, to, options.clone())
                .map_err(|e| format!("{}: {e}", inputs.first_name()))?;
            Ok(Group {
                files: Some(inputs.len()),
                total_bytes: inputs.total_bytes(),
                inputs: Box::new(inputs.into_iter()),
                process: Box::new(move |g| converter.convert(g)),
            })
        })
        .collect()
}

/// The function `cescacs replay` applies to every CTL-PGN game: the game's final
/// position as one line of TLPD, after `NAME:GAME: ` when `name` is given. A game with
/// an error has no line.
pub fn final_position_line(
    name: Option<String>,
    options: Options,
) -> impl Fn(&RawGame) -> GameOutcome + Sync {
    move |g: &RawGame| {
        let record = Record::read_with(Format::CtlPgn, g, &options);
        let mut outcome = GameOutcome {
            output: Vec::new(),
            diagnostics: record.diagnostics().to_vec(),
        };
        if let (false, Some(tlpd)) = (outcome.is_bad(), record.final_position()) {
            outcome.output = match &name {
                Some(name) => format!("{name}:{}: {tlpd}\n", g.index),
                None => format!("{tlpd}\n"),
            }
            .into_bytes();
        }
        outcome
    }
}

/// One [`Selection`] per format group, sharing the run's hash `keys`
/// ([`crate::SelectedWriter::keys`]).
pub fn selections<'a>(
    groups: Vec<(Format, InputList)>,
    filter: &Filter,
    to: Option<Format>,
    dedupe: bool,
    extras: &crate::SelectionExtras,
    options: &Options,
    keys: &(RandomState, RandomState),
) -> Result<Vec<Group<'a>>, String> {
    groups
        .into_iter()
        .map(|(format, inputs)| {
            let selection =
                Selection::new(filter.clone(), format, to, options.clone(), keys.clone())
                    .map_err(|e| format!("{}: {e}", inputs.first_name()))?
                    .dedupe(dedupe)
                    .eco(extras.eco.clone())
                    .rejected(extras.rejected)
                    .split_by(extras.split_by.clone());
            Ok(Group {
                files: Some(inputs.len()),
                total_bytes: inputs.total_bytes(),
                inputs: Box::new(inputs.into_iter()),
                process: Box::new(move |g| selection.select(g)),
            })
        })
        .collect()
}

/// How selected games are joined: `None` for PGN-like text (a blank line between
/// games, see [`crate::SelectedWriter`]), else the output format's separator. Selected
/// games of PCN inputs written as they were are joined as PCN documents.
pub fn selection_framing(
    formats: &[Format],
    to: Option<Format>,
    options: &Options,
) -> Result<(crate::OutputFraming, Option<Vec<u8>>), String> {
    let pcn = formats.contains(&Format::Pcn);
    if to.is_none() && pcn && formats.len() > 1 {
        return Err("PCN and PGN inputs cannot be written together as they were: give --to".into());
    }
    let out = to.or(pcn.then_some(Format::Pcn));
    let framing = crate::OutputFraming::of(out, options);
    let separator =
        matches!(out, Some(Format::Pcn | Format::XiangqiXml)).then(|| framing.separator.clone());
    Ok((framing, separator))
}

/// The summary line of `cescacs select`: games read, selected (written), duplicates
/// dropped, bad (a condition needed the moves and the game could not be read).
pub fn selection_summary(end: &cescacs_batch::Finished, kept: usize, duplicates: usize) -> String {
    let t = &end.summary;
    let mut line = format!(
        "{} file(s), {} game(s) read, {kept} selected, {duplicates} duplicate(s) dropped, {} bad, {} warning(s), {} error(s) in {:.2} s",
        t.files, t.games, t.games_bad, t.warnings, t.errors, end.seconds
    );
    if t.interrupted {
        line.push_str(" (interrupted: output left as it was)");
    }
    line
}

/// The note `cescacs select` prints when games were read and none was selected: what
/// the conditions mean, so that a pattern expected to match can be corrected.
pub fn no_match_note(filter: &Filter) -> String {
    let mut note = String::from("note: no game matched the filters");
    let conditions = filter.tags.len()
        + filter.criteria.len()
        + usize::from(filter.player.is_some())
        + usize::from(filter.result.is_some())
        + usize::from(filter.min_elo.is_some() || filter.max_elo.is_some())
        + usize::from(filter.date_from.is_some() || filter.date_to.is_some());
    if conditions > 1 && !filter.any {
        note.push_str("; every condition must hold (--any: one is enough)");
    }
    if filter.player.is_some() || !filter.criteria.is_empty() {
        note.push_str(
            "; text is matched as a case-insensitive substring unless it has * ? [ \
             (a glob over the whole value) or --exact is given; a missing tag never matches",
        );
    }
    if filter.needs_moves() {
        note.push_str("; games that cannot be read are not selected (see the diagnostics)");
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_framings() {
        let o = Options::default();
        let (f, sep) = selection_framing(&[Format::Pgn, Format::CtlPgn], None, &o).unwrap();
        assert_eq!((f.header.len(), sep), (0, None), "PGN text: blank lines");
        let (f, sep) = selection_framing(&[Format::Pcn], None, &o).unwrap();
        assert_eq!((f.header, sep), (b"[\n".to_vec(), Some(b",\n".to_vec())));
        assert!(selection_framing(&[Format::Pcn, Format::Pgn], None, &o).is_err());
        let (_, sep) =
            selection_framing(&[Format::Pcn, Format::Pgn], Some(Format::Pgn), &o).unwrap();
        assert_eq!(sep, None);
    }

    #[test]
    fn converters_refuse_other_games_and_replay_lines_name_their_file() {
        let dir = std::env::temp_dir().join(format!("cescacs-jobs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("a.pgn");
        std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
        let opened = crate::open_inputs(&[pgn], None, None, (None, None), &mut |_| {}).unwrap();
        let err = converters(opened.groups, Some(Format::CtlPgn), &Options::default()).err();
        assert!(err.is_some_and(|e| e.contains("a.pgn: cannot convert")));
        let _ = std::fs::remove_dir_all(&dir);
        let line = final_position_line(Some("f".into()), Options::default());
        let game = crate::raw_game(b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n");
        let out = String::from_utf8(line(&game).output).unwrap();
        assert!(
            out.starts_with("f:1: ") && out.ends_with(" w RKRrkr - 0 2\n"),
            "{out}"
        );
    }
}
