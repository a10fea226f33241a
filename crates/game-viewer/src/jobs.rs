//! The per-game functions `cescacs_batch` runs over every game of the inputs: the
//! positions as lines of text (`replay --each`, `show --game --ply`) and a game as the
//! viewer's JSON.

use crate::{GameSteps, Shown, Step, steps};
use board_svg::BoardKind;
use cescacs_convert::{Format, GameOutcome, Options, RawGame, Record};
use serde_json::{Value, json};

/// Which positions of a game [`position_lines`] prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plies {
    /// The start and the position after every main-line half-move.
    All,
    /// Only the position after this many half-moves (0: the start); a game shorter
    /// than that is an error.
    One(usize),
    /// Only the position after the main line's last half-move.
    Last,
}

/// The per-game function of `cescacs replay --each`: reads each game (any format),
/// and prints its start position and the position after every main-line half-move,
/// one per line, as `GAME:PLY: POSITION`, with `NAME:` first when a name is given, or
/// the position alone with `bare`. `only_game` keeps one game (its number in the
/// input) and skips the others silently. A game with errors prints nothing; its
/// diagnostics say why.
pub fn position_lines(
    format: Format,
    name: Option<String>,
    bare: bool,
    plies: Plies,
    only_game: Option<usize>,
    options: Options,
) -> impl Fn(&RawGame) -> GameOutcome + Sync {
    move |g: &RawGame| {
        if only_game.is_some_and(|n| n != g.index) {
            return GameOutcome::default();
        }
        let mut outcome = GameOutcome::default();
        let mut text = String::new();
        each_game_steps(format, g, &options, &mut outcome, |steps, outcome| {
            let mut line = |ply: usize, shown: &Shown| {
                if !bare {
                    if let Some(name) = &name {
                        text.push_str(name);
                        text.push(':');
                    }
                    text.push_str(&format!("{}:{ply}: ", g.index));
                }
                text.push_str(&shown.position);
                text.push('\n');
            };
            match plies {
                Plies::All => {
                    line(0, &steps.start);
                    for (i, s) in steps.main.iter().enumerate() {
                        line(i + 1, &s.shown);
                    }
                }
                Plies::Last => line(
                    steps.main.len(),
                    steps
                        .position_after(steps.main.len())
                        .unwrap_or(&steps.start),
                ),
                Plies::One(k) => match steps.position_after(k) {
                    Some(shown) => line(k, shown),
                    None => outcome.diagnostics.push(error(format!(
                        "no half-move {k}: the main line has {} half-moves",
                        steps.main.len()
                    ))),
                },
            }
        });
        outcome.output = text.into_bytes();
        outcome
    }
}

/// The per-game function of `cescacs show INPUT --game N --ply K --svg FILE`: game
/// `game` of the input (others are skipped) drawn after `ply` half-moves of its main
/// line (`None`: after the last), as an SVG picture ([`crate::picture`]).
pub fn ply_svg(
    format: Format,
    game: usize,
    ply: Option<usize>,
    options: Options,
) -> impl Fn(&RawGame) -> GameOutcome + Sync {
    move |g: &RawGame| {
        let mut outcome = GameOutcome::default();
        if g.index != game {
            return outcome;
        }
        each_game_steps(
            format,
            g,
            &options,
            &mut outcome,
            |s, outcome| match crate::picture(&s, ply.unwrap_or(s.main.len())) {
                Some(svg) => outcome.output.extend(svg.as_bytes()),
                None => outcome.diagnostics.push(error(format!(
                    "no half-move {}: the main line has {} half-moves",
                    ply.unwrap_or(0),
                    s.main.len()
                ))),
            },
        );
        outcome
    }
}

/// Hands `f` the positions of each record of `g` read without errors (a PCN input may
/// hold several); every record's diagnostics, and why a record's positions could not
/// be listed, go into `outcome`.
fn each_game_steps(
    format: Format,
    g: &RawGame,
    options: &Options,
    outcome: &mut GameOutcome,
    mut f: impl FnMut(GameSteps, &mut GameOutcome),
) {
    for record in Record::read_all_with(format, g, options) {
        outcome
            .diagnostics
            .extend(record.diagnostics().iter().cloned());
        if record.has_errors() {
            continue;
        }
        match steps(&record) {
            Ok(s) => f(s, outcome),
            Err(e) => outcome.diagnostics.push(error(e.to_string())),
        }
    }
}

fn error(message: String) -> cescacs_convert::GameDiagnostic {
    cescacs_convert::GameDiagnostic {
        severity: cescacs_convert::Severity::Error,
        line: 1,
        column: 1,
        message,
        code: cescacs_convert::GameOutcome::ERROR,
    }
}

/// The per-game function of `cescacs view`: each game read (any format) as one line
/// of JSON for [`crate::PageWriter`] (see `docs/viewer.md` for its fields), with `file`
/// as the game's file name. A game with errors gives no line; its diagnostics say why.
pub fn game_json(
    format: Format,
    file: String,
    options: Options,
) -> impl Fn(&RawGame) -> GameOutcome + Sync {
    move |g: &RawGame| {
        let mut outcome = GameOutcome::default();
        each_game_steps(format, g, &options, &mut outcome, |s, outcome| {
            let mut v = game_value(&s);
            v["file"] = json!(file);
            v["index"] = json!(g.index);
            outcome.output.extend(v.to_string().as_bytes());
            outcome.output.push(b'\n');
        });
        outcome
    }
}

/// The name of a board in the page's data.
pub(crate) fn kind_name(kind: BoardKind) -> &'static str {
    match kind {
        BoardKind::Chess => "chess",
        BoardKind::Xiangqi => "xiangqi",
        BoardKind::Cescacs => "cescacs",
    }
}

fn shown_value(s: &Shown) -> Value {
    let mut v = json!({ "p": s.position, "d": s.board });
    if let Some(c) = s.check {
        v["c"] = json!(c);
    }
    if s.mate {
        v["x"] = json!(1);
    }
    v
}

fn step_value(s: &Step) -> Value {
    let mut v = shown_value(&s.shown);
    v["m"] = json!(s.text);
    v["n"] = json!(s.number);
    if s.black {
        v["b"] = json!(1);
    }
    if let Some((a, b)) = s.last_move {
        v["l"] = json!([a, b]);
    }
    if !s.nags.is_empty() {
        v["g"] = json!(s.nags);
    }
    if !s.comments.is_empty() {
        v["k"] = json!(s.comments);
    }
    if let Some(t) = &s.clock {
        v["t"] = json!(t);
    }
    if let Some(e) = &s.eval {
        v["e"] = json!(e);
    }
    if !s.variations.is_empty() {
        v["v"] = Value::Array(
            s.variations
                .iter()
                .map(|line| Value::Array(line.iter().map(step_value).collect()))
                .collect(),
        );
    }
    v
}

/// A game as the viewer's JSON object: `kind`, `tags` (pairs), `result`, `intro`
/// (comments before the first move), `start` and `moves` (the main line; each move
/// with its variations).
pub fn game_value(s: &GameSteps) -> Value {
    json!({
        "kind": kind_name(s.kind),
        "tags": s.tags,
        "result": s.result,
        "intro": s.intro,
        "start": shown_value(&s.start),
        "moves": s.main.iter().map(step_value).collect::<Vec<_>>(),
    })
}
