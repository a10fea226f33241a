//! Games as Arrow record batches built in Rust and handed to pyarrow through the Arrow C
//! stream interface (arrow-rs's `pyarrow` feature): no Python object is made per game.
//! `cescacs.read_arrow` and the Spark reader (`mapInArrow`) both read these batches.

use crate::{GameReader, Severity};
use arrow::array::{
    ArrayRef, Int64Builder, ListBuilder, MapBuilder, MapFieldNames, RecordBatch, StringBuilder,
};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::error::ArrowError;
use arrow::pyarrow::PyArrowType;
use arrow::record_batch::RecordBatchReader;
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

/// The schema of every batch (the Spark reader's `GAME_SCHEMA`).
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
    ]))
}

/// The games of one input as batches of at most `batch_rows` rows.
struct Batches {
    games: GameReader,
    batch_rows: usize,
    schema: SchemaRef,
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
        let mut count = 0;
        // One batch under the reader's lock: its state is whole even after a panic
        // elsewhere (a read problem is a game carrying its error, never an Err here).
        let mut state = self
            .games
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while count < self.batch_rows {
            if !self.games.fill(&mut state) {
                break;
            }
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
        ];
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
/// of batches of at most `batch_rows` rows.
#[pyfunction]
#[pyo3(signature = (source, format=None, name=None, begin=0, end=None, index_base=1, line_base=1, batch_rows=65536))]
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
) -> PyResult<PyArrowType<Box<dyn RecordBatchReader + Send>>> {
    let games = crate::read_games(py, source, format, name, begin, end, index_base, line_base)?;
    let batches = Batches {
        games,
        batch_rows: batch_rows.max(1),
        schema: schema(),
    };
    Ok(PyArrowType(Box::new(batches)))
}
