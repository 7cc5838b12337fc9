"""`pitstop serve` (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Placeholder registration; replaced by the module's real implementation."""
    sub.add_parser("serve", help="(not yet implemented)")
