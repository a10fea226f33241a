//! Xiangqi (Chinese chess) rules: board, legal move generation, check and mate, FEN and perft.
