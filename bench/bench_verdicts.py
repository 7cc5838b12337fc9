"""Verdicts over every real output and every lab scenario: coverage, confirmations, false ones.

    python3 bench/bench_verdicts.py            # markdown tables for bench/verdicts_RESULTS.md
    python3 bench/bench_verdicts.py --dump F   # also every verdict, one line each, into F (compare
                                               # two runs byte for byte: a change that keeps verdicts)

Real outputs: ../shared/outputs (or $PITSTOP_SHARED/outputs) and tests/fixtures/outputs, labelled in
tests/fixtures/verdict_labels.yaml; each is fed alone to the collectors its folder feeds and every KB
entry reading them is evaluated. Variants: cut at the cap (tail kept, head kept) and garbled (see
tests/collectors/fixture_verdicts.py). Scenarios: lab/scenarios evaluated offline as in
tests/collectors/test_checks_scenarios.py.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pitstop.collectors import catalog  # noqa: E402
from pitstop.collectors.checks.registry import CHECKS, evaluate  # noqa: E402
from pitstop.collectors.model import CheckContext, Verdict  # noqa: E402
from pitstop.core.i18n import render  # noqa: E402
from pitstop.kb.schema import load_pitfalls  # noqa: E402
from pitstop.lab.scenario import load_scenario, shipped_scenarios  # noqa: E402
from tests.collectors.fixture_verdicts import (  # noqa: E402
    entries,
    fixtures,
    garbles,
    truncations,
    understood,
    verdicts,
)
from tests.collectors.test_checks_scenarios import NOW, scenario_results  # noqa: E402

SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))


def _line(where: str, pitfall: str, v: Verdict) -> str:
    """A verdict in full: fields (reason parameters, evidence, commands), its reason in both languages."""
    return f"{where}\t{pitfall}\t{v!r}\t{render(v.reason, 'en')}\t{render(v.reason, 'zh')}"


def _flat(reason: object) -> str:
    return " ".join(re.sub(r"[:=|]", " ", str(reason)).split())


def coverage() -> list[str]:
    """Entries with a check, and why the others have none."""
    pitfalls = load_pitfalls()
    checked = [p for p in pitfalls if p.checks]
    noted = [p for p in pitfalls if not p.checks and p.checks_note]
    return [
        "| KB entries | with a check | without, `checks_note` says why | without either "
        "| registered checks |",
        "|---|---|---|---|---|",
        f"| {len(pitfalls)} | {len(checked)} | {len(noted)} | {len(pitfalls) - len(checked) - len(noted)} "
        f"| {len(CHECKS)} |",
    ]


def real_outputs(sink: list[str]) -> tuple[list[str], dict[str, int]]:
    """Fixtures per collector (its parser) and the verdict counts over them and their variants (every
    verdict also into `sink`)."""
    pitfalls = entries()
    per: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    wrong: list[str] = []
    missed: list[str] = []
    cut_out: list[str] = []
    for f in fixtures(SHARED):
        per[f.collector] += 1
        got = dict((p.id, v) for p, v in verdicts(f.result(), pitfalls))
        sink += [_line(f.name, pid, v) for pid, v in got.items()]
        for pid, v in got.items():
            counts[v.verdict] += 1
            if v.verdict == "confirmed":
                (
                    counts.__setitem__("confirmed_right", counts["confirmed_right"] + 1)
                    if pid in f.shows
                    else wrong.append(f"{f.name} {pid}")
                )
        counts["required"] += len(f.required & set(got))
        missed += [f"{f.name} {pid}" for pid in f.required & set(got) if got[pid].verdict != "confirmed"]
        before = {pid: _flat(v.reason) for pid, v in got.items()}
        same = understood(f.collector, f.text)
        variants = [f.result(t, truncated=True) for _, t in truncations(f.text)]
        variants += [
            f.result(t)
            for _, t in garbles(f.text, len(f.name), f.collector)
            if understood(f.collector, t) != same
        ]
        counts["variants"] += len(variants)
        for n, result in enumerate(variants):
            for p, v in verdicts(result, pitfalls):
                sink.append(_line(f"{f.name} variant {n}", p.id, v))
                if v.verdict == "ruled_out" and (result.truncated or before.get(p.id) != _flat(v.reason)):
                    cut_out.append(f"{f.name} {p.id}")
    counts["false_confirmations"] = len(wrong)
    counts["missed"] = len(missed)
    counts["variant_rule_outs"] = len(cut_out)
    table = ["| collector (parser) | real outputs |", "|---|---|"]
    table += [f"| `{c}` | {per[c]} |" for c in sorted(per)]
    table.append(f"| **all** | **{sum(per.values())}** ({len({f.name for f in fixtures(SHARED)})} files) |")
    return table, dict(counts)


def scenarios(sink: list[str]) -> dict[str, int]:
    """expect.yaml of every shipped scenario against the offline verdicts (every verdict into `sink`)."""
    pitfalls = [p for p in load_pitfalls() if p.checks]
    counts: Counter[str] = Counter()
    for path in shipped_scenarios():
        scenario = load_scenario(path)
        results = scenario_results(path)
        ctx = CheckContext(host=path.name, expectations=dict(scenario.expect), now=NOW)
        got = {p.id: evaluate(p, results, ctx) for p in pitfalls}
        sink += [_line(path.name, pid, v) for pid, v in got.items()]
        counts["scenarios"] += 1
        counts["expected"] += len(scenario.confirmed)
        counts["made"] += sum(got[p].verdict == "confirmed" for p in scenario.confirmed)
        counts["quoted"] += sum(
            got[p].verdict == "confirmed" and all(e.lines and e.rerun for e in got[p].evidence)
            for p in scenario.confirmed
        )
        extra = [pid for pid, v in got.items() if v.verdict == "confirmed" and pid not in scenario.confirmed]
        counts["false"] += sum(not got[pid].benign for pid in extra)  # benign ones are notes, not faults
        counts["benign"] += sum(got[pid].benign for pid in extra)
        counts["ruled_out_expected"] += len(scenario.ruled_out)
        counts["ruled_out_made"] += sum(got[p].verdict == "ruled_out" for p in scenario.ruled_out)
    return dict(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, default=None, help="write every verdict, one per line, here")
    args = parser.parse_args()
    start = time.perf_counter()
    every: list[str] = []
    table, real = real_outputs(every)
    scen = scenarios(every)
    if args.dump:
        args.dump.write_text("\n".join(every) + "\n", encoding="utf-8")
    print("## Checks per entry\n")
    print("\n".join(coverage()))
    print("\n## Real outputs per parser\n")
    print("\n".join(table))
    print("\n## Verdicts over the real outputs\n")
    print(
        "| verdicts | confirmed | of them shown by the output | false confirmations | required "
        "confirmations made | cut/garbled variants | rule-outs on a variant |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {real['confirmed'] + real.get('ruled_out', 0) + real.get('inconclusive', 0)} "
        f"| {real['confirmed']} "
        f"| {real.get('confirmed_right', 0)} | {real['false_confirmations']} "
        f"| {real['required'] - real['missed']}/{real['required']} | {real['variants']} "
        f"| {real['variant_rule_outs']} |"
    )
    print("\n## Lab scenarios (offline)\n")
    print(
        "| scenarios | expected confirmations made | quoting their lines with a rerun | false confirmations "
        "| benign notes | expected rule-outs made |"
    )
    print("|---|---|---|---|---|---|")
    print(
        f"| {scen['scenarios']} | {scen['made']}/{scen['expected']} | {scen['quoted']}/{scen['expected']} "
        f"| {scen['false']} | {scen.get('benign', 0)} "
        f"| {scen['ruled_out_made']}/{scen['ruled_out_expected']} |"
    )
    print(
        f"\n({time.perf_counter() - start:.1f} s; {len(catalog.CATALOG)} catalog commands; "
        f"{len(every)} verdicts)"
    )


if __name__ == "__main__":
    main()
