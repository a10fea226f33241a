//! C'escacs rules: positions, legal move generation, make/unmake, check, game end and perft.
