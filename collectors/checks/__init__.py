"""Read-only checks: pure functions (facts, params, context) -> Verdict, registered in `registry.CHECKS`."""
