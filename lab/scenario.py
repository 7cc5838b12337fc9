"""The lab's scenario format: a directory of canned command outputs for one simulated host.

The directory name is the host name. Each output file is named after the collector it answers
(`SCENARIO_FILES`); a missing file means the tool is not installed. `host.yaml` (optional) gives
the inventory `groups:` and `expect:` values, a `base:` scenario to inherit files from (a sibling
directory or a shipped scenario) and an `absent:` list of inherited files to drop. `faults.yaml`
(optional) injects faults per collector; `expect.yaml` lists the verdicts the checks must reach.
See docs/LAB.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pitstop.collectors.catalog import CATALOG
from pitstop.core import yamlio
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg

SCENARIOS_DIR = Path(__file__).parent / "scenarios"

# collector name -> the scenario file the fake tools serve for it (each declaration's `lab_file`)
SCENARIO_FILES: Mapping[str, str] = {c.name: c.lab_file for c in CATALOG if c.lab_file}
# collectors served by a real program (the NVML probe runs on the host's real python3)
LIVE_COLLECTORS: frozenset[str] = frozenset(c.name for c in CATALOG if not c.lab_file)
COLLECTORS: frozenset[str] = frozenset(SCENARIO_FILES) | LIVE_COLLECTORS

NVIDIA_SMI_ERROR = "nvidia-smi-error.txt"
CONTROL_FILES = ("host.yaml", "expect.yaml", "faults.yaml", "README.md")
OUTPUT_FILES: frozenset[str] = frozenset(SCENARIO_FILES.values()) | {NVIDIA_SMI_ERROR}
FAULT_KINDS = ("hang", "slow", "huge", "exit", "garbage")
HOST_FIELDS = frozenset({"base", "absent", "groups", "expect"})


@dataclass(frozen=True)
class Fault:
    """One injected fault: `kind` in FAULT_KINDS; `value` is seconds, bytes or an exit code."""

    collector: str
    kind: str
    value: int = 0


@dataclass(frozen=True)
class Scenario:
    """A loaded, validated scenario; `files` maps output file names to their paths (base included)."""

    name: str
    path: Path
    files: Mapping[str, Path]
    faults: tuple[Fault, ...] = ()
    confirmed: tuple[str, ...] = ()
    ruled_out: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    expect: Mapping[str, Any] = field(default_factory=dict)


def _read_yaml(path: Path) -> Any:
    if not path.is_file():
        return None
    try:
        return yamlio.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise UsageError(msg("errors.shape.not_yaml", path=str(path), error=str(exc))) from None


def _as_mapping(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise UsageError(msg("errors.shape.mapping", where=where))
    return value


def _as_names(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise UsageError(msg("errors.shape.names", where=where))
    return tuple(value)


def _check_collector(name: str, where: str) -> str:
    if name not in COLLECTORS:
        raise UsageError(msg("errors.scenario.collector", where=where, name=name))
    return name


def parse_faults(data: Any, where: str = "faults.yaml") -> tuple[Fault, ...]:
    """Validate a faults.yaml document: lists for hang/garbage, {collector: int} for the others."""
    data = _as_mapping(data, where)
    faults: list[Fault] = []
    for kind, spec in data.items():
        if kind not in FAULT_KINDS:
            raise UsageError(
                msg("errors.scenario.fault", where=where, kind=kind, known=", ".join(FAULT_KINDS))
            )
        if kind in ("hang", "garbage"):
            faults += [Fault(_check_collector(c, where), kind) for c in _as_names(spec, f"{where}: {kind}")]
            continue
        for collector, value in _as_mapping(spec, f"{where}: {kind}").items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise UsageError(msg("errors.scenario.count", where=where, kind=kind, collector=collector))
            faults.append(Fault(_check_collector(collector, where), kind, value))
    return tuple(faults)


def _output_files(path: Path, seen: tuple[Path, ...]) -> dict[str, Path]:
    if path in seen:
        raise UsageError(msg("errors.scenario.base_loop", path=str(path)))
    host = _as_mapping(_read_yaml(path / "host.yaml"), f"{path}/host.yaml")
    unknown = set(host) - HOST_FIELDS
    if unknown:
        raise UsageError(msg("errors.scenario.fields", path=str(path), fields=", ".join(sorted(unknown))))
    files: dict[str, Path] = {}
    if host.get("base"):
        found = [
            d / str(host["base"]) for d in (path.parent, SCENARIOS_DIR) if (d / str(host["base"])).is_dir()
        ]
        if not found:
            raise UsageError(msg("errors.scenario.no_base", path=str(path), base=host["base"]))
        base = found[0]
        files = _output_files(base, seen + (path,))
    for name in _as_names(host.get("absent"), f"{path}/host.yaml: absent"):
        if name not in OUTPUT_FILES:
            raise UsageError(msg("errors.scenario.absent", path=str(path), name=name))
        files.pop(name, None)
    for item in sorted(path.iterdir()):
        if item.name in OUTPUT_FILES:
            files[item.name] = item
        elif item.name not in CONTROL_FILES:
            raise UsageError(msg("errors.scenario.file", path=str(item)))
    return files


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate the scenario in directory `path`; raise UsageError naming any problem."""
    path = Path(path).resolve()
    if not path.is_dir():
        raise UsageError(msg("errors.scenario.not_dir", path=str(path)))
    files = _output_files(path, ())
    host = _as_mapping(_read_yaml(path / "host.yaml"), f"{path}/host.yaml")
    expect = _as_mapping(_read_yaml(path / "expect.yaml"), f"{path}/expect.yaml")
    confirmed = _as_names(expect.get("confirmed"), f"{path}/expect.yaml: confirmed")
    ruled_out = _as_names(expect.get("ruled_out"), f"{path}/expect.yaml: ruled_out")
    both = set(confirmed) & set(ruled_out)
    if both:
        raise UsageError(msg("errors.scenario.both", path=str(path), ids=", ".join(sorted(both))))
    return Scenario(
        name=path.name,
        path=path,
        files=files,
        faults=parse_faults(_read_yaml(path / "faults.yaml"), f"{path}/faults.yaml"),
        confirmed=confirmed,
        ruled_out=ruled_out,
        groups=_as_names(host.get("groups"), f"{path}/host.yaml: groups"),
        expect=_as_mapping(host.get("expect"), f"{path}/host.yaml: expect"),
    )


def shipped_scenarios() -> list[Path]:
    """The scenario directories bundled with Pitstop, sorted by name."""
    return sorted(p for p in SCENARIOS_DIR.iterdir() if p.is_dir() and (p / "expect.yaml").is_file())


def load_all(paths: Iterable[str | Path]) -> list[Scenario]:
    """Load several scenarios; names must be unique because they become host names."""
    scenarios = [load_scenario(p) for p in paths]
    names = [s.name for s in scenarios]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise UsageError(msg("errors.scenario.duplicates", names=", ".join(duplicates)))
    return scenarios
