"""Load: 200 simultaneous /diagnose requests through the bot's real HTTP endpoint against the lab. Every
request is acknowledged and gets an answer or a clear refusal; memory stays bounded; only catalog
commands ran."""

from __future__ import annotations

import collections
import resource
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.bot.interactions import slash_command
from tests.security.lab_audit import AuditWatch
from tests.security.said import said

REQUESTS = 200
USERS = 20  # ten requests each: the token bucket (burst 1) lets each user's first one through
POLICY = {
    "rules": [{"name": "load", "users": ["*"], "hosts": ["*"]}],
    "rate_limit": {"burst": 1, "per_minute": 1, "hosts_per_hour": 0},
}
FORM = "application/x-www-form-urlencoded"
RSS_GROWTH_LIMIT_MB = 400


def rss_mb() -> float:
    """This process's resident memory now (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def outcome(messages: list[tuple[str, str]]) -> str:
    """What one request got: 'answered' (its diagnosis finished), 'refused' (a sentence to the requester
    through its response_url) or '' (nothing yet)."""
    if any(kind == "chat" and "Checks on " in text for kind, text in messages):
        return "answered"
    return "refused" if any(kind == "respond" for kind, _ in messages) else ""


@pytest.mark.lab
@pytest.mark.slow
def test_two_hundred_simultaneous_diagnoses(serve_app, lab_fleet, lab_inventory, shared_dir) -> None:
    bot = serve_app(policy=POLICY, inventory=lab_inventory)
    watch = AuditWatch(lab_fleet.audit_log)
    hosts = sorted(h for h in lab_inventory.hosts if not h.startswith("fault-"))  # no injected hangs
    before = rss_mb()
    bodies = [
        slash_command(
            shared_dir,
            f"{hosts[n % len(hosts)]} NCCL WARN unhandled system error",
            response_url=f"{bot.recorder.url}/respond/{n}",
            channel=f"CL{n:04d}",
            user=f"UL{n % USERS:03d}",
        )
        for n in range(REQUESTS)
    ]
    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(lambda body: bot.send(body, content_type=FORM)[0], bodies))
    assert statuses == [200] * REQUESTS  # every request acknowledged

    def by_request() -> dict[int, list[tuple[str, str]]]:
        texts: dict[int, list[tuple[str, str]]] = collections.defaultdict(list)
        for where, text in said(bot.recorder.calls):
            if where.startswith("/respond/"):
                texts[int(where.removeprefix("/respond/"))].append(("respond", text))
            elif where.startswith("CL"):
                texts[int(where[2:])].append(("chat", text))
        return texts

    with bot.recorder.lock:  # every request was refused at once or its diagnosis finished
        done = lambda: sum(bool(outcome(t)) for t in by_request().values()) >= REQUESTS  # noqa: E731
        bot.recorder.lock.wait_for(done, timeout=300)
    assert bot.services.jobs.wait_idle(300)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    texts = by_request()
    got = {n: outcome(texts[n]) for n in range(REQUESTS)}
    counts = collections.Counter(got.values())
    assert counts[""] == 0, [n for n, o in got.items() if not o][:5]  # no dropped request
    assert counts["answered"] == USERS and counts["refused"] == REQUESTS - USERS
    refusals = [t for n, o in got.items() if o == "refused" for _, t in texts[n]]
    assert all("rate limit" in t and "try again" in t for t in refusals)
    checkable = any(p.checks for p in bot.services.kb.all())
    assert (watch.new_commands() or not checkable) and watch.violations() == []
    growth = rss_mb() - before
    print(
        f"\nload: {REQUESTS} requests, {counts['answered']} diagnosed, {counts['refused']} refused; "
        f"RSS {before:.0f} -> {rss_mb():.0f} MB (peak {peak:.0f} MB)"
    )
    assert growth < RSS_GROWTH_LIMIT_MB
