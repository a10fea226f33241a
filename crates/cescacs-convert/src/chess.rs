//! Classic chess: PGN reading with legal replay, PGN export, and what export leaves out.

use crate::record::{Game, Record, Written};
use crate::{Format, Options, Severity, codes, diag, error, excerpt, warning};
use cescacs_batch::{GameDiagnostic, RawGame};
use chess_pgn::cozy_chess::Board;

pub(crate) fn read(raw: &RawGame) -> Record {
    let mut out = Record::new(Format::Pgn);
    let mut builder = chess_pgn::GameBuilder::default();
    // No `(` byte, no variation: the builder need not keep where one would start.
    builder.set_variations_possible(memchr::memchr(b'(', &raw.bytes).is_some());
    let ((diagnostics, game), _, final_board) = read_game(raw, &mut builder);
    out.diagnostics = diagnostics;
    out.chess_final_board = final_board.filter(|_| game.is_some());
    out.game = game.map(Game::Chess);
    out
}

/// The diagnostics [`read`] gives for this game, without building the game model
/// (`cescacs check`): the same reader and builder code with the model switched off
/// ([`chess_pgn::GameBuilder::check_only`]), so the two agree by construction; the
/// test `check_path_matches_model_path` compares them over every classic PGN file of
/// `testdata/` and `../shared/corpus`.
pub(crate) fn check(raw: &RawGame) -> Vec<GameDiagnostic> {
    // The builder is kept by the thread from one game to the next (its vectors are
    // reused), and borrowed in place: moving it in and out of the thread's slot copied
    // a kilobyte per game. It is replaced when a read error left a game unfinished in
    // it, or when the last use did not return (`in_use` still set).
    struct Checker {
        builder: chess_pgn::GameBuilder,
        in_use: bool,
    }
    thread_local! {
        static CHECKER: std::cell::RefCell<Option<Checker>> = const { std::cell::RefCell::new(None) };
    }
    CHECKER.with_borrow_mut(|slot| {
        if slot.as_ref().is_some_and(|c| c.in_use) {
            *slot = None;
        }
        let checker = slot.get_or_insert_with(|| Checker {
            builder: chess_pgn::GameBuilder::check_only(),
            in_use: false,
        });
        checker.in_use = true;
        // No `(` byte, no variation: the builder need not keep where one would start.
        checker
            .builder
            .set_variations_possible(memchr::memchr(b'(', &raw.bytes).is_some());
        let ((diagnostics, _), clean, _) = read_game(raw, &mut checker.builder);
        checker.in_use = false;
        if !clean {
            *slot = None;
        }
        diagnostics
    })
}

/// A game's diagnostics, and the game when it could be read.
type ReadGame = (Vec<GameDiagnostic>, Option<chess_pgn::Game>);

/// Reads the one game of `raw` with `builder`: its diagnostics and the game when it
/// could be read, whether every game read ended (no read error left the builder in
/// the middle of one), and the board the builder's replay of the main line ended on.
fn read_game(
    raw: &RawGame,
    builder: &mut chess_pgn::GameBuilder,
) -> (ReadGame, bool, Option<Board>) {
    // A buffer the size of the game, kept by the thread from one game to the next:
    // the reader's default (128 KiB, zeroed) cost more than reading a typical game.
    thread_local! {
        static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut reader =
        chess_pgn::PgnReader::with_buffer(&raw.bytes[..], BUFFER.take(), raw.bytes.len() + 1);
    let first = reader.read_game(builder);
    // Taken before a second game (one the splitter did not cut off) replaces it.
    let final_board = match &first {
        Ok(Some(Ok(_))) => builder.final_board().cloned(),
        _ => None,
    };
    let second = first.as_ref().ok().map(|_| reader.read_game(builder));
    let clean = matches!(second, Some(Ok(_)));
    let more = !matches!(second, Some(Ok(None)) | None);
    let buffer = reader.into_buffer();
    // A huge game's buffer is not kept for the games after it.
    if buffer.len() <= 1 << 20 {
        BUFFER.set(buffer);
    }
    let first = match first {
        Ok(None) => {
            let d = error(codes::NO_GAME, "expected a game, found no movetext");
            return ((vec![d], None), clean, None);
        }
        Ok(Some(r)) => r,
        Err(e) => Err(e.into()),
    };
    let game = match first {
        Err(e) => return ((vec![error_diagnostic(e)], None), clean, None),
        Ok(g) => g,
    };
    let out = game_diagnostics(&game, more);
    ((out, Some(game)), clean, final_board)
}

/// The diagnostic of a game that could not be read.
#[cold]
fn error_diagnostic(e: chess_pgn::GameError) -> GameDiagnostic {
    let at = e.at().unwrap_or_default();
    let code = e.code();
    // The batch engine adds file, game and line; keep only the reason.
    let reason = match e {
        chess_pgn::GameError::UnsupportedVariant { name, .. } => {
            format!("unsupported variant {name:?}")
        }
        chess_pgn::GameError::OtherGame { name, .. } => format!(
            "[Game {name:?}] names a game this reader does not implement \
             (only chess and Chess960 are read)"
        ),
        chess_pgn::GameError::BadFen { fen, reason, .. } => {
            format!("bad FEN {fen:?}: {reason}")
        }
        chess_pgn::GameError::SetUpWithoutFen { .. } => "SetUp \"1\" without a FEN tag".to_string(),
        chess_pgn::GameError::Read(r) => r.to_string(),
        // A reason added later: its full text, which names game and place.
        other => other.to_string(),
    };
    diag(
        code,
        Severity::Error,
        u64::from(at.line),
        u64::from(at.col),
        reason,
    )
}

/// The reader's diagnostics of a game read, and the boundary warning when `more`
/// (a second game followed in what the splitter gave as one).
fn game_diagnostics(game: &chess_pgn::Game, more: bool) -> Vec<GameDiagnostic> {
    let mut out = Vec::with_capacity(game.diagnostics.len());
    for d in &game.diagnostics {
        let severity = match d.severity {
            chess_pgn::Severity::Error => Severity::Error,
            chess_pgn::Severity::Warning => Severity::Warning,
        };
        out.push(diag(
            d.code,
            severity,
            u64::from(d.at.line),
            u64::from(d.at.col),
            d.message.clone(),
        ));
    }
    if more {
        out.push(warning(
            codes::BOUNDARY,
            "the splitter and the PGN reader disagree on game boundaries",
        ));
    }
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
        text: chess_pgn::to_pgn_with(game, &write_options(options)).text,
    }
}

/// The writer's options: the notation and the layout asked for.
fn write_options(options: &Options) -> chess_pgn::WriteOptions {
    let mut w = options.chess_notation.write_options();
    if let Some(n) = options.layout.line_length {
        w.max_line = n;
    }
    w.move_numbers = !options.layout.no_move_numbers;
    w.result_marker = !options.layout.no_results;
    w
}

fn line_losses(line: &chess_pgn::Line, turn: chess_pgn::Turn, out: &mut Vec<GameDiagnostic>) {
    let mut turn = turn;
    for node in &line.moves {
        // The move as messages name it: `12.` / `12...` and the export SAN; spelt only
        // when a message needs it (nearly never), not once per move.
        let name = || {
            let dots = if turn.white() { "." } else { "..." };
            format!("{}{dots} {}", turn.number(), node.san)
        };
        if node.nags.contains(&0) {
            out.push(warning(
                codes::DROPPED,
                format!(
                    "NAG $0 after {} dropped (export never writes the null annotation)",
                    name()
                ),
            ));
        }
        if let Some(g) = node.san.glyph
            && !node.nags.contains(&g)
        {
            out.push(warning(
                codes::DROPPED,
                format!("glyph ${g} on {} dropped (export writes NAGs only)", name()),
            ));
        }
        if node.clock.is_some() || node.eval.is_some() {
            let (mut clock, mut eval) = (None, None);
            for a in &node.after {
                if let chess_pgn::After::Comment(c) = a {
                    let (k, e) = chess_pgn::parse_commands(c);
                    clock = k.or(clock);
                    eval = e.or(eval);
                }
            }
            if let Some(c) = node.clock
                && clock != Some(c)
            {
                out.push(warning(
                    codes::DROPPED,
                    format!(
                        "clock {c} s after {} dropped (no [%clk] comment holds it)",
                        name()
                    ),
                ));
            }
            if let Some(e) = node.eval
                && eval != Some(e)
            {
                out.push(warning(
                    codes::DROPPED,
                    format!(
                        "evaluation {e:?} after {} dropped (no [%eval] comment holds it)",
                        name()
                    ),
                ));
            }
        }
        for a in &node.after {
            if let chess_pgn::After::Variation(v) = a {
                line_losses(v, turn.clone(), out);
            }
        }
        turn.play(node.mv);
    }
}

/// What PGN export leaves out of a chess game model. The reader fills the model only
/// with what export writes; these losses come from models built from PCN documents.
pub(crate) fn losses(game: &chess_pgn::Game) -> Vec<GameDiagnostic> {
    let mut out = Vec::new();
    // The exported tags as a multiset: each tag of the model uses up one equal pair
    // (sorted with counts and searched, so that a game of very many tags stays
    // n log n; hashing every pair cost more than writing the game).
    let exported = chess_pgn::export_tag_pairs(game, &chess_pgn::WriteOptions::default());
    let mut pairs: Vec<(&str, &str)> = exported.iter().map(|(n, v)| (*n, v.as_ref())).collect();
    pairs.sort_unstable();
    let mut pool: Vec<((&str, &str), usize)> = Vec::with_capacity(pairs.len());
    for p in pairs {
        match pool.last_mut() {
            Some((q, k)) if *q == p => *k += 1,
            _ => pool.push((p, 1)),
        }
    }
    for (n, v) in &game.tags {
        let found = pool
            .binary_search_by(|(p, _)| p.cmp(&(n.as_str(), v.as_str())))
            .ok();
        match found.map(|i| &mut pool[i].1) {
            Some(left) if *left > 0 => *left -= 1,
            _ if n == "Result" => out.push(warning(
                codes::DROPPED,
                format!(
                    "tag [Result \"{v}\"] replaced by the game's result {}",
                    game.outcome.as_str()
                ),
            )),
            _ if v.contains(['\t', '\n', '\r']) => out.push(warning(
                codes::DROPPED,
                format!("tag {n}: tabs and line breaks written as spaces"),
            )),
            _ => out.push(warning(
                codes::DROPPED,
                format!("tag [{n} \"{}\"] dropped", excerpt(v)),
            )),
        }
    }
    if game.variant == chess_pgn::Variant::Chess960
        && !game
            .tag("Variant")
            .is_some_and(|v| chess_pgn::Variant::from_tag(v) == Ok(chess_pgn::Variant::Chess960))
    {
        out.push(warning(
            codes::DROPPED,
            "variant Chess960 dropped (no Variant tag says it)",
        ));
    }
    line_losses(
        &game.moves,
        chess_pgn::Turn::new(&game.start, &game.moves),
        &mut out,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// Every game the splitter cuts from `bytes`, through both paths: the diagnostics
    /// of the check path must be those of the model path, in order. Returns the games.
    fn compare(name: &str, bytes: &[u8]) -> usize {
        let head = &bytes[..bytes.len().min(cescacs_batch::HEAD_BYTES)];
        let splitter = cescacs_batch::GameSplitter::new(bytes, 1 << 24)
            .encoding(cescacs_batch::TextEncoding::detect(head));
        let mut n = 0;
        for game in splitter {
            let game = game.unwrap_or_else(|e| panic!("{name}: {e}"));
            let model = read(&game).diagnostics;
            let checked = check(&game);
            assert_eq!(
                checked, model,
                "{name} game {}: check path and model path disagree",
                game.index
            );
            n += 1;
        }
        n
    }

    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "pgn" || x == "ctl-pgn") {
                out.push(p);
            }
        }
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn check_path_matches_model_path_on_every_file() {
        // Every PGN-like file of testdata/ (classic games, and the other formats' files
        // as hostile input to the classic reader) and the real classic PGN corpus.
        let mut paths = Vec::new();
        files(&test_support::testdata(), &mut paths);
        let shared = test_support::shared("corpus/classic-pgn-real");
        let before = paths.len();
        files(&shared, &mut paths);
        assert!(
            paths.len() - before >= 20,
            "the classic corpus is missing files"
        );
        let (mut games, mut with_diagnostics) = (0, 0);
        for p in &paths {
            let bytes = std::fs::read(p).unwrap();
            games += compare(&p.display().to_string(), &bytes);
            let raw = crate::raw_game(&bytes);
            with_diagnostics += usize::from(!check(&raw).is_empty());
        }
        assert!(
            games > 1000 && with_diagnostics > 20,
            "{games} games, {with_diagnostics}"
        );
    }

    /// Hand-made bad and odd games: every kind of diagnostic the builder gives.
    const ODD: &[&str] = &[
        "1. e4 e5 2. Nf3 Bxh9 Nc6 *",
        "1. e4 e5 2. Ke3 (2. Nf3 Nc6) Nc6 3. Bb5 *",
        "1. e4 e5 (1... c5 2. Kxe8 Nc6 (2... d6 3. d4) 3. d4) 2. Nf3 1-0",
        "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *",
        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq\"]\n\n1. e4 *",
        "[FEN \"not a fen\"]\n[Variant \"crazyhouse\"]\n\n1. e4 *",
        "[Variant \"antichess\"]\n\n1. e4 *",
        "[SetUp \"1\"]\n\n1. e4 *",
        "[Variant \"chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 g6 2. O-O *",
        "1. e4 {unclosed comment 2. e5",
        "1. e4 e5 2. Nf3",
        "[Result \"1-0\"]\n\n1. e4 e5 0-1",
        "[Result \"1-0\"]\n\n1. e4 e5",
        "[result \"1-0\"]\n[Result \"0-1\"]\n[White \"A\"]\n[White \"B\"]\n[Ev\tent \"x\ty\"]\n\n1. e4 *",
        "$1 1. e4 $0 $2 e5 $300 2. Nf3 !? Nc6 $ *",
        "1. e4 e5 2. Ng5 $1 {c} ( 3. x ) $2 Nc6 *",
        "1. e4 () e5 ( ) 2. Nf3 ({only a comment}) *",
        "( 1. d4 ) 1. e4 e5 *",
        "1. e4 e5 ((2. d4)) 2. Nf3 *",
        "1. e4 e5 2. Nf3 ( 2. d4 ( 2. c4 *",
        "1. e4 e5 ) 2. Nf3 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Ba4 1/2-1/2 {after} {more}",
        "1. e4 d5 2. exd5 e5 3. dxe6 e.p. Nf6 4. f4 g5 5. fxg6ep *",
        "1. e4 e5 2. Nf3 %escape\n Nc6 *",
        "%escape first\n1. e4 *",
        "1. e4 <reserved> e5 \x01 2. Nf3 > *",
        "1. e4 e5 (1... d5 2. Kxe8 (2. Kxe7 $1 {x} ( 2. a3 ) zz) Nc6) 2. Nf3 *",
        "1. e4 e5 (1... d5 2. Qq (2. a4)) 2. Nf3 *",
        "1. e4 e5 (1... Qq) 2. Nf3 (zz) (2. d4 ()) *",
        "1. e4 e5 2. Nf3 foo bar $3 {c} (2. d4) baz *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *",
        "1. f3 e5 2. g4 Qh4# 0-1",
        "1. f3 e5 2. g4 Qh4# 3. a3 0-1",
        "1. e4 -- 2. d4 Z0 3. Nf3 *",
        "1. f3 e5 2. g4 Qh4 3. -- *",
        "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n1. d4 *",
        "[Annotator \"a\tb\"]\n[Event \"x \\\\\t\\\"y\"]\n[Result \"1-0\r\"]\n[SetUp \"0\"]\n\n1. e4 *",
        "1. e4 * 2. d4 *",
        "1. e4 e5 2. Ng1f3 0-0 3. e8(Q) *",
        "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8(Q)+ Kd7 2. Qb7+ *",
        "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8 Kd7 *",
        "1. Nc3 Nc6 2. Nb5 Nb4 3. Nd4 Nd5 4. Nf3 Nf6 5. Nd4 Nd5 6. N5f4 *",
        "",
        "   \n",
        "{only a comment}",
        "[Event \"tags only\"]",
        "1.",
        "1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0 extra",
    ];

    #[test]
    fn check_path_matches_model_path_on_odd_games() {
        for (i, g) in ODD.iter().enumerate() {
            let raw = crate::raw_game(g.as_bytes());
            let model = read(&raw).diagnostics;
            assert_eq!(check(&raw), model, "odd game {i}: {g:?}");
            compare(&format!("odd game {i}"), g.as_bytes());
        }
        // The list covers errors and warnings of every kind.
        let all: Vec<String> = ODD
            .iter()
            .flat_map(|g| read(&crate::raw_game(g.as_bytes())).diagnostics)
            .map(|d| d.message)
            .collect();
        for what in [
            "illegal move",
            "ambiguous move",
            "bad FEN",
            "unsupported variant",
            "SetUp",
            "no result marker",
            "differs from Result tag",
            "duplicate tag",
            "read as Result",
            "null annotation $0 dropped",
            "before any move dropped",
            "empty variation dropped",
            "not a move",
            "escape line",
            "en passant marker",
            "disagree on game boundaries",
            "tab or line break in tag Annotator",
        ] {
            assert!(
                all.iter().any(|m| m.contains(what)),
                "no odd game gives {what:?}: {all:#?}"
            );
        }
    }

    #[test]
    fn check_path_matches_model_path_on_mutated_games() {
        // Random byte edits of real games: whatever the reader makes of them, both
        // paths must say the same.
        let twic = std::fs::read(
            test_support::testdata()
                .join("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn"),
        )
        .unwrap();
        let games: Vec<_> = cescacs_batch::GameSplitter::new(&twic[..], 1 << 24)
            .map(|g| g.unwrap().bytes)
            .collect();
        const PIECES: &[&[u8]] = &[
            b"(", b")", b"{", b"}", b"$0", b"$7", b" ", b"\n", b"x", b"Q", b"=", b"+", b"--",
            b"1-0", b"*", b"[", b"\"", b"%", b";", b"e.p.", b"O-O", b"!!", b"N", b"8",
        ];
        let mut rng = test_support::Rng::new(0x5eed_c4ec);
        for case in 0..test_support::proptest_cases() * 8 {
            let mut g = rng.pick(&games).clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(g.len() + 1);
                match rng.below(3) {
                    0 if at < g.len() => {
                        let n = (1 + rng.below(6)).min(g.len() - at);
                        g.drain(at..at + n);
                    }
                    _ => {
                        let p = rng.pick(PIECES);
                        g.splice(at..at, p.iter().copied());
                    }
                }
            }
            let raw = crate::raw_game(&g);
            assert_eq!(
                check(&raw),
                read(&raw).diagnostics,
                "case {case}: {:?}",
                String::from_utf8_lossy(&g)
            );
        }
    }

    /// The final board the read keeps (so that `final_position` replays nothing) must
    /// be the main line's replay for every game of testdata's classic files, the odd
    /// games and their random mutations; the FEN, and mate and stalemate, read off it
    /// must be those of the replay. Also a clock past 100 (the board's stops there),
    /// and an edit that cuts the main line (the kept board must go).
    #[test]
    fn the_read_keeps_the_final_board_of_the_main_line() {
        let mut paths = Vec::new();
        files(&test_support::testdata().join("chess"), &mut paths);
        let mut games: Vec<Vec<u8>> = ODD.iter().map(|g| g.as_bytes().to_vec()).collect();
        for p in &paths {
            let bytes = std::fs::read(p).unwrap();
            games.extend(
                cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24)
                    .filter_map(Result::ok)
                    .map(|g| g.bytes),
            );
        }
        games.push(
            b"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 60\"]\n\n60. Ra2 Kd8 61. Ra3 *"
                .to_vec(),
        );
        let (mut kept, mut long_clock) = (0, 0);
        for (i, g) in games.iter().enumerate() {
            let record = read(&crate::raw_game(g));
            let Some(Game::Chess(game)) = record.game() else {
                assert!(record.chess_final_board.is_none(), "game {i}");
                continue;
            };
            let board = record.chess_final_board.as_ref().expect("a board is kept");
            assert_eq!(*board, game.final_board(), "game {i}");
            assert_eq!(record.final_position(), Some(game.final_fen()), "game {i}");
            let end = end(&game.final_board());
            assert_eq!(
                (record.is_checkmate(), record.is_stalemate()),
                (Some(end.0), Some(end.1)),
                "game {i}"
            );
            kept += 1;
            long_clock += usize::from(game.final_halfmove_clock() >= 100);
        }
        assert!(kept > 500 && long_clock >= 1, "{kept} games, {long_clock}");
        let pgn = b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *";
        let mut record = read(&crate::raw_game(pgn));
        record.truncate(2).unwrap();
        let Some(Game::Chess(game)) = record.game() else {
            panic!("no game")
        };
        assert_eq!(record.final_position(), Some(game.final_fen()));
        assert!(
            record
                .final_position()
                .unwrap()
                .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/")
        );
    }
}
