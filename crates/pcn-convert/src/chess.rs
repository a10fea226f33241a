//! Classic chess: `chess_pgn::Game` ⇄ PCN (spec C.2; mapping in `docs/pcn-mapping.md`).
//!
//! Board: style `w`, `[8][8]`, row 0 = rank 8, `flat = (7 − rank)·8 + file`, White upper
//! case (bottom). Moves: `shift` / `remove`, castling as two shifts (king first unless
//! that would land on the rook), en passant as `remove` on the victim then `shift`,
//! promotion through the option. Everything else travels in `...pgn`.

use chess_pgn::cozy_chess::{Board, Color, File, Move, Piece, Square};
use chess_pgn::{After, Eval, Game, Line, MoveNode, Outcome, San, SanPlus, Variant};
use pcn::{Action, Status, Verb};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};

use crate::common::{
    self, ConvertError, EDITION, PGN_KEY, Warning, by_ply, match_move, strings_of, unknown_keys,
};

pub use crate::chess_direct::write_pcn_from_pgn;

const STYLE: &str = "w";

/// The flat PCN index of a square.
pub(crate) fn flat(sq: Square) -> usize {
    (7 - sq.rank() as usize) * 8 + sq.file() as usize
}

fn letter(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "p",
        Piece::Knight => "n",
        Piece::Bishop => "b",
        Piece::Rook => "r",
        Piece::Queen => "q",
        Piece::King => "k",
    }
}

fn piece_of(letter: &str) -> Option<Piece> {
    Some(match letter.to_ascii_lowercase().as_str() {
        "p" => Piece::Pawn,
        "n" => Piece::Knight,
        "b" => Piece::Bishop,
        "r" => Piece::Rook,
        "q" => Piece::Queen,
        "k" => Piece::King,
        _ => return None,
    })
}

fn side(c: Color) -> pcn::Side {
    match c {
        Color::White => pcn::Side::Bottom,
        Color::Black => pcn::Side::Top,
    }
}

fn pcn_piece(p: Piece, c: Color) -> pcn::Piece {
    // `Piece::new` formats and re-parses its text; a board holds up to 32 pieces and
    // every game writes one, so the 12 pieces are made once.
    static PIECES: std::sync::OnceLock<Vec<pcn::Piece>> = std::sync::OnceLock::new();
    let all = PIECES.get_or_init(|| {
        [Color::White, Color::Black]
            .into_iter()
            .flat_map(|c| {
                Piece::ALL.into_iter().map(move |p| {
                    pcn::Piece::new(STYLE, letter(p), side(c), false)
                        .unwrap_or_else(|_| unreachable!("the letters are valid piece strings"))
                })
            })
            .collect()
    });
    all[p as usize + if c == Color::Black { Piece::NUM } else { 0 }].clone()
}

/// The placement of a position as a PCN board.
pub fn board_of(b: &Board) -> pcn::Board {
    let mut out = pcn::Board::empty(&[8, 8]).unwrap_or_else(|_| unreachable!("8×8 is a shape"));
    for sq in b.occupied() {
        if let (Some(p), Some(c)) = (b.piece_on(sq), b.color_on(sq)) {
            out.set(flat(sq), Some(pcn_piece(p, c)));
        }
    }
    out
}

/// The actions of one legal move played from `b` (cozy-chess castling = king takes
/// own rook).
pub(crate) fn encode(b: &Board, mv: Move) -> pcn::Move {
    let (from, to) = (flat(mv.from), flat(mv.to));
    let mover = b.piece_on(mv.from);
    let us = b.side_to_move();
    if mover == Some(Piece::King) && b.color_on(mv.to) == Some(us) {
        let rank = mv.from.rank();
        let short = mv.to.file() > mv.from.file();
        let kd = flat(Square::new(if short { File::G } else { File::C }, rank));
        let rd = flat(Square::new(if short { File::F } else { File::D }, rank));
        let (k, r) = (from, to);
        let acts = if kd == k && rd == r {
            Vec::new()
        } else if kd == r && rd == k {
            // A swap: lift the king so the rook can pass under it (PCN has no swap verb).
            vec![
                Action::new(k, Verb::Jump, kd),
                Action::shift(r, rd),
                Action::new(kd, Verb::Land, kd),
            ]
        } else if kd == r {
            vec![Action::shift(r, rd), Action::shift(k, kd)]
        } else if kd == k {
            vec![Action::shift(r, rd)]
        } else if rd == r {
            vec![Action::shift(k, kd)]
        } else {
            vec![Action::shift(k, kd), Action::shift(r, rd)]
        };
        return pcn::Move(acts);
    }
    let promote = |a: Action| match mv.promotion {
        Some(p) => a.promote(pcn_piece(p, us)),
        None => a,
    };
    if mover == Some(Piece::Pawn) && mv.from.file() != mv.to.file() && b.piece_on(mv.to).is_none() {
        let victim = flat(Square::new(mv.to.file(), mv.from.rank()));
        return pcn::Move(vec![
            Action::remove(from, victim),
            promote(Action::shift(victim, to)),
        ]);
    }
    let a = if b.piece_on(mv.to).is_some() {
        Action::remove(from, to)
    } else {
        Action::shift(from, to)
    };
    pcn::Move(vec![promote(a)])
}

fn legal(b: &Board) -> Vec<Move> {
    let mut v = Vec::new();
    b.generate_moves(|ms| {
        v.extend(ms);
        false
    });
    v
}

pub(crate) fn outcome_status(o: Outcome) -> Status {
    match o {
        Outcome::WhiteWins => Status::BottomWon,
        Outcome::BlackWins => Status::TopWon,
        Outcome::Draw => Status::Draw,
        Outcome::Unknown => Status::InProgress,
    }
}

fn eval_of(v: &Value) -> Option<Eval> {
    if let Some(x) = v.get("pawns").and_then(Value::as_f64) {
        return Some(Eval::Pawns(x));
    }
    v.get("mate")
        .and_then(Value::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .map(Eval::Mate)
}

/// A line of the `...pgn` block: `{"comments"?, "null_plies"?, "annotations"?}` (a
/// variation adds its `moves`; the main line's comments are the `game_comment`).
struct LineOut<'a> {
    comments: &'a [String],
    null_plies: Vec<usize>,
    annotations: Vec<AnnotationOut<'a>>,
}

/// `{"ply", "nags"?, "after"?, "glyph"?, "clock"?, "eval"?}` of a move that has any.
struct AnnotationOut<'a> {
    ply: usize,
    node: &'a MoveNode,
    after: Vec<AfterOut<'a>>,
}

enum AfterOut<'a> {
    Comment(&'a str),
    Variation(LineOut<'a>, Vec<pcn::Move>),
}

impl LineOut<'_> {
    /// The entries of the line's map; `comments_key` names its comments.
    fn entries<M: SerializeMap>(&self, m: &mut M, comments_key: &str) -> Result<(), M::Error> {
        if !self.comments.is_empty() {
            m.serialize_entry(comments_key, self.comments)?;
        }
        if !self.null_plies.is_empty() {
            m.serialize_entry("null_plies", &self.null_plies)?;
        }
        if !self.annotations.is_empty() {
            m.serialize_entry("annotations", &self.annotations)?;
        }
        Ok(())
    }
}

impl Serialize for AnnotationOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let node = self.node;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("ply", &self.ply)?;
        if !node.nags.is_empty() {
            m.serialize_entry("nags", &node.nags)?;
        }
        if !node.after.is_empty() {
            m.serialize_entry("after", &self.after)?;
        }
        // The reader turns glyphs into NAGs today; a model that keeps one on the SAN
        // still round-trips.
        if let Some(g) = node.san.glyph {
            m.serialize_entry("glyph", &g)?;
        }
        if let Some(c) = node.clock {
            m.serialize_entry("clock", &c)?;
        }
        if let Some(e) = node.eval {
            m.serialize_entry("eval", &EvalOut(e))?;
        }
        m.end()
    }
}

pub(crate) struct EvalOut(pub(crate) Eval);

impl Serialize for EvalOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        match self.0 {
            Eval::Pawns(x) => m.serialize_entry("pawns", &x)?,
            Eval::Mate(n) => m.serialize_entry("mate", &n)?,
        }
        m.end()
    }
}

impl Serialize for AfterOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        match self {
            AfterOut::Comment(c) => m.serialize_entry("comment", c)?,
            AfterOut::Variation(line, moves) => {
                m.serialize_entry("variation", &VariationOut(line, moves))?
            }
        }
        m.end()
    }
}

struct VariationOut<'a, 'b>(&'b LineOut<'a>, &'b [pcn::Move]);

impl Serialize for VariationOut<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        self.0.entries(&mut m, "comments")?;
        m.serialize_entry("moves", self.1)?;
        m.end()
    }
}

/// The line starting at `b`, its moves encoded into `moves_out`. Null moves are not
/// PCN moves: they are left out of `moves` (main line: out of `previous_moves`) and
/// their ply numbers listed in `null_plies`.
fn line_out<'a>(b: &Board, line: &'a Line, moves_out: &mut Vec<pcn::Move>) -> LineOut<'a> {
    let mut board = b.clone();
    let mut out = LineOut {
        comments: &line.comments,
        null_plies: Vec::new(),
        annotations: Vec::new(),
    };
    moves_out.reserve(line.moves.len());
    for (i, node) in line.moves.iter().enumerate() {
        // Variations start from the position before the move (copied only for them).
        let before = (!node.after.is_empty()).then(|| board.clone());
        match node.mv {
            Some(m) => {
                moves_out.push(encode(&board, m));
                board.play_unchecked(m);
            }
            None => {
                out.null_plies.push(i);
                if let Some(n) = board.null_move() {
                    board = n;
                }
            }
        }
        let after: Vec<AfterOut> = match &before {
            None => Vec::new(),
            Some(before) => node
                .after
                .iter()
                .map(|x| match x {
                    After::Comment(c) => AfterOut::Comment(c),
                    After::Variation(l) => {
                        let mut ms = Vec::new();
                        AfterOut::Variation(line_out(before, l, &mut ms), ms)
                    }
                })
                .collect(),
        };
        if !node.nags.is_empty()
            || !after.is_empty()
            || node.san.glyph.is_some()
            || node.clock.is_some()
            || node.eval.is_some()
        {
            out.annotations.push(AnnotationOut {
                ply: i,
                node,
                after,
            });
        }
    }
    out
}

/// The `...pgn` block of a chess game, serialised straight from the game model (see
/// `docs/pcn-mapping.md`).
struct Block<'a> {
    game: &'a Game,
    line: LineOut<'a>,
}

fn tag_pair(t: &(String, String)) -> (&str, &str) {
    (&t.0, &t.1)
}

impl Serialize for Block<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.game;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("edition", EDITION)?;
        m.serialize_entry("tags", &common::TagsOut(&g.tags, tag_pair))?;
        if g.variant == Variant::Chess960 {
            m.serialize_entry("variant", "chess960")?;
        }
        self.line.entries(&mut m, "game_comment")?;
        if !g.final_comments.is_empty() {
            m.serialize_entry("termination_comment", &g.final_comments)?;
        }
        m.serialize_entry("result_token", g.outcome.as_str())?;
        m.serialize_entry("source_notation", "SAN")?;
        m.end()
    }
}

/// Converts a PGN game to PCN. Every field of the model is carried (board and moves
/// natively, the rest in `...pgn`, `...fen`, `...first_to_move`), so the warning list
/// is empty for games read by `chess-pgn`.
pub fn to_pcn(game: &Game) -> Result<(pcn::Game, Vec<Warning>), ConvertError> {
    let (mut doc, block) = document(game)?;
    let block = serde_json::to_value(&block).map_err(common::block_error)?;
    doc.extensions.insert(PGN_KEY.into(), block);
    Ok((doc, Vec::new()))
}

/// Appends the compact JSON of the document [`to_pcn`] makes to `out` (the bytes
/// `pcn::to_string` writes of it), with the `...pgn` block serialised straight from
/// the game model rather than built as a `serde_json::Value` first. On an error
/// nothing is appended.
pub fn write_pcn(game: &Game, out: &mut Vec<u8>) -> Result<Vec<Warning>, ConvertError> {
    let (doc, block) = document(game)?;
    pcn::write_to_with(&doc, PGN_KEY, &block, out).map_err(common::block_error)?;
    Ok(Vec::new())
}

/// The document without its `...pgn` block (validated), and the block.
fn document(game: &Game) -> Result<(pcn::Game, Block<'_>), ConvertError> {
    let mut moves = Vec::new();
    let line = line_out(&game.start, &game.moves, &mut moves);
    let mut doc = pcn::Game::new(board_of(&game.start));
    doc.previous_moves = moves;
    doc.status = outcome_status(game.outcome);
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    doc.started_at = common::started_at(&tags);
    doc.bottomside_player = game.tag("White").map(str::to_owned);
    doc.topside_player = game.tag("Black").map(str::to_owned);
    if game.start != *chess_pgn::start_board() {
        // The FEN keeps the castling spelling its source used (X-FEN or Shredder), so
        // that PCN -> PGN writes the FEN tag as it was.
        // A game with no spelling of its own gets the PGN writer's default.
        let style = game.fen_castling.unwrap_or(match game.variant {
            Variant::Chess960 => chess_pgn::CastlingStyle::Shredder,
            _ => chess_pgn::CastlingStyle::XFen,
        });
        let fen = chess_pgn::to_fen(&game.start, style);
        doc.extensions.insert("...fen".into(), json!(fen));
    }
    if game.start.side_to_move() == Color::Black {
        doc.extensions
            .insert("...first_to_move".into(), json!("top"));
    }
    doc.extensions
        .insert("...pcn_edition".into(), json!(common::PCN_EDITION));
    pcn::validate(&doc)?;
    Ok((doc, Block { game, line }))
}

const KNOWN: &[&str] = &["...pgn", "...fen", "...first_to_move", "...pcn_edition"];

/// A start position from a bare PCN board: side from `...first_to_move`, castling
/// rights wherever king and rook stand on their initial squares, no en passant.
fn start_from_board(b: &pcn::Board, top_first: bool) -> Result<Board, ConvertError> {
    let fen = common::fen_placement(b, 8, 8, |p| Some(p.abbreviation().to_owned()));
    let at = |f: usize, s: &str| b.get(f).is_some_and(|p| p.abbreviation() == s);
    let mut castle = String::new();
    for (k, r, c, ks) in [
        (60, 63, 'K', "K"),
        (60, 56, 'Q', "K"),
        (4, 7, 'k', "k"),
        (4, 0, 'q', "k"),
    ] {
        if at(k, ks) && at(r, if ks == "K" { "R" } else { "r" }) {
            castle.push(c);
        }
    }
    if castle.is_empty() {
        castle.push('-');
    }
    let fen = format!("{fen} {} {castle} - 0 1", if top_first { 'b' } else { 'w' });
    chess_pgn::parse_fen(&fen).map_err(|e| ConvertError::Start(format!("{fen}: {e}")))
}

fn check_board(b: &pcn::Board) -> Result<(), ConvertError> {
    common::check_board(
        b,
        &[8, 8],
        STYLE,
        |a| piece_of(a).is_some(),
        "square",
        "a western chess piece",
    )
}

struct Ctx<'a> {
    warnings: &'a mut Vec<Warning>,
}

/// Rebuilds a line from PCN moves plus its carried annotations.
fn line_from(
    ctx: &mut Ctx,
    start: &Board,
    moves: &[pcn::Move],
    meta: &Map<String, Value>,
    comments_key: &str,
    path: &str,
) -> Result<Line, ConvertError> {
    let nulls: Vec<usize> = meta
        .get("null_plies")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_u64)
                .map(|n| n as usize)
                .collect()
        })
        .unwrap_or_default();
    let mut anns = by_ply(meta.get("annotations"), ctx.warnings);
    let comments = strings_of(meta.get(comments_key)).unwrap_or_else(|| {
        ctx.warnings.push(Warning::IgnoredAnnotation(format!(
            "{comments_key} malformed"
        )));
        Vec::new()
    });
    let mut line = Line {
        comments,
        moves: Vec::new(),
    };
    let mut board = start.clone();
    let mut next = moves.iter().enumerate();
    let total = moves.len() + nulls.len();
    if let Some(&n) = nulls.iter().find(|&&n| n >= total) {
        ctx.warnings.push(Warning::IgnoredAnnotation(format!(
            "null move at ply {n} beyond the end of {path}"
        )));
    }
    for ply in 0..total {
        let before = board.clone();
        let mv = if nulls.contains(&ply) {
            match board.null_move() {
                Some(n) => board = n,
                None => {
                    return Err(ConvertError::Move {
                        path: format!("{path}: ply {ply}"),
                        reason: "null move while in check".into(),
                    });
                }
            }
            None
        } else {
            let Some((i, target)) = next.next() else {
                break;
            };
            let m = match_move(
                &board_of(&board),
                target,
                &legal(&board),
                |m| flat(m.from),
                |m| encode(&board, m),
            )
            .map_err(|reason| ConvertError::Move {
                path: format!("{path}[{i}]"),
                reason,
            })?;
            board.play_unchecked(m);
            Some(m)
        };
        let san = match mv {
            Some(m) => SanPlus::from_move(&before, m),
            None => SanPlus {
                san: San::Null,
                suffix: None,
                glyph: None,
            },
        };
        let mut node = MoveNode {
            mv,
            san,
            nags: Vec::new(),
            after: Vec::new(),
            clock: None,
            eval: None,
        };
        if let Some(a) = anns.remove(&ply) {
            annotate(ctx, &mut node, &before, &a, &format!("{path}~{ply}"))?;
        }
        line.moves.push(node);
    }
    for ply in anns.keys() {
        ctx.warnings.push(Warning::IgnoredAnnotation(format!(
            "annotation for ply {ply} beyond the last move"
        )));
    }
    Ok(line)
}

fn annotate(
    ctx: &mut Ctx,
    node: &mut MoveNode,
    before: &Board,
    a: &Map<String, Value>,
    path: &str,
) -> Result<(), ConvertError> {
    unknown_keys(
        a,
        &["ply", "nags", "after", "glyph", "clock", "eval"],
        &format!("{PGN_KEY} annotation {path}"),
        ctx.warnings,
    );
    if let Some(n) = a.get("nags").and_then(Value::as_array) {
        for x in n {
            match x.as_u64().and_then(|x| u8::try_from(x).ok()) {
                Some(g) => node.nags.push(g),
                None => ctx.warnings.push(Warning::Dropped(format!(
                    "{PGN_KEY} annotation {path}: NAG {x} (PGN NAGs are 0-255)"
                ))),
            }
        }
    }
    node.san.glyph = a
        .get("glyph")
        .and_then(Value::as_u64)
        .and_then(|g| u8::try_from(g).ok());
    node.clock = a.get("clock").and_then(Value::as_f64);
    node.eval = a.get("eval").and_then(eval_of);
    for x in a
        .get("after")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(c) = x.get("comment").and_then(Value::as_str) {
            node.after.push(After::Comment(c.to_owned()));
        } else if let Some(v) = x.get("variation").and_then(Value::as_object) {
            let raw = v
                .get("moves")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let moves = common::parse_moves(&board_of(before), &raw).map_err(|reason| {
                ConvertError::Extension {
                    key: format!("{PGN_KEY} variation at {path}"),
                    reason,
                }
            })?;
            unknown_keys(
                v,
                &["comments", "moves", "null_plies", "annotations"],
                &format!("{PGN_KEY} variation at {path}"),
                ctx.warnings,
            );
            common::option_extensions(
                &moves,
                &format!("{PGN_KEY} variation at {path}: moves"),
                ctx.warnings,
            );
            let l = line_from(
                ctx,
                before,
                &moves,
                v,
                "comments",
                &format!("{path} variation"),
            )?;
            node.after.push(After::Variation(l));
        } else {
            ctx.warnings
                .push(Warning::IgnoredAnnotation(format!("unknown entry {x}")));
        }
    }
    Ok(())
}

/// Converts a PCN document to a PGN game. Moves are matched against the legal moves
/// of the position (so any action form the PCN reader accepts works); the `...pgn`
/// block restores tags, comments, NAGs, variations, clocks and evaluations.
pub fn from_pcn(doc: &pcn::Game) -> Result<(Game, Vec<Warning>), ConvertError> {
    let mut warnings = Vec::new();
    check_board(&doc.starting_position)?;
    let block = common::import_block(
        doc,
        KNOWN,
        &[
            "edition",
            "tags",
            "variant",
            "game_comment",
            "null_plies",
            "annotations",
            "termination_comment",
            "result_token",
            "source_notation",
        ],
        &mut warnings,
    )?;
    let fen = common::start_extension(doc, "...fen", chess_pgn::parse_fen, board_of)?;
    let fen_castling = fen
        .as_ref()
        .and_then(|(_, text)| chess_pgn::CastlingStyle::of_fen(text));
    let start = match fen {
        Some((b, _)) => b,
        None => start_from_board(&doc.starting_position, common::top_first(doc)?)?,
    };
    let mut ctx = Ctx {
        warnings: &mut warnings,
    };
    let moves = line_from(
        &mut ctx,
        &start,
        &doc.previous_moves,
        &block,
        "game_comment",
        "previous_moves",
    )?;
    let mut tags = common::block_tags(&block)?;
    let outcome = common::status_result(
        doc.status,
        [
            Outcome::WhiteWins,
            Outcome::BlackWins,
            Outcome::Draw,
            Outcome::Unknown,
        ],
        &mut tags,
        &mut warnings,
    );
    if let Some(t) = block.get("result_token").and_then(Value::as_str)
        && Outcome::parse(t.as_bytes()) != Some(outcome)
    {
        warnings.push(Warning::IgnoredAnnotation(format!(
            "result_token {t:?} contradicts the document status"
        )));
    }
    common::set_white_black(&mut tags, doc, &mut warnings);
    let view: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let dates = common::started_at_tags(doc, &view, &mut warnings);
    tags.extend(dates);
    const KNOWN_GAMES: &str = "chess and Chess960";
    let variant = match block.get("variant") {
        None => Variant::Standard,
        Some(v) if v == "chess960" => Variant::Chess960,
        // Another variant's moves are not chess moves: never read as standard chess.
        Some(v) => {
            return Err(ConvertError::UnsupportedVariant {
                key: format!("{PGN_KEY} variant"),
                name: v.as_str().map_or_else(|| v.to_string(), str::to_string),
                known: KNOWN_GAMES,
            });
        }
    };
    for (name, value) in &tags {
        let refused = if name.eq_ignore_ascii_case("Variant") {
            Variant::from_tag(value).is_err()
        } else if name.eq_ignore_ascii_case("Game") {
            Variant::from_game_tag(value).is_err()
        } else {
            false
        };
        if refused {
            return Err(ConvertError::UnsupportedVariant {
                key: format!("{PGN_KEY} tags {name}"),
                name: value.clone(),
                known: KNOWN_GAMES,
            });
        }
    }
    let final_comments = strings_of(block.get("termination_comment")).unwrap_or_else(|| {
        warnings.push(Warning::IgnoredAnnotation(
            "termination_comment malformed".into(),
        ));
        Vec::new()
    });
    let game = Game {
        tags,
        variant,
        start,
        moves,
        outcome,
        final_comments,
        fen_castling,
        ..Game::default()
    };
    Ok((game, warnings))
}
