//! How the games written are laid out and cut (pgn-extract's `--fencomments`, `-w`,
//! `--nomovenumbers`, `--noresults`, `--plylimit`, `--splitvariants`), for the three
//! games. The cuts and the position comments work on the game model, like
//! [`crate::Strip`]; the line length, move numbers and result marker are the writers'
//! options. A game copied as it was by `select` is written again from its model when
//! any of these is asked for.

use crate::Format;
use crate::record::{Game, Record};

/// The layout and cuts of the games written.
///
/// ```
/// use cescacs_convert::{Format, Layout, Options, Record};
/// let record = Record::from_bytes(Format::Pgn, b"1. e4 (1. d4 d5) e5 2. Nf3 1-0\n");
/// let layout = Layout { ply_limit: Some(1), fen_comments: true, ..Layout::default() };
/// let options = Options { layout, ..Options::default() };
/// let text = record.write(Format::Pgn, &options).unwrap().text;
/// assert!(text.ends_with(
///     "1. e4 {rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1} (1. d4 d5) *\n\n"
/// ));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout {
    /// A comment holding the position after each main-line move, as the first comment
    /// after it: the FEN (chess, xiangqi) or the TLPD (C'escacs).
    pub fen_comments: bool,
    /// Only the first N half-moves of the main line are written (the variations and
    /// comments of those kept stay); a game cut short gets the result `*`.
    pub ply_limit: Option<usize>,
    /// Movetext lines of at most this many characters (PGN and xiangqi PGN; CTL-PGN
    /// writes one move pair a row).
    pub line_length: Option<usize>,
    /// No move numbers in the movetext (PGN and xiangqi PGN; a CTL-PGN row is a
    /// numbered move pair).
    pub no_move_numbers: bool,
    /// No result marker at the end of the movetext (the `Result` tag stays).
    pub no_results: bool,
    /// Each variation written as a game of its own (the main line first, without its
    /// variations; then each variation, depth first, with the moves before it).
    pub split_variations: bool,
}

impl Layout {
    /// Whether nothing is asked for.
    pub fn is_empty(&self) -> bool {
        *self == Layout::default()
    }

    /// The options of this layout that the writer of `to` has no place for, by their
    /// command-line names. The line length, move numbers and result marker are options
    /// of the PGN and xiangqi PGN writers; CTL-PGN is written in its specification's
    /// form (one numbered move pair a row, then the result line), the xiangqi XML form
    /// has no movetext lines, PCN none at all. The cuts and position comments change
    /// the game itself, so every format takes them. Front ends say what is ignored
    /// (docs/select.md "Layout").
    pub fn not_applied(&self, to: Format) -> Vec<&'static str> {
        if matches!(to, Format::Pgn | Format::XiangqiPgn) {
            return Vec::new();
        }
        [
            (self.line_length.is_some(), "--line-length"),
            (self.no_move_numbers, "--no-move-numbers"),
            (self.no_results, "--no-results"),
        ]
        .into_iter()
        .filter_map(|(asked, name)| asked.then_some(name))
        .collect()
    }

    /// Whether anything asked for changes what `to`'s writer writes (else a game can be
    /// copied as it was).
    pub(crate) fn applies_to(&self, to: Format) -> bool {
        self.changes_model()
            || self.split_variations
            || (!self.is_empty() && self.not_applied(to).is_empty())
    }

    /// Whether the game model is changed before it is written.
    pub(crate) fn changes_model(&self) -> bool {
        self.fen_comments || self.ply_limit.is_some()
    }

    /// This layout without what [`Layout::apply`] does to the model: what is left for
    /// the writers.
    pub(crate) fn written_only(&self) -> Layout {
        Layout {
            fen_comments: false,
            ply_limit: None,
            ..*self
        }
    }

    /// The record cut and commented as asked (`fen_comments`, `ply_limit`).
    pub(crate) fn apply(&self, record: &Record) -> Record {
        let mut r = record.clone();
        if let Some(n) = self.ply_limit {
            cut(&mut r, n);
        }
        if self.fen_comments {
            fen_comments(&mut r);
        }
        r.source_pcn = None;
        r
    }
}

/// Keeps the first `n` half-moves of the main line; a game cut short has the result
/// `*` (it did not end there), as pgn-extract's `--plylimit` writes it.
fn cut(record: &mut Record, n: usize) {
    match record.game_mut() {
        Some(Game::Chess(g)) if g.moves.moves.len() > n => {
            g.moves.moves.truncate(n);
            g.outcome = chess_pgn::Outcome::Unknown;
            g.final_comments.clear();
            unknown_result_tag(&mut g.tags);
        }
        Some(Game::Xiangqi(g)) if g.line.moves.len() > n => {
            g.line.moves.truncate(n);
            g.result = "*".to_string();
            unknown_result_tag(&mut g.tags);
        }
        Some(Game::Cescacs {
            record: r,
            position,
            plies,
            moves,
        }) => {
            let mut seen = 0;
            let end = r.main.items.iter().position(|i| {
                if matches!(i, ctl_pgn::Item::Move(_)) {
                    seen += 1;
                }
                seen > n
            });
            if let Some(end) = end {
                r.main.items.truncate(end);
                r.result = Some(cescacs_rules::GameResult::Unfinished);
                r.final_comments.clear();
                for t in r.tags.iter_mut().filter(|t| t.name == "Result") {
                    t.value = "*".to_string();
                }
                // The record no longer ends where it said it did.
                if let Some(ctl_pgn::Item::Move(m)) = r
                    .main
                    .items
                    .iter_mut()
                    .rev()
                    .find(|i| matches!(i, ctl_pgn::Item::Move(_)))
                {
                    m.end_mark = false;
                }
                moves.truncate(n);
                *plies = (*plies).min(n);
                *position = cescacs_start(r).map(|mut p| {
                    moves.iter().for_each(|m| p.play_unchecked(*m));
                    p
                });
            }
        }
        _ => {}
    }
}

/// A `Result` tag among `tags` says `*`.
fn unknown_result_tag(tags: &mut [(String, String)]) {
    for (_, v) in tags.iter_mut().filter(|(n, _)| n == "Result") {
        *v = "*".to_string();
    }
}

fn cescacs_start(record: &ctl_pgn::Game) -> Option<cescacs_rules::Position> {
    match record.start_tlpd() {
        None => Some(cescacs_rules::Position::initial()),
        Some(t) => cescacs_tlpd::parse(t).ok(),
    }
}

/// Puts the position after each main-line move as the first comment after it.
fn fen_comments(record: &mut Record) {
    match &mut record.game {
        Some(Game::Chess(g)) => {
            let style = if g.variant == chess_pgn::Variant::Chess960 {
                chess_pgn::CastlingStyle::Shredder
            } else {
                chess_pgn::CastlingStyle::XFen
            };
            let mut board = g.start.clone();
            let mut clock = g.start_halfmove_clock;
            for node in &mut g.moves.moves {
                match node.mv {
                    Some(m) => board.play_unchecked(m),
                    None => {
                        if let Some(b) = board.null_move() {
                            board = b;
                        }
                    }
                }
                // The generator resets its (capped) clock exactly when the rules do.
                clock = if board.halfmove_clock() == 0 {
                    0
                } else {
                    clock + 1
                };
                let fen = crate::chess_fen(&board, clock, style);
                node.after.insert(0, chess_pgn::After::Comment(fen));
            }
        }
        Some(Game::Xiangqi(g)) => {
            let mut pos = g.start.clone();
            for node in &mut g.line.moves {
                pos.play(node.mv);
                node.comments.insert(0, pos.to_fen());
            }
        }
        Some(Game::Cescacs {
            record: r, moves, ..
        }) => {
            let Some(mut pos) = cescacs_start(r) else {
                return;
            };
            let mut played = moves.iter();
            let mut items = Vec::with_capacity(r.main.items.len() + moves.len());
            for item in std::mem::take(&mut r.main.items) {
                let is_move = matches!(item, ctl_pgn::Item::Move(_));
                items.push(item);
                // Only the moves the reader's replay resolved have a position.
                if is_move && let Some(m) = played.next() {
                    pos.play_unchecked(*m);
                    let tlpd = cescacs_tlpd::write(&pos);
                    items.push(ctl_pgn::Item::Comment(ctl_pgn::Comment::new(
                        ctl_pgn::CommentKind::General,
                        tlpd,
                    )));
                }
            }
            r.main.items = items;
        }
        Some(Game::Pcn(_)) | None => {}
    }
}

/// The record as several games, for `split_variations`: the main line without its
/// variations, then each variation (depth first) as the moves before it followed by
/// the variation's own moves, with the game's tags and an unknown result (`*`).
pub(crate) fn split_variations(record: Record) -> Vec<Record> {
    let mut out = Vec::new();
    match &record.game {
        Some(Game::Chess(g)) => {
            let mut games = Vec::new();
            chess_lines(g, &[], &g.moves, &mut games);
            out.extend(
                games
                    .into_iter()
                    .map(|g| with_game(&record, Game::Chess(g))),
            );
        }
        Some(Game::Xiangqi(g)) => {
            let mut games = Vec::new();
            xiangqi_lines(g, &[], &g.line, &mut games);
            out.extend(
                games
                    .into_iter()
                    .map(|g| with_game(&record, Game::Xiangqi(g))),
            );
        }
        Some(Game::Cescacs { record: r, .. }) => {
            let mut games = Vec::new();
            cescacs_lines(r, &[], &r.main, &mut games);
            out.extend(
                games
                    .into_iter()
                    .map(|g| with_game(&record, crate::cescacs::from_model(g))),
            );
        }
        Some(Game::Pcn(_)) | None => out.push(record),
    }
    out
}

fn with_game(record: &Record, game: Game) -> Record {
    let mut r = record.clone();
    *r.game_mut() = Some(game);
    r.source_pcn = None;
    r
}

/// The game of `prefix` then `line` (its variations removed), and recursively one
/// game per variation of `line`.
fn chess_lines(
    g: &chess_pgn::Game,
    prefix: &[chess_pgn::MoveNode],
    line: &chess_pgn::Line,
    out: &mut Vec<chess_pgn::Game>,
) {
    let mut game = g.clone();
    game.moves.comments = if prefix.is_empty() {
        line.comments.clone()
    } else {
        g.moves.comments.clone()
    };
    game.moves.moves = prefix.to_vec();
    let mut variations = Vec::new();
    for (i, node) in line.moves.iter().enumerate() {
        let mut plain = node.clone();
        plain.after.retain(|a| match a {
            chess_pgn::After::Comment(_) => true,
            chess_pgn::After::Variation(v) => {
                variations.push((i, v.clone()));
                false
            }
        });
        game.moves.moves.push(plain);
    }
    if !out.is_empty() {
        game.outcome = chess_pgn::Outcome::Unknown;
        game.final_comments.clear();
        unknown_result_tag(&mut game.tags);
    }
    let kept = game.moves.moves.clone();
    out.push(game);
    for (i, v) in variations {
        // The variation replaces the move at `i`.
        chess_lines(g, &kept[..prefix.len() + i], &v, out);
    }
}

fn xiangqi_lines(
    g: &xiangqi_pgn::Game,
    prefix: &[xiangqi_pgn::MoveNode],
    line: &xiangqi_pgn::Line,
    out: &mut Vec<xiangqi_pgn::Game>,
) {
    let mut game = g.clone();
    if !prefix.is_empty() {
        game.line.leading_comments = g.line.leading_comments.clone();
    } else {
        game.line.leading_comments = line.leading_comments.clone();
    }
    game.line.moves = prefix.to_vec();
    let mut variations = Vec::new();
    for (i, node) in line.moves.iter().enumerate() {
        let mut plain = node.clone();
        variations.extend(
            std::mem::take(&mut plain.variations)
                .into_iter()
                .map(|v| (i, v)),
        );
        game.line.moves.push(plain);
    }
    if !out.is_empty() {
        game.result = "*".to_string();
        unknown_result_tag(&mut game.tags);
    }
    let kept = game.line.moves.clone();
    out.push(game);
    for (i, v) in variations {
        xiangqi_lines(g, &kept[..prefix.len() + i], &v, out);
    }
}

fn cescacs_lines(
    g: &ctl_pgn::Game,
    prefix: &[ctl_pgn::Item],
    line: &ctl_pgn::Line,
    out: &mut Vec<ctl_pgn::Game>,
) {
    let mut game = g.clone();
    game.main.items = prefix.to_vec();
    let mut variations = Vec::new();
    for item in &line.items {
        match item {
            ctl_pgn::Item::Variation(v) => {
                // It replaces the last move before it.
                let at = game
                    .main
                    .items
                    .iter()
                    .rposition(|i| matches!(i, ctl_pgn::Item::Move(_)))
                    .unwrap_or(0);
                variations.push((at, v.line.clone()));
            }
            other => game.main.items.push(other.clone()),
        }
    }
    if !out.is_empty() {
        game.result = Some(cescacs_rules::GameResult::Unfinished);
        game.final_comments.clear();
        for t in game.tags.iter_mut().filter(|t| t.name == "Result") {
            t.value = "*".to_string();
        }
        for m in game.main.items.iter_mut() {
            if let ctl_pgn::Item::Move(m) = m {
                m.end_mark = false;
            }
        }
    }
    let kept = game.main.items.clone();
    out.push(game);
    for (at, v) in variations {
        cescacs_lines(g, &kept[..at], &v, out);
    }
}
