//! Games as Arrow record batches built in Rust and handed to pyarrow through the Arrow C
//! stream interface (arrow-rs's `pyarrow` feature): no Python object is made per game.
//! `cescacs.read_arrow` and the Spark reader (`mapInArrow`) both read these batches.

use crate::feed::Next;
use crate::{GameReader, Severity};
use arrow::array::{
    ArrayBuilder, ArrayRef, Float64Builder, Int32Builder, Int64Builder, ListArray, ListBuilder,
    MapBuilder, MapFieldNames, RecordBatch, StringArray, StringBuilder, StructBuilder,
};
use arrow::buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::error::ArrowError;
use arrow::pyarrow::PyArrowType;
use arrow::record_batch::RecordBatchReader;
use cescacs_convert::{DirectRow, Format, Score};
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
    /// The row of the direct path, kept from game to game; `None` reads every game
    /// through the model (the differential test's other side).
    direct: Option<DirectRow>,
    /// Rows the direct path made (for the test that it is not vacuous).
    #[cfg(test)]
    taken: u64,
    /// The last batch's sizes, for the next one's builders.
    sizes: Sizes,
}

/// The builders of one batch's columns.
struct Columns {
    file: StringBuilder,
    index: Int64Builder,
    line: Int64Builder,
    format: StringBuilder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    moves: Moves,
    result: StringBuilder,
    final_position: StringBuilder,
    errors: ListBuilder<StringBuilder>,
    warnings: ListBuilder<StringBuilder>,
    plies: Int64Builder,
    offset: Int64Builder,
    length: Int64Builder,
    uci: ListBuilder<StringBuilder>,
    clocks: ListBuilder<Float64Builder>,
    evals: ListBuilder<StructBuilder>,
}

/// The `moves` column (a list of strings per game) as its three Arrow buffers, built
/// straight: a direct row's SANs are copied at once and their offsets shifted, where
/// a `ListBuilder<StringBuilder>` costs a call per move.
#[derive(Default)]
struct Moves {
    /// Every SAN of the batch, end to end.
    text: Vec<u8>,
    /// Where each SAN ends in `text` (the string array's offsets, after a first 0).
    ends: Vec<i32>,
    /// Where each game's moves end in `ends` (the list's offsets, after a first 0).
    games: Vec<i32>,
}

impl Moves {
    /// Arrow's 32-bit offsets: a batch's text past 2 GiB is an error, not a wrap.
    fn offset(n: usize) -> i32 {
        i32::try_from(n).unwrap_or(i32::MAX)
    }

    /// One SAN of the current game.
    fn push(&mut self, san: &str) {
        self.text.extend_from_slice(san.as_bytes());
        self.ends.push(Self::offset(self.text.len()));
    }

    /// Ends the current game's list.
    fn end_game(&mut self) {
        self.games.push(Self::offset(self.ends.len()));
    }

    /// A whole game's SANs, end to end, with where each ends in `sans`.
    fn push_game(&mut self, sans: &str, ends: &[u32]) {
        let base = Self::offset(self.text.len());
        self.text.extend_from_slice(sans.as_bytes());
        self.ends
            .extend(ends.iter().map(|&e| base.saturating_add_unsigned(e)));
        self.end_game();
    }

    fn finish(self) -> Result<ListArray, ArrowError> {
        if self.text.len() > i32::MAX as usize {
            return Err(ArrowError::ComputeError(
                "a batch's moves exceed 2 GiB: read with a smaller batch_rows".into(),
            ));
        }
        let offsets = |ends: Vec<i32>| {
            let mut all = Vec::with_capacity(ends.len() + 1);
            all.push(0);
            all.extend(ends);
            OffsetBuffer::new(ScalarBuffer::from(all))
        };
        // Validated once per batch (offsets in order, UTF-8 at every boundary).
        let sans = StringArray::try_new(offsets(self.ends), Buffer::from_vec(self.text), None)?;
        ListArray::try_new(
            Arc::new(Field::new("item", DataType::Utf8, true)),
            offsets(self.games),
            Arc::new(sans),
            None,
        )
    }
}

/// How much a batch held (see [`Columns::new`]); zero before the first batch, so
/// a small input allocates no more than it fills, and a batch at most what the one
/// before it held.
#[derive(Debug, Clone, Copy, Default)]
struct Sizes {
    rows: usize,
    file_bytes: usize,
    sans: usize,
    san_bytes: usize,
    tags: usize,
    tag_names: usize,
    tag_values: usize,
    fen_bytes: usize,
}

/// Where a game read on the direct path is in its file.
struct Place<'a> {
    file: &'a str,
    index: u64,
    line: u64,
    offset: u64,
    length: u64,
}

impl Columns {
    /// Builders sized for a batch like `like` (the previous batch): a builder grown by
    /// doubling copies what it holds at each step, one more pass over cold memory.
    fn new(like: Sizes) -> Columns {
        let rows = like.rows;
        let ints = || Int64Builder::with_capacity(rows);
        let strings = |bytes| StringBuilder::with_capacity(rows, bytes);
        Columns {
            file: strings(like.file_bytes),
            index: ints(),
            line: ints(),
            format: strings(rows * 3),
            tags: MapBuilder::with_capacity(
                Some(map_names()),
                StringBuilder::with_capacity(like.tags, like.tag_names),
                StringBuilder::with_capacity(like.tags, like.tag_values),
                rows,
            ),
            moves: Moves {
                text: Vec::with_capacity(like.san_bytes),
                ends: Vec::with_capacity(like.sans),
                games: Vec::with_capacity(rows),
            },
            result: strings(rows * 3),
            final_position: strings(like.fen_bytes),
            errors: ListBuilder::new(StringBuilder::new()),
            warnings: ListBuilder::new(StringBuilder::new()),
            plies: ints(),
            offset: ints(),
            length: ints(),
            uci: ListBuilder::new(StringBuilder::new()),
            clocks: ListBuilder::new(Float64Builder::new()),
            evals: ListBuilder::new(StructBuilder::new(
                eval_fields(),
                vec![Box::new(Int32Builder::new()), Box::new(Int32Builder::new())],
            )),
        }
    }

    /// The row of a game read by the model.
    fn push_game(&mut self, g: &crate::Game, extra: Extra) -> Result<(), ArrowError> {
        self.file.append_value(&g.file);
        self.index.append_value(g.index as i64);
        self.line.append_value(g.line as i64);
        self.format.append_value(g.record.format().name());
        for (k, v) in g.record.tags() {
            self.tags.keys().append_value(k);
            self.tags.values().append_value(v);
        }
        self.tags.append(true)?;
        let main_line = g.record.main_line();
        self.plies.append_value(main_line.len() as i64);
        for m in &main_line {
            self.moves.push(m);
        }
        self.moves.end_game();
        self.result.append_option(g.stated_result());
        self.final_position.append_option(g.record.final_position());
        for e in g.located(Severity::Error) {
            self.errors.values().append_value(e);
        }
        self.errors.append(true);
        for w in g.located(Severity::Warning) {
            self.warnings.values().append_value(w);
        }
        self.warnings.append(true);
        self.offset.append_value(g.offset as i64);
        self.length.append_value(g.length as i64);
        if extra.uci {
            match g.record.uci_line() {
                Some(line) => {
                    for m in &line {
                        self.uci.values().append_value(m);
                    }
                    self.uci.append(true);
                }
                None => self.uci.append(false),
            }
        }
        if extra.clocks {
            match g.record.clocks() {
                Some(line) => {
                    for c in line {
                        self.clocks.values().append_option(c);
                    }
                    self.clocks.append(true);
                }
                None => self.clocks.append(false),
            }
        }
        if extra.evals {
            match g.record.evals() {
                Some(line) => {
                    for e in line {
                        push_eval(&mut self.evals, e)?;
                    }
                    self.evals.append(true);
                }
                None => self.evals.append(false),
            }
        }
        Ok(())
    }

    /// The row of a game read on the direct path: the same values as
    /// [`Columns::push_game`] gives the game (a classic PGN game with no diagnostic).
    fn push_direct(
        &mut self,
        row: &DirectRow,
        at: Place<'_>,
        extra: Extra,
    ) -> Result<(), ArrowError> {
        self.file.append_value(at.file);
        self.index.append_value(at.index as i64);
        self.line.append_value(at.line as i64);
        self.format.append_value(Format::Pgn.name());
        for (k, v) in row.tags() {
            self.tags.keys().append_value(k);
            self.tags.values().append_value(v);
        }
        self.tags.append(true)?;
        self.plies.append_value(row.plies() as i64);
        let (sans, ends) = row.moves_end_to_end();
        self.moves.push_game(sans, ends);
        self.result.append_value(row.result());
        self.final_position.append_value(row.final_position());
        self.errors.append(true);
        self.warnings.append(true);
        self.offset.append_value(at.offset as i64);
        self.length.append_value(at.length as i64);
        if extra.uci {
            for m in row.uci() {
                self.uci.values().append_value(m);
            }
            self.uci.append(true);
        }
        if extra.clocks {
            for &c in row.clocks() {
                self.clocks.values().append_option(c);
            }
            self.clocks.append(true);
        }
        if extra.evals {
            for e in row.evals() {
                push_eval(&mut self.evals, e)?;
            }
            self.evals.append(true);
        }
        Ok(())
    }

    /// What this batch holds, to size the next one.
    fn sizes(&mut self) -> Sizes {
        Sizes {
            rows: self.index.len(),
            file_bytes: self.file.values_slice().len(),
            sans: self.moves.ends.len(),
            san_bytes: self.moves.text.len(),
            tags: self.tags.keys().len(),
            tag_names: self.tags.keys().values_slice().len(),
            tag_values: self.tags.values().values_slice().len(),
            fen_bytes: self.final_position.values_slice().len(),
        }
    }

    fn finish(mut self, schema: SchemaRef, extra: Extra) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.format.finish()),
            Arc::new(self.tags.finish()),
            Arc::new(self.moves.finish()?),
            Arc::new(self.result.finish()),
            Arc::new(self.final_position.finish()),
            Arc::new(self.errors.finish()),
            Arc::new(self.warnings.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.length.finish()),
        ];
        if extra.uci {
            columns.push(Arc::new(self.uci.finish()));
        }
        if extra.clocks {
            columns.push(Arc::new(self.clocks.finish()));
        }
        if extra.evals {
            columns.push(Arc::new(self.evals.finish()));
        }
        RecordBatch::try_new(schema, columns)
    }
}

/// One item of the `evals` list: `{cp, mate}`, null for a move without one.
fn push_eval(evals: &mut ListBuilder<StructBuilder>, e: Option<Score>) -> Result<(), ArrowError> {
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
    Ok(())
}

impl Batches {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ArrowError> {
        let mut columns = Columns::new(self.sizes);
        let mut count = 0;
        // One batch under the reader's lock: its state is whole even after a panic
        // elsewhere (a read problem is a game carrying its error, never an Err here).
        let mut state = self
            .games
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = &mut *state;
        while count < self.batch_rows {
            if state.pending.is_empty() {
                let next = state.feed.next();
                if let (Next::Raw(format, raw), Some(row)) = (&next, self.direct.as_mut())
                    && row.read(*format, raw)
                {
                    let feed = &mut state.feed;
                    let at = Place {
                        file: &feed.name,
                        index: feed.index_base + feed.records,
                        line: feed.line_base + raw.line - 1,
                        offset: feed.offset_base + raw.offset,
                        length: raw.bytes.len() as u64,
                    };
                    columns.push_direct(row, at, self.extra)?;
                    feed.records += 1;
                    #[cfg(test)]
                    {
                        self.taken += 1;
                    }
                    if let Next::Raw(_, raw) = next {
                        feed.recycle(raw.bytes);
                    }
                    count += 1;
                    continue;
                }
                crate::push_next(&mut state.feed, &mut state.pending, next);
            }
            let Some(g) = state.pending.pop_front() else {
                break;
            };
            columns.push_game(&g, self.extra)?;
            count += 1;
        }
        if count == 0 {
            return Ok(None);
        }
        self.sizes = columns.sizes();
        columns.finish(self.schema.clone(), self.extra).map(Some)
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
        direct: Some(DirectRow::new(extra.uci, extra.clocks, extra.evals)),
        #[cfg(test)]
        taken: 0,
        sizes: Sizes::default(),
    };
    Ok(PyArrowType(Box::new(batches)))
}

#[cfg(test)]
mod tests {
    //! The direct path against the model path: batches built both ways over every
    //! file of `testdata/` and over hostile variants of small games, every column of
    //! every row equal.

    use super::*;
    use crate::feed::Feed;
    use std::path::{Path, PathBuf};

    const ALL: Extra = Extra {
        uci: true,
        clocks: true,
        evals: true,
    };

    /// The batches of `bytes` (named `name`, whose extension gives the format) and the
    /// rows the direct path made; `None` when the format cannot be told (both ways
    /// refuse such an input alike, before any batch).
    fn batches(
        name: &str,
        bytes: &[u8],
        extra: Extra,
        direct: bool,
        batch_rows: usize,
    ) -> Option<(Vec<RecordBatch>, u64)> {
        let input = crate::in_memory(name.to_string(), bytes.to_vec());
        let format = crate::detect_or(None, name, input.head()).ok()?;
        let splitter = crate::feed::splitter(input, format, name);
        let feed = Feed::one(splitter, format, name.to_string(), (1, 1, 0));
        let mut b = Batches {
            games: GameReader::new(feed),
            batch_rows,
            schema: schema_with(extra),
            extra,
            direct: direct.then(|| DirectRow::new(extra.uci, extra.clocks, extra.evals)),
            taken: 0,
            sizes: Sizes::default(),
        };
        let mut out = Vec::new();
        while let Some(batch) = b.next_batch().unwrap() {
            out.push(batch);
        }
        Some((out, b.taken))
    }

    /// Compares the two ways for one input; (rows, rows made by the direct path).
    fn same(name: &str, bytes: &[u8], extra: Extra, batch_rows: usize) -> (usize, u64) {
        let Some((model, none)) = batches(name, bytes, extra, false, batch_rows) else {
            return (0, 0);
        };
        assert_eq!(none, 0);
        let (direct, taken) = batches(name, bytes, extra, true, batch_rows).unwrap();
        let what = || format!("{name}: {:?}", String::from_utf8_lossy(bytes));
        assert_eq!(model.len(), direct.len(), "{}: batches", what());
        let mut rows = 0;
        for (m, d) in model.iter().zip(&direct) {
            assert_eq!(m.schema(), d.schema(), "{}", what());
            assert_eq!(m.num_rows(), d.num_rows(), "{}", what());
            for (c, field) in m.schema().fields().iter().enumerate() {
                let (mc, dc) = (m.column(c), d.column(c));
                if mc == dc {
                    continue;
                }
                let row = (0..m.num_rows())
                    .find(|&r| mc.slice(r, 1) != dc.slice(r, 1))
                    .unwrap_or(0);
                panic!(
                    "{}: column {} of row {} differs:\nmodel  {:?}\ndirect {:?}",
                    what(),
                    field.name(),
                    rows + row,
                    mc.slice(row, 1),
                    dc.slice(row, 1)
                );
            }
            rows += m.num_rows();
        }
        (rows, taken)
    }

    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    #[test]
    fn every_testdata_file_gives_the_model_paths_rows() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut all = Vec::new();
        files(&root, &mut all);
        let (mut rows, mut taken, mut pgn_rows) = (0, 0, 0);
        for path in &all {
            let bytes = std::fs::read(path).unwrap();
            let name = path.display().to_string();
            for (extra, batch_rows) in [(ALL, 65536), (Extra::default(), 7)] {
                let (r, t) = same(&name, &bytes, extra, batch_rows);
                rows += r;
                taken += t;
                if name.ends_with(".pgn") && !name.contains("xiangqi") {
                    pgn_rows += r;
                }
            }
        }
        // Not vacuous: many rows, most classic ones taken by the direct path, and not
        // all of them.
        assert!(
            rows > 2000 && taken as usize * 2 > pgn_rows && (taken as usize) < pgn_rows,
            "{taken} of {rows} rows ({pgn_rows} classic) made by the direct path"
        );
    }

    /// Small games that hit each case: CR LF, a byte-order mark, comments with clock
    /// and eval commands, NAGs and glyphs, a variation, a set-up start, Chess960, a bad
    /// move, a cut file, a duplicate tag, a mate, escapes.
    const SMALL: &[&[u8]] = &[
        b"[Event \"E\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 {[%clk 0:01:00] [%eval 0.25]} e5 $1 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\n",
        b"\xef\xbb\xbf[White \"A\"]\n\n1. d4 d5!? {x} 2. c4 (2. Nf3) dxc4 *\n",
        b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 99 60\"]\n[SetUp \"1\"]\n\n60. e4 Kd7 61. e5 {[%eval #-3]} *\n",
        b"[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n\n1. Ne3 Ne6 2. O-O O-O 1/2-1/2\n",
        b"[Event \"x\"]\n[Event \"y\"]\n\n1. e4 e5 2. Ke3 1-0\n\n[Site \"s\"]\n\n1. Nf3 Nf6 2. g3",
    ];

    #[test]
    fn hostile_variants_give_the_model_paths_rows() {
        let inserts = b" \n\r{}()[]\"$;%.-*01eNxO+#!?\\\xe9";
        let mut taken = 0;
        for (i, game) in SMALL.iter().enumerate() {
            let name = format!("small-{i}.pgn");
            let mut variants = vec![game.to_vec()];
            for at in 0..=game.len() {
                if at < game.len() {
                    let mut v = game.to_vec();
                    v.remove(at);
                    variants.push(v);
                }
                for &b in inserts {
                    let mut v = game.to_vec();
                    v.insert(at, b);
                    variants.push(v);
                }
            }
            for v in &variants {
                taken += same(&name, v, ALL, 2).1;
            }
        }
        assert!(taken > 1000, "{taken} variants taken by the direct path");
    }
}
