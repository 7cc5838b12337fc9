"""`pip install .` installs every layer, and only under `pitstop`: pyproject's package list and data globs
cover every package folder and data file of the checkout (a wheel without `core/messages` would start
and then fail on its first sentence)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
LAYERS = {name: Path(folder) for name, folder in SETUPTOOLS["package-dir"].items()}


def _installed_name(folder: Path) -> str:
    """`bot/listeners/actions` -> `pitstop.bot.listeners.actions`."""
    for name, root in LAYERS.items():
        if folder == root or root in folder.parents:
            return ".".join([name, *folder.relative_to(root).parts])
    raise AssertionError(f"{folder} is in no layer")


def test_every_package_folder_is_installed_and_only_under_pitstop() -> None:
    assert all(name == "pitstop" or name.startswith("pitstop.") for name in LAYERS)
    found = {
        _installed_name(init.parent.relative_to(ROOT))
        for root in LAYERS.values()
        for init in (ROOT / root).rglob("__init__.py")
    }
    assert found == set(SETUPTOOLS["packages"])


def test_every_data_file_is_package_data() -> None:
    globs = SETUPTOOLS.get("package-data", {})
    missing = []
    for root in LAYERS.values():
        for path in (ROOT / root).rglob("*"):
            if not path.is_file() or path.suffix in (".py", ".pyc"):
                continue
            relative = path.relative_to(ROOT)
            package = max(
                (p for p in relative.parents if (ROOT / p / "__init__.py").is_file()),
                key=lambda p: len(p.parts),
            )
            inside = relative.relative_to(package).as_posix()
            if not any(fnmatch.fnmatch(inside, g) for g in globs.get(_installed_name(package), ())):
                missing.append(str(relative))
    assert not missing, missing
