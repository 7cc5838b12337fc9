"""Reading YAML: libyaml's C loader when PyYAML was built with it (about 6x faster), else the Python one.

Both are the safe loader (plain data only); errors are `yaml.YAMLError` either way.
"""

from __future__ import annotations

from typing import IO, Any

import yaml

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(stream: str | bytes | IO[str] | IO[bytes]) -> Any:
    """`yaml.safe_load` through the fastest safe loader available."""
    return yaml.load(stream, Loader=SafeLoader)  # noqa: S506 - a safe loader
