//! The `...cache` section is derived data: a reader must not refuse a game because of
//! it. This module reads it leniently, compares it with the replay and rebuilds it.
//!
//! The seed's own sample abridges its cache (`[ "..." ]` in place of board rows), and
//! any cache can be stale. So a cached value that cannot be read is dropped with a
//! [`Warning`], a readable one that disagrees with the replay is reported by
//! [`check_cache`], and writers call [`recompute_cache`] instead of copying it.

use crate::board::Coord;
use crate::error::{JsonPath, ReadError, Reason};
use crate::model::{Cache, CaptureRecord, Game, SideCache};
use crate::piece::{Piece, Side};
use crate::raw::Raw;
use crate::read;
use crate::replay::Position;
use std::fmt;

/// Something a reader accepted but the user should know: a derived (`...`) value that
/// was dropped or that disagrees with the moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// Where in the document, e.g. `...cache.current_position[4]`.
    pub path: JsonPath,
    /// What is wrong with the value there.
    pub kind: WarningKind,
}

/// The kinds of [`Warning`].
#[derive(Debug, Clone, PartialEq)]
pub enum WarningKind {
    /// The value holds an ellipsis string (`"..."` or `"…"`) where data should be: the
    /// writer shortened it. It is dropped.
    Abridged,
    /// The value does not have the form the seed gives it. It is dropped.
    Unreadable(Reason),
    /// The value is readable but the replay of `previous_moves` gives something else.
    Differs {
        /// What the document's cache says, as JSON (cut when long).
        cached: String,
        /// What the replay gives, as JSON (cut when long).
        replayed: String,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            WarningKind::Abridged => write!(
                f,
                "{}: cached value is abridged (\"...\" in place of data); ignored, the moves are replayed instead",
                self.path
            ),
            WarningKind::Unreadable(r) => write!(
                f,
                "{}: cached value cannot be read ({r}); ignored, the moves are replayed instead",
                self.path
            ),
            WarningKind::Differs { cached, replayed } => write!(
                f,
                "{}: cached value differs from the replay of previous_moves: cache has {cached}, replay gives {replayed}",
                self.path
            ),
        }
    }
}

/// Longest JSON text a [`WarningKind::Differs`] repeats.
const SHOWN: usize = 120;

fn shown(v: &serde_json::Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= SHOWN {
        return s;
    }
    let head: String = s.chars().take(SHOWN).collect();
    format!("{head}… ({} characters)", s.chars().count())
}

/// The first ellipsis string in `v` (depth first), with its path below `v`.
fn ellipsis(v: &Raw, path: &mut JsonPath) -> bool {
    match v {
        Raw::Str(s) => matches!(s.trim(), "..." | "…"),
        Raw::Arr(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push_index(i);
                if ellipsis(item, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        Raw::Obj(entries) => {
            for (k, item) in entries {
                path.push_key(k);
                if ellipsis(item, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        _ => false,
    }
}

/// Turns a read error inside a cached value into a warning: [`WarningKind::Abridged`]
/// at the ellipsis when the value holds one, otherwise the error itself.
fn dropped(v: &Raw, path: &JsonPath, e: ReadError) -> Warning {
    let mut at = path.clone();
    if ellipsis(v, &mut at) {
        return Warning {
            path: at,
            kind: WarningKind::Abridged,
        };
    }
    Warning {
        path: e.path,
        kind: WarningKind::Unreadable(e.reason),
    }
}

/// Reads `...cache` field by field; what cannot be read is left out with a warning.
pub(crate) fn read(
    v: &Raw,
    path: &mut JsonPath,
    shape: &[usize],
    warnings: &mut Vec<Warning>,
) -> Option<Cache> {
    let Raw::Obj(entries) = v else {
        warnings.push(Warning {
            path: path.clone(),
            kind: WarningKind::Unreadable(Reason::Type {
                expected: "an object (the cache)",
                found: v.kind(),
            }),
        });
        return None;
    };
    let mut c = Cache::default();
    for (k, val) in entries {
        path.push_key(k);
        // A failed read leaves the path where it failed: cut it back afterwards.
        let depth = path.0.len();
        let got = match k.as_str() {
            "current_position" => read::board(val, path).and_then(|b| {
                if b.shape() == shape {
                    Ok(Some(b))
                } else {
                    Err(ReadError::new(
                        path,
                        Reason::ShapeMismatch {
                            expected: shape.to_vec(),
                            found: b.shape().to_vec(),
                        },
                    ))
                }
            }),
            "possible_moves" => read::move_list(val, path, shape).map(|m| {
                c.possible_moves = Some(m);
                None
            }),
            "topside" | "bottomside" => read::side_cache(val, path, shape).map(|s| {
                if k == "topside" {
                    c.topside = Some(s);
                } else {
                    c.bottomside = Some(s);
                }
                None
            }),
            _ => {
                c.other.insert(k.clone(), val.to_value());
                Ok(None)
            }
        };
        path.0.truncate(depth);
        match got {
            Ok(Some(b)) => c.current_position = Some(b),
            Ok(None) => {}
            Err(e) => warnings.push(dropped(val, path, e)),
        }
        path.pop();
    }
    Some(c)
}

fn key_path(keys: &[&str]) -> JsonPath {
    let mut p = JsonPath::root();
    for k in keys {
        p.push_key(k);
    }
    p
}

fn pieces_json(ps: &[Piece]) -> serde_json::Value {
    serde_json::to_value(ps).unwrap_or_default()
}

fn sorted(ps: &[Piece]) -> Vec<&Piece> {
    let mut v: Vec<&Piece> = ps.iter().collect();
    v.sort();
    v
}

/// Compares the readable parts of `game`'s cache with `pos`, the replay of its moves
/// ([`crate::replay`]). One warning per cached value that differs: the board (at its
/// first differing square, with the count of differing squares), each side's
/// `dropable_pieces` (against its hand, in any order) and `captures` (against the
/// pieces that side took, with the square each was taken on). `possible_moves` needs
/// the rules of the game and is not checked.
pub fn check_cache(game: &Game, pos: &Position) -> Vec<Warning> {
    let mut out = Vec::new();
    let Some(cache) = &game.cache else {
        return out;
    };
    if let Some(b) = &cache.current_position {
        let cached = b.squares();
        let replayed = pos.board.squares();
        let differ: Vec<usize> = (0..cached.len().min(replayed.len()))
            .filter(|&i| cached[i] != replayed[i])
            .collect();
        if let Some(&first) = differ.first() {
            let mut path = key_path(&["...cache", "current_position"]);
            for i in b.cartesian_of(first).unwrap_or_default() {
                path.push_index(i);
            }
            let json = |p: &Option<Piece>| shown(&serde_json::to_value(p).unwrap_or_default());
            out.push(Warning {
                path,
                kind: WarningKind::Differs {
                    cached: json(&cached[first]),
                    replayed: format!(
                        "{} ({} of {} squares differ)",
                        json(&replayed[first]),
                        differ.len(),
                        cached.len()
                    ),
                },
            });
        }
    }
    for (key, side, sc) in [
        ("topside", Side::Top, &cache.topside),
        ("bottomside", Side::Bottom, &cache.bottomside),
    ] {
        let Some(sc) = sc else { continue };
        if let Some(d) = &sc.dropable_pieces {
            let hand = pos.hand(side);
            if sorted(d) != sorted(hand) {
                out.push(Warning {
                    path: key_path(&["...cache", key, "dropable_pieces"]),
                    kind: WarningKind::Differs {
                        cached: shown(&pieces_json(d)),
                        replayed: shown(&pieces_json(hand)),
                    },
                });
            }
        }
        if let Some(c) = &sc.captures {
            let replayed = pos.captures(side);
            let same = c.len() == replayed.len()
                && c.iter().zip(replayed).all(|(a, b)| {
                    a.piece == b.piece && pos.board.resolve(&a.from).ok() == Some(b.square)
                });
            if !same {
                let records: Vec<CaptureRecord> = replayed
                    .iter()
                    .map(|t| CaptureRecord {
                        piece: t.piece.clone(),
                        from: Coord::Flat(t.square),
                    })
                    .collect();
                out.push(Warning {
                    path: key_path(&["...cache", key, "captures"]),
                    kind: WarningKind::Differs {
                        cached: shown(&serde_json::to_value(c).unwrap_or_default()),
                        replayed: shown(&serde_json::to_value(&records).unwrap_or_default()),
                    },
                });
            }
        }
    }
    out
}

/// Replaces `game`'s cache by one computed from `pos`, the replay of its moves, so a
/// writer never copies a stale cache. Only what a rules-free replay knows is written:
/// `current_position`, and per side `dropable_pieces` (its hand) and `captures` (the
/// pieces it took, each with the flattened square it was taken on). `possible_moves`
/// and any other cached key need the game's rules, so they are left out. A game
/// without a cache keeps none.
pub fn recompute_cache(game: &mut Game, pos: &Position) {
    if game.cache.is_none() {
        return;
    }
    let side = |s: Side| SideCache {
        dropable_pieces: Some(pos.hand(s).to_vec()),
        captures: Some(
            pos.captures(s)
                .iter()
                .map(|t| CaptureRecord {
                    piece: t.piece.clone(),
                    from: Coord::Flat(t.square),
                })
                .collect(),
        ),
        other: Default::default(),
    };
    game.cache = Some(Cache {
        current_position: Some(pos.board.clone()),
        possible_moves: None,
        topside: Some(side(Side::Top)),
        bottomside: Some(side(Side::Bottom)),
        other: Default::default(),
    });
}
