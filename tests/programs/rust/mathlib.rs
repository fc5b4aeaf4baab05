// Rust staticlib for the link test, called from C (call_mathlib.c).
use std::collections::BTreeMap;
use std::ffi::{c_char, c_double, c_int, CStr};

/// Sum of squares of the first n integers, computed with iterators.
#[no_mangle]
pub extern "C" fn rs_sum_squares(n: c_int) -> i64 {
    (1..=n as i64).map(|i| i * i).sum()
}

/// Root mean square of a C array.
#[no_mangle]
pub unsafe extern "C" fn rs_rms(values: *const c_double, len: usize) -> c_double {
    let v = std::slice::from_raw_parts(values, len);
    (v.iter().map(|x| x * x).sum::<f64>() / len as f64).sqrt()
}

/// Number of distinct words in a C string; uses a BTreeMap and String allocation.
#[no_mangle]
pub unsafe extern "C" fn rs_distinct_words(text: *const c_char) -> c_int {
    let s = CStr::from_ptr(text).to_string_lossy().to_lowercase();
    let mut m = BTreeMap::new();
    for w in s.split_whitespace() {
        *m.entry(w.to_string()).or_insert(0) += 1;
    }
    m.len() as c_int
}

/// Returns -1 if parsing panics (caught inside Rust, never unwinding into C).
#[no_mangle]
pub unsafe extern "C" fn rs_parse_or_minus_one(text: *const c_char) -> i64 {
    let s = CStr::from_ptr(text).to_str().unwrap_or("").to_string();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(move || s.trim().parse::<i64>().expect("not a number"));
    let _ = std::panic::take_hook();
    r.unwrap_or(-1)
}
