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

/// When set (on this thread), the engine imitates the blind spots of the author's
/// TypeScript program, as far as the oracle data reveal them: the Elephant's
/// two-step forward attack is ignored for check and pins (spec §9.16.1) but
/// counted for King destinations; King moves are judged on the position before
/// the move (the King's shade covered only on the line of one checker, enemy
/// pins as before the move, and off their pin line pinned pieces cover nothing);
/// castling is not tested for the King's safety after the rooks move (spec
/// §9.16.4); and in check an en-passant capture is allowed only as a block (spec
/// §9.16.2). Never set it outside of tests that compare against that program's
/// output.
pub fn set_ignore_elephant_two_step(on: bool) {
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
