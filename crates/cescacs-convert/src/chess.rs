//! Classic chess: PGN reading with legal replay, PGN export, and what export leaves out.

use crate::record::{Game, Record, Written};
use crate::{Format, Options, Severity, diag, error, excerpt, warning};
use cescacs_batch::{GameDiagnostic, RawGame};
use chess_pgn::cozy_chess::{Board, Color};

pub(crate) fn read(raw: &RawGame) -> Record {
    let mut out = Record::new(Format::Pgn);
    // A buffer the size of the game: the reader's default (128 KiB, zeroed) cost more
    // than reading a typical game.
    let mut games = chess_pgn::Games::with_capacity(&raw.bytes[..], raw.bytes.len() + 1);
    let game = match games.next() {
        None => {
            out.diagnostics
                .push(error("expected a game, found no movetext"));
            return out;
        }
        Some(Err(e)) => {
            let at = e.at().unwrap_or_default();
            // The batch engine adds file, game and line; keep only the reason.
            let reason = match &e {
                chess_pgn::model::GameError::UnsupportedVariant { name, .. } => {
                    format!("unsupported variant {name:?}")
                }
                chess_pgn::model::GameError::BadFen { fen, reason, .. } => {
                    format!("bad FEN {fen:?}: {reason}")
                }
                chess_pgn::model::GameError::SetUpWithoutFen { .. } => {
                    "SetUp \"1\" without a FEN tag".to_string()
                }
                chess_pgn::model::GameError::Read(r) => r.to_string(),
            };
            out.diagnostics.push(diag(
                Severity::Error,
                u64::from(at.line),
                u64::from(at.col),
                reason,
            ));
            return out;
        }
        Some(Ok(g)) => g,
    };
    for d in &game.diagnostics {
        let severity = match d.severity {
            chess_pgn::model::Severity::Error => Severity::Error,
            chess_pgn::model::Severity::Warning => Severity::Warning,
        };
        out.diagnostics.push(diag(
            severity,
            u64::from(d.at.line),
            u64::from(d.at.col),
            d.message.clone(),
        ));
    }
    if games.next().is_some() {
        out.diagnostics.push(warning(
            "the splitter and the PGN reader disagree on game boundaries",
        ));
    }
    out.game = Some(Game::Chess(game));
    out
}

/// (checkmate, stalemate) of a board.
pub(crate) fn end(board: &Board) -> (bool, bool) {
    let mut any = false;
    board.generate_moves(|_| {
        any = true;
        true
    });
    let check = !board.checkers().is_empty();
    (!any && check, !any && !check)
}

pub(crate) fn write(game: &chess_pgn::Game, options: &Options) -> Written {
    Written {
        warnings: losses(game),
        text: chess_pgn::to_pgn_with(game, &options.chess_notation.write_options()).text,
    }
}

fn line_losses(line: &chess_pgn::Line, start: &Board, out: &mut Vec<GameDiagnostic>) {
    let mut board = start.clone();
    for node in &line.moves {
        // The move as messages name it: `12.` / `12...` and the export SAN.
        let n = board.fullmove_number();
        let dots = if board.side_to_move() == Color::White {
            "."
        } else {
            "..."
        };
        let name = format!("{n}{dots} {}", node.san);
        if node.nags.contains(&0) {
            out.push(warning(format!(
                "NAG $0 after {name} dropped (export never writes the null annotation)"
            )));
        }
        if let Some(g) = node.san.glyph
            && !node.nags.contains(&g)
        {
            out.push(warning(format!(
                "glyph ${g} on {name} dropped (export writes NAGs only)"
            )));
        }
        let (mut clock, mut eval) = (None, None);
        for a in &node.after {
            if let chess_pgn::After::Comment(c) = a {
                let (k, e) = chess_pgn::model::parse_commands(c);
                clock = k.or(clock);
                eval = e.or(eval);
            }
        }
        if let Some(c) = node.clock
            && clock != Some(c)
        {
            out.push(warning(format!(
                "clock {c} s after {name} dropped (no [%clk] comment holds it)"
            )));
        }
        if let Some(e) = node.eval
            && eval != Some(e)
        {
            out.push(warning(format!(
                "evaluation {e:?} after {name} dropped (no [%eval] comment holds it)"
            )));
        }
        let before = board.clone();
        for a in &node.after {
            if let chess_pgn::After::Variation(v) = a {
                line_losses(v, &before, out);
            }
        }
        match node.mv {
            Some(m) => board.play_unchecked(m),
            None => {
                if let Some(b) = board.null_move() {
                    board = b;
                }
            }
        }
    }
}

/// What PGN export leaves out of a chess game model. The reader fills the model only
/// with what export writes; these losses come from models built from PCN documents.
pub(crate) fn losses(game: &chess_pgn::Game) -> Vec<GameDiagnostic> {
    let mut out = Vec::new();
    let mut pool = chess_pgn::export_tags(game);
    for (n, v) in &game.tags {
        match pool.iter().position(|(pn, pv)| pn == n && pv == v) {
            Some(i) => {
                pool.remove(i);
            }
            None if n == "Result" => out.push(warning(format!(
                "tag [Result \"{v}\"] replaced by the game's result {}",
                game.outcome.as_str()
            ))),
            None if v.contains(['\t', '\n', '\r']) => out.push(warning(format!(
                "tag {n}: tabs and line breaks written as spaces"
            ))),
            None => out.push(warning(format!("tag [{n} \"{}\"] dropped", excerpt(v)))),
        }
    }
    if game.variant == chess_pgn::Variant::Chess960
        && !game
            .tag("Variant")
            .is_some_and(|v| chess_pgn::Variant::from_tag(v) == Ok(chess_pgn::Variant::Chess960))
    {
        out.push(warning("variant Chess960 dropped (no Variant tag says it)"));
    }
    line_losses(&game.moves, &game.start, &mut out);
    out
}
