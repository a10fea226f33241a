//! Xiangqi PGN files: Chinese, WXF and ICCS move notations, any text encoding, and the XML form.
