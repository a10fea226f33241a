//! Decompression ahead of the splitter, on a thread of its own: with several workers
//! the reader thread then only cuts games, and one reader can feed many workers
//! (issue 30). Memory stays bounded: chunks of [`CHUNK`] bytes are recycled rather
//! than allocated anew, and a new one is allocated only when none is free, that is
//! when [`CHUNKS`] wait in the channel, one is being read and one filled: at most
//! `CHUNKS + 2` chunks (512 KiB) per input, and a run reads one input at a time.

use crate::input::Input;
use std::io::{self, BufRead, Read};
use std::sync::mpsc;

/// Bytes of decompressed text per chunk handed to the splitter.
pub(crate) const CHUNK: usize = 1 << 17;

/// Chunks decompressed ahead of the splitter at most (the one the splitter reads
/// from not counted).
pub(crate) const CHUNKS: usize = 2;

/// What the decompression thread sends: a chunk of text, the end of the stream, or
/// the read error that ended it.
enum Piece {
    Text(Vec<u8>),
    End,
    Failed(io::Error),
}

/// `input` with its decompression moved to a thread of its own, when it is
/// compressed (an uncompressed input is returned as it is: reading a file costs the
/// splitter little). A thread that cannot be started leaves the input as it is.
pub(crate) fn decompress_ahead(mut input: Input) -> Input {
    if input.compression.is_none() {
        return input;
    }
    let (tx, rx) = mpsc::sync_channel::<Piece>(CHUNKS);
    let (give_back, recycled) = mpsc::sync_channel::<Vec<u8>>(CHUNKS + 1);
    // Swapped out so that a failed spawn can put the reader back.
    let reader = std::sync::Arc::new(std::sync::Mutex::new(Some(std::mem::replace(
        &mut input.reader,
        Box::new(io::empty()),
    ))));
    let shared = reader.clone();
    let started = std::thread::Builder::new()
        .name("cescacs-decompress".into())
        .spawn(move || {
            let Some(mut source) = shared.lock().ok().and_then(|mut r| r.take()) else {
                return;
            };
            decompress(&mut source, &tx, &recycled);
        });
    match started {
        Ok(_) => {
            input.reader = Box::new(Ahead {
                rx,
                give_back,
                chunk: Vec::new(),
                pos: 0,
                ended: false,
            });
        }
        Err(_) => {
            if let Some(r) = reader.lock().ok().and_then(|mut r| r.take()) {
                input.reader = r;
            }
        }
    }
    input
}

/// The thread's loop: fills chunks (recycled ones first) and sends them until the
/// stream ends, fails, or the splitter hangs up.
fn decompress(
    source: &mut Box<dyn BufRead + Send>,
    tx: &mpsc::SyncSender<Piece>,
    recycled: &mpsc::Receiver<Vec<u8>>,
) {
    loop {
        let mut chunk = recycled.try_recv().unwrap_or_default();
        chunk.resize(CHUNK, 0);
        let mut filled = 0;
        // A decoder's read gives what one of its blocks held: a chunk is filled by
        // several, so that the splitter is woken once per chunk, not per block.
        while filled < CHUNK {
            match source.read(&mut chunk[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    chunk.truncate(filled);
                    if filled > 0 && tx.send(Piece::Text(chunk)).is_err() {
                        return;
                    }
                    let _ = tx.send(Piece::Failed(e));
                    return;
                }
            }
        }
        chunk.truncate(filled);
        if filled == 0 {
            let _ = tx.send(Piece::End);
            return;
        }
        if tx.send(Piece::Text(chunk)).is_err() {
            return;
        }
    }
}

/// The splitter's side: reads the chunks in order. A thread that stops without
/// saying the stream ended is a read error, never a silent end of the input.
struct Ahead {
    rx: mpsc::Receiver<Piece>,
    give_back: mpsc::SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    pos: usize,
    ended: bool,
}

impl BufRead for Ahead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos == self.chunk.len() && !self.ended {
            match self.rx.recv() {
                Ok(Piece::Text(next)) => {
                    let used = std::mem::replace(&mut self.chunk, next);
                    self.pos = 0;
                    // The thread may have enough chunks already: then this one is dropped.
                    let _ = self.give_back.try_send(used);
                }
                Ok(Piece::End) => self.ended = true,
                Ok(Piece::Failed(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(mpsc::RecvError) => {
                    self.ended = true;
                    return Err(io::Error::other(
                        "the decompression thread stopped before the end of the stream",
                    ));
                }
            }
        }
        Ok(&self.chunk[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.chunk.len());
    }
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zstd_of(text: &[u8]) -> Vec<u8> {
        zstd::encode_all(text, 3).expect("zstd encodes")
    }

    fn read_all(input: Input) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut r = input.reader;
        r.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn the_text_comes_through_whole_and_in_order() {
        // Several chunks and a partial last one.
        let game = b"[Event \"x\"]\n1. e4 e5 *\n\n";
        let text: Vec<u8> = (0..CHUNK * 3 + 12_345)
            .map(|i| game[i % game.len()])
            .collect();
        let input = decompress_ahead(Input::from_bytes("t.pgn.zst", zstd_of(&text)));
        assert_eq!(read_all(input).expect("reads"), text);
    }

    #[test]
    fn a_damaged_stream_is_a_read_error_after_the_text_before_it() {
        let text = vec![b'a'; CHUNK * 4];
        let mut packed = zstd_of(&text);
        packed.truncate(packed.len() - 4);
        let input = decompress_ahead(Input::from_bytes("t.pgn.zst", packed));
        let mut r = input.reader;
        let mut out = Vec::new();
        let err = r
            .read_to_end(&mut out)
            .expect_err("a truncated stream fails");
        assert!(err.to_string().contains("zstd"), "{err}");
    }

    #[test]
    fn plain_text_is_left_to_the_splitter() {
        let input = decompress_ahead(Input::from_bytes("t.pgn", b"1. e4 *\n".to_vec()));
        assert_eq!(read_all(input).expect("reads"), b"1. e4 *\n");
    }
}
