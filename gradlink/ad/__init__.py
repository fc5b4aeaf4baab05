"""Automatic differentiation of LLVM IR: rules, activity-driven reverse synthesis, the tape."""
