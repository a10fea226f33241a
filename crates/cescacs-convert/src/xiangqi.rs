//! Xiangqi: PGN reading (any encoding, any notation) with legal replay, PGN and XML
//! writing, and what they leave out.

use crate::record::{Game, Record, Written};
use crate::{Format, Options, Severity, codes, diag, excerpt, warning};
use cescacs_batch::{GameDiagnostic, RawGame};

pub(crate) fn read(raw: &RawGame) -> Record {
    let file = xiangqi_pgn::read_bytes(&raw.bytes, "");
    let mut out = Record::new(Format::XiangqiPgn);
    let w = |w: &xiangqi_pgn::Warning| {
        diag(
            w.kind.code(),
            Severity::Warning,
            w.line as u64,
            w.col as u64,
            w.message.clone(),
        )
    };
    out.diagnostics.extend(file.warnings.iter().map(w));
    let Some(read) = file.games.into_iter().next() else {
        out.diagnostics.push(crate::error(
            codes::NO_GAME,
            "expected a game, found no movetext",
        ));
        return out;
    };
    out.diagnostics.extend(read.warnings.iter().map(w));
    if let Some(e) = &read.error {
        let (line, col) = match e {
            xiangqi_pgn::ReadError::Move { line, col, .. }
            | xiangqi_pgn::ReadError::Fen { line, col, .. }
            | xiangqi_pgn::ReadError::Syntax { line, col, .. }
            | xiangqi_pgn::ReadError::Variant { line, col, .. } => (*line, *col),
            // A variant added later: place unknown (0:0), its message still reported.
            _ => (0, 0),
        };
        // The error's text starts with file and game, which the batch engine adds.
        let message = e.to_string();
        let message = message.split_once(": ").map(|(_, m)| m).unwrap_or(&message);
        let message = message.split_once(": ").map(|(_, m)| m).unwrap_or(message);
        out.diagnostics.push(diag(
            e.code(),
            Severity::Error,
            line as u64,
            col as u64,
            message,
        ));
    }
    out.game = Some(Game::Xiangqi(read.game));
    out
}

pub(crate) fn main_line(game: &xiangqi_pgn::Game) -> Vec<String> {
    let mut position = game.start.clone();
    let style = crate::XiangqiNotation::Chinese.style();
    game.line
        .moves
        .iter()
        .map(|m| {
            let text = if m.source.is_empty() {
                xiangqi_pgn::render(&position, m.mv, &style)
            } else {
                m.source.clone()
            };
            position.play(m.mv);
            text
        })
        .collect()
}

/// The men of a position as the board picture wants them.
pub(crate) fn men(position: &xiangqi::Position) -> Vec<board_svg::XiangqiMan> {
    xiangqi::Square::all()
        .filter_map(|sq| {
            position.piece_at(sq).map(|p| board_svg::XiangqiMan {
                file: sq.file(),
                rank: sq.rank(),
                letter: p.fen_char(),
            })
        })
        .collect()
}

pub(crate) fn svg(game: &xiangqi_pgn::Game) -> String {
    let position = game.final_position();
    let last = game.line.moves.last().map(|m| {
        let (from, to) = (m.mv.from(), m.mv.to());
        ((from.file(), from.rank()), (to.file(), to.rank()))
    });
    picture(&position, last, &position.to_fen())
}

/// A xiangqi position drawn with its last move (ICCS points), a general in check (or
/// mated) marked, and `caption` as caption and `data-position`.
pub(crate) fn picture(
    position: &xiangqi::Position,
    last: Option<((u8, u8), (u8, u8))>,
    caption: &str,
) -> String {
    let index = |(f, r): (u8, u8)| u16::from(r) * 9 + u16::from(f);
    let men: Vec<board_svg::Man> = men(position)
        .iter()
        .map(|m| crate::picture::man(index((m.file, m.rank)), m.letter))
        .collect();
    let checked = position.is_check();
    let general = position.general(position.side_to_move());
    let marks = board_svg::Marks {
        last_move: last
            .filter(|(a, b)| a.0 < 9 && a.1 < 10 && b.0 < 9 && b.1 < 10)
            .map(|(a, b)| (index(a), index(b))),
        check: checked.then(|| index((general.file(), general.rank()))),
        mate: checked && position.status() == xiangqi::Status::Checkmate,
    };
    let p = Some(caption);
    board_svg::picture(board_svg::BoardKind::Xiangqi, &men, &marks, false, p, p)
}

pub(crate) fn write(game: &xiangqi_pgn::Game, options: &Options, xml: bool) -> Written {
    let style = options.xiangqi_notation.style();
    Written {
        warnings: losses(game, &style, xml),
        text: if xml {
            xiangqi_pgn::write_xml_game(game, &style)
        } else {
            let defaults = xiangqi_pgn::WriteLayout::default();
            let layout = xiangqi_pgn::WriteLayout {
                line_width: options.layout.line_length.unwrap_or(defaults.line_width),
                move_numbers: !options.layout.no_move_numbers,
                result_marker: !options.layout.no_results,
            };
            xiangqi_pgn::write_game_with(game, &style, &layout)
        },
    }
}

/// Tag names the writer spells itself (the XML writer lower-cases every name).
const KNOWN_TAGS: [&str; 16] = [
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Red",
    "Black",
    "Result",
    "RedTeam",
    "BlackTeam",
    "Opening",
    "Variation",
    "ECCO",
    "FEN",
    "Format",
    "White",
];

/// What xiangqi PGN (or, with `xml`, the XML form) leaves out of a game: tags the
/// canonical tag list does not repeat, and in XML the spelling of unusual tag names.
pub(crate) fn losses(
    game: &xiangqi_pgn::Game,
    style: &xiangqi_pgn::MoveStyle,
    xml: bool,
) -> Vec<GameDiagnostic> {
    let mut out = Vec::new();
    // The written tags as a multiset keyed by name in any case and value: each tag of
    // the game uses up one (a map, so that a game of very many tags stays linear).
    let written = xiangqi_pgn::canonical_tags(game, style);
    let mut pool: std::collections::HashMap<(String, &str), usize> =
        std::collections::HashMap::new();
    for (n, v) in &written {
        *pool
            .entry((n.to_ascii_lowercase(), v.as_str()))
            .or_default() += 1;
    }
    // Without a Red tag, White's value is written as Red.
    let has_red = game.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("Red"));
    for (n, v) in &game.tags {
        // Format names the notation written, FEN the start (always written when needed).
        if n.eq_ignore_ascii_case("Format") || n.eq_ignore_ascii_case("FEN") {
            continue;
        }
        let name = if !has_red && n.eq_ignore_ascii_case("White") {
            "red".to_string()
        } else {
            n.to_ascii_lowercase()
        };
        match pool.get_mut(&(name, v.as_str())) {
            Some(left) if *left > 0 => *left -= 1,
            _ => out.push(warning(
                codes::DROPPED,
                format!("tag [{n} \"{}\"] dropped", excerpt(v)),
            )),
        }
        if xml && n.chars().any(|c| c.is_ascii_uppercase()) && !KNOWN_TAGS.contains(&n.as_str()) {
            out.push(warning(
                codes::DROPPED,
                format!(
                    "tag name {n} written as XML element <{}>: its letter case is lost",
                    n.to_lowercase()
                ),
            ));
        }
    }
    out
}
