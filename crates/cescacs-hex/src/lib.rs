//! C'escacs board geometry: the 169 cells, colours, steps, knight jumps and precomputed ray tables.
