"""The writer that tests/security/test_durability.py kills: incidents and KB examples, each acknowledged.

Run as `python -m tests.security.durability_child DB TAG`. It prints `ready`, then for every write
that returned (committed) one line: `incident ID THREAD` or `example ID PITFALL TEXT`, flushed before
the next write begins, so the parent knows exactly what was acknowledged when it sends SIGKILL.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path


def main(db_path: Path, tag: str) -> None:
    """Write until killed."""
    from pitstop.core.db import open_db
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db_path)
    kb.warm()
    incidents = Incidents(open_db(db_path), kb=kb)
    pitfalls = [p.id for p in kb.all(("curated",))]
    answer = kb.ask("NCCL WARN NET/IB : Got completion from peer with error 12", top=3)
    print("ready", flush=True)
    for n in itertools.count():
        thread = f"{tag}.{n:06d}"
        iid = incidents.record_answer(
            channel="CDURABLE",
            thread_ts=thread,
            user="UDURABLE",
            text=f"{tag} paste {n}: NCCL WARN error 12 on node-{n}",
            answer=answer,
        )
        print(f"incident {iid} {thread}", flush=True)
        pitfall = pitfalls[n % len(pitfalls)]
        text = f"{tag} learned example {n} for {pitfall}: machine check on socket {n % 7}"
        eid = kb.add_example(pitfall, text, source="incident", incident_id=iid)
        print(f"example {eid} {pitfall} {text}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
