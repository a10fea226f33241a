//! C'escacs: CTL-PGN reading with legal replay, writing in the three forms, and what
//! each form leaves out.

use crate::record::{Game, Record, Written};
use crate::{Format, Options, Severity, codes, diag, error, excerpt};
use cescacs_batch::{GameDiagnostic, RawGame};
use cescacs_hex::Cell;

/// Decodes a game that must be UTF-8, locating the first bad byte.
pub(crate) fn utf8(game: &RawGame) -> Result<&str, GameDiagnostic> {
    std::str::from_utf8(&game.bytes).map_err(|e| {
        let good = &game.bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        let col = good.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
        diag(
            codes::ENCODING,
            Severity::Error,
            line,
            col,
            format!(
                "expected UTF-8 text, found byte 0x{:02X}",
                game.bytes[e.valid_up_to()]
            ),
        )
    })
}

pub(crate) fn read(raw: &RawGame, strict: bool) -> Record {
    let text = match utf8(raw) {
        Ok(t) => t,
        Err(d) => return Record::failed(Format::CtlPgn, d),
    };
    let mut records = ctl_pgn::replay("", text, ctl_pgn::Options { strict });
    let mut out = Record::new(Format::CtlPgn);
    if records.len() > 1 {
        out.diagnostics.push(crate::warning(
            codes::BOUNDARY,
            "the splitter and the CTL-PGN reader disagree on game boundaries",
        ));
    }
    if records.is_empty() {
        out.diagnostics
            .push(error(codes::NO_GAME, "expected a game, found no movetext"));
        return out;
    }
    let replayed = records.swap_remove(0);
    for d in &replayed.diagnostics {
        let severity = match d.severity {
            // Notes record normalised spellings; they are not problems.
            ctl_pgn::Severity::Note => continue,
            ctl_pgn::Severity::Warning => Severity::Warning,
            ctl_pgn::Severity::Error => Severity::Error,
        };
        out.diagnostics.push(diag(
            d.code.as_str(),
            severity,
            u64::from(d.line),
            u64::from(d.col),
            d.message.clone(),
        ));
    }
    let bad = out.has_errors();
    match replayed.game {
        Some(record) => {
            if !bad && replayed.position.is_none() {
                out.diagnostics
                    .push(error(codes::CTL_REPLAY, "the record could not be replayed"));
            }
            out.game = Some(Game::Cescacs {
                record,
                position: replayed.position,
                plies: replayed.plies,
                moves: replayed.moves,
            });
        }
        None if !bad => out
            .diagnostics
            .push(error(codes::CTL_REPLAY, "the record could not be replayed")),
        None => {}
    }
    out
}

/// A C'escacs game decoded from PCN, with its final position by the rules engine.
pub(crate) fn from_model(record: ctl_pgn::Game) -> Game {
    let position = pcn_convert::cescacs::final_position(&record).ok();
    let plies = record.main_moves().count();
    Game::Cescacs {
        record,
        position,
        plies,
        moves: Vec::new(),
    }
}

pub(crate) fn main_line(record: &ctl_pgn::Game) -> Vec<String> {
    let letters = record
        .letters()
        .unwrap_or_else(|_| ctl_pgn::LetterTable::standard());
    record
        .main_moves()
        .map(|m| {
            let mut s = m.token.render(&letters, m.side);
            if let Some(c) = m.check {
                s.push_str(c.as_str());
            }
            s
        })
        .collect()
}

/// The cells of the last main-line move, for the picture's arrow.
pub(crate) fn last_move_cells(record: &ctl_pgn::Game) -> Option<(Cell, Cell)> {
    match &record.main_moves().last()?.token {
        ctl_pgn::MoveToken::Ordinary { from, to, .. } => {
            Some((from.parse().ok()?, to.parse().ok()?))
        }
        _ => None,
    }
}

/// The SVG picture of a C'escacs position, captioned with its TLPD (also its
/// `data-position`), with the last move drawn when given and a king in check (or
/// mated) marked.
pub fn svg(position: &cescacs_rules::Position, last: Option<(Cell, Cell)>) -> String {
    let letters = cescacs_rules::Letters::default();
    let men: Vec<board_svg::Man> = Cell::all()
        .filter_map(|cell| {
            position.piece_at(cell).map(|p| board_svg::Man {
                cell: board_svg::hex_index(cell),
                letter: letters.letter(p.kind).to_ascii_uppercase(),
                side: if p.side == cescacs_rules::Side::White {
                    board_svg::Side::White
                } else {
                    board_svg::Side::Black
                },
            })
        })
        .collect();
    let checked = !position.checkers().is_empty();
    let marks = board_svg::Marks {
        last_move: last.map(|(a, b)| (board_svg::hex_index(a), board_svg::hex_index(b))),
        check: checked.then(|| board_svg::hex_index(position.king(position.side_to_move()))),
        mate: checked && position.status() == cescacs_rules::Status::Checkmate,
    };
    let caption = cescacs_tlpd::write(position);
    let p = Some(caption.as_str());
    board_svg::picture(board_svg::BoardKind::Cescacs, &men, &marks, false, p, p)
}

pub(crate) fn write(record: &ctl_pgn::Game, options: &Options) -> Written {
    let form = options.ctl_form();
    Written {
        warnings: losses(record, form),
        text: ctl_pgn::write_game(record, form),
    }
}

fn at(span: &ctl_pgn::Span) -> (u64, u64) {
    (u64::from(span.line.max(1)), u64::from(span.col.max(1)))
}

fn loss(span: &ctl_pgn::Span, message: String) -> GameDiagnostic {
    let (line, col) = at(span);
    diag(codes::DROPPED, Severity::Warning, line, col, message)
}

/// Counts moves, comments and variations inside a line (all depths).
fn contents(line: &ctl_pgn::Line) -> (usize, usize, usize) {
    let (mut moves, mut comments, mut variations) = (0, 0, 0);
    for it in &line.items {
        match it {
            ctl_pgn::Item::Move(_) => moves += 1,
            ctl_pgn::Item::Comment(_) => comments += 1,
            ctl_pgn::Item::Variation(v) => {
                let (m, c, n) = contents(&v.line);
                moves += m;
                comments += c;
                variations += n + 1;
            }
        }
    }
    (moves, comments, variations)
}

fn line_losses(line: &ctl_pgn::Line, out: &mut Vec<GameDiagnostic>) {
    for it in &line.items {
        match it {
            ctl_pgn::Item::Move(_) => {}
            ctl_pgn::Item::Comment(c) => out.push(loss(
                &c.span,
                format!(
                    "--minimal drops comment {{{}{}}}",
                    c.kind.marker(),
                    excerpt(&c.text)
                ),
            )),
            ctl_pgn::Item::Variation(v) => {
                let (m, c, n) = contents(&v.line);
                let first = v
                    .line
                    .moves()
                    .next()
                    .map(|m| format!(" from move {}", m.number))
                    .unwrap_or_default();
                let label = v.label.map(|l| format!(" $[{l}]")).unwrap_or_default();
                out.push(loss(
                    &v.span,
                    format!(
                        "--minimal drops variation{label}{first} ({m} move(s), {c} comment(s), {n} nested variation(s))"
                    ),
                ));
            }
        }
    }
}

/// What a CTL-PGN form leaves out: the minimal form drops comments, variations and
/// `Redefine`; the FAN form replaces the record's own `Redefine`. (The messages name
/// the CLI options `--minimal` and `--fan`, [`Options::minimal`] and [`Options::fan`].)
pub(crate) fn losses(game: &ctl_pgn::Game, form: ctl_pgn::Form) -> Vec<GameDiagnostic> {
    let mut out = Vec::new();
    match form {
        ctl_pgn::Form::Canonical => {}
        ctl_pgn::Form::Minimal => {
            line_losses(&game.main, &mut out);
            for c in &game.final_comments {
                out.push(loss(
                    &c.span,
                    format!(
                        "--minimal drops comment after the result {{{}{}}}",
                        c.kind.marker(),
                        excerpt(&c.text)
                    ),
                ));
            }
            for t in game.tags.iter().filter(|t| t.name == "Redefine") {
                out.push(loss(
                    &t.span,
                    format!(
                        "--minimal drops tag [Redefine \"{}\"] (moves written in standard letters)",
                        t.value
                    ),
                ));
            }
        }
        ctl_pgn::Form::Fan => {
            for t in game
                .tags
                .iter()
                .filter(|t| t.name == "Redefine" && t.value != "FAN")
            {
                out.push(loss(
                    &t.span,
                    format!(
                        "--fan replaces tag [Redefine \"{}\"] by [Redefine \"FAN\"]",
                        t.value
                    ),
                ));
            }
        }
    }
    out
}
