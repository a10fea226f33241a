//! Lossless conversion of C'escacs, xiangqi and classic chess game records to and from PCN.
