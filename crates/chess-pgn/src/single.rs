//! One game already in memory, read by a caller's visitor: the fast paths that turn a
//! game a splitter cut into something else (PGN export, PCN) without a game model.

use crate::reader::{PgnReader, Skip, Visitor};

/// A buffer kept by the thread over this size (a huge game's) is dropped instead.
const KEPT_BUFFER: usize = 1 << 20;

/// Reads the one game of `pgn` (a game a splitter cut from a file, say) with
/// `visitor` and returns the visitor's output for it; `None` when `pgn` holds no game,
/// when the reader fails (a token over [`crate::MAX_TOKEN`] bytes), or when anything
/// of a second game follows the first: the caller, which expected one game, then
/// hands the bytes to a reader that reports all of them ([`crate::Games`]).
///
/// The reader's buffer is kept by the calling thread from one call to the next, so
/// that reading many games one at a time allocates and zeroes no buffer per game (a
/// fresh, zeroed buffer per game cost more than reading a typical game); a buffer over
/// 1 MiB, a huge game's, is not kept for the games after it.
///
/// ```
/// use chess_pgn::{Control, SanPlus, Visitor, read_single_game};
/// struct CountMoves(usize);
/// impl Visitor for CountMoves {
///     type Output = usize;
///     fn san(&mut self, _: SanPlus, _: &[u8], _: chess_pgn::Pos) -> Control {
///         self.0 += 1;
///         Control::Continue
///     }
///     fn end_game(&mut self) -> usize { std::mem::take(&mut self.0) }
/// }
/// assert_eq!(read_single_game(b"1. e4 e5 2. Nf3 *", &mut CountMoves(0)), Some(3));
/// // A second game: not the one game expected.
/// assert_eq!(read_single_game(b"1. e4 *\n\n1. d4 *", &mut CountMoves(0)), None);
/// assert_eq!(read_single_game(b"", &mut CountMoves(0)), None);
/// ```
pub fn read_single_game<V: Visitor>(pgn: &[u8], visitor: &mut V) -> Option<V::Output> {
    // Shared by every visitor type: one buffer per thread, whatever reads with it.
    thread_local! {
        static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut reader = PgnReader::with_buffer(pgn, BUFFER.take(), pgn.len() + 1);
    let output = match reader.read_game(visitor) {
        Ok(Some(output)) => match reader.read_game(&mut AnyGame) {
            Ok(None) => Some(output),
            _ => None,
        },
        _ => None,
    };
    let buffer = reader.into_buffer();
    if buffer.len() <= KEPT_BUFFER {
        BUFFER.set(buffer);
    }
    output
}

/// A visitor for the look-ahead after the game: it skips whatever game it is shown,
/// which the caller counts as a second game.
struct AnyGame;

impl Visitor for AnyGame {
    type Output = ();
    fn end_headers(&mut self) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) {}
}
