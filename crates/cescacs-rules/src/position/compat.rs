//! Emulation of the author's program's blind spots, for oracle cross-checks only
//! (cargo feature `oracle-compat`, off by default: without it the switches below are
//! constants and the emulation vanishes from the move generator).

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

thread_local! {
    static IGNORE_ELEPHANT_TWO_STEP: Cell<bool> = const { Cell::new(false) };
    static KING_MOVE_TEST: Cell<bool> = const { Cell::new(false) };
}

/// Set while testing a King move in program emulation: the program's threat map
/// then skips the attacks of pinned pieces off their pin line.
pub(crate) fn set_king_move_test(on: bool) {
    KING_MOVE_TEST.with(|c| c.set(on));
}

#[inline]
pub(crate) fn king_move_test() -> bool {
    ACTIVE.load(Ordering::Relaxed) != 0 && KING_MOVE_TEST.with(|c| c.get())
}

/// Switches, on the calling thread only, the emulation of the author's TypeScript
/// program: the move generator then reproduces that program's known deviations from
/// the spec, as far as the oracle data reveal them (docs/cescacs-rules-decisions.md
/// §2.1), so that tests can compare perft counts and move lists with its output. With
/// the emulation on:
///
/// 1. the Elephant's two-step forward attack is ignored for check detection and pins
///    (spec §9.16.1), while it still counts against King destinations;
/// 2. a King move is judged on the program's threat map of the position *before* the
///    move: the King's shade behind it is covered only on the line of one checker,
///    enemy pins are taken as before the move, and a pinned enemy piece covers no
///    cell off its pin line;
/// 3. castling is not tested for the King's safety after the rooks move (spec
///    §5.3 rule 6, §9.16.4);
/// 4. in check, an en-passant capture is allowed only where it blocks the check, never
///    as the capture of the checking pawn (spec §9.16.2).
///
/// The result is a deliberately wrong rules engine: never switch it on outside of
/// tests that compare against that program, and switch it off again (`false`) before
/// the thread does anything else. The switch exists only with the cargo feature
/// `oracle-compat`; without it the generator carries no trace of it, and with it the
/// cost on a thread that never switched it on is one relaxed atomic load per test.
pub fn set_emulate_author_program(on: bool) {
    IGNORE_ELEPHANT_TWO_STEP.with(|c| {
        if c.get() != on {
            if on {
                ACTIVE.fetch_add(1, Ordering::Relaxed);
            } else {
                ACTIVE.fetch_sub(1, Ordering::Relaxed);
            }
        }
        c.set(on)
    });
}

/// Switches the Elephant part alone, keeping the thread counted as emulating.
pub(crate) fn set_elephant_only(on: bool) {
    IGNORE_ELEPHANT_TWO_STEP.with(|c| c.set(on));
}

/// Threads with the emulation on; lets the normal path skip the thread-local.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

#[inline]
pub(crate) fn ignore_elephant_two_step() -> bool {
    ACTIVE.load(Ordering::Relaxed) != 0 && IGNORE_ELEPHANT_TWO_STEP.with(|c| c.get())
}
