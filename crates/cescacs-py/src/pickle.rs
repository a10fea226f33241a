//! Pickling of `Game`, `Move` and `GameNode` (for `rdd.flatMap(read_games)`,
//! multiprocessing): a game is pickled as the bytes it was read from and its place in
//! its file, and unpickled by reading those bytes again, so the copy is the same game
//! in every respect (tags, moves, annotations, diagnostics and their places) without a
//! serialised model. A move or node pickles as its game and its place in the tree.

use crate::errors::Fail;
use crate::model::{GameNode, Mainline, Move, Walk};
use crate::{Game, Origin};
use cescacs_batch::{Diagnostic, Problem, RawGame, Severity};
use cescacs_convert::MoveTree;
use cescacs_convert::{Format, Record};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// A splitter problem as plain values: (kind, text, a, b).
type ProblemState = Option<(String, String, u64, u64)>;

fn problem_state(p: &Problem) -> (String, String, u64, u64) {
    match p {
        Problem::Read { message } => ("read".into(), message.clone(), 0, 0),
        Problem::Oversized { limit } => ("oversized".into(), String::new(), *limit as u64, 0),
        Problem::NoBoundary { limit } => ("no-boundary".into(), String::new(), *limit as u64, 0),
        Problem::Unclosed { what, line, column } => {
            ("unclosed".into(), what.to_string(), *line, *column)
        }
        Problem::TrailingText => ("trailing-text".into(), String::new(), 0, 0),
    }
}

fn problem_of(state: ProblemState) -> Result<Option<Problem>, Fail> {
    let Some((kind, text, a, b)) = state else {
        return Ok(None);
    };
    Ok(Some(match kind.as_str() {
        "read" => Problem::Read { message: text },
        "oversized" => Problem::Oversized { limit: a as usize },
        "no-boundary" => Problem::NoBoundary { limit: a as usize },
        "trailing-text" => Problem::TrailingText,
        "unclosed" => Problem::Unclosed {
            what: text.chars().next().unwrap_or('{'),
            line: a,
            column: b,
        },
        _ => {
            return Err(Fail::Option(format!(
                "not a pickled game: problem {kind:?}"
            )));
        }
    }))
}

impl Game {
    /// The arguments of [`_game`] that make this game again.
    pub(crate) fn reduce<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let place = (
            self.record.format().name(),
            self.file.clone(),
            self.index,
            self.line,
            self.column,
            self.offset,
        );
        let origin = match &self.origin {
            Origin::Raw { raw, member } => (
                "raw",
                PyBytes::new(py, &raw.bytes),
                (
                    *member,
                    raw.index,
                    raw.line,
                    raw.column,
                    raw.offset,
                    raw.truncated,
                ),
                raw.problem.as_ref().map(problem_state),
            ),
            Origin::File(d) => (
                "file",
                PyBytes::new(py, d.message.as_bytes()),
                (
                    d.game,
                    d.line as usize,
                    d.column,
                    d.byte_offset,
                    0,
                    d.severity == Severity::Error,
                ),
                None,
            ),
        };
        PyTuple::new(
            py,
            [
                place.into_pyobject(py)?.into_any(),
                origin.into_pyobject(py)?.into_any(),
            ],
        )
    }
}

type Place = (String, String, u64, u64, u64, u64);
type Origins = (
    String,
    Vec<u8>,
    (usize, usize, u64, u64, u64, bool),
    ProblemState,
);

/// Makes a pickled game again (the inverse of `Game.__reduce__`).
#[pyfunction]
pub(crate) fn _game(py: Python<'_>, place: Place, origin: Origins) -> PyResult<Game> {
    let (format, file, index, line, column, offset) = place;
    let format = Format::from_str(&format).map_err(|e| Fail::Option(e.to_string()))?;
    let (kind, bytes, (a, b, c, d, e, flag), problem) = origin;
    if kind == "file" {
        let diag = Diagnostic {
            severity: if flag {
                Severity::Error
            } else {
                Severity::Warning
            },
            file,
            game: a,
            line: b as u64,
            column: c,
            byte_offset: d,
            game_offset: 0,
            message: String::from_utf8_lossy(&bytes).into_owned(),
        };
        return Ok(Game::unreadable(diag));
    }
    if kind != "raw" {
        return Err(Fail::Option(format!("not a pickled game: origin {kind:?}")).into());
    }
    let raw = RawGame {
        index: b,
        line: c,
        column: d,
        offset: e,
        bytes,
        truncated: flag,
        problem: problem_of(problem)?,
    };
    let member = a;
    let record = py.allow_threads(|| {
        crate::unpanicked(&file, || {
            let mut all = Record::read_all(format, &raw);
            if member >= all.len() {
                return Err(Fail::Option(format!(
                    "not a pickled game: record {member} of {}",
                    all.len()
                )));
            }
            Ok(all.swap_remove(member))
        })
    })?;
    Ok(Game {
        record,
        file,
        index,
        line,
        column,
        offset,
        length: raw.bytes.len() as u64,
        origin: Origin::Raw {
            raw: Arc::new(raw),
            member,
        },
    })
}

// == Move and GameNode: the game and the node's place in its move tree.
//
// A move or node pickles as its game (a Python object: pickled once per stream however
// many of its moves go along, and unpickled as one object) and its path from the
// start: its depth and the branches taken off the main continuation. Unpickling walks
// the game's tree again; the last tree walked is kept, so the moves of one game
// unpickled one after another walk it once.

/// The place of a node: (depth, [(depth, child index)]) for every step that is not
/// the first child. A main-line move is `(ply, [])`.
type NodePath = (usize, Vec<(usize, usize)>);

fn node_path(tree: &MoveTree, node: usize) -> NodePath {
    let mut steps = Vec::new();
    let mut at = node;
    while let Some(parent) = tree.nodes.get(at).and_then(|n| n.parent) {
        let index = tree.children(parent).position(|c| c == at).unwrap_or(0);
        steps.push(index);
        at = parent;
    }
    steps.reverse();
    let branches = steps
        .iter()
        .enumerate()
        .filter(|(_, index)| **index != 0)
        .map(|(depth, index)| (depth + 1, *index))
        .collect();
    (steps.len(), branches)
}

/// `__reduce__` of a `Move` (`make` = "_move") or `GameNode` (`"_node"`).
pub(crate) fn reduce_node(
    py: Python<'_>,
    make: &str,
    walk: &Walk,
    node: usize,
) -> PyResult<(PyObject, PyObject)> {
    let make = py.import("cescacs._cescacs")?.getattr(make)?;
    let (depth, branches) = node_path(&walk.tree, node);
    let args = (walk.game.clone_ref(py), depth, branches).into_pyobject(py)?;
    Ok((make.unbind(), args.into_any().unbind()))
}

/// The hash of a move: equal moves (same record, same position after) hash alike.
pub(crate) fn hash_move(m: Option<&cescacs_convert::PlyMove>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    if let Some(m) = m {
        (m.ply, &*m.uci(), &*m.san()).hash(&mut h);
    }
    h.finish()
}

/// The last tree walked for unpickling (with its game object) and whether variations
/// were walked.
type LastTree = (Arc<Walk>, bool);

static LAST_TREE: Mutex<Option<LastTree>> = Mutex::new(None);

/// The tree of `game` (with variations or not), walked again unless it was the last.
fn tree_of(py: Python<'_>, game: Py<Game>, variations: bool) -> PyResult<Arc<Walk>> {
    {
        let last = crate::lock(py, &LAST_TREE);
        if let Some((walk, v)) = last.as_ref()
            && walk.game.as_ptr() == game.as_ptr()
            && *v == variations
        {
            return Ok(walk.clone());
        }
    }
    let me = game.get();
    let tree = py.allow_threads(|| crate::model::tree(&me.record, &me.file, variations))?;
    let walk = Arc::new(Walk { tree, game });
    *crate::lock(py, &LAST_TREE) = Some((walk.clone(), variations));
    Ok(walk)
}

/// The node at `path` in `tree`.
fn follow(tree: &MoveTree, (depth, branches): &NodePath) -> Result<usize, Fail> {
    let lost = || {
        Fail::Option(format!(
            "not a pickled move: no node at {depth} {branches:?}"
        ))
    };
    let mut at = 0;
    if tree.nodes.is_empty() {
        return Err(lost());
    }
    for d in 1..=*depth {
        let index = branches
            .iter()
            .find(|(at_depth, _)| *at_depth == d)
            .map_or(0, |(_, i)| *i);
        at = tree.children(at).nth(index).ok_or_else(lost)?;
    }
    Ok(at)
}

/// Makes a pickled `Move` again (the inverse of `Move.__reduce__`).
#[pyfunction]
pub(crate) fn _move(
    py: Python<'_>,
    game: Py<Game>,
    depth: usize,
    branches: Vec<(usize, usize)>,
) -> PyResult<Move> {
    // A main-line move needs only the main line walked.
    let walk = tree_of(py, game, !branches.is_empty())?;
    let node = follow(&walk.tree, &(depth, branches))?;
    if depth == 0 {
        return Err(Fail::Option("not a pickled move: the start is no move".into()).into());
    }
    Ok(Move::new(py, walk, node))
}

/// Makes a pickled `Mainline` again (the inverse of `Mainline.__reduce__`): the
/// game's main line, walked anew.
#[pyfunction]
pub(crate) fn _mainline(py: Python<'_>, game: Py<Game>) -> PyResult<Mainline> {
    Ok(Mainline::new(tree_of(py, game, false)?))
}

/// Makes a pickled `GameNode` again (the inverse of `GameNode.__reduce__`).
#[pyfunction]
pub(crate) fn _node(
    py: Python<'_>,
    game: Py<Game>,
    depth: usize,
    branches: Vec<(usize, usize)>,
) -> PyResult<GameNode> {
    let walk = tree_of(py, game, true)?;
    let node = follow(&walk.tree, &(depth, branches))?;
    Ok(GameNode { walk, node })
}
