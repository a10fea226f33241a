//! The game model as python-chess users know it: `Move` objects of the main line, the
//! position after any ply, and the variation tree. The walk is
//! `cescacs_convert::move_tree`, run when asked for (reading final positions never runs
//! it); these classes only hand its nodes to Python.

use crate::board::tree_board;
use crate::errors::Fail;
use crate::{Game, unpanicked};
use cescacs_convert::{MoveTree, PlyMove, Record, TreeError, move_tree};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyIterator, PyList, PySlice, PyString};
use std::sync::Arc;

/// The tree of `record` (main line only unless `variations`), or the error to raise.
/// An unreadable record has no moves (its `errors` say why).
pub(crate) fn tree(record: &Record, file: &str, variations: bool) -> Result<MoveTree, Fail> {
    unpanicked(file, || match move_tree(record, variations) {
        Ok(t) => Ok(t),
        Err(TreeError::Unreadable) => Ok(MoveTree::empty(cescacs_convert::GameKind::Chess)),
        Err(e) => Err(Fail::Parse(format!("{file}: {e}"))),
    })
}

/// `Game.mainline()`: the walk runs now (one replay, no string spelt); the `Move`
/// objects are made when the line is first iterated (all of them, in one pass) or one
/// at a time when indexed. `game` is the game the record is of (what a `Move` pickles).
pub(crate) fn mainline(record: &Record, file: &str, game: Py<Game>) -> Result<Mainline, Fail> {
    let tree = tree(record, file, false)?;
    Ok(Mainline::new(Arc::new(Walk { tree, game })))
}

/// A game's move tree and the game it was walked from, shared by the `Mainline`,
/// `Move` and `GameNode` objects made of it: one reference count per object, taken
/// and dropped once per `Move`.
pub(crate) struct Walk {
    /// The tree.
    pub(crate) tree: MoveTree,
    /// The game the tree was walked from: a move or node pickles as it and its place.
    pub(crate) game: Py<Game>,
}

/// The main line of a game as a read-only sequence of `Move` objects. The tree is
/// walked without variations, so node `n` is ply `n`.
///
/// Iterating makes every `Move` in one pass into a Python list, kept, and hands out
/// that list's own iterator: a `__next__` through the bindings cost more per ply than
/// making the object (issue 29 part A, callgrind). Indexing before any iteration makes
/// only the `Move` asked for.
#[pyclass(frozen, sequence, module = "cescacs", name = "Mainline")]
pub(crate) struct Mainline {
    walk: Arc<Walk>,
    /// Every `Move` of the line, once made.
    moves: GILOnceCell<Py<PyList>>,
}

impl Mainline {
    /// The main line of `walk`, a tree walked without variations.
    pub(crate) fn new(walk: Arc<Walk>) -> Mainline {
        Mainline {
            walk,
            moves: GILOnceCell::new(),
        }
    }
    fn plies(&self) -> usize {
        self.walk.tree.nodes.len().saturating_sub(1)
    }
    /// The `Move` of ply `ply` (1-based): the one made already, or a new one.
    fn at<'py>(&self, py: Python<'py>, ply: usize) -> PyResult<Bound<'py, PyAny>> {
        match self.moves.get(py) {
            Some(list) => list.bind(py).get_item(ply - 1),
            None => Ok(Bound::new(py, Move::new(py, self.walk.clone(), ply))?.into_any()),
        }
    }
    /// Every `Move` of the line, made now if not yet (in one pass, the shared texts'
    /// table borrowed once).
    fn list<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyList>> {
        let list = self.moves.get_or_try_init(py, || {
            crate::interned::with_pairs(|pairs| {
                let made =
                    (1..self.plies() + 1).map(|i| Move::with(py, self.walk.clone(), i, pairs));
                PyList::new(py, made).map(Bound::unbind)
            })
        })?;
        Ok(list.bind(py))
    }
}

#[pymethods]
impl Mainline {
    fn __len__(&self) -> usize {
        self.plies()
    }
    /// `moves[i]` (negative from the end) or `moves[a:b]` (a list).
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.plies();
        if let Ok(slice) = index.downcast::<PySlice>() {
            let s = slice.indices(n as isize)?;
            let mut out = Vec::with_capacity(s.slicelength);
            let mut i = s.start;
            for _ in 0..s.slicelength {
                out.push(self.at(py, i as usize + 1)?);
                i += s.step;
            }
            return Ok(PyList::new(py, out)?.into_any());
        }
        let i: isize = index
            .extract()
            .map_err(|_| PyTypeError::new_err("Mainline indices must be integers or slices"))?;
        let k = if i < 0 { i + n as isize } else { i };
        if k < 0 || k as usize >= n {
            return Err(PyIndexError::new_err("Mainline index out of range"));
        }
        self.at(py, k as usize + 1)
    }
    /// The list's own iterator over every `Move` (made now if not yet).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.list(py)?.try_iter()
    }
    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.list(py)?.call_method0("__reversed__")
    }
    /// Equal to a list or tuple of the same `Move` objects (`[]` for no moves).
    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<bool> {
        if let Ok(o) = other.downcast::<Mainline>() {
            // The same walk, or equal moves (an unpickled main line is walked anew).
            return Ok(
                Arc::ptr_eq(&self.walk, &o.get().walk) || self.list(py)?.eq(o.get().list(py)?)?
            );
        }
        match other.extract::<Vec<PyObject>>() {
            Ok(theirs) => self.list(py)?.eq(PyList::new(py, theirs)?),
            Err(_) => Ok(false),
        }
    }
    fn __repr__(&self) -> String {
        format!("<cescacs.Mainline of {} plies>", self.plies())
    }
    /// Pickling: the game alone; the main line is walked again when unpickled.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(PyObject, PyObject)> {
        let make = py.import("cescacs._cescacs")?.getattr("_mainline")?;
        let args = (self.walk.game.clone_ref(py),).into_pyobject(py)?;
        Ok((make.unbind(), args.into_any().unbind()))
    }
}

/// `Game.positions()`: the start, then the position after every main-line ply.
pub(crate) fn positions(record: &Record, file: &str) -> Result<Vec<String>, Fail> {
    let tree = tree(record, file, false)?;
    let start = tree.nodes.first().map(|n| n.position.fen());
    Ok(start
        .into_iter()
        .chain(tree.main_line().map(|i| tree.nodes[i].position.fen()))
        .collect())
}

/// `Game.board_at(ply)`.
pub(crate) fn board_at(
    py: Python<'_>,
    record: &Record,
    file: &str,
    ply: usize,
) -> PyResult<PyObject> {
    let tree = tree(record, file, false)?;
    let plies = tree.nodes.len().saturating_sub(1);
    let Some(position) = tree.position_at(ply) else {
        return Err(Fail::Option(format!(
            "ply {ply} is past the end of the main line ({plies} plies)"
        ))
        .into());
    };
    tree_board(py, position)
}

/// `Game.variations`: the moves from the start (the first is the main line's).
pub(crate) fn variations(
    record: &Record,
    file: &str,
    game: Py<Game>,
) -> Result<Vec<GameNode>, Fail> {
    let walk = Arc::new(Walk {
        tree: tree(record, file, true)?,
        game,
    });
    Ok(match walk.tree.nodes.first() {
        None => Vec::new(),
        Some(_) => walk
            .tree
            .children(0)
            .map(|node| GameNode {
                walk: walk.clone(),
                node,
            })
            .collect(),
    })
}

/// An engine evaluation (`[%eval …]`) from White's (Red's) point of view: centipawns or
/// a mate distance, the other `None`.
#[pyclass(frozen, eq, module = "cescacs", name = "Score")]
#[derive(Clone, PartialEq)]
pub(crate) struct Score {
    score: cescacs_convert::Score,
}

#[pymethods]
impl Score {
    /// Centipawns, or None for a mate score.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.score {
            cescacs_convert::Score::Centipawns(c) => Some(c),
            _ => None,
        }
    }
    /// Moves to mate (negative: the second player mates), or None.
    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.score {
            cescacs_convert::Score::Mate(n) => Some(n),
            _ => None,
        }
    }
    fn __repr__(&self) -> String {
        match self.score {
            cescacs_convert::Score::Centipawns(c) => format!("cescacs.Score(cp={c})"),
            cescacs_convert::Score::Mate(n) => format!("cescacs.Score(mate={n})"),
        }
    }
}

/// One half-move of a game, with what the record says about it and the position after.
///
/// `san` and `uci` are Python strings made with the object (shared ones: see
/// `interned.rs`) and read by Python as plain members: a getter call through the
/// bindings cost more than the text itself (callgrind: ~750 instructions for a trivial
/// getter, ~400 more to spell and make the string). The other texts, and the position,
/// are made only when asked for.
#[pyclass(frozen, module = "cescacs", name = "Move")]
pub(crate) struct Move {
    pub(crate) walk: Arc<Walk>,
    pub(crate) node: usize,
    /// Normalised text: SAN (chess), the game's notation in its canonical spelling
    /// (xiangqi), CTL-AN in standard letters (C'escacs).
    #[pyo3(get)]
    san: Py<PyString>,
    /// UCI (chess), ICCS (xiangqi), origin and destination cells (C'escacs).
    #[pyo3(get)]
    uci: Py<PyString>,
}

impl Move {
    /// Node `node` of `walk`'s tree (a node with a move).
    pub(crate) fn new(py: Python<'_>, walk: Arc<Walk>, node: usize) -> Move {
        crate::interned::with_pairs(|pairs| Move::with(py, walk, node, pairs))
    }
    /// [`Move::new`] with the shared texts' table already borrowed.
    fn with(
        py: Python<'_>,
        walk: Arc<Walk>,
        node: usize,
        pairs: &mut crate::interned::PairTable<'_>,
    ) -> Move {
        let (san, uci) = match walk.tree.nodes[node].mv.as_ref() {
            Some(m) => {
                let spell = || {
                    (
                        crate::interned::text(py, &m.san()),
                        crate::interned::text(py, &m.uci()),
                    )
                };
                match m.text_key() {
                    Some(key) => pairs.get(py, key, spell),
                    None => spell(),
                }
            }
            None => (crate::interned::text(py, ""), crate::interned::text(py, "")),
        };
        Move {
            walk,
            node,
            san: san.unbind(),
            uci: uci.unbind(),
        }
    }
    fn m(&self) -> Option<&PlyMove> {
        // Only nodes with a move are handed out as `Move`.
        self.walk.tree.nodes[self.node].mv.as_ref()
    }
    /// One of the move's texts as a Python string, spelt now.
    fn text<'py>(
        &self,
        py: Python<'py>,
        f: impl FnOnce(&PlyMove) -> cescacs_convert::Spelling<'_>,
    ) -> Bound<'py, PyString> {
        match self.m() {
            Some(m) => crate::interned::text(py, &f(m)),
            None => crate::interned::text(py, ""),
        }
    }
}

#[pymethods]
impl Move {
    /// Half-moves from the start to the position after this move.
    #[getter]
    fn ply(&self) -> usize {
        self.m().map_or(0, |m| m.ply)
    }
    /// The text as the record wrote it (chess: equals `san`).
    #[getter]
    fn written<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.text(py, PlyMove::written)
    }
    /// Origin, in the game's coordinates.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's name, a getter
    fn from_square<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.text(py, PlyMove::from_square)
    }
    /// Destination (the King's for castling).
    #[getter]
    fn to_square<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.text(py, PlyMove::to_square)
    }
    /// The man moved: upper case White (Red), lower case Black; None for a null move.
    #[getter]
    fn piece(&self) -> Option<char> {
        self.m()?.piece
    }
    /// The man taken, or None.
    #[getter]
    fn captured(&self) -> Option<char> {
        self.m()?.captured
    }
    /// The kind a pawn became, or None.
    #[getter]
    fn promotion(&self) -> Option<char> {
        self.m()?.promotion
    }
    /// The move gives check.
    #[getter]
    fn is_check(&self) -> bool {
        self.m().is_some_and(|m| m.is_check)
    }
    /// The move mates.
    #[getter]
    fn is_mate(&self) -> bool {
        self.m().is_some_and(|m| m.is_mate)
    }
    /// Comments after the move, verbatim.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.m().map(|m| m.comments.clone()).unwrap_or_default()
    }
    /// NAGs (`$1`) or glyphs (`!?`) as written.
    #[getter]
    fn nags(&self) -> Vec<String> {
        self.m().map(|m| m.nags.clone()).unwrap_or_default()
    }
    /// Seconds on the clock after the move (`[%clk]`), or None.
    #[getter]
    fn clock(&self) -> Option<f64> {
        self.m()?.clock
    }
    /// The evaluation after the move (`[%eval]`), or None.
    #[getter]
    fn eval(&self) -> Option<Score> {
        self.m()?.eval.map(|score| Score { score })
    }
    /// Seconds the move took (`[%emt]`), or None.
    #[getter]
    fn emt(&self) -> Option<f64> {
        self.m()?.emt
    }
    /// FEN (chess, xiangqi) or TLPD (C'escacs) after the move.
    #[getter]
    fn fen_after(&self) -> String {
        self.walk.tree.nodes[self.node].position.fen()
    }
    /// The position after the move as a `Board` (chess, xiangqi) or `Position`.
    fn board(&self, py: Python<'_>) -> PyResult<PyObject> {
        tree_board(py, &self.walk.tree.nodes[self.node].position)
    }
    // == issue 29 part B: pickling and equality (pickle.rs)
    /// Equal moves: the same record of the move and the same position after it.
    fn __eq__(&self, other: PyRef<'_, Move>) -> bool {
        self.m() == other.m()
            && self.walk.tree.nodes[self.node].position
                == other.walk.tree.nodes[other.node].position
    }
    fn __hash__(&self) -> u64 {
        crate::pickle::hash_move(self.m())
    }
    /// Pickling: the game (pickled once however many of its moves go along) and the
    /// move's place in its tree.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(PyObject, PyObject)> {
        crate::pickle::reduce_node(py, "_move", &self.walk, self.node)
    }
    // == end issue 29 part B
    fn __repr__(&self) -> String {
        let (ply, san) = self
            .m()
            .map_or((0, String::new()), |m| (m.ply, m.san().to_string()));
        format!("<cescacs.Move {ply} {san}>")
    }
    fn __str__<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.san.bind(py).clone()
    }
}

/// A node of a game's move tree: the move that led here, the position, and the moves
/// that may follow (the first is the main continuation).
#[pyclass(frozen, module = "cescacs", name = "GameNode")]
pub(crate) struct GameNode {
    pub(crate) walk: Arc<Walk>,
    pub(crate) node: usize,
}

impl GameNode {
    fn at(&self, node: usize) -> GameNode {
        GameNode {
            walk: self.walk.clone(),
            node,
        }
    }
}

#[pymethods]
impl GameNode {
    /// The move leading here; None at the start.
    #[getter]
    fn r#move(&self, py: Python<'_>) -> Option<Move> {
        self.walk.tree.nodes[self.node]
            .mv
            .as_ref()
            .map(|_| Move::new(py, self.walk.clone(), self.node))
    }
    /// The moves that may follow, each a node (the first is the main continuation).
    #[getter]
    fn variations(&self) -> Vec<GameNode> {
        self.walk
            .tree
            .children(self.node)
            .map(|i| self.at(i))
            .collect()
    }
    /// The node before; None at the start.
    #[getter]
    fn parent(&self) -> Option<GameNode> {
        self.walk.tree.nodes[self.node].parent.map(|i| self.at(i))
    }
    /// Comments (at the start: those before the first move).
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.walk.tree.nodes[self.node].comments.clone()
    }
    /// Half-moves from the start.
    #[getter]
    fn ply(&self) -> usize {
        self.walk.tree.nodes[self.node]
            .mv
            .as_ref()
            .map_or(0, |m| m.ply)
    }
    /// FEN or TLPD of the position here.
    #[getter]
    fn fen(&self) -> String {
        self.walk.tree.nodes[self.node].position.fen()
    }
    /// The main continuation, or None at the end of a line.
    fn next(&self) -> Option<GameNode> {
        self.walk.tree.next(self.node).map(|i| self.at(i))
    }
    /// The node is on the game's main line.
    fn is_mainline(&self) -> bool {
        let mut at = self.node;
        while let Some(parent) = self.walk.tree.nodes[at].parent {
            if self.walk.tree.next(parent) != Some(at) {
                return false;
            }
            at = parent;
        }
        true
    }
    /// The position here as a `Board` (chess, xiangqi) or `Position` (C'escacs).
    fn board(&self, py: Python<'_>) -> PyResult<PyObject> {
        tree_board(py, &self.walk.tree.nodes[self.node].position)
    }
    // == issue 29 part B: pickling and equality (pickle.rs)
    /// Equal nodes: the same place in equal move trees.
    fn __eq__(&self, other: PyRef<'_, GameNode>) -> bool {
        self.node == other.node
            && (Arc::ptr_eq(&self.walk, &other.walk) || self.walk.tree == other.walk.tree)
    }
    fn __hash__(&self) -> u64 {
        self.node as u64
    }
    /// Pickling: the game and the node's place in its tree.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(PyObject, PyObject)> {
        crate::pickle::reduce_node(py, "_node", &self.walk, self.node)
    }
    // == end issue 29 part B
    fn __repr__(&self) -> String {
        match &self.walk.tree.nodes[self.node].mv {
            Some(m) => format!("<cescacs.GameNode {} {}>", m.ply, m.san()),
            None => "<cescacs.GameNode start>".to_string(),
        }
    }
}
