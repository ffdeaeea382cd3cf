//! Panics on wasm32 (`panic = "abort"`): std formats the message of `panic!("{x}")` into a
//! `String` held by a payload on its own stack frame, calls the hook, then traps. A trap
//! runs no destructor, so that `String` was never freed: every panic leaked it (64 bytes
//! of heap per panic of the soak's operation mix, ~390 bytes of wasm memory with the
//! fragmentation it caused). Now the hook writes its message into one buffer it keeps, and
//! notes where the payload's `String` lives; once the trap has ended std's frame for good
//! (nothing can use the payload again), [`reclaim`] frees it, from the glue right after
//! the trap and again at the next panic should the glue not have called.
//!
//! What stays: std's panic count is never decreased (the trap skips that too), so
//! `std::thread::panicking()` is `true` after a module's first panic; and a payload
//! of another type (`std::panic::panic_any(value)`) keeps what `value` owns.

use crate::global::global;

/// Installs the panic hook that hands panic messages to JS. Called once by the glue.
#[unsafe(export_name = bridge_schema::runtime_export!(init))]
pub extern "C" fn __bridge_init() {
    std::panic::set_hook(Box::new(hook));
}

/// Frees what the last panic left behind (see the module doc). The glue calls it after the
/// trap of a panic, before it throws the panic's `Error`.
#[unsafe(export_name = bridge_schema::runtime_export!(panic_reclaim))]
pub extern "C" fn __bridge_panic_reclaim() {
    reclaim();
}

global! {
    /// Address and capacity of the payload `String` the last trap abandoned.
    static ABANDONED: (usize, usize) = (0, 0);
}

fn hook(info: &std::panic::PanicHookInfo<'_>) {
    reclaim();
    // Only with `panic = "abort"` does the trap abandon the payload; an unwinding
    // build moves it into a `Box` that `catch_unwind` frees.
    #[cfg(panic = "abort")]
    if let Some(text) = info.payload().downcast_ref::<String>() {
        if text.capacity() != 0 {
            ABANDONED.with(|a| a.set((text.as_ptr() as usize, text.capacity())));
        }
    }
    let parts = parts(info);
    host::panic_message(parts.location, parts.payload);
}

/// What the glue needs to write `Rust panic: ` and what `PanicHookInfo`'s `Display`
/// writes (`panicked at file:line:col:`, a newline, the payload). The glue joins the
/// pieces: building the text here would link decimal printing and `String` growth.
// Read by the wasm32 host import (and the tests) only.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct Parts<'a> {
    /// `(file, line, column)`.
    pub location: Option<(&'a str, u32, u32)>,
    /// The payload, when it is a string (`panic_any` of another type: none).
    pub payload: Option<&'a str>,
}

pub(crate) fn parts<'a>(info: &'a std::panic::PanicHookInfo<'_>) -> Parts<'a> {
    Parts {
        location: info
            .location()
            .map(|at| (at.file(), at.line(), at.column())),
        payload: info.payload_as_str(),
    }
}

/// Free the payload `String` of the panic whose trap ended its owner's frame.
fn reclaim() {
    let (ptr, cap) = ABANDONED.with(|a| a.replace((0, 0)));
    if cap != 0 {
        // SAFETY: `ptr`/`cap` describe the heap buffer of the `String` std made for the
        // last panic's message, on a frame the trap ended: its owner can never run,
        // read or free it again, and nothing else knows the buffer.
        drop(unsafe { String::from_raw_parts(ptr as *mut u8, 0, cap) });
    }
}

mod host {
    #[cfg(target_arch = "wasm32")]
    // bridge_schema::abi::host (the attribute takes only literals; `cargo bridge` checks
    // every built module's imports against the schema).
    #[link(wasm_import_module = "__bridge")]
    unsafe extern "C" {
        #[link_name = "panic_parts"]
        fn bridge_panic_message(
            file_ptr: u32,
            file_len: u32,
            line: u32,
            column: u32,
            payload_ptr: u32,
            payload_len: u32,
        );
    }

    /// Line 0: no location; payload address 0: no string payload (a `&str` is never null).
    #[cfg(target_arch = "wasm32")]
    pub fn panic_message(location: Option<(&str, u32, u32)>, payload: Option<&str>) {
        let (file, line, column) = location.unwrap_or(("", 0, 0));
        let (payload_ptr, payload_len) =
            payload.map_or((0, 0), |p| (p.as_ptr() as u32, p.len() as u32));
        // SAFETY: JS copies the pieces synchronously.
        unsafe {
            bridge_panic_message(
                file.as_ptr() as u32,
                file.len() as u32,
                line,
                column,
                payload_ptr,
                payload_len,
            )
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn panic_message(_location: Option<(&str, u32, u32)>, _payload: Option<&str>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The glue joins the hook's pieces as `$panicText` in runtime.js.j2 does; the
    /// result reads as formatting the hook's info did: `Rust panic: panicked at
    /// file:line:col:\nmessage`.
    fn joined(parts: &Parts<'_>) -> String {
        let mut text = String::from("Rust panic: panicked at ");
        if let Some((file, line, column)) = parts.location {
            text += &format!("{file}:{line}:{column}");
        }
        if let Some(payload) = parts.payload {
            text += ":\n";
            text += payload;
        }
        text
    }

    #[test]
    fn panic_parts_join_to_the_formatted_hook_info() {
        use std::sync::Mutex;
        static SEEN: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
        // The hook is the process's: a test on another thread that panics while it is
        // installed reaches it too, so only this thread's panics are recorded.
        let this_test = std::thread::current().id();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() != this_test {
                return;
            }
            let formatted = format!("Rust panic: {info}");
            let built = joined(&parts(info));
            SEEN.lock().unwrap().push((built, formatted));
        }));
        let code = 7;
        let _ = std::panic::catch_unwind(|| panic!("static message"));
        let _ = std::panic::catch_unwind(|| panic!("formatted {code}"));
        let _ = std::panic::catch_unwind(|| std::panic::panic_any(42u8));
        std::panic::set_hook(previous);
        let seen = SEEN.lock().unwrap();
        assert_eq!(seen.len(), 3);
        for (built, formatted) in seen.iter() {
            assert_eq!(built, formatted);
        }
        assert!(
            seen[0].0.starts_with("Rust panic: panicked at "),
            "{}",
            seen[0].0
        );
        assert!(seen[0].0.ends_with(":\nstatic message"), "{}", seen[0].0);
        assert!(seen[1].0.ends_with(":\nformatted 7"), "{}", seen[1].0);
    }
}
