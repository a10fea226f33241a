//! A small API for converters: build a document square by square and move by move,
//! with every coordinate checked as it is added.

use crate::board::{Board, Coord};
use crate::error::{JsonPath, ReadError, Reason};
use crate::model::{Action, Cache, Game, Move, Status, Verb};
use crate::piece::{Piece, Side};
use crate::read::is_extension_key;
use serde_json::Value;

/// Builds a [`Game`]. Errors carry the JSON path the faulty item would have in the
/// written document, so a converter's bug reads like a reader's complaint.
#[derive(Debug, Clone)]
pub struct GameBuilder {
    style: String,
    game: Game,
}

impl GameBuilder {
    /// An empty board of `shape` whose pieces default to `style` (e.g. `"w"`, `"x"`,
    /// `"cescacs"`).
    pub fn new(shape: &[usize], style: &str) -> Result<GameBuilder, ReadError> {
        let path = JsonPath(vec![crate::Segment::Key("starting_position".into())]);
        let board = Board::empty(shape).map_err(|r| ReadError::new(&path, r))?;
        // Validate the style once, through a throw-away piece.
        Piece::new(style, "k", Side::Top, false).map_err(|why| {
            ReadError::new(
                &path,
                Reason::BadPiece {
                    value: format!("{style}:k"),
                    why,
                },
            )
        })?;
        Ok(GameBuilder {
            style: style.to_owned(),
            game: Game::new(board),
        })
    }

    /// A piece of this builder's style, in `side`'s case.
    pub fn piece(&self, abbreviation: &str, side: Side) -> Result<Piece, ReadError> {
        Piece::new(&self.style, abbreviation, side, false).map_err(|why| {
            ReadError::new(
                &JsonPath::root(),
                Reason::BadPiece {
                    value: format!("{}:{abbreviation}", self.style),
                    why,
                },
            )
        })
    }

    /// The starting position built so far.
    pub fn board(&self) -> &Board {
        &self.game.starting_position
    }

    /// Puts a piece (or nothing) on a square of the starting position.
    pub fn place(
        &mut self,
        square: impl Into<Coord>,
        piece: Option<Piece>,
    ) -> Result<&mut Self, ReadError> {
        let c = square.into();
        let mut path = JsonPath(vec![crate::Segment::Key("starting_position".into())]);
        let flat = match &c {
            Coord::Piece(_) => None,
            other => {
                Board::check_coord(self.game.starting_position.shape(), other)
                    .map_err(|r| ReadError::new(&path, r))?;
                self.game.starting_position.resolve(other).ok()
            }
        };
        let Some(flat) = flat else {
            return Err(ReadError::new(
                &path,
                Reason::WrongCoordinateForm {
                    role: "square",
                    verb: "place",
                    must: "a square, not a piece name",
                },
            ));
        };
        if let Some(cart) = self.game.starting_position.cartesian_of(flat) {
            for i in cart {
                path.push_index(i);
            }
        }
        self.game.starting_position.set(flat, piece);
        Ok(self)
    }

    /// Sets `started_at`; refused unless it is an ISO 8601 date-time the reader accepts.
    pub fn started_at(&mut self, iso: &str) -> Result<&mut Self, ReadError> {
        if !crate::read::is_date_time(iso) {
            return Err(ReadError::new(
                &JsonPath(vec![crate::Segment::Key("started_at".into())]),
                Reason::BadTimestamp(iso.to_owned()),
            ));
        }
        self.game.started_at = Some(iso.to_owned());
        Ok(self)
    }

    /// Sets the two players' names.
    pub fn players(&mut self, topside: &str, bottomside: &str) -> &mut Self {
        self.game.topside_player = Some(topside.to_owned());
        self.game.bottomside_player = Some(bottomside.to_owned());
        self
    }

    /// Appends a move; its coordinates and verb/coordinate forms are checked against
    /// the board shape exactly as the reader would.
    pub fn push_move(
        &mut self,
        actions: impl IntoIterator<Item = Action>,
    ) -> Result<&mut Self, ReadError> {
        let actions: Vec<Action> = actions.into_iter().collect();
        let n = self.game.previous_moves.len();
        let mut path = JsonPath(vec![crate::Segment::Key("previous_moves".into())]);
        path.push_index(n);
        if actions.is_empty() {
            return Err(ReadError::new(&path, Reason::EmptyMove));
        }
        let shape = self.game.starting_position.shape().to_vec();
        for (j, a) in actions.iter().enumerate() {
            path.push_index(j);
            check_action(a, &shape, &mut path)?;
            path.pop();
        }
        self.game.previous_moves.push(Move(actions));
        Ok(self)
    }

    /// Sets the game status (`over?` / `...result?`).
    pub fn status(&mut self, status: Status) -> &mut Self {
        self.game.status = status;
        self
    }

    /// Sets an extension key (must start with `...` and not be a seed key).
    pub fn extension(&mut self, key: &str, value: Value) -> Result<&mut Self, ReadError> {
        if !is_extension_key(key) {
            return Err(ReadError::new(
                &JsonPath::root(),
                Reason::BadExtensionKey(key.to_owned()),
            ));
        }
        self.game.extensions.insert(key.to_owned(), value);
        Ok(self)
    }

    /// Sets the `...cache` section.
    pub fn cache(&mut self, cache: Option<Cache>) -> &mut Self {
        self.game.cache = cache;
        self
    }

    /// The document.
    pub fn build(self) -> Game {
        self.game
    }
}

fn check_action(a: &Action, shape: &[usize], path: &mut JsonPath) -> Result<(), ReadError> {
    path.push_index(0);
    Board::check_coord(shape, &a.subject).map_err(|r| ReadError::new(path, r))?;
    if a.verb == Verb::Drop && a.subject.is_square() {
        return Err(ReadError::new(
            path,
            Reason::WrongCoordinateForm {
                role: "subject",
                verb: "drop",
                must: "a piece name (the piece in hand)",
            },
        ));
    }
    path.pop();
    path.push_index(2);
    Board::check_coord(shape, &a.object).map_err(|r| ReadError::new(path, r))?;
    if matches!(a.verb, Verb::Drop | Verb::Shift | Verb::Land) && !a.object.is_square() {
        return Err(ReadError::new(
            path,
            Reason::WrongCoordinateForm {
                role: "object",
                verb: a.verb.as_str(),
                must: "an empty square (Cartesian or flattened), not a piece name",
            },
        ));
    }
    path.pop();
    if let Some(o) = &a.options {
        path.push_index(3);
        if let Some(k) = o
            .extensions
            .keys()
            .find(|k| !(k.len() > 3 && k.starts_with("...")))
        {
            return Err(ReadError::new(path, Reason::UnknownOption(k.clone())));
        }
        path.pop();
    }
    Ok(())
}
