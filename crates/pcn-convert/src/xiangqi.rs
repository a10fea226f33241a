//! Xiangqi: `xiangqi_pgn::Game` ⇄ PCN (spec C.3; mapping in `docs/pcn-mapping.md`).
//!
//! Board: style `x`, `[10][9]`, row 0 = Black's back rank (ICCS rank 9),
//! `flat = (9 − rank)·9 + file`, Red upper case (bottom). Moves are `shift` or `remove`.
//! Tags, the source token of each move, NAGs, comments, variations, the result token
//! and the notation read travel in `...pgn`; a set-up start in `...fen`.

use pcn::{Action, Status};
use serde_json::{Map, Value, json};
use xiangqi::{Move, Piece, PieceKind, Position, Side, Square};
use xiangqi_pgn::Notation;
use xiangqi_pgn::{Game, Line, MoveNode};

use crate::common::{
    self, ConvertError, EDITION, PGN_KEY, Warning, by_ply, match_move, moves_value, strings_of,
    strings_value, unknown_keys,
};

const STYLE: &str = "x";

/// The flat PCN index of a point.
pub(crate) fn flat(sq: Square) -> usize {
    (9 - sq.rank() as usize) * 9 + sq.file() as usize
}

fn letter(k: PieceKind) -> &'static str {
    match k {
        PieceKind::General => "g",
        PieceKind::Advisor => "a",
        PieceKind::Elephant => "e",
        PieceKind::Horse => "h",
        PieceKind::Chariot => "r",
        PieceKind::Cannon => "c",
        PieceKind::Soldier => "s",
    }
}

fn kind_of(letter: &str) -> Option<PieceKind> {
    Some(match letter.to_ascii_lowercase().as_str() {
        "g" => PieceKind::General,
        "a" => PieceKind::Advisor,
        "e" => PieceKind::Elephant,
        "h" => PieceKind::Horse,
        "r" => PieceKind::Chariot,
        "c" => PieceKind::Cannon,
        "s" => PieceKind::Soldier,
        _ => return None,
    })
}

fn pcn_piece(p: Piece) -> pcn::Piece {
    let side = match p.side {
        Side::Red => pcn::Side::Bottom,
        Side::Black => pcn::Side::Top,
    };
    // `Piece::new` formats and re-parses its text; every game writes a board of up to
    // 32 pieces, so the 14 pieces are made once.
    static PIECES: std::sync::OnceLock<Vec<pcn::Piece>> = std::sync::OnceLock::new();
    let all = PIECES.get_or_init(|| {
        [pcn::Side::Bottom, pcn::Side::Top]
            .into_iter()
            .flat_map(|side| {
                PieceKind::ALL.into_iter().map(move |k| {
                    pcn::Piece::new(STYLE, letter(k), side, false)
                        .unwrap_or_else(|_| unreachable!("the letters are valid piece strings"))
                })
            })
            .collect()
    });
    let i = PieceKind::ALL
        .iter()
        .position(|&k| k == p.kind)
        .unwrap_or(0);
    all[i + if side == pcn::Side::Top {
        PieceKind::ALL.len()
    } else {
        0
    }]
    .clone()
}

/// The placement of a position as a PCN board.
pub fn board_of(p: &Position) -> pcn::Board {
    let mut out = pcn::Board::empty(&[10, 9]).unwrap_or_else(|_| unreachable!("10×9 is a shape"));
    for sq in Square::all() {
        if let Some(pc) = p.piece_at(sq) {
            out.set(flat(sq), Some(pcn_piece(pc)));
        }
    }
    out
}

/// The actions of one legal move played from `p`.
pub(crate) fn encode(p: &Position, m: Move) -> pcn::Move {
    let (from, to) = (flat(m.from()), flat(m.to()));
    pcn::Move(vec![if p.piece_at(m.to()).is_some() {
        Action::remove(from, to)
    } else {
        Action::shift(from, to)
    }])
}

fn result_status(r: &str) -> Status {
    match r.trim() {
        "1-0" => Status::BottomWon,
        "0-1" => Status::TopWon,
        "1/2-1/2" => Status::Draw,
        _ => Status::InProgress,
    }
}

fn line_value(start: &Position, line: &Line, out: &mut Vec<pcn::Move>) -> Map<String, Value> {
    let mut pos = start.clone();
    let mut anns = Vec::new();
    for (i, node) in line.moves.iter().enumerate() {
        let before = pos.clone();
        out.push(encode(&pos, node.mv));
        pos.play(node.mv);
        let mut a = Map::new();
        a.insert("ply".into(), json!(i));
        if !node.source.is_empty() {
            a.insert("source".into(), json!(node.source));
        }
        if !node.nags.is_empty() {
            a.insert("nags".into(), strings_value(&node.nags));
        }
        if !node.comments.is_empty() {
            a.insert("comments".into(), strings_value(&node.comments));
        }
        if !node.variations.is_empty() {
            let vs: Vec<Value> = node
                .variations
                .iter()
                .map(|l| {
                    let mut ms = Vec::new();
                    let mut v = line_value(&before, l, &mut ms);
                    v.insert("moves".into(), Value::Array(moves_value(&ms)));
                    Value::Object(v)
                })
                .collect();
            a.insert("variations".into(), Value::Array(vs));
        }
        if a.len() > 1 {
            anns.push(Value::Object(a));
        }
    }
    let mut m = Map::new();
    if !line.leading_comments.is_empty() {
        m.insert("comments".into(), strings_value(&line.leading_comments));
    }
    if !anns.is_empty() {
        m.insert("annotations".into(), Value::Array(anns));
    }
    m
}

/// Converts a xiangqi game to PCN. Every field of the model is carried, so the
/// warning list is empty.
pub fn to_pcn(game: &Game) -> Result<(pcn::Game, Vec<Warning>), ConvertError> {
    let mut moves = Vec::new();
    let line = line_value(&game.start, &game.line, &mut moves);
    let mut doc = pcn::Game::new(board_of(&game.start));
    doc.previous_moves = moves;
    doc.status = result_status(&game.result);
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    doc.started_at = common::started_at(&tags);
    // A few WinBoard-made files name Red with the chess tag.
    doc.bottomside_player = game.tag("Red").or(game.tag("White")).map(str::to_owned);
    doc.topside_player = game.tag("Black").map(str::to_owned);
    if game.start != Position::initial() {
        doc.extensions
            .insert("...fen".into(), json!(game.start.to_fen()));
    }
    if game.start.side_to_move() == Side::Black {
        doc.extensions
            .insert("...first_to_move".into(), json!("top"));
    }
    doc.extensions
        .insert("...pcn_edition".into(), json!(common::PCN_EDITION));
    let mut block = Map::new();
    block.insert("edition".into(), json!(EDITION));
    block.insert("tags".into(), common::tags_value(tags.into_iter()));
    for (k, v) in line {
        let key = if k == "comments" { "game_comment" } else { &k };
        block.insert(key.into(), v);
    }
    block.insert("result_token".into(), json!(game.result));
    if let Some(n) = game.source_notation {
        block.insert("source_notation".into(), json!(n.tag_value()));
    }
    doc.extensions.insert(PGN_KEY.into(), Value::Object(block));
    pcn::validate(&doc)?;
    Ok((doc, Vec::new()))
}

const KNOWN: &[&str] = &["...pgn", "...fen", "...first_to_move", "...pcn_edition"];

fn check_board(b: &pcn::Board) -> Result<(), ConvertError> {
    common::check_board(
        b,
        &[10, 9],
        STYLE,
        |a| kind_of(a).is_some(),
        "square",
        "a xiangqi piece",
    )
}

fn start_from_board(b: &pcn::Board, top_first: bool) -> Result<Position, ConvertError> {
    let fen = common::fen_placement(b, 10, 9, |p| {
        let c = kind_of(p.abbreviation())?.fen_letter();
        Some(String::from(if p.side() == pcn::Side::Bottom {
            c
        } else {
            c.to_ascii_lowercase()
        }))
    });
    let fen = format!("{fen} {} - - 0 1", if top_first { 'b' } else { 'w' });
    Position::from_fen(&fen).map_err(|e| ConvertError::Start(format!("{fen}: {e}")))
}

fn line_from(
    warnings: &mut Vec<Warning>,
    start: &Position,
    moves: &[pcn::Move],
    meta: &Map<String, Value>,
    comments_key: &str,
    path: &str,
) -> Result<Line, ConvertError> {
    let mut anns = by_ply(meta.get("annotations"), warnings);
    let leading_comments = strings_of(meta.get(comments_key)).unwrap_or_else(|| {
        warnings.push(Warning::IgnoredAnnotation(format!(
            "{comments_key} malformed"
        )));
        Vec::new()
    });
    let mut line = Line {
        leading_comments,
        moves: Vec::new(),
    };
    let mut pos = start.clone();
    for (i, target) in moves.iter().enumerate() {
        let m = match_move(
            &board_of(&pos),
            target,
            &pos.legal_moves(),
            |m| flat(m.from()),
            |m| encode(&pos, m),
        )
        .map_err(|reason| ConvertError::Move {
            path: format!("{path}[{i}]"),
            reason,
        })?;
        let before = pos.clone();
        pos.play(m);
        let mut node = MoveNode {
            mv: m,
            source: String::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        };
        if let Some(a) = anns.remove(&i) {
            let at = format!("{PGN_KEY} annotation {path}~{i}");
            unknown_keys(
                &a,
                &["ply", "source", "nags", "comments", "variations"],
                &at,
                warnings,
            );
            for key in ["nags", "comments"] {
                if strings_of(a.get(key)).is_none() {
                    warnings.push(Warning::Dropped(format!(
                        "{at}: {key} {} (not a list of strings)",
                        a.get(key).unwrap_or(&Value::Null)
                    )));
                }
            }
            node.source = a
                .get("source")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            node.nags = strings_of(a.get("nags")).unwrap_or_default();
            node.comments = strings_of(a.get("comments")).unwrap_or_default();
            for v in a
                .get("variations")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(v) = v.as_object() else {
                    warnings.push(Warning::IgnoredAnnotation(format!(
                        "variation at {path}~{i} is not an object"
                    )));
                    continue;
                };
                let raw = v
                    .get("moves")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let vm = common::parse_moves(&board_of(&before), &raw).map_err(|reason| {
                    ConvertError::Extension {
                        key: format!("{PGN_KEY} variation at {path}~{i}"),
                        reason,
                    }
                })?;
                unknown_keys(
                    v,
                    &["comments", "moves", "annotations"],
                    &format!("{PGN_KEY} variation at {path}~{i}"),
                    warnings,
                );
                common::option_extensions(
                    &vm,
                    &format!("{PGN_KEY} variation at {path}~{i}: moves"),
                    warnings,
                );
                let l = line_from(
                    warnings,
                    &before,
                    &vm,
                    v,
                    "comments",
                    &format!("{path}~{i} variation"),
                )?;
                node.variations.push(l);
            }
        }
        line.moves.push(node);
    }
    for ply in anns.keys() {
        warnings.push(Warning::IgnoredAnnotation(format!(
            "annotation for ply {ply} beyond the last move"
        )));
    }
    Ok(line)
}

/// Converts a PCN document to a xiangqi game; moves are matched against the legal
/// moves of the `xiangqi` generator.
pub fn from_pcn(doc: &pcn::Game) -> Result<(Game, Vec<Warning>), ConvertError> {
    let mut warnings = Vec::new();
    check_board(&doc.starting_position)?;
    let block = common::import_block(
        doc,
        KNOWN,
        &[
            "edition",
            "tags",
            "game_comment",
            "annotations",
            "result_token",
            "source_notation",
        ],
        &mut warnings,
    )?;
    // Before any move is replayed: another game's moves are no xiangqi moves.
    let carried = common::block_tags(&block)?;
    common::refuse_other_game(&block, &carried, xiangqi_pgn::names_another_game, "xiangqi")?;
    let fen = common::start_extension(
        doc,
        "...fen",
        |f| Position::from_fen(f).map_err(|e| e.to_string()),
        board_of,
    )?;
    let start = match fen {
        Some((p, _)) => p,
        None => start_from_board(&doc.starting_position, common::top_first(doc)?)?,
    };
    let line = line_from(
        &mut warnings,
        &start,
        &doc.previous_moves,
        &block,
        "game_comment",
        "previous_moves",
    )?;
    let mut tags = common::block_tags(&block)?;
    let from_status = common::status_result(
        doc.status,
        ["1-0", "0-1", "1/2-1/2", "*"],
        &mut tags,
        &mut warnings,
    );
    // The token keeps its spelling when it says the same as the status (a reader may
    // have kept e.g. `1/2-1/2` vs an unusual form verbatim).
    let result = match block.get("result_token").and_then(Value::as_str) {
        Some(t) if result_status(t) == result_status(from_status) => t.to_owned(),
        Some(t) => {
            warnings.push(Warning::IgnoredAnnotation(format!(
                "result_token {t:?} contradicts the document status"
            )));
            from_status.to_owned()
        }
        None => from_status.to_owned(),
    };
    for (tag, player) in [
        ("Red", &doc.bottomside_player),
        ("Black", &doc.topside_player),
    ] {
        // Red may have been named with the chess tag (see to_pcn).
        let has = |t: &str| tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(t));
        let name = if tag == "Red" && !has("Red") && has("White") {
            "White"
        } else {
            tag
        };
        common::set_player(
            &mut tags,
            tag,
            |n| n.eq_ignore_ascii_case(name),
            player.as_ref(),
            &mut warnings,
        );
    }
    let view: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let dates = common::started_at_tags(doc, &view, &mut warnings);
    tags.extend(dates);
    let source_notation = match block.get("source_notation") {
        None => None,
        Some(v) => {
            let n = v.as_str().and_then(Notation::from_name);
            if n.is_none() {
                warnings.push(Warning::Dropped(format!(
                    "{PGN_KEY} source_notation {v} (not a xiangqi notation)"
                )));
            }
            n
        }
    };
    Ok((
        Game {
            tags,
            start,
            line,
            result,
            source_notation,
        },
        warnings,
    ))
}

/// Equality of two games' content (the model has no `PartialEq`): tags, start, result,
/// notation read, and the move tree with sources, NAGs, comments and variations.
pub fn same_game(a: &Game, b: &Game) -> bool {
    a.tags == b.tags
        && a.start == b.start
        && a.result == b.result
        && a.source_notation == b.source_notation
        && a.line.same_tree(&b.line, true)
}
