//! Per-ply data of a record's main line as flat columns (the Arrow and Spark readers'
//! opt-in `uci`, `clocks` and `evals`): one replay, no move tree. The values are those
//! python-chess gives for the same moves (`Move.uci()`, `node.clock()`, `node.eval()`).

use crate::{Record, Score, record::Game};

impl Record {
    /// The main line in machine notation: UCI for chess (python-chess's `move.uci()`,
    /// `0000` for a null move; Chess960 castling as king-takes-rook), ICCS for xiangqi
    /// (`h2e2`); `None` for C'escacs, PCN and unread records.
    pub fn uci_line(&self) -> Option<Vec<String>> {
        match self.game.as_ref()? {
            Game::Chess(g) => {
                let chess960 = g.variant == chess_pgn::Variant::Chess960;
                Some(
                    g.moves
                        .plies(&g.start)
                        .map(|p| chess_pgn::uci(&p.before, p.mv(), chess960))
                        .collect(),
                )
            }
            Game::Xiangqi(g) => Some(g.line.moves.iter().map(|m| m.mv.to_iccs()).collect()),
            _ => None,
        }
    }

    /// Seconds on the mover's clock after each main-line move, from `[%clk h:mm:ss]`
    /// (`None` for a move without one); `None` for games other than chess.
    pub fn clocks(&self) -> Option<Vec<Option<f64>>> {
        match self.game.as_ref()? {
            Game::Chess(g) => Some(g.moves.moves.iter().map(|n| n.clock).collect()),
            _ => None,
        }
    }

    /// The `[%eval …]` after each main-line move (`None` for a move without one);
    /// `None` for games other than chess.
    /// The same [`Score`] as the move tree's [`crate::PlyMove::eval`].
    pub fn evals(&self) -> Option<Vec<Option<Score>>> {
        match self.game.as_ref()? {
            Game::Chess(g) => Some(
                g.moves
                    .moves
                    .iter()
                    .map(|n| n.eval.map(Score::from))
                    .collect(),
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Format;

    #[test]
    fn chess_uci_clocks_and_evals() {
        let pgn =
            b"[Event \"x\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] } \
2. Nf3 { [%eval #-3] } Nc6 3. Bc4 Nf6 4. O-O *\n";
        let r = Record::from_bytes(Format::Pgn, pgn);
        assert_eq!(
            r.uci_line().unwrap(),
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]
        );
        let clocks = r.clocks().unwrap();
        assert_eq!(clocks[..3], [Some(180.0), Some(178.5), None]);
        let evals = r.evals().unwrap();
        assert_eq!(
            evals[..3],
            [Some(Score::Centipawns(17)), None, Some(Score::Mate(-3))]
        );
        assert_eq!(clocks.len(), 7);
        assert_eq!(evals.len(), 7);
    }

    #[test]
    fn xiangqi_iccs() {
        let text = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n";
        let r = Record::from_bytes(Format::XiangqiPgn, text.as_bytes());
        assert_eq!(r.uci_line().unwrap(), ["h2e2", "h9g7"]);
        assert_eq!(r.clocks(), None);
    }
}
