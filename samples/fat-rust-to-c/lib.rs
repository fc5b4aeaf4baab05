//! softplus, log(1 + e^x), computed without overflow, exported with the C ABI together with
//! its derivative, registered Enzyme-style from Rust: `gradlink fat build` finds the
//! `__enzyme_register_gradient_softplus` static in the crate's bitcode and moves it into the fat
//! archive's manifest, so a C program differentiating through softplus uses this derivative.

/// log(1 + e^x) = max(x, 0) + log(1 + e^-|x|): exact for large |x|, where e^x overflows.
#[no_mangle]
pub extern "C" fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The logistic sigmoid 1 / (1 + e^-x), d softplus / dx, without overflow for either sign.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// What the augmented forward returns (Enzyme's convention): the tape, then the primal result.
#[repr(C)]
pub struct SoftplusAug {
    pub tape: f64,
    pub primal: f64,
}

/// Augmented forward: softplus's argument; the tape is the derivative, sigmoid(x).
#[no_mangle]
pub extern "C" fn softplus_aug(x: f64) -> SoftplusAug {
    SoftplusAug { tape: sigmoid(x), primal: softplus(x) }
}

/// Reverse: the argument, the differential of the result, then the tape; returns the adjoint of x.
#[no_mangle]
pub extern "C" fn softplus_rev(_x: f64, d_result: f64, sigmoid_x: f64) -> f64 {
    d_result * sigmoid_x
}

/// `void *__enzyme_register_gradient_softplus[3] = {softplus, softplus_aug, softplus_rev};` in
/// Rust: a C-layout struct of three function pointers (function pointers are `Sync`, raw
/// pointers are not, so an array of `*const c_void` cannot be a `static`).
#[repr(C)]
pub struct GradientRegistration(
    pub extern "C" fn(f64) -> f64,
    pub extern "C" fn(f64) -> SoftplusAug,
    pub extern "C" fn(f64, f64, f64) -> f64,
);

#[no_mangle]
pub static __enzyme_register_gradient_softplus: GradientRegistration =
    GradientRegistration(softplus, softplus_aug, softplus_rev);
