"""Every check over every real output: the fixtures' labels, their variants, and the verdicts.

A fixture is one real command output, from ../shared/outputs (`shared/<folder>/<file>`) or from
tests/fixtures/outputs (`new/<folder>/<file>`). `tests/fixtures/verdict_labels.yaml` says which
catalog collector(s) each folder feeds and which KB causes each output shows. Used by
tests/collectors/test_conformance.py and bench/verdicts.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from pitstop.collectors import catalog
from pitstop.collectors.checks.registry import CHECKS, evaluate, facts_for
from pitstop.collectors.model import CheckContext, CommandResult, Verdict
from pitstop.kb.schema import Pitfall, load_pitfalls

REPO = Path(__file__).resolve().parents[2]
NEW = REPO / "tests" / "fixtures" / "outputs"
LABELS = REPO / "tests" / "fixtures" / "verdict_labels.yaml"
NOW = datetime(2026, 12, 1, tzinfo=UTC)
CTX = CheckContext(host="fixture-host", now=NOW)


@dataclass(frozen=True)
class Fixture:
    """One real output: its name, text, the collector it feeds, its exit status and what it shows."""

    name: str
    text: str
    collector: str
    exit: int
    shows: frozenset[str]  # causes present in the output (a confirmation of these is right)
    required: frozenset[str]  # of those, the ones a check must confirm from this output alone

    def result(self, text: str | None = None, truncated: bool = False) -> CommandResult:
        """The CommandResult the runner would hand over for this output (or a variant of it)."""
        outcome = "ok" if self.exit == 0 else "nonzero"
        argv = catalog.get(self.collector).argv
        return CommandResult(
            self.collector,
            argv,
            outcome,
            self.exit,
            stdout=self.text if text is None else text,
            truncated=truncated,
        )  # type: ignore[arg-type]


def labels() -> dict[str, Any]:
    """The labels data file."""
    return yaml.safe_load(LABELS.read_text(encoding="utf-8"))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def fixtures(shared: Path) -> list[Fixture]:
    """Every labelled real output fed to every collector its folder feeds."""
    data = labels()
    folders: dict[str, Any] = data["folders"]
    shows: dict[str, list[str]] = data.get("fixtures") or {}
    out = []
    for prefix, root in (("shared", shared / "outputs"), ("new", NEW)):
        for path in sorted(p for p in root.glob("*/*") if p.is_file()):
            folder = path.parent.name
            name = f"{prefix}/{folder}/{path.name}"
            spec = folders.get(folder) or {}
            ids = shows.get(name) or []
            for collector in spec.get("collectors") or ():
                out.append(
                    Fixture(
                        name,
                        _read(path),
                        collector,
                        int(spec.get("exit", 0)),
                        frozenset(i.lstrip("?") for i in ids),
                        frozenset(i for i in ids if not i.startswith("?")),
                    )
                )
    return out


def foreign_outputs(shared: Path) -> list[tuple[str, str]]:
    """Real outputs of commands outside the catalog (dmidecode, ssacli, XML...): unexpected formats."""
    folders = labels()["folders"]
    out = []
    for root, prefix in ((shared / "outputs", "shared"), (NEW, "new")):
        for path in sorted(p for p in root.glob("*/*") if p.is_file()):
            if not (folders.get(path.parent.name) or {}).get("collectors"):
                out.append((f"{prefix}/{path.parent.name}/{path.name}", _read(path)))
    return out


def entries() -> list[Pitfall]:
    """The bundled KB entries that name checks."""
    return [p for p in load_pitfalls(REPO / "kb" / "pitfalls") if p.checks]


# A collector whose facts stand in for another's: dmesg when journalctl fails, `nvidia-smi -q` when
# the NVML probe has no GPU records.
STANDS_IN = {"dmesg": "kernel_log", "nvidia_smi_q": "nvml_probe"}


def entries_needing(collector: str, pitfalls: list[Pitfall]) -> list[Pitfall]:
    """Entries with a check that reads `collector` (or what it stands in for)."""
    names = {collector, STANDS_IN.get(collector)}
    return [
        p for p in pitfalls if any(names & set(CHECKS[r.check].needs) for r in p.checks if r.check in CHECKS)
    ]


def verdicts(result: CommandResult, pitfalls: list[Pitfall]) -> Iterator[tuple[Pitfall, Verdict]]:
    """Each entry's combined verdict on a host where only `result` was collected."""
    results = {result.collector: result}
    if result.collector == "dmesg":  # dmesg is the fallback when journalctl failed
        argv = catalog.get("kernel_log").argv
        results["kernel_log"] = CommandResult("kernel_log", argv, "missing", 127, stderr="not found")
    facts_for(results, NOW)
    for pitfall in entries_needing(result.collector, pitfalls):
        yield pitfall, evaluate(pitfall, results, CTX)


def understood(collector: str, text: str) -> Any:
    """What the collector's parser makes of `text`."""
    declared = catalog.get(collector)
    return declared.parser(text, **({"now": NOW} if declared.timed else {}))


def truncations(text: str) -> Iterator[tuple[str, str]]:
    """Cut variants as the runner's cap delivers them (the tail kept) and a head cut mid-line."""
    if len(text) < 40:
        return
    for share in (0.3, 0.6):
        n = int(len(text) * share)
        yield f"tail {int(share * 100)}%", text[-n:]
        yield f"head {int(share * 100)}%", text[:n]


# Logs are free text line by line: a line with its words shuffled is just another message, so only
# scrambling (which breaks the timestamps that make a log recognizable) makes their format unexpected.
LOGS = frozenset({"kernel_log", "dmesg", "fabricmanager_log", "ipmi_sel"})


def garbles(text: str, seed: int, collector: str) -> Iterator[tuple[str, str]]:
    """Unexpected-format variants: separators gone, words shuffled inside lines, characters scrambled
    (variants identical to the original are left out)."""
    rng = random.Random(seed)
    variants = []
    if collector not in LOGS:
        variants.append(("no separators", text.replace(":", " ").replace("=", " ").replace("|", " ")))
        lines = []
        for line in text.splitlines():
            words = line.split()
            rng.shuffle(words)
            lines.append(" ".join(words))
        variants.append(("shuffled words", "\n".join(lines)))
    chars = list(text)
    for i in rng.sample(range(len(chars)), k=len(chars) // 4) if chars else ():
        chars[i] = chr(rng.randrange(33, 127))
    variants.append(("scrambled", "".join(chars)))
    yield from ((name, variant) for name, variant in variants if variant.split() != text.split())
