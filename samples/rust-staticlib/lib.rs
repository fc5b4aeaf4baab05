//! Small numeric kernels exported with the C ABI, built as a staticlib of LLVM bitcode
//! (`-C linker-plugin-lto`) so that the final link performs cross-language LTO with the C caller.

use std::slice;

/// Borrow a C array as a slice; a null pointer or zero length gives an empty slice.
unsafe fn as_slice<'a>(p: *const f64, n: usize) -> &'a [f64] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        slice::from_raw_parts(p, n)
    }
}

/// Dot product of two arrays of length `n`.
#[no_mangle]
pub unsafe extern "C" fn rs_dot(a: *const f64, b: *const f64, n: usize) -> f64 {
    let (a, b) = (as_slice(a, n), as_slice(b, n));
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Euclidean norm, scaled to avoid overflow.
#[no_mangle]
pub unsafe extern "C" fn rs_norm(a: *const f64, n: usize) -> f64 {
    let a = as_slice(a, n);
    let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    scale * a.iter().map(|x| (x / scale) * (x / scale)).sum::<f64>().sqrt()
}

/// Mean and (population) variance, written through `out[0]` and `out[1]`. Returns -1 if `n` is 0.
#[no_mangle]
pub unsafe extern "C" fn rs_moments(a: *const f64, n: usize, out: *mut f64) -> i32 {
    let a = as_slice(a, n);
    if a.is_empty() || out.is_null() {
        return -1;
    }
    let mean = a.iter().sum::<f64>() / a.len() as f64;
    let var = a.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / a.len() as f64;
    let out = slice::from_raw_parts_mut(out, 2);
    out[0] = mean;
    out[1] = var;
    0
}

/// Sorts `a` in place (total order on f64) and returns the median.
#[no_mangle]
pub unsafe extern "C" fn rs_sort_median(a: *mut f64, n: usize) -> f64 {
    if a.is_null() || n == 0 {
        return f64::NAN;
    }
    let v = slice::from_raw_parts_mut(a, n);
    v.sort_by(|x, y| x.total_cmp(y));
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Formats a short report into `buf` (NUL-terminated, truncated to `cap`); returns the full length.
#[no_mangle]
pub unsafe extern "C" fn rs_describe(a: *const f64, n: usize, buf: *mut u8, cap: usize) -> usize {
    let a = as_slice(a, n);
    let s = format!("{} values, min {:.3}, max {:.3}", a.len(),
                    a.iter().cloned().fold(f64::INFINITY, f64::min),
                    a.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
    if !buf.is_null() && cap > 0 {
        let k = s.len().min(cap - 1);
        let dst = slice::from_raw_parts_mut(buf, cap);
        dst[..k].copy_from_slice(&s.as_bytes()[..k]);
        dst[k] = 0;
    }
    s.len()
}
