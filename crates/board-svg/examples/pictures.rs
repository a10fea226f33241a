//! Writes one picture of each board, with a check and a last move, to the directory
//! given (default: the system's temporary directory): for looking at the figures.

use board_svg::{BoardKind, Man, Marks, Side, picture};

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(std::env::temp_dir, std::path::PathBuf::from);
    let men = |kind: BoardKind| -> Vec<Man> {
        kind.legend()
            .iter()
            .enumerate()
            .flat_map(|(i, (letter, _))| {
                [
                    Man {
                        cell: i as u16,
                        side: Side::White,
                        letter: *letter,
                    },
                    Man {
                        cell: (kind.cells() - 1 - i) as u16,
                        side: Side::Black,
                        letter: *letter,
                    },
                ]
            })
            .collect()
    };
    for (kind, name) in [
        (BoardKind::Chess, "chess"),
        (BoardKind::Xiangqi, "xiangqi"),
        (BoardKind::Cescacs, "cescacs"),
    ] {
        let marks = Marks {
            last_move: Some((20, 30)),
            check: Some(0),
            mate: true,
        };
        for flipped in [false, true] {
            let svg = picture(
                kind,
                &men(kind),
                &marks,
                flipped,
                Some("position"),
                Some("caption"),
            );
            let path = dir.join(format!(
                "{name}{}.svg",
                if flipped { "-flipped" } else { "" }
            ));
            std::fs::write(&path, svg).expect("the picture is written");
            println!("{}", path.display());
        }
    }
}
