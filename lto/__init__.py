"""The link pipeline of ld.gradlink: options, inputs, symbol resolution, LTO, native link."""
