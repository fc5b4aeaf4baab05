"""gradlink: automatic differentiation of native code at link time."""

__version__ = "0.1.0"
