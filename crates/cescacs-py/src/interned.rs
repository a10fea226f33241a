//! Python strings of the short texts handed out over and over (a move's SAN and UCI,
//! squares, tag names): each made once per thread and shared, so taking `m.san` of a
//! move costs a table look-up and a reference count, not a new string (issue 29 part A:
//! a new `str` and its freeing were a third of a `Move` getter's cost).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Texts up to this many bytes are shared; longer ones are made each time.
const SHORT: usize = 15;

/// Shared texts kept at most per thread: memory stays bounded whatever the input (a
/// text met after the table is full is made each time, as before).
const MAX_ENTRIES: usize = 1 << 16;

/// A short text packed with its length: the key of the table (its bytes first, its
/// length in the last byte). Built from two loads that may overlap, not a copy of a
/// variable length (a `memcpy` call per look-up, a tenth of a tag's).
fn key(s: &str) -> Option<u128> {
    let b = s.as_bytes();
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(b[at..at + 4].try_into().expect("4")));
    // The bytes after the first word (or half word) are the top ones of the last.
    let (lo, hi) = match n {
        16.. => return None,
        8.. => (
            word(0),
            word(n - 8).checked_shr(8 * (16 - n) as u32).unwrap_or(0),
        ),
        4.. => (half(0) | half(n - 4) >> (8 * (8 - n)) << 32, 0),
        _ => (b.iter().rev().fold(0, |k, &c| k << 8 | u64::from(c)), 0),
    };
    Some(u128::from(lo) | u128::from(hi) << 64 | (n as u128) << 120)
}

/// A hasher for the packed keys: the two halves folded and multiplied (the keys are
/// short ASCII texts made by this crate, not chosen to collide).
#[derive(Default)]
struct Fold(u64);

impl Hasher for Fold {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let folded = (v as u64) ^ ((v >> 64) as u64).rotate_left(29);
        self.0 = (folded ^ (folded >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (v ^ (v >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Table = HashMap<u128, Py<PyString>, BuildHasherDefault<Fold>>;

/// A chess move's SAN and UCI strings by `PlyMove::text_key`.
type Pairs = HashMap<u64, (Py<PyString>, Py<PyString>), BuildHasherDefault<Fold>>;

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
    /// Tag values (see [`SHORT_VALUE`]): a table of their own, so that a file of many
    /// distinct values never crowds the moves' texts out of [`TABLE`].
    static VALUES: RefCell<Table> = RefCell::new(Table::default());
    static PAIRS: RefCell<Pairs> = RefCell::new(Pairs::default());
    static TEMPLATES: RefCell<Templates> = RefCell::new(Templates::default());
}

/// The table of chess moves' texts, borrowed once for a batch of moves (a main line's
/// `Move` objects are made in one pass: one thread-local access for all of them).
pub(crate) struct PairTable<'t>(Option<std::cell::RefMut<'t, Pairs>>);

impl PairTable<'_> {
    /// The two texts of a move whose key is `key` (the same key, the same texts): found
    /// by the key alone, so a move met before is not spelt again; `spell` spells them
    /// the first time.
    pub(crate) fn get<'py>(
        &mut self,
        py: Python<'py>,
        key: u64,
        spell: impl FnOnce() -> (Bound<'py, PyString>, Bound<'py, PyString>),
    ) -> (Bound<'py, PyString>, Bound<'py, PyString>) {
        let Some(table) = self.0.as_mut() else {
            return spell();
        };
        if let Some((a, b)) = table.get(&key) {
            return (a.bind(py).clone(), b.bind(py).clone());
        }
        let (a, b) = spell();
        if table.len() < MAX_ENTRIES {
            table.insert(key, (a.clone().unbind(), b.clone().unbind()));
        }
        (a, b)
    }
}

/// Runs `f` with this thread's table of chess moves' texts. A table already borrowed
/// (a call re-entered from Python while a batch is made) is not used: every text is
/// spelt instead.
pub(crate) fn with_pairs<R>(f: impl FnOnce(&mut PairTable<'_>) -> R) -> R {
    PAIRS.with(|t| f(&mut PairTable(t.try_borrow_mut().ok())))
}

/// `s` as a Python string, shared with every earlier caller on this thread when short.
pub(crate) fn text<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    shared(&TABLE, py, s)
}

/// Tag values up to this many bytes are shared: the ones that repeat from game to game
/// (`1-0`, `1/2-1/2`, `?`, ratings, ECO codes, rounds, time controls).
const SHORT_VALUE: usize = 7;

/// `s`'s string from `table` (made and kept there when missing and the table has
/// room), or made when too long to be shared.
fn shared<'py>(
    table: &'static std::thread::LocalKey<RefCell<Table>>,
    py: Python<'py>,
    s: &str,
) -> Bound<'py, PyString> {
    if s.len() > SHORT {
        return PyString::new(py, s);
    }
    // A re-entrant call cannot happen (nothing here calls back into Python), but a
    // table already borrowed is simply not used.
    table.with(|t| from_table(t.try_borrow_mut().ok().as_deref_mut(), py, s))
}

/// `s`'s string from `table` when it is there, else made (and kept when the table has
/// room); made when there is no table or `s` is too long to be shared.
fn from_table<'py>(table: Option<&mut Table>, py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    let (Some(table), Some(k)) = (table, key(s)) else {
        return PyString::new(py, s);
    };
    if let Some(found) = table.get(&k) {
        return found.bind(py).clone();
    }
    let made = PyString::new(py, s);
    if table.len() < MAX_ENTRIES {
        table.insert(k, made.clone().unbind());
    }
    made
}

/// The make-up of the tags dicts of one sequence of tag names: most games of a file
/// have the same names in the same order (the bench corpus: 23 sequences in 566
/// games), so a dict with those names, copied whole, needs only its values set (no
/// insertion, no resize, no name looked up).
struct Template {
    /// The names' keys (see [`key`]) in order: what a section's names are compared with.
    names: Box<[u128]>,
    /// The names' strings in the same order (a repeated name more than once).
    keys: Box<[Py<PyString>]>,
    /// Each name once, in the order of its first place, with the value `None`.
    dict: Py<PyDict>,
}

/// What is known of a sequence of names, by its hash: met once (a template is made the
/// second time, so a file of sections that never repeat pays nothing for one), or its
/// template.
enum Seen {
    Once,
    Template(Template),
}

/// The templates by the hash of their names, with the keys of the section at hand.
#[derive(Default)]
struct Templates {
    by_names: HashMap<u64, Seen, BuildHasherDefault<Fold>>,
    /// The current section's names' keys (kept for its allocation).
    names: Vec<u128>,
}

/// Tags a section may have and still be made from a template (the usual section has
/// seven to twenty).
const MOST_TAGS: usize = 40;

/// Sequences of names kept at most per thread (memory stays bounded; a sequence met
/// after the table is full has its dicts made tag by tag, as before).
const MAX_TEMPLATES: usize = 512;

/// This thread's tables of short texts, of tag values and of dict templates, borrowed
/// once for a whole tag section (thread-local look-ups a game, not a tag).
pub(crate) struct TagTables<'t> {
    names: Option<std::cell::RefMut<'t, Table>>,
    values: Option<std::cell::RefMut<'t, Table>>,
    templates: Option<std::cell::RefMut<'t, Templates>>,
}

/// A tag value's string: shared when short (see [`SHORT_VALUE`]), else made.
fn value<'py>(values: Option<&mut Table>, py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    if s.len() > SHORT_VALUE {
        return PyString::new(py, s);
    }
    from_table(values, py, s)
}

impl TagTables<'_> {
    /// The tags as a dict in their order, a later tag of the same name replacing the
    /// value of an earlier one (in its place).
    pub(crate) fn dict<'py, 'a>(
        &mut self,
        py: Python<'py>,
        tags: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    ) -> PyResult<Bound<'py, PyDict>> {
        if let Some(d) = self.by_template(py, tags.clone())? {
            return Ok(d);
        }
        let d = PyDict::new(py);
        for (k, v) in tags {
            let k = from_table(self.names.as_deref_mut(), py, k);
            d.set_item(k, value(self.values.as_deref_mut(), py, v))?;
        }
        Ok(d)
    }

    /// [`Self::dict`] by a copy of the template of the tags' names, when there is one
    /// or it is made now (the names' second meeting); `None` when there is none (names
    /// met once, too long to be keys, a full or borrowed table, a hash shared with
    /// other names).
    fn by_template<'py, 'a>(
        &mut self,
        py: Python<'py>,
        tags: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(templates) = self.templates.as_deref_mut() else {
            return Ok(None);
        };
        let names = &mut templates.names;
        names.clear();
        // The values, taken in the same pass as the names (each tag's text is found
        // once, not again for its value).
        let mut values = [""; MOST_TAGS];
        let mut hash: u64 = 0;
        for (name, v) in tags.clone() {
            let (Some(k), Some(slot)) = (key(name), values.get_mut(names.len())) else {
                return Ok(None);
            };
            *slot = v;
            let folded = (k as u64) ^ ((k >> 64) as u64).rotate_left(29);
            hash = (hash.rotate_left(23) ^ folded).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            names.push(k);
        }
        if names.is_empty() {
            return Ok(None);
        }
        let seen = match templates.by_names.get_mut(&hash) {
            Some(seen) => seen,
            None => {
                if templates.by_names.len() < MAX_TEMPLATES {
                    templates.by_names.insert(hash, Seen::Once);
                }
                return Ok(None);
            }
        };
        if let Seen::Once = seen {
            let dict = PyDict::new(py);
            let mut keys = Vec::with_capacity(names.len());
            for (name, _) in tags.clone() {
                let k = from_table(self.names.as_deref_mut(), py, name);
                dict.set_item(&k, py.None())?;
                keys.push(k.unbind());
            }
            *seen = Seen::Template(Template {
                names: names.as_slice().into(),
                keys: keys.into(),
                dict: dict.unbind(),
            });
        }
        let Seen::Template(t) = seen else {
            return Ok(None);
        };
        if *t.names != names[..] {
            return Ok(None);
        }
        let d = t.dict.bind(py).copy()?;
        for (k, v) in t.keys.iter().zip(&values[..names.len()]) {
            // The key is in the dict: its value is replaced in place (no insertion).
            d.set_item(k.bind(py), value(self.values.as_deref_mut(), py, v))?;
        }
        Ok(Some(d))
    }
}

/// Runs `f` with this thread's tables of tag names, values and dict templates (a table
/// already borrowed is not used: its texts are made instead).
pub(crate) fn with_tags<R>(f: impl FnOnce(&mut TagTables<'_>) -> R) -> R {
    TABLE.with(|names| {
        VALUES.with(|values| {
            TEMPLATES.with(|templates| {
                f(&mut TagTables {
                    names: names.try_borrow_mut().ok(),
                    values: values.try_borrow_mut().ok(),
                    templates: templates.try_borrow_mut().ok(),
                })
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn keys_tell_texts_apart_by_length_and_bytes() {
        assert_ne!(key("e4"), key("e4\0"));
        assert_ne!(key(""), key("\0"));
        assert_eq!(key("Nf3"), key("Nf3"));
        assert_eq!(key("a".repeat(16).as_str()), None);
        assert!(key("a".repeat(15).as_str()).is_some());
    }

    #[test]
    fn keys_are_the_bytes_then_the_length() {
        let text = "0123456789abcdefg\u{e9}";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let Some(s) = text.get(start..end) else {
                    continue;
                };
                let mut packed = [0u8; 16];
                let expected = (s.len() < 16).then(|| {
                    packed[..s.len()].copy_from_slice(s.as_bytes());
                    packed[15] = s.len() as u8;
                    u128::from_le_bytes(packed)
                });
                assert_eq!(key(s), expected, "{s:?}");
            }
        }
    }
}
