"""gradlink's SSA IR, read from LLVM's textual form."""
