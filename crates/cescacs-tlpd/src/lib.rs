//! TLPD (PDTL) position strings for C'escacs: a tolerant reader and an exact writer.
