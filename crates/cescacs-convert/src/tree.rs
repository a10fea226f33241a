//! Every half-move of a record as data a program walks: SAN, UCI (ICCS, CTL-AN
//! cells), the men moved and taken, check and mate, annotations and the position after
//! it, in one replay of the record, main line first, variations on request.
//!
//! The tree is python-chess's shape: node 0 is the start; a node's first child is the
//! main continuation, the others are alternatives to it. Built only when asked for (a
//! reader of final positions never pays for it).

use crate::{GameKind, Record, record::Game};

/// An engine evaluation from a `[%eval …]` command, from White's (Red's) view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (the command's pawns times 100, rounded to the nearest).
    Centipawns(i32),
    /// Mate in this many moves (negative: the second player mates).
    Mate(i32),
}

impl From<chess_pgn::Eval> for Score {
    fn from(e: chess_pgn::Eval) -> Score {
        match e {
            chess_pgn::Eval::Pawns(p) => Score::Centipawns((p * 100.0).round() as i32),
            chess_pgn::Eval::Mate(n) => Score::Mate(n),
        }
    }
}

/// One half-move with what the record said about it. Its texts (SAN, UCI, squares)
/// are spelt when asked for: a chess walk keeps the move and its export SAN as the
/// reader resolved them and builds no string per ply.
#[derive(Debug, Clone, PartialEq)]
pub struct PlyMove {
    /// Half-moves from the start position to the position after this one (1 for the
    /// first move of the game, whatever line the move is in).
    pub ply: usize,
    /// The man moved: its letter, upper case for White (Red); `None` for a null move.
    pub piece: Option<char>,
    /// The man taken, as [`PlyMove::piece`].
    pub captured: Option<char>,
    /// The kind a pawn became, as [`PlyMove::piece`].
    pub promotion: Option<char>,
    /// The move gives check.
    pub is_check: bool,
    /// The move mates.
    pub is_mate: bool,
    /// Comments after the move, verbatim (commands such as `[%clk …]` kept).
    pub comments: Vec<String>,
    /// NAGs as written (`$1`) or as the glyphs C'escacs writes (`!?`).
    pub nags: Vec<String>,
    /// Seconds on the mover's clock after the move, from `[%clk h:mm:ss]`.
    pub clock: Option<f64>,
    /// From `[%eval …]`.
    pub eval: Option<Score>,
    /// Seconds the move took, from `[%emt h:mm:ss]`.
    pub emt: Option<f64>,
    text: Text,
}

/// What a [`PlyMove`]'s texts are spelt from.
#[derive(Debug, Clone, PartialEq)]
enum Text {
    /// A chess move: the reader's export SAN and the squares UCI names.
    Chess {
        san: chess_pgn::SanPlus,
        /// `None` for a null move.
        from: Option<chess_pgn::cozy_chess::Square>,
        /// UCI's destination (the King's for castling outside Chess960).
        to: chess_pgn::cozy_chess::Square,
        promotion: Option<chess_pgn::cozy_chess::Piece>,
    },
    /// Xiangqi and C'escacs moves, spelt during the walk (their notations need the
    /// position before the move).
    Spelt(Box<Spelt>),
}

#[derive(Debug, Clone, PartialEq)]
struct Spelt {
    san: String,
    written: String,
    uci: String,
    from_square: String,
    to_square: String,
}

impl PlyMove {
    fn new(text: Text) -> PlyMove {
        PlyMove {
            ply: 0,
            piece: None,
            captured: None,
            promotion: None,
            is_check: false,
            is_mate: false,
            comments: Vec::new(),
            nags: Vec::new(),
            clock: None,
            eval: None,
            emt: None,
            text,
        }
    }

    /// Normalised text: export SAN for chess; the game's notation in its canonical
    /// spelling for xiangqi (Chinese when the record names none); CTL-AN in standard
    /// letters with its check marker for C'escacs.
    pub fn san(&self) -> Spelling<'_> {
        match &self.text {
            Text::Chess { san, .. } => Spelling::display(san),
            Text::Spelt(s) => Spelling::of(&s.san),
        }
    }

    /// The text as the record wrote it (for chess the model keeps only the export SAN,
    /// so it equals [`PlyMove::san`]).
    pub fn written(&self) -> Spelling<'_> {
        match &self.text {
            Text::Chess { .. } => self.san(),
            Text::Spelt(s) => Spelling::of(&s.written),
        }
    }

    /// Machine text: UCI for chess (python-chess's `move.uci()`), ICCS for xiangqi,
    /// origin and destination cells for C'escacs (`E7E9`, a promotion letter after).
    pub fn uci(&self) -> Spelling<'_> {
        match &self.text {
            Text::Chess { from: None, .. } => Spelling::of("0000"),
            Text::Chess {
                from: Some(from),
                to,
                promotion,
                ..
            } => {
                let mut s = Spelling::square(*from);
                s.push_square(*to);
                if let Some(p) = promotion {
                    s.push(char::from(*p));
                }
                s
            }
            Text::Spelt(s) => Spelling::of(&s.uci),
        }
    }

    /// A number that stands for this move's [`PlyMove::san`] and [`PlyMove::uci`]
    /// together: two chess moves with the same key have the same texts (the key packs
    /// what they are spelt from, exactly). `None` for xiangqi and C'escacs moves, whose
    /// texts are kept spelt. A binding uses it to share the strings it hands out
    /// without spelling a move first.
    pub fn text_key(&self) -> Option<u64> {
        use chess_pgn::{CastleSide, San, Suffix};
        let Text::Chess {
            san,
            from,
            to,
            promotion,
        } = &self.text
        else {
            return None;
        };
        // Each optional man, file or rank as 0 (none) or its index + 1.
        let piece = |p: Option<chess_pgn::cozy_chess::Piece>| p.map_or(0, |p| p as u64 + 1);
        let written = match san.san {
            San::Normal {
                piece: moved,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                piece(moved)
                    | file.map_or(0, |f| f as u64 + 1) << 3
                    | rank.map_or(0, |r| r as u64 + 1) << 7
                    | u64::from(capture) << 11
                    | (to as u64) << 12
                    | piece(promotion) << 18
            }
            San::Castle(CastleSide::Short) => 1 << 21,
            San::Castle(CastleSide::Long) => 2 << 21,
            San::Null => 3 << 21,
            San::Drop { piece: p, to } => 4 << 21 | piece(Some(p)) | (to as u64) << 12,
        };
        let suffix = match san.suffix {
            None => 0,
            Some(Suffix::Check) => 1,
            Some(Suffix::Mate) => 2,
        };
        let uci = from.map_or(0, |f| f as u64 + 1) | (*to as u64) << 7 | piece(*promotion) << 13;
        Some(written | suffix << 24 | uci << 26)
    }

    /// Origin in the game's own coordinates (`e2`, `h2`, `E7`); empty for a null move.
    pub fn from_square(&self) -> Spelling<'_> {
        match &self.text {
            Text::Chess { from: None, .. } => Spelling::of(""),
            Text::Chess { from: Some(f), .. } => Spelling::square(*f),
            Text::Spelt(s) => Spelling::of(&s.from_square),
        }
    }

    /// Destination (for castling: the King's); empty for a null move.
    pub fn to_square(&self) -> Spelling<'_> {
        match &self.text {
            Text::Chess { from: None, .. } => Spelling::of(""),
            Text::Chess { to, .. } => Spelling::square(*to),
            Text::Spelt(s) => Spelling::of(&s.to_square),
        }
    }
}

/// A text of a [`PlyMove`]: borrowed from the tree, or spelt on the stack (a chess
/// move's SAN, UCI and squares, which are at most a few bytes). Reads as a `str`.
#[derive(Clone, Copy)]
pub struct Spelling<'a>(Repr<'a>);

#[derive(Clone, Copy)]
enum Repr<'a> {
    Borrowed(&'a str),
    Inline { bytes: [u8; INLINE], len: u8 },
}

/// Room for the longest chess spelling (`Qa1xb2=Q#` is 9 bytes) with margin.
const INLINE: usize = 15;

impl<'a> Spelling<'a> {
    fn of(s: &'a str) -> Spelling<'a> {
        Spelling(Repr::Borrowed(s))
    }

    fn empty() -> Spelling<'a> {
        Spelling(Repr::Inline {
            bytes: [0; INLINE],
            len: 0,
        })
    }

    fn square(sq: chess_pgn::cozy_chess::Square) -> Spelling<'a> {
        let mut s = Spelling::empty();
        s.push_square(sq);
        s
    }

    fn push_square(&mut self, sq: chess_pgn::cozy_chess::Square) {
        self.push(char::from(sq.file()));
        self.push(char::from(sq.rank()));
    }

    /// Appends an ASCII character (the only kind a chess spelling has).
    fn push(&mut self, c: char) {
        if let Repr::Inline { bytes, len } = &mut self.0
            && c.is_ascii()
            && usize::from(*len) < INLINE
        {
            bytes[usize::from(*len)] = c as u8;
            *len += 1;
        }
    }

    /// The `Display` text of a value that fits the inline room (a chess SAN).
    fn display(v: &impl std::fmt::Display) -> Spelling<'a> {
        use std::fmt::Write as _;
        let mut s = Spelling::empty();
        // A longer text cannot happen for SAN; it would be cut, never overflow.
        let _ = write!(s, "{v}");
        s
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Borrowed(s) => s,
            // Only ASCII is ever pushed inline, so the bytes are UTF-8.
            Repr::Inline { bytes, len } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
        }
    }
}

impl std::fmt::Write for Spelling<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if let Repr::Inline { len, .. } = self.0
            && usize::from(len) + s.len() <= INLINE
            && s.is_ascii()
        {
            s.chars().for_each(|c| self.push(c));
            Ok(())
        } else {
            Err(std::fmt::Error)
        }
    }
}

impl std::ops::Deref for Spelling<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for Spelling<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Spelling<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<&str> for Spelling<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A position of a [`MoveTree`], kept as the rules engine's and written out as FEN or
/// TLPD only when asked for ([`Position::fen`]): a reader of SAN or UCI alone never
/// formats a position.
#[derive(Clone, PartialEq)]
pub enum Position {
    /// A chess board with its exact halfmove clock and castling style.
    Chess {
        /// The board.
        board: chess_pgn::cozy_chess::Board,
        /// The halfmove clock (cozy-chess caps its own).
        clock: u32,
        /// How castling rights are written.
        style: chess_pgn::CastlingStyle,
        /// A Chess960 game (castling is king-takes-rook in UCI).
        chess960: bool,
    },
    /// A xiangqi position.
    Xiangqi(xiangqi::Position),
    /// A C'escacs position.
    Cescacs(cescacs_rules::Position),
}

impl Position {
    /// FEN (chess as python-chess's `board.fen()`, xiangqi) or TLPD (C'escacs).
    pub fn fen(&self) -> String {
        match self {
            Position::Chess {
                board,
                clock,
                style,
                ..
            } => crate::chess_fen(board, *clock, *style),
            Position::Xiangqi(p) => p.to_fen(),
            Position::Cescacs(p) => cescacs_tlpd::write(p),
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({:?})", self.fen())
    }
}

/// One node of a [`MoveTree`].
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The move leading here; `None` at the root.
    pub mv: Option<PlyMove>,
    /// The node this one follows; `None` at the root.
    pub parent: Option<usize>,
    /// Comments: at the root those before the first move; elsewhere the move's.
    pub comments: Vec<String>,
    /// The position at this node.
    pub position: Position,
    // The moves that may follow as a list linked through the nodes (one allocation
    // per tree, not one per node): the first is the main continuation.
    first_child: Option<usize>,
    last_child: Option<usize>,
    next_sibling: Option<usize>,
}

/// A game's moves as a tree (see the module's notes).
#[derive(Debug, Clone, PartialEq)]
pub struct MoveTree {
    /// Which game.
    pub kind: GameKind,
    /// Node 0 is the start position. Without variations, node `n` is the main line's
    /// `n`-th half-move.
    pub nodes: Vec<Node>,
}

impl MoveTree {
    /// A tree with no moves at all (an unreadable record).
    pub fn empty(kind: GameKind) -> MoveTree {
        MoveTree {
            kind,
            nodes: Vec::new(),
        }
    }

    /// The moves that may follow node `node`: the first is the main continuation.
    pub fn children(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.nodes.get(node).and_then(|n| n.first_child);
        std::iter::from_fn(move || {
            let at = next?;
            next = self.nodes[at].next_sibling;
            Some(at)
        })
    }

    /// The main continuation after node `node`, if any.
    pub fn next(&self, node: usize) -> Option<usize> {
        self.nodes.get(node)?.first_child
    }

    /// The main line's nodes after the root, in order.
    pub fn main_line(&self) -> impl Iterator<Item = usize> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            at = self.next(at)?;
            Some(at)
        })
    }

    /// The main line's moves, in order.
    pub fn main_moves(&self) -> impl Iterator<Item = &PlyMove> + '_ {
        self.main_line().filter_map(|i| self.nodes[i].mv.as_ref())
    }

    /// The position after `ply` main-line half-moves (0: the start); `None` past the
    /// end of the main line.
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        if ply == 0 {
            return self.nodes.first().map(|n| &n.position);
        }
        self.main_line()
            .nth(ply - 1)
            .map(|i| &self.nodes[i].position)
    }
}

/// Why a record has no move tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TreeError {
    /// The record could not be read at all.
    #[error("the game could not be read")]
    Unreadable,
    /// A PCN document of a board none of the rules engines plays.
    #[error("a PCN document of an unknown board")]
    UnknownBoard,
    /// A C'escacs move of the record could not be replayed (a record read with errors).
    #[error("half-move {ply} could not be replayed: {reason}")]
    Replay {
        /// Half-moves from the start to the position after the move (1-based).
        ply: usize,
        /// Why.
        reason: String,
    },
}

/// The record's moves as a tree, in one replay. With `variations` false only the main
/// line is walked (the cheaper walk for a reader of the main line). A record read with
/// errors gives the moves read before its first error.
///
/// ```
/// use cescacs_convert::{Format, Record, move_tree};
/// let record = Record::from_bytes(Format::Pgn, b"1. e4 {[%clk 0:03:00]} e5 (1... c5) 2. Qh5 *\n");
/// let tree = move_tree(&record, true).unwrap();
/// let main: Vec<String> = tree.main_moves().map(|m| m.uci().to_string()).collect();
/// assert_eq!(main, ["e2e4", "e7e5", "d1h5"]);
/// assert_eq!(tree.main_moves().next().unwrap().clock, Some(180.0));
/// // The root of 1... c5 is the position after 1. e4: its second child.
/// let after_e4 = tree.next(0).unwrap();
/// let c5 = tree.children(after_e4).nth(1).unwrap();
/// assert_eq!(tree.nodes[c5].mv.as_ref().unwrap().san(), "c5");
/// ```
pub fn move_tree(record: &Record, variations: bool) -> Result<MoveTree, TreeError> {
    let mut b = Builder {
        nodes: Vec::new(),
        variations,
    };
    if !variations {
        // The main line alone: one node per half-move and the root.
        b.nodes.reserve(record.plies() + 1);
    }
    let kind = match record.game().ok_or(TreeError::Unreadable)? {
        Game::Chess(g) => {
            chess::walk(&mut b, g);
            GameKind::Chess
        }
        Game::Xiangqi(g) => {
            xq::walk(&mut b, g);
            GameKind::Xiangqi
        }
        Game::Cescacs { record, .. } => {
            hex::walk(&mut b, record)?;
            GameKind::Cescacs
        }
        Game::Pcn(_) => return Err(TreeError::UnknownBoard),
    };
    Ok(MoveTree {
        kind,
        nodes: b.nodes,
    })
}

struct Builder {
    nodes: Vec<Node>,
    variations: bool,
}

impl Builder {
    fn root(&mut self, position: Position, comments: Vec<String>) {
        self.nodes.push(Node {
            mv: None,
            parent: None,
            comments,
            position,
            first_child: None,
            last_child: None,
            next_sibling: None,
        });
    }

    /// Adds `mv` (leading to `position`) after node `parent`; returns the new node.
    // Inlined into each walk, the node is built where the vector keeps it: as a call
    // it was built on the stack and copied twice a ply (callgrind, stop 42).
    #[inline(always)]
    fn child(&mut self, parent: usize, mut mv: PlyMove, position: Position) -> usize {
        let id = self.nodes.len();
        if !mv.comments.is_empty() {
            let (clock, eval, emt) = commands(&mv.comments);
            mv.clock = clock;
            mv.eval = eval;
            mv.emt = emt;
        }
        match self.nodes[parent].last_child {
            Some(last) => self.nodes[last].next_sibling = Some(id),
            None => self.nodes[parent].first_child = Some(id),
        }
        self.nodes[parent].last_child = Some(id);
        self.nodes.push(Node {
            position,
            comments: if mv.comments.is_empty() {
                Vec::new()
            } else {
                mv.comments.clone()
            },
            mv: Some(mv),
            parent: Some(parent),
            first_child: None,
            last_child: None,
            next_sibling: None,
        });
        id
    }
}

/// `[%clk]`, `[%eval]` and `[%emt]` of a move's comments (the last of each wins, as in
/// python-chess).
fn commands(comments: &[String]) -> (Option<f64>, Option<Score>, Option<f64>) {
    let (mut clock, mut eval, mut emt) = (None, None, None);
    for c in comments {
        if !c.contains("[%") {
            continue;
        }
        let (clk, ev) = chess_pgn::parse_commands(c);
        clock = clk.or(clock);
        eval = ev.map(Score::from).or(eval);
        emt = elapsed(c).or(emt);
    }
    (clock, eval, emt)
}

/// The seconds of an `[%emt h:mm:ss]` command.
fn elapsed(comment: &str) -> Option<f64> {
    let at = comment.find("[%emt")?;
    let rest = &comment[at + 5..];
    let body = rest[..rest.find(']')?].trim();
    let mut seconds = 0.0;
    for part in body.split(':') {
        seconds = seconds * 60.0 + part.trim().parse::<f64>().ok()?;
    }
    Some(seconds)
}

mod chess {
    use super::{Builder, PlyMove, Text};
    use chess_pgn::cozy_chess::{Board, Color, File, Piece, Square};
    use chess_pgn::{After, CastlingStyle, Line, MoveNode, Suffix, Variant};

    struct Ctx {
        style: CastlingStyle,
        chess960: bool,
    }

    pub(super) fn walk(b: &mut Builder, g: &chess_pgn::Game) {
        let ctx = Ctx {
            style: g.fen_castling.unwrap_or(CastlingStyle::XFen),
            chess960: g.variant == Variant::Chess960,
        };
        b.root(
            pos(&g.start, g.start_halfmove_clock, &ctx),
            g.moves.comments.clone(),
        );
        line(b, 0, &g.moves, &g.start, g.start_halfmove_clock, 0, &ctx);
    }

    fn pos(board: &Board, clock: u32, ctx: &Ctx) -> super::Position {
        super::Position::Chess {
            board: board.clone(),
            clock,
            style: ctx.style,
            chess960: ctx.chess960,
        }
    }

    /// The [`PlyMove`] of record move `node`, the `ply`-th half-move, played by
    /// `mover` from a position where `seen` was read.
    fn ply_move(
        node: &MoveNode,
        seen: Option<Seen>,
        mover: Color,
        ply: usize,
        ctx: &Ctx,
    ) -> PlyMove {
        // Most plies have neither comments nor NAGs: no iterator is set up for them.
        let comments: Vec<String> = if node.after.is_empty() {
            Vec::new()
        } else {
            node.after
                .iter()
                .filter_map(|a| match a {
                    After::Comment(c) => Some(c.clone()),
                    After::Variation(_) => None,
                })
                .collect()
        };
        let nags = if node.nags.is_empty() {
            Vec::new()
        } else {
            node.nags.iter().map(|n| format!("${n}")).collect()
        };
        // The move's texts and men are set once: a default `PlyMove` overwritten
        // afterwards dropped its first `Text` on every ply (callgrind, stop 42).
        let (text, piece, captured, promotion) = played(node, seen, mover, ctx);
        // The reader's export SAN carries the check and mate markers, judged on the
        // position reached.
        PlyMove {
            ply,
            piece,
            captured,
            promotion,
            is_check: node.san.suffix.is_some(),
            is_mate: node.san.suffix == Some(Suffix::Mate),
            comments,
            nags,
            clock: None,
            eval: None,
            emt: None,
            text,
        }
    }

    /// The texts and men of record move `node` played by `mover`: UCI's squares (the
    /// King's destination for castling outside Chess960), then the man moved, the man
    /// taken and the promotion as letters.
    fn played(
        node: &MoveNode,
        seen: Option<Seen>,
        mover: Color,
        ctx: &Ctx,
    ) -> (Text, Option<char>, Option<char>, Option<char>) {
        match (node.mv, seen) {
            (
                Some(mv),
                Some(Seen {
                    piece,
                    castles,
                    taken,
                }),
            ) => {
                // UCI names the King's destination for castling outside Chess960.
                let to = if castles && !ctx.chess960 {
                    let file = if mv.to.file() > mv.from.file() {
                        File::G
                    } else {
                        File::C
                    };
                    Square::new(file, mv.from.rank())
                } else {
                    mv.to
                };
                let captured = if castles {
                    None
                } else if let Some(taken) = taken {
                    Some(letter(taken, !mover))
                } else if piece == Some(Piece::Pawn) && mv.from.file() != mv.to.file() {
                    Some(letter(Piece::Pawn, !mover))
                } else {
                    None
                };
                (
                    Text::Chess {
                        san: node.san,
                        from: Some(mv.from),
                        to,
                        promotion: mv.promotion,
                    },
                    piece.map(|pc| letter(pc, mover)),
                    captured,
                    mv.promotion.map(|pc| letter(pc, mover)),
                )
            }
            _ => (
                Text::Chess {
                    san: node.san,
                    from: None,
                    to: Square::A1,
                    promotion: None,
                },
                None,
                None,
                None,
            ),
        }
    }

    /// What a ply's record needs of the position before it.
    struct Seen {
        /// The man on the origin.
        piece: Option<Piece>,
        /// The mover's own man on the destination: castling (king takes rook).
        castles: bool,
        /// The man on the destination.
        taken: Option<Piece>,
    }

    fn letter(piece: Piece, color: Color) -> char {
        let c = char::from(piece);
        if color == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Adds `moves` after node `parent` (the position `start`, `ply` half-moves from
    /// the game's start, halfmove clock `clock`).
    fn line(
        b: &mut Builder,
        parent: usize,
        moves: &Line,
        start: &Board,
        clock: u32,
        ply: usize,
        ctx: &Ctx,
    ) {
        let mut at = parent;
        let mut clock = clock;
        let mut ply = ply;
        // One board for the line: what a ply's record needs of the position before
        // it is read off before the move is played (the position before a variation
        // is its parent node's).
        let mut board = start.clone();
        for node in &moves.moves {
            let mover = board.side_to_move();
            // Most moves go to an empty square: the man there is looked for (six
            // bitboards) only when its colour says there is one.
            let seen = node.mv.map(|mv| {
                let on_to = board.color_on(mv.to);
                Seen {
                    piece: board.piece_on(mv.from),
                    castles: on_to == Some(mover),
                    taken: on_to.and_then(|_| board.piece_on(mv.to)),
                }
            });
            match node.mv {
                Some(mv) => board.play_unchecked(mv),
                None => {
                    if let Some(b) = board.null_move() {
                        board = b;
                    }
                }
            }
            let next_clock = if board.halfmove_clock() == 0 {
                0
            } else {
                clock + 1
            };
            ply += 1;
            let m = ply_move(node, seen, mover, ply, ctx);
            let id = b.child(at, m, pos(&board, next_clock, ctx));
            if b.variations {
                for v in node.after.iter() {
                    if let After::Variation(v) = v
                        && let super::Position::Chess { board: before, .. } = &b.nodes[at].position
                    {
                        let before = before.clone();
                        line(b, at, v, &before, clock, ply - 1, ctx);
                    }
                }
            }
            at = id;
            clock = next_clock;
        }
    }
}

mod xq {
    use super::{Builder, PlyMove, Spelt, Text};
    use xiangqi::{Position, Status};
    use xiangqi_pgn::{Line, MoveStyle, Notation};

    pub(super) fn walk(b: &mut Builder, g: &xiangqi_pgn::Game) {
        let style = MoveStyle::canonical(g.source_notation.unwrap_or(Notation::Chinese));
        b.root(
            super::Position::Xiangqi(g.start.clone()),
            g.line.leading_comments.clone(),
        );
        line(b, 0, &g.line, &g.start, 0, &style);
    }

    fn line(
        b: &mut Builder,
        parent: usize,
        moves: &Line,
        start: &Position,
        ply: usize,
        style: &MoveStyle,
    ) {
        let mut position = start.clone();
        let mut at = parent;
        let mut ply = ply;
        for node in &moves.moves {
            let before = position.clone();
            let mv = node.mv;
            position.play(mv);
            ply += 1;
            let san = xiangqi_pgn::render(&before, mv, style);
            let check = position.is_check();
            let m = PlyMove {
                ply,
                piece: before.piece_at(mv.from()).map(|p| p.fen_char()),
                captured: before.captured_by(mv).map(|p| p.fen_char()),
                promotion: None,
                is_check: check,
                is_mate: check && position.status() == Status::Checkmate,
                comments: node.comments.clone(),
                nags: node.nags.clone(),
                ..PlyMove::new(Text::Spelt(Box::new(Spelt {
                    written: if node.source.is_empty() {
                        san.clone()
                    } else {
                        node.source.clone()
                    },
                    san,
                    uci: mv.to_iccs(),
                    from_square: mv.from().to_string(),
                    to_square: mv.to().to_string(),
                })))
            };
            let id = b.child(at, m, super::Position::Xiangqi(position.clone()));
            if b.variations {
                for v in &node.variations {
                    line(b, at, v, &before, ply - 1, style);
                }
            }
            at = id;
        }
    }
}

mod hex {
    use super::{Builder, PlyMove, Spelt, Text, TreeError};
    use cescacs_rules::an::MoveText;
    use cescacs_rules::{Letters, Piece, Position, Side, Status};
    use ctl_pgn::{Item, Line};

    pub(super) fn walk(b: &mut Builder, record: &ctl_pgn::Game) -> Result<(), TreeError> {
        let start = match record.start_tlpd() {
            None => Position::initial(),
            Some(t) => cescacs_tlpd::parse(t).map_err(|e| TreeError::Replay {
                ply: 0,
                reason: format!("start position {t}: {e}"),
            })?,
        };
        let letters = record
            .letters()
            .unwrap_or_else(|_| ctl_pgn::LetterTable::standard());
        let intro = record
            .main
            .items
            .iter()
            .take_while(|i| !matches!(i, Item::Move(_)))
            .filter_map(|i| match i {
                Item::Comment(c) => Some(c.text.clone()),
                _ => None,
            })
            .collect();
        b.root(super::Position::Cescacs(start.clone()), intro);
        line(b, 0, &record.main, &start, 0, &letters)
    }

    fn letter(piece: Piece, letters: &Letters) -> char {
        let c = letters.letter(piece.kind);
        if piece.side == Side::White {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The [`PlyMove`] of record move `m`, resolved as `mv`, from `before` to `after`.
    fn ply_move(
        m: &ctl_pgn::MoveNode,
        mv: cescacs_rules::Move,
        (before, after): (&Position, &Position),
        ply: usize,
        written_letters: &ctl_pgn::LetterTable,
    ) -> PlyMove {
        let letters = Letters::default();
        let mut written = m.token.render(written_letters, m.side);
        if let Some(c) = m.check {
            written.push_str(c.as_str());
        }
        let mover = before.side_to_move();
        let promotion = mv
            .promotion()
            .map(|k| letter(Piece::new(mover, k), &letters));
        let mut uci = format!("{}{}", mv.from(), mv.to());
        uci.extend(promotion.map(|c| c.to_ascii_uppercase()));
        let check = after.is_check();
        PlyMove {
            ply,
            piece: before.piece_at(mv.from()).map(|p| letter(p, &letters)),
            captured: mv.captured().map(|p| letter(p, &letters)),
            promotion,
            is_check: check,
            is_mate: check && after.status() == Status::Checkmate,
            nags: m
                .assessment
                .map(|a| a.as_str().to_string())
                .into_iter()
                .collect(),
            ..PlyMove::new(Text::Spelt(Box::new(Spelt {
                san: before.move_to_an(mv, &letters),
                written,
                uci,
                from_square: mv.from().to_string(),
                to_square: mv.to().to_string(),
            })))
        }
    }

    fn line(
        b: &mut Builder,
        parent: usize,
        moves: &Line,
        start: &Position,
        ply: usize,
        written_letters: &ctl_pgn::LetterTable,
    ) -> Result<(), TreeError> {
        let letters = Letters::default();
        let mut position = start.clone();
        let mut at = parent;
        let mut ply = ply;
        // Each half-move of this line as a variation may name it (spec 7.7: the first
        // move's number and side say which half-move it replaces, not always the most
        // recent): its number and side, the node it follows, the plies before it and
        // the position before it. Only a line with variations keeps them.
        let keep = b.variations && moves.items.iter().any(|i| matches!(i, Item::Variation(_)));
        let mut replaced: Vec<(u32, Side, usize, usize, Position)> = Vec::new();
        for item in &moves.items {
            match item {
                Item::Move(m) => {
                    let mut text = m.token.to_standard();
                    if let Some(c) = m.check {
                        text.push_str(c.as_str());
                    }
                    ply += 1;
                    let replay = |reason: String| TreeError::Replay { ply, reason };
                    let t = MoveText::parse(&text, &letters)
                        .map_err(|e| replay(format!("{text}: {e}")))?;
                    let mv = position
                        .resolve(&t)
                        .map_err(|e| replay(format!("{text}: {e}")))?
                        .mv;
                    let before = position.clone();
                    position.play_unchecked(mv);
                    let pm = ply_move(m, mv, (&before, &position), ply, written_letters);
                    let from = at;
                    at = b.child(at, pm, super::Position::Cescacs(position.clone()));
                    if keep {
                        replaced.push((m.number, m.side, from, ply - 1, before));
                    }
                }
                Item::Comment(c) => {
                    if at != parent {
                        let node = &mut b.nodes[at];
                        node.comments.push(c.text.clone());
                        if let Some(mv) = node.mv.as_mut() {
                            mv.comments.push(c.text.clone());
                            let (clock, eval, emt) = super::commands(std::slice::from_ref(&c.text));
                            mv.clock = clock.or(mv.clock);
                            mv.eval = eval.or(mv.eval);
                            mv.emt = emt.or(mv.emt);
                        }
                    }
                }
                Item::Variation(v) => {
                    // A variation naming no half-move of this line is the reader's
                    // error (`ctl.variation`); the tree leaves it out.
                    let Some(first) = v.line.moves().next() else {
                        continue;
                    };
                    let named = replaced
                        .iter()
                        .rev()
                        .find(|(n, s, ..)| (*n, *s) == (first.number, first.side));
                    if let Some((_, _, from, plies, before)) = named {
                        line(b, *from, &v.line, before, *plies, written_letters)?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Format;

    #[test]
    fn chess_moves_carry_what_python_chess_gives() {
        // Castling, en passant, promotion with capture, mate; python-chess 1.11 gives
        // these UCI moves and this final FEN for the same game.
        let pgn = b"[FEN \"r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1\"]\n[SetUp \"1\"]\n\n\
            1. exd6 {[%clk 1:02:03.5] [%eval -0.29]} O-O 2. bxa8=Q {[%emt 0:00:07]} Kg7 3. O-O-O *\n";
        let record = Record::from_bytes(Format::Pgn, pgn);
        assert!(record.errors().is_empty(), "{:?}", record.errors());
        let tree = move_tree(&record, false).unwrap();
        let moves: Vec<&PlyMove> = tree.main_moves().collect();
        let uci: Vec<String> = moves.iter().map(|m| m.uci().to_string()).collect();
        assert_eq!(uci, ["e5d6", "e8g8", "b7a8q", "g8g7", "e1c1"]);
        assert_eq!(moves[0].captured, Some('p'));
        assert_eq!(moves[0].clock, Some(3723.5));
        assert_eq!(moves[0].eval, Some(Score::Centipawns(-29)));
        assert_eq!(moves[1].to_square(), "g8");
        assert_eq!(moves[1].san(), "O-O");
        assert_eq!(moves[1].captured, None);
        assert_eq!(moves[2].promotion, Some('Q'));
        assert_eq!(moves[2].captured, Some('r'));
        assert!(!moves[2].is_check && !moves[2].is_mate);
        assert_eq!(moves[2].emt, Some(7.0));
        assert_eq!(moves[4].piece, Some('K'));
        assert_eq!(moves[4].ply, 5);
        assert_eq!(
            tree.position_at(5).map(Position::fen).as_deref(),
            Some("Q4r2/6k1/3P4/8/8/8/8/2KR3R b - - 2 3")
        );
    }

    #[test]
    fn mate_is_check_and_mate() {
        let record = Record::from_bytes(Format::Pgn, b"1. f3 e5 2. g4 Qh4# 0-1\n");
        let tree = move_tree(&record, false).unwrap();
        let last = tree.main_moves().last().unwrap();
        assert!(last.is_check && last.is_mate);
        assert_eq!((last.piece, last.to_square().as_str()), (Some('q'), "h4"));
        assert_eq!(last.san(), "Qh4#");
    }

    #[test]
    fn variations_hang_where_python_chess_hangs_them() {
        let pgn = b"1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *\n";
        let record = Record::from_bytes(Format::Pgn, pgn);
        let tree = move_tree(&record, true).unwrap();
        let san = |i: usize| tree.nodes[i].mv.as_ref().unwrap().san().to_string();
        let e4 = tree.next(0).unwrap();
        assert_eq!(tree.children(e4).count(), 2);
        let c5 = tree.children(e4).nth(1).unwrap();
        assert_eq!(san(c5), "c5");
        let kids: Vec<String> = tree.children(c5).map(san).collect();
        assert_eq!(kids, ["Nf3", "c3"]);
        assert_eq!(
            tree.nodes[tree.children(c5).nth(1).unwrap()]
                .mv
                .as_ref()
                .unwrap()
                .ply,
            3
        );
        // The main line alone skips the variations.
        let main = move_tree(&record, false).unwrap();
        assert_eq!(main.nodes.len(), 4);
    }

    #[test]
    fn xiangqi_moves_are_iccs() {
        let text = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 {[%clk 0:01:00]} *\n";
        let record = Record::from_bytes(Format::XiangqiPgn, text.as_bytes());
        assert!(record.errors().is_empty(), "{:?}", record.errors());
        let tree = move_tree(&record, true).unwrap();
        let moves: Vec<&PlyMove> = tree.main_moves().collect();
        assert_eq!(moves[0].uci(), "h2e2");
        assert_eq!(moves[0].piece, Some('C'));
        assert_eq!(moves[1].piece, Some('n'));
        assert_eq!(moves[2].clock, Some(60.0));
        assert_eq!(
            tree.position_at(3).unwrap().fen(),
            record.final_position().unwrap()
        );
    }

    #[test]
    fn cescacs_positions_are_the_rules_replay() {
        let ctl =
            "[Variant \"C'escacs\"]\n\n1. E7-E9 {good [%clk 0:00:10]}, E21-E19 (1... F20-F18)\n*\n";
        let record = Record::from_bytes(Format::CtlPgn, ctl.as_bytes());
        let tree = move_tree(&record, true).unwrap();
        let moves: Vec<&PlyMove> = tree.main_moves().collect();
        let after: Vec<String> = tree
            .main_line()
            .map(|i| tree.nodes[i].position.fen())
            .collect();
        assert_eq!(moves[0].uci(), "E7E9");
        assert_eq!(moves[0].clock, Some(10.0));
        assert_eq!(moves[0].comments, ["good [%clk 0:00:10]"]);
        let mut p = cescacs_rules::Position::initial();
        for (m, after) in moves.iter().zip(&after) {
            let t =
                cescacs_rules::an::MoveText::parse(&m.san(), &cescacs_rules::Letters::default())
                    .unwrap();
            p.play_unchecked(p.resolve(&t).unwrap().mv);
            assert_eq!(*after, cescacs_tlpd::write(&p));
        }
        let first = tree.next(0).unwrap();
        assert_eq!(tree.children(first).count(), 2);
        assert_eq!(
            tree.position_at(2).map(Position::fen),
            record.final_position()
        );
    }
}
