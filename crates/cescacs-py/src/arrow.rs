//! Games as Arrow record batches built in Rust and handed to pyarrow through the Arrow C
//! stream interface (arrow-rs's `pyarrow` feature): no Python object is made per game.
//! `cescacs.read_arrow` and the Spark reader (`mapInArrow`) both read these batches.

use crate::{GameReader, Severity};
use arrow::array::{
    ArrayRef, Float64Builder, Int32Builder, Int64Builder, ListBuilder, MapBuilder, MapFieldNames,
    RecordBatch, StringBuilder, StructBuilder,
};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::error::ArrowError;
use arrow::pyarrow::PyArrowType;
use arrow::record_batch::RecordBatchReader;
use cescacs_convert::Score;
use pyo3::prelude::*;
use std::sync::Arc;

/// Field names of the tags map, as pyarrow's `map_` and Spark name them.
fn map_names() -> MapFieldNames {
    MapFieldNames {
        entry: "entries".into(),
        key: "key".into(),
        value: "value".into(),
    }
}

fn string_list() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
}

/// The opt-in per-ply columns, each a list parallel to `moves` (null for a game whose
/// kind has no such data, null items where a move has none).
#[derive(Debug, Clone, Copy, Default)]
struct Extra {
    /// `uci`: UCI for chess, ICCS for xiangqi.
    uci: bool,
    /// `clocks`: seconds from `[%clk]`.
    clocks: bool,
    /// `evals`: `{cp, mate}` from `[%eval]`.
    evals: bool,
}

impl Extra {
    fn parse(names: &[String]) -> Result<Extra, crate::errors::Fail> {
        let mut extra = Extra::default();
        for n in names {
            match n.as_str() {
                "uci" => extra.uci = true,
                "clocks" => extra.clocks = true,
                "evals" => extra.evals = true,
                other => {
                    return Err(crate::errors::Fail::Option(format!(
                        "unknown column {other:?}: expected uci, clocks or evals"
                    )));
                }
            }
        }
        Ok(extra)
    }
}

fn eval_fields() -> Vec<Field> {
    vec![
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
    ]
}

/// The schema of every batch (the Spark reader's `GAME_SCHEMA`), with the opt-in
/// columns asked for after the others.
fn schema_with(extra: Extra) -> SchemaRef {
    let base = schema();
    let mut fields: Vec<Field> = base.fields().iter().map(|f| f.as_ref().clone()).collect();
    if extra.uci {
        fields.push(Field::new("uci", string_list(), true));
    }
    if extra.clocks {
        fields.push(Field::new(
            "clocks",
            DataType::List(Arc::new(Field::new("item", DataType::Float64, true))),
            true,
        ));
    }
    if extra.evals {
        fields.push(Field::new(
            "evals",
            DataType::List(Arc::new(Field::new(
                "item",
                DataType::Struct(eval_fields().into()),
                true,
            ))),
            true,
        ));
    }
    Arc::new(Schema::new(fields))
}

/// The columns every batch has (the Spark reader's `GAME_SCHEMA`).
pub fn schema() -> SchemaRef {
    let entries = Field::new(
        "entries",
        DataType::Struct(
            vec![
                Field::new("key", DataType::Utf8, false),
                Field::new("value", DataType::Utf8, true),
            ]
            .into(),
        ),
        false,
    );
    Arc::new(Schema::new(vec![
        Field::new("file", DataType::Utf8, true),
        Field::new("index", DataType::Int64, true),
        Field::new("line", DataType::Int64, true),
        Field::new("format", DataType::Utf8, true),
        Field::new("tags", DataType::Map(Arc::new(entries), false), true),
        Field::new("moves", string_list(), true),
        Field::new("result", DataType::Utf8, true),
        Field::new("final_position", DataType::Utf8, true),
        Field::new("errors", string_list(), true),
        Field::new("warnings", string_list(), true),
        Field::new("plies", DataType::Int64, true),
        Field::new("offset", DataType::Int64, true),
        Field::new("length", DataType::Int64, true),
    ]))
}

/// The games of one input as batches of at most `batch_rows` rows.
struct Batches {
    games: GameReader,
    batch_rows: usize,
    schema: SchemaRef,
    extra: Extra,
}

impl Batches {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ArrowError> {
        let mut file = StringBuilder::new();
        let mut index = Int64Builder::new();
        let mut line = Int64Builder::new();
        let mut format = StringBuilder::new();
        let mut tags = MapBuilder::new(
            Some(map_names()),
            StringBuilder::new(),
            StringBuilder::new(),
        );
        let mut moves = ListBuilder::new(StringBuilder::new());
        let mut result = StringBuilder::new();
        let mut final_position = StringBuilder::new();
        let mut errors = ListBuilder::new(StringBuilder::new());
        let mut warnings = ListBuilder::new(StringBuilder::new());
        let mut plies = Int64Builder::new();
        let mut offset = Int64Builder::new();
        let mut length = Int64Builder::new();
        let mut uci = ListBuilder::new(StringBuilder::new());
        let mut clocks = ListBuilder::new(Float64Builder::new());
        let mut evals = ListBuilder::new(StructBuilder::new(
            eval_fields(),
            vec![Box::new(Int32Builder::new()), Box::new(Int32Builder::new())],
        ));
        let mut count = 0;
        // One batch under the reader's lock: its state is whole even after a panic
        // elsewhere (a read problem is a game carrying its error, never an Err here).
        let mut state = self
            .games
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while count < self.batch_rows {
            let state = &mut *state;
            crate::fill(&mut state.feed, &mut state.pending, 1);
            let Some(g) = state.pending.pop_front() else {
                break;
            };
            file.append_value(&g.file);
            index.append_value(g.index as i64);
            line.append_value(g.line as i64);
            format.append_value(g.record.format().name());
            for (k, v) in g.record.tags() {
                tags.keys().append_value(k);
                tags.values().append_value(v);
            }
            tags.append(true)?;
            let main_line = g.record.main_line();
            plies.append_value(main_line.len() as i64);
            for m in &main_line {
                moves.values().append_value(m);
            }
            moves.append(true);
            result.append_option(g.stated_result());
            final_position.append_option(g.record.final_position());
            for e in g.located(Severity::Error) {
                errors.values().append_value(e);
            }
            errors.append(true);
            for w in g.located(Severity::Warning) {
                warnings.values().append_value(w);
            }
            warnings.append(true);
            offset.append_value(g.offset as i64);
            length.append_value(g.length as i64);
            if self.extra.uci {
                match g.record.uci_line() {
                    Some(line) => {
                        for m in &line {
                            uci.values().append_value(m);
                        }
                        uci.append(true);
                    }
                    None => uci.append(false),
                }
            }
            if self.extra.clocks {
                match g.record.clocks() {
                    Some(line) => {
                        for c in line {
                            clocks.values().append_option(c);
                        }
                        clocks.append(true);
                    }
                    None => clocks.append(false),
                }
            }
            if self.extra.evals {
                match g.record.evals() {
                    Some(line) => {
                        for e in line {
                            let item = evals.values();
                            let (cp, mate) = match e {
                                Some(Score::Centipawns(c)) => (Some(c), None),
                                Some(Score::Mate(m)) => (None, Some(m)),
                                _ => (None, None),
                            };
                            item.field_builder::<Int32Builder>(0)
                                .ok_or_else(|| ArrowError::ComputeError("cp".into()))?
                                .append_option(cp);
                            item.field_builder::<Int32Builder>(1)
                                .ok_or_else(|| ArrowError::ComputeError("mate".into()))?
                                .append_option(mate);
                            item.append(e.is_some());
                        }
                        evals.append(true);
                    }
                    None => evals.append(false),
                }
            }
            count += 1;
        }
        if count == 0 {
            return Ok(None);
        }
        let columns: Vec<ArrayRef> = vec![
            Arc::new(file.finish()),
            Arc::new(index.finish()),
            Arc::new(line.finish()),
            Arc::new(format.finish()),
            Arc::new(tags.finish()),
            Arc::new(moves.finish()),
            Arc::new(result.finish()),
            Arc::new(final_position.finish()),
            Arc::new(errors.finish()),
            Arc::new(warnings.finish()),
            Arc::new(plies.finish()),
            Arc::new(offset.finish()),
            Arc::new(length.finish()),
        ];
        let mut columns = columns;
        if self.extra.uci {
            columns.push(Arc::new(uci.finish()));
        }
        if self.extra.clocks {
            columns.push(Arc::new(clocks.finish()));
        }
        if self.extra.evals {
            columns.push(Arc::new(evals.finish()));
        }
        RecordBatch::try_new(self.schema.clone(), columns).map(Some)
    }
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        // A panic must not cross pyarrow's C stream (it would abort the interpreter):
        // it ends the stream with an error instead (a bug, as `unpanicked` says).
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.next_batch())) {
            Ok(batch) => batch.transpose(),
            Err(_) => Some(Err(ArrowError::ExternalError(
                format!(
                    "{}: internal error (a bug) while reading its games",
                    self.games
                        .state
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .feed
                        .name
                        .clone()
                )
                .into(),
            ))),
        }
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The games of `source` (as `read_games` takes it) as a `pyarrow.RecordBatchReader`
/// of batches of at most `batch_rows` rows; `columns` adds the opt-in per-ply columns
/// (`uci`, `clocks`, `evals`).
#[pyfunction]
#[pyo3(signature = (source, format=None, name=None, begin=0, end=None, index_base=1, line_base=1, batch_rows=65536, columns=Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn read_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
    begin: u64,
    end: Option<u64>,
    index_base: u64,
    line_base: u64,
    batch_rows: usize,
    columns: Vec<String>,
) -> PyResult<PyArrowType<Box<dyn RecordBatchReader + Send>>> {
    let extra = Extra::parse(&columns)?;
    let games = crate::read_games(py, source, format, name, begin, end, index_base, line_base)?;
    let batches = Batches {
        games,
        batch_rows: batch_rows.max(1),
        schema: schema_with(extra),
        extra,
    };
    Ok(PyArrowType(Box::new(batches)))
}
