//! Move tables computed at compile time, so move generation does no geometry at run time.

/// Up to eight targets from one point, each with the point that must be empty for the
/// move (horse leg, elephant eye); `via` is unused for advisors, generals and soldiers.
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub n: u8,
    pub to: [u8; 8],
    pub via: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        n: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: u8, via: u8) -> Steps {
        self.to[self.n as usize] = to;
        self.via[self.n as usize] = via;
        self.n += 1;
        self
    }
}

/// Points along one of the four orthogonal directions, nearest first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    pub n: u8,
    pub sq: [u8; 9],
}

const fn sq(x: i32, y: i32) -> u8 {
    (y * 9 + x) as u8
}

const fn on_board(x: i32, y: i32) -> bool {
    x >= 0 && x < 9 && y >= 0 && y < 10
}

const fn in_palace(x: i32, y: i32) -> bool {
    x >= 3 && x <= 5 && (y <= 2 || y >= 7) && y >= 0 && y <= 9
}

/// Directions: north (+rank, toward Black), south, east (+file), west.
pub(crate) const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn build_rays() -> [[Ray; 4]; 90] {
    let mut t = [[Ray { n: 0, sq: [0; 9] }; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIRS[d];
            let (mut cx, mut cy) = (x + dx, y + dy);
            while on_board(cx, cy) {
                let r = &mut t[s][d];
                r.sq[r.n as usize] = sq(cx, cy);
                r.n += 1;
                cx += dx;
                cy += dy;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

const HORSE_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

const fn sign(v: i32) -> i32 {
    if v > 0 {
        1
    } else if v < 0 {
        -1
    } else {
        0
    }
}

// The leg of a horse jump is the orthogonal neighbour of the *origin* along the long axis.
const fn horse_leg(x: i32, y: i32, dx: i32, dy: i32) -> u8 {
    if dy == 2 || dy == -2 {
        sq(x, y + sign(dy))
    } else {
        sq(x + sign(dx), y)
    }
}

const fn build_horse() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (dx, dy) = HORSE_JUMPS[i];
            if on_board(x + dx, y + dy) {
                t[s] = t[s].push(sq(x + dx, y + dy), horse_leg(x, y, dx, dy));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

// For each target, the horses that could jump onto it and the leg each one needs empty:
// used to ask "is this general attacked by a horse" without generating horse moves.
const fn build_horse_attackers() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (dx, dy) = HORSE_JUMPS[i];
            let (hx, hy) = (x - dx, y - dy);
            if on_board(hx, hy) {
                t[s] = t[s].push(sq(hx, hy), horse_leg(hx, hy, dx, dy));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_elephant() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let red_half = y <= 4;
        let mut i = 0;
        while i < 4 {
            let dx = if i & 1 == 0 { 2 } else { -2 };
            let dy = if i & 2 == 0 { 2 } else { -2 };
            let (tx, ty) = (x + dx, y + dy);
            if on_board(tx, ty) && ((ty <= 4) == red_half) {
                t[s] = t[s].push(sq(tx, ty), sq(x + dx / 2, y + dy / 2));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_advisor() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let dx = if i & 1 == 0 { 1 } else { -1 };
            let dy = if i & 2 == 0 { 1 } else { -1 };
            if in_palace(x, y) && in_palace(x + dx, y + dy) {
                t[s] = t[s].push(sq(x + dx, y + dy), 0);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_general() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (dx, dy) = DIRS[i];
            if in_palace(x, y) && in_palace(x + dx, y + dy) {
                t[s] = t[s].push(sq(x + dx, y + dy), 0);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_soldier(red: bool) -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let fwd = if red { 1 } else { -1 };
        if on_board(x, y + fwd) {
            t[s] = t[s].push(sq(x, y + fwd), 0);
        }
        let crossed = if red { y >= 5 } else { y <= 4 };
        if crossed {
            if x > 0 {
                t[s] = t[s].push(sq(x - 1, y), 0);
            }
            if x < 8 {
                t[s] = t[s].push(sq(x + 1, y), 0);
            }
        }
        s += 1;
    }
    t
}

pub(crate) static RAYS: [[Ray; 4]; 90] = build_rays();
pub(crate) static HORSE: [Steps; 90] = build_horse();
pub(crate) static HORSE_ATTACKERS: [Steps; 90] = build_horse_attackers();
pub(crate) static ELEPHANT: [Steps; 90] = build_elephant();
pub(crate) static ADVISOR: [Steps; 90] = build_advisor();
pub(crate) static GENERAL: [Steps; 90] = build_general();
/// Indexed by side (0 = Red).
pub(crate) static SOLDIER: [[Steps; 90]; 2] = [build_soldier(true), build_soldier(false)];

/// The four diagonal neighbours of each point: the legs through which a horse attacks it.
const fn build_diag() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let dx = if i & 1 == 0 { 1 } else { -1 };
            let dy = if i & 2 == 0 { 1 } else { -1 };
            if on_board(x + dx, y + dy) {
                t[s] = t[s].push(sq(x + dx, y + dy), 0);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

pub(crate) static DIAG: [Steps; 90] = build_diag();
