"""C'escacs variations (issue 29 part B): `Game.variations` hangs every variation off
the half-move it replaces (CTL-PGN spec 7.7: the number and side of its first move name
it, not always the most recent move), at every depth; the position at every node equals
replaying its moves from the start with `Position`. The expected lines are the spec's
reading of the testdata fixtures, written out by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional

import pytest

import cescacs

SPEC = Path(__file__).resolve().parents[3] / "testdata" / "ctl-pgn" / "spec"


def game(name: str) -> cescacs.Game:
    games = list(cescacs.read_games(SPEC / name, format="ctl-pgn"))
    assert len(games) == 1 and games[0].errors == [], games[0].errors
    return games[0]


def lines_of(root: cescacs.GameNode) -> List[List[str]]:
    """Every node as the moves (normalised CTL-AN) from the start to it, depth first,
    children in the tree's order; checks each node's parent and ply on the way."""
    out: List[List[str]] = []

    def walk(node: cescacs.GameNode, prefix: List[str]) -> None:
        for child in node.variations:
            assert child.parent == node
            assert child.move is not None and child.move.ply == len(prefix) + 1 == child.ply
            path = prefix + [child.move.san]
            out.append(path)
            walk(child, path)

    walk(root, [])
    return out


def check(g: cescacs.Game, lines: List[str]) -> Dict[str, cescacs.GameNode]:
    """Follows each line (as the record writes it) through the tree from the start:
    every move must be a child of the node before it, and the position there must be
    `Position`'s after pushing the same texts. Returns the last node of each line."""
    root = g.variations[0].parent
    assert root is not None and root.move is None and root.parent is None
    ends = {}
    for line in lines:
        node: Optional[cescacs.GameNode] = root
        p = cescacs.Position()
        for text in line.split():
            p.push(text)
            assert node is not None
            found = [c for c in node.variations if c.fen == p.fen()]
            assert len(found) == 1, f"{line}: {text} is not a child of {node}"
            node = found[0]
            assert node.board().fen() == p.fen() == node.move.fen_after  # type: ignore[union-attr]
        assert node is not None
        ends[line] = node
    return ends


def test_nested_variations_hang_off_the_half_move_they_name() -> None:
    g = game("nested-variations.ctl-pgn")
    main = "E7-E13 E21-E15 F8-F12 F20-F16 E13×F16 E15×F12"
    a = "E7-E13 E21-E15 G7-G13 G21-G15 EG5-G7"  # ($[1] 2. G7-G13 ...): White's move 2
    b = "E7-E13 E21-E15 G7-G13 F20-F16 EG5-G7"  # .($[1] 2. …, F20-F16 ...): its Black 2
    c = "E7-E13 E21-E15 G7-G13 D22-D16"  # ..(2. …, D22-D16): Black 2 of that line
    d = "E7-E13 E21-E15 F8-F12 G21-G15"  # ($[2] 2. …, G21-G15): the main line's Black 2
    ends = check(g, [main, a, b, c, d])
    assert [m.san for m in g.mainline()] == [
        "E7-E13", "E21-E15", "F8-F12", "F20-F16", "E13×F16", "E15×F12"
    ]
    assert ends[main].is_mainline() and not ends[c].is_mainline()
    g7 = ends[c].parent
    assert g7 is not None and g7.move is not None and g7.move.san == "G7-G13"
    assert [n.move.san for n in g7.variations if n.move] == ["G21-G15", "F20-F16", "D22-D16"]
    after_e21 = g7.parent
    assert after_e21 is not None
    assert [n.move.san for n in after_e21.variations if n.move] == ["F8-F12", "G7-G13"]
    assert len(lines_of(after_e21.parent.parent)) == 13  # type: ignore[union-attr]


def test_variations_of_the_first_move_hang_off_the_start() -> None:
    g = game("features.ctl-pgn")
    main = "E7-E13 E21-E15 F8-F12 F20-F16 E13×F16 E15×F12 EG5-F8 EG23-F20 G7-G13 F12@@G9 JF6×G9"
    ends = check(g, [main, "F8-F12 F20-F16 EG5-F8", "F8-F12 E21-E15 G7-G13", "D6-D10"])
    assert [n.move.san for n in g.variations if n.move] == ["E7-E13", "F8-F12", "D6-D10"]
    assert ends["D6-D10"].parent == g.variations[0].parent
    assert len(lines_of(g.variations[0].parent)) == 17  # type: ignore[arg-type]


def test_variations_added_by_editing_read_back_as_the_same_tree() -> None:
    g = game("nested-variations.ctl-pgn")
    c_end = check(g, ["E7-E13 E21-E15 G7-G13 D22-D16"])["E7-E13 E21-E15 G7-G13 D22-D16"]
    e = g.copy()
    e.add_variation(1, ["F8-F12", "F20-F16"])  # White's first move, from the start
    e.add_variation(4, ["D22-D16"])  # a Black move of the main line
    # A node of the original game, three variations deep, after the edits renumbered
    # the tree: found again by its moves.
    e.add_variation_at(c_end, ["H22-H16", "EG5-G7"])
    # A node of a variation the edit added, taken from the edited game.
    added = [n for n in e.game().variations if n.move and n.move.san == "F8-F12"][0]
    e.add_variation_at(added.variations[0], ["E21-E17"])
    text = e.to_string("ctl-pgn")
    back = list(cescacs.read_games(text.encode(), format="ctl-pgn"))
    assert len(back) == 1 and back[0].errors == [], (back[0].errors, text)
    edited = e.game()
    assert lines_of(back[0].variations[0].parent) == lines_of(edited.variations[0].parent)  # type: ignore[arg-type]
    assert len(lines_of(back[0].variations[0].parent)) == 13 + 2 + 1 + 2 + 1  # type: ignore[arg-type]
    check(back[0], [
        "E7-E13 E21-E15 F8-F12 F20-F16 E13×F16 E15×F12",
        "F8-F12 F20-F16",
        "F8-F12 E21-E17",
        "E7-E13 E21-E15 F8-F12 D22-D16",
        "E7-E13 E21-E15 G7-G13 H22-H16 EG5-G7",
        "E7-E13 E21-E15 G7-G13 D22-D16",
    ])
    assert [m.san for m in back[0].mainline()] == [m.san for m in g.mainline()]
    # The original game is not edited.
    assert len(lines_of(g.variations[0].parent)) == 13  # type: ignore[arg-type]


def test_a_bad_variation_or_a_node_of_another_game_is_refused() -> None:
    g = game("nested-variations.ctl-pgn")
    other = game("features.ctl-pgn")
    e = g.copy()
    before = e.to_string("ctl-pgn")
    with pytest.raises(cescacs.OptionError, match="variation move 1"):
        e.add_variation(2, ["E7-E11"])  # White's move where Black replies
    with pytest.raises(cescacs.OptionError, match="no move of the move tree"):
        e.add_variation_at(other.variations[1], ["E7-E11"])
    with pytest.raises(cescacs.OptionError, match="GameNode"):
        e.add_variation_at(3, ["E7-E11"])  # type: ignore[arg-type]
    assert e.to_string("ctl-pgn") == before


def test_a_chess_variation_inside_a_variation() -> None:
    pgn = b"1. e4 e5 (1... c5 2. Nf3 d6) 2. Nf3 *\n"
    g = list(cescacs.read_games(pgn, format="pgn"))[0]
    c5 = g.variations[0].variations[1]
    assert c5.move is not None and c5.move.san == "c5"
    e = g.copy()
    e.add_variation_at(c5.variations[0], ["c3"])
    text = e.to_string("pgn")
    assert "(1... c5 2. Nf3 (2. c3) 2... d6)" in text, text
