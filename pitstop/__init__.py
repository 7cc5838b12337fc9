"""Pitstop: known GPU-server pitfalls, read-only checks and verdicts, in chat and on the command line.

The layers live in the repository's top-level folders (`core/`, `kb/`, `collectors/`, `bot/`...)
and are installed as `pitstop.core`, `pitstop.kb`, ... (pyproject's `package-dir` mapping), so
nothing generic such as `migrations` lands at the top of site-packages. In a source checkout the
same names resolve to those folders: the checkout's root joins this package's search path.
"""

from pathlib import Path

__version__ = "0.2.0"

_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "core" / "__init__.py").is_file():
    __path__.append(str(_CHECKOUT))
