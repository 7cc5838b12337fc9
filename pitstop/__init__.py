"""Pitstop: known GPU-server pitfalls, read-only checks and verdicts, in chat and on the command line."""

__version__ = "0.1.0"
