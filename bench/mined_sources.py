"""Check the mined examples' thread URLs against a list of URLs they must not come from.

    python3 bench/mined_sources.py --exclude /work/collect/exclude-urls.txt \
        --exclude bench/eval/real-v3.jsonl --since ffb800f

An evaluation set is only blind when no KB example was taken from one of its threads. This script
takes the examples added since a git revision (the exclude list also names the threads the KB
already used, so older examples are in it by construction), normalises every URL (scheme, `www.`,
case of the host, query string, anchor, trailing slash, GitHub's `/pull/` vs `/issues/`) and lists
each added example whose source matches an excluded URL, plus the per-cause and per-language
counts. An exclude file is one URL a line, or a JSONL evaluation set (its rows' `source`). It exits 1
when any added source is excluded.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def normalise(url: str) -> str:
    """A comparable form of `url`: host without `www.`, path without query, anchor or trailing slash."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    path = unquote(parts.path).rstrip("/")
    if host == "github.com":
        path = path.lower().replace("/pull/", "/issues/").replace("/discussions/", "/issues/")
    return f"{host}{path}"


def excluded_urls(path: Path) -> set[str]:
    """Normalised URLs of an exclude file: one URL a line, or the `source` of each row of a `.jsonl` set."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if path.suffix == ".jsonl":
        return {normalise(json.loads(line)["source"]) for line in lines}
    return {normalise(line) for line in lines}


def examples_at(revision: str) -> set[tuple[str, str, str]]:
    """(cause, text, source) of every mined example in `kb/examples` at a git revision."""
    from pitstop.kb.mined import load_examples

    with tempfile.TemporaryDirectory() as tmp:
        listing = subprocess.run(
            ["git", "ls-tree", "--name-only", f"{revision}:kb/examples"],
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        for name in listing:
            blob = subprocess.run(
                ["git", "show", f"{revision}:kb/examples/{name}"],
                cwd=REPO,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            (Path(tmp) / name).write_text(blob, encoding="utf-8")
        return {(ex.pitfall_id, ex.text, ex.source) for ex in load_examples(Path(tmp))[0]}


def main() -> int:
    """Print the excluded sources and the counts; 1 when any example comes from an excluded thread."""
    from pitstop.kb.mined import load_examples

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--exclude", type=Path, action="append", required=True, help="one URL a line, or a JSONL eval set"
    )
    parser.add_argument("--since", required=True, help="git revision: check the examples added after it")
    args = parser.parse_args()
    banned = set().union(*(excluded_urls(path) for path in args.exclude))
    examples, problems = load_examples()
    for problem in problems:
        print(f"invalid: {problem}")
    before = examples_at(args.since)
    added = [ex for ex in examples if (ex.pitfall_id, ex.text, ex.source) not in before]
    hits = [ex for ex in added if normalise(ex.source) in banned]
    for ex in hits:
        print(f"EXCLUDED {ex.pitfall_id}: {ex.source}")
    for label, group in (("all", examples), (f"added since {args.since}", added)):
        langs = Counter(ex.lang for ex in group)
        causes = len({ex.pitfall_id for ex in group})
        threads = len({normalise(ex.source) for ex in group})
        print(
            f"{label}: {len(group)} examples ({langs['en']} en, {langs['zh']} zh) over "
            f"{causes} causes, {threads} threads"
        )
    print(f"{len(hits)} added examples from excluded threads")
    return 1 if hits or problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
