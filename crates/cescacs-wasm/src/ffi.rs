//! The module's exports: a request buffer the caller fills, one call, an answer buffer
//! the caller reads. The only `unsafe` is the `no_mangle` attribute the exports need;
//! memory is reached by the caller through the pointers these functions return, never
//! dereferenced here.
//!
//! A panic is a bug; in WebAssembly it aborts (a trap). The hook keeps its message so
//! the glue can read it after the trap (`cescacs_panic_*`), throw it as a JS error and
//! start a fresh instance: the page lives on.

#![allow(unsafe_code)]

use std::cell::RefCell;
use std::sync::Mutex;

thread_local! {
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The message of the last panic (a bug), for the glue to read after the trap.
static PANIC: Mutex<String> = Mutex::new(String::new());

/// Makes the request buffer `len` bytes long and returns where the caller writes it.
#[unsafe(no_mangle)]
pub extern "C" fn cescacs_request(len: usize) -> *mut u8 {
    REQUEST.with_borrow_mut(|r| {
        r.clear();
        r.resize(len, 0);
        r.as_mut_ptr()
    })
}

/// Runs the request (see [`crate::call`]); returns the answer's length in bytes, read
/// at [`cescacs_answer`].
#[unsafe(no_mangle)]
pub extern "C" fn cescacs_call() -> usize {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            if let Ok(mut p) = PANIC.try_lock() {
                *p = info.to_string();
            }
        }))
    });
    let request = REQUEST.with_borrow_mut(std::mem::take);
    let answer = match String::from_utf8(request) {
        Ok(text) => crate::call(&text),
        Err(e) => serde_json::json!({ "error": format!("bad request: {e}") }).to_string(),
    };
    ANSWER.with_borrow_mut(|a| {
        *a = answer.into_bytes();
        a.len()
    })
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn cescacs_answer() -> *const u8 {
    ANSWER.with_borrow(|a| a.as_ptr())
}

/// Copies the last panic's message into the answer buffer and returns its length.
#[unsafe(no_mangle)]
pub extern "C" fn cescacs_panic() -> usize {
    let message = match PANIC.try_lock() {
        Ok(p) => p.clone(),
        Err(_) => String::from("panic (message unavailable)"),
    };
    // After a trap the answer buffer may still be borrowed: then report without it.
    ANSWER.with(|a| match a.try_borrow_mut() {
        Ok(mut a) => {
            *a = message.into_bytes();
            a.len()
        }
        Err(_) => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_written_at_the_pointer_gets_its_answer() {
        let request = br#"{"fn":"perft","args":[1]}"#;
        let ptr = cescacs_request(request.len());
        // The glue writes through the pointer; natively, the same buffer through safe code.
        REQUEST.with_borrow_mut(|r| {
            assert_eq!(r.as_mut_ptr(), ptr);
            r.copy_from_slice(request);
        });
        let len = cescacs_call();
        let answer = ANSWER.with_borrow(|a| {
            assert_eq!(a.as_ptr(), cescacs_answer());
            String::from_utf8(a.clone()).unwrap()
        });
        assert_eq!(answer.len(), len);
        assert_eq!(answer, r#"{"ok":68}"#);
    }
}
