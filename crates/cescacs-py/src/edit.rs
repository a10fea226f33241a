//! `Game.copy()`: an editable copy of a game (tags, main-line comments, length,
//! variations; every game), written with `to_string(format, ...)` in any target format
//! from the edited model, so every annotation the record holds is kept
//! (`cescacs_convert::Record`'s edits).

use crate::errors::Fail;
use crate::model::GameNode;
use crate::{Game, Origin, WriteArgs, arg, lock, unpanicked, write_record};
use cescacs_convert::{Format, Options, Record};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};

/// An editable copy of a game (`Game.copy()`).
#[pyclass(frozen, module = "cescacs")]
pub(crate) struct GameEditor {
    record: Mutex<Record>,
    file: String,
    index: u64,
}

impl Game {
    pub(crate) fn editor(&self) -> GameEditor {
        GameEditor {
            record: Mutex::new(self.record.clone()),
            file: self.file.clone(),
            index: self.index,
        }
    }
}

impl GameEditor {
    fn edit<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Record) -> Result<T, cescacs_convert::EditError>,
    ) -> PyResult<T> {
        let mut record = lock(py, &self.record);
        let done = unpanicked(&self.file, || {
            f(&mut record).map_err(|e| Fail::Option(format!("{} #{}: {e}", self.file, self.index)))
        })?;
        Ok(done)
    }

    fn written(&self, py: Python<'_>, target: (Format, Options)) -> PyResult<String> {
        let record = lock(py, &self.record).clone();
        let (file, index) = (&self.file, self.index);
        write_record(py, &record, file, target, |e| {
            Fail::Parse(format!("{file} #{index}: {e}"))
        })
    }
}

#[pymethods]
impl GameEditor {
    /// Tag pairs as they stand.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in lock(py, &self.record).tags() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }
    /// Main-line moves as they stand.
    #[getter]
    fn moves(&self, py: Python<'_>) -> Vec<String> {
        lock(py, &self.record).main_line()
    }
    /// Sets a tag (the value of its last occurrence, or a new tag at the end).
    fn set_tag(
        &self,
        py: Python<'_>,
        name: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let name: String = arg(name, "name")?;
        let value: String = arg(value, "value")?;
        self.edit(py, |r| r.set_tag(&name, &value))
    }
    /// Removes every occurrence of a tag; whether there was one.
    fn remove_tag(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<bool> {
        let name: String = arg(name, "name")?;
        self.edit(py, |r| r.remove_tag(&name))
    }
    /// Adds a comment after half-move `ply` of the main line (0: before the first).
    fn add_comment(
        &self,
        py: Python<'_>,
        ply: &Bound<'_, PyAny>,
        text: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let ply: usize = arg(ply, "ply")?;
        let text: String = arg(text, "text")?;
        self.edit(py, |r| r.add_comment(ply, &text))
    }
    /// Adds a variation replacing half-move `ply` (1-based) of the main line: moves
    /// played from the position before it, SAN (chess), ICCS or the record's notation
    /// (xiangqi), CTL-AN in the standard letters (C'escacs).
    fn add_variation(
        &self,
        py: Python<'_>,
        ply: &Bound<'_, PyAny>,
        moves: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let ply: usize = arg(ply, "ply")?;
        let moves: Vec<String> = arg(moves, "moves")?;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.edit(py, |r| r.add_variation(ply, &moves))
    }
    /// Adds a variation replacing the move of `node` (a `GameNode` of this game: from
    /// `Game.variations`, or from `game()` after edits), in the main line or in any
    /// variation; the moves as `add_variation` reads them.
    fn add_variation_at(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyAny>,
        moves: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let node: PyRef<'_, GameNode> = node.extract().map_err(|_| {
            Fail::Option(format!(
                "node: expected a cescacs.GameNode, got {}",
                node.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        let moves: Vec<String> = arg(moves, "moves")?;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        // The node is found again by its moves from the start: node numbers change as
        // variations are added, the moves leading to a node do not.
        let (start, path) = node_path(&node.walk.tree, node.node);
        let wanted = node.node;
        self.edit(py, |r| {
            let tree = cescacs_convert::move_tree(r, true)
                .map_err(|_| cescacs_convert::EditError::NoGame)?;
            let missing = || cescacs_convert::EditError::NoSuchNode {
                node: wanted,
                last: tree.nodes.len().saturating_sub(1),
            };
            if tree.nodes.first().map(|n| n.position.fen()) != Some(start) {
                return Err(missing());
            }
            let mut at = 0;
            for uci in &path {
                at = tree
                    .children(at)
                    .find(|&c| {
                        tree.nodes[c]
                            .mv
                            .as_ref()
                            .is_some_and(|m| m.uci() == uci.as_str())
                    })
                    .ok_or_else(missing)?;
            }
            r.add_variation_at(at, &moves)
        })
    }
    /// Keeps the first `plies` half-moves of the main line (the result becomes `*`).
    fn truncate(&self, py: Python<'_>, plies: &Bound<'_, PyAny>) -> PyResult<()> {
        let plies: usize = arg(plies, "plies")?;
        self.edit(py, |r| r.truncate(plies))
    }
    /// The edited game written in `format` (the options of `Game.to_string`).
    #[pyo3(signature = (format, *, fan=None, minimal=None, notation=None, strip=None, strict=None, json_lines=None))]
    #[allow(clippy::too_many_arguments)]
    fn to_string<'py>(
        &self,
        py: Python<'py>,
        format: &Bound<'py, PyAny>,
        fan: Option<Bound<'py, PyAny>>,
        minimal: Option<Bound<'py, PyAny>>,
        notation: Option<Bound<'py, PyAny>>,
        strip: Option<Bound<'py, PyAny>>,
        strict: Option<Bound<'py, PyAny>>,
        json_lines: Option<Bound<'py, PyAny>>,
    ) -> PyResult<String> {
        let target = WriteArgs {
            fan,
            minimal,
            notation,
            strip,
            strict,
            json_lines,
        }
        .target(format)?;
        self.written(py, target)
    }
    /// The edited game as a `Game`: written in its own format and read back (so it
    /// pickles, and its diagnostics are located in that text).
    fn game(&self, py: Python<'_>) -> PyResult<Game> {
        let format = lock(py, &self.record).format();
        let text = self.written(py, (format, Options::default()))?;
        let raw = cescacs_convert::raw_game(text.as_bytes());
        let mut records = Record::read_all(format, &raw);
        let record = records.swap_remove(0);
        Ok(Game {
            record,
            file: self.file.clone(),
            index: self.index,
            line: 1,
            column: 1,
            offset: 0,
            length: text.len() as u64,
            origin: Origin::Raw {
                raw: Arc::new(raw),
                member: 0,
            },
        })
    }
}

/// The start position of a tree and the moves (UCI, ICCS, CTL-AN cells) leading from it
/// to `node`.
fn node_path(tree: &cescacs_convert::MoveTree, node: usize) -> (String, Vec<String>) {
    let mut path = Vec::new();
    let mut at = node;
    while let Some(parent) = tree.nodes.get(at).and_then(|n| n.parent) {
        if let Some(m) = &tree.nodes[at].mv {
            path.push(m.uci().to_string());
        }
        at = parent;
    }
    path.reverse();
    let start = tree
        .nodes
        .first()
        .map(|n| n.position.fen())
        .unwrap_or_default();
    (start, path)
}
