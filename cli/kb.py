"""`pitstop kb build | check | list | show | export`: manage and inspect the knowledge base."""

from __future__ import annotations

import argparse
from pathlib import Path

from pitstop.cli import kb_learning
from pitstop.cli.helptext import columns, h
from pitstop.cli.kbargs import add_db_option, open_kb
from pitstop.cli.output import emit_json, lang_of
from pitstop.core.errors import NotFound, UsageError
from pitstop.core.i18n import msg, t

DEFAULT_TAXONOMY = Path(__file__).resolve().parents[2].parent / "shared" / "taxonomy.yaml"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `kb` sub-command and its actions."""
    parser = sub.add_parser("kb", help=h("kb.kb"))
    actions = parser.add_subparsers(dest="kb_action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help=h("kb.build"))
    build.set_defaults(func=run_build)
    check = actions.add_parser("check", help=h("kb.check"))
    check.add_argument(
        "--taxonomy",
        type=Path,
        default=None,
        help=h("kb.check.taxonomy"),
    )
    check.set_defaults(func=run_check)
    listing = actions.add_parser("list", help=h("kb.list"))
    listing.add_argument("--json", action="store_true", help=h("kb.listing.json"))
    listing.set_defaults(func=run_list)
    show = actions.add_parser("show", help=h("kb.show"))
    show.add_argument("id", help=h("kb.show.id"))
    show.add_argument("--json", action="store_true", help=h("kb.show.json"))
    show.set_defaults(func=run_show)
    export = actions.add_parser("export", help=h("kb.export"))
    export.add_argument("--json", action="store_true", help=h("kb.export.json"))
    kb_learning.add_export_options(export)
    export.set_defaults(func=run_export)
    kb_learning.register_actions(actions)
    for action in (build, listing, show, export):
        add_db_option(action)


def run_build(args: argparse.Namespace) -> int:
    """Reload the entry files and (re)build the index."""
    kb = open_kb(args)
    report = kb.build(force=True)
    kb.warm()
    meta = kb.index_meta()
    lang = lang_of(args)
    loaded = {"entries": report.entries, "changed": report.changed, "retired": report.retired}
    print(t("cli.kb.loaded", lang, **loaded, path=str(kb.db_path)))
    print(t("cli.kb.index", lang, n=meta.count, kind=meta.kind, model=meta.model, path=str(kb.index_path)))
    return 0


def _taxonomy_slugs(path: Path | None, lang: str) -> tuple[list[str] | None, str]:

    target = path or DEFAULT_TAXONOMY
    if not target.is_file():
        if path is not None:
            raise UsageError(msg("errors.kb.no_taxonomy", path=str(path)))
        return None, t("cli.kb.no_taxonomy", lang, path=str(target))
    from pitstop.core.errors import BadFile
    from pitstop.core.yamlio import load_yaml_file

    what = msg("security.what.taxonomy")
    items = load_yaml_file(target, what)
    try:
        return [str(item["slug"]) for item in items], t("cli.kb.taxonomy", lang, path=str(target))
    except (TypeError, KeyError) as exc:
        reason = f"expected a list of entries with a `slug` ({type(exc).__name__}: {exc})"
        raise BadFile(msg("security.file.shape", what=what, path=str(target), reason=reason)) from None


def _known_checks(lang: str) -> tuple[list[str], set[str], str]:
    """Registered check names, those described in both languages, and a note for the summary line."""
    from pitstop.collectors.checks.registry import CHECKS

    described = {name for name, spec in CHECKS.items() if spec.describe.get("en") and spec.describe.get("zh")}
    return list(CHECKS), described, t("cli.kb.checks", lang, n=len(CHECKS))


def run_check(args: argparse.Namespace) -> int:
    """Validate entries: schema, both languages, unique ids, regexes, taxonomy coverage, check names."""
    import yaml

    from pitstop.kb.mined import EXAMPLES_DIR, load_examples
    from pitstop.kb.schema import (
        PITFALLS_DIR,
        Pitfall,
        check_collection,
        missing_translations,
        read_entry_file,
        validate_entry,
    )

    lang = lang_of(args)
    problems: list[str] = []
    entries: list[Pitfall] = []
    checks, described, checks_note = _known_checks(lang)
    paths = sorted(PITFALLS_DIR.glob("*.yaml"))
    for path in paths:
        try:
            data = read_entry_file(path)
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            problems.append(f"{path.name}: cannot parse: {exc}")
            continue
        found = validate_entry(data, path.name)
        if not found and data["id"] != path.stem:
            found.append(f"{path.name}: id '{data['id']}' must equal the file name")
        problems += found
        if not found:
            entries.append(Pitfall.from_dict(data))
            if data.get("status", "curated") == "curated":
                problems += missing_translations(data, path.name, described)
    slugs, taxonomy_note = _taxonomy_slugs(args.taxonomy, lang)
    problems += check_collection(entries, required_ids=slugs or (), known_checks=checks)
    mined, mined_problems = load_examples(EXAMPLES_DIR, {e.id for e in entries})
    problems += mined_problems
    files = {"files": len(paths), "valid": len(entries)}
    print(t("cli.kb.checked", lang, **files, taxonomy=taxonomy_note, checks=checks_note))
    print(t("cli.kb.mined", lang, n=len(mined), where=f"{EXAMPLES_DIR.name}/"))
    for problem in problems:
        print(f"  - {problem}")
    print(t("cli.kb.ok", lang) if not problems else t("cli.kb.problems", lang, n=len(problems)))
    return 0 if not problems else 1


def run_list(args: argparse.Namespace) -> int:
    """List entries (curated and draft)."""
    entries = open_kb(args).all()
    if args.json:
        rows = [
            {
                "id": p.id,
                "title": p.title,
                "title_zh": p.title_zh,
                "layer": p.layer,
                "severity": p.severity,
                "benign": p.benign,
                "status": p.status,
            }
            for p in entries
        ]
        emit_json("kb-list", {"entries": rows})
        return 0
    lang = lang_of(args)
    for p in entries:
        draft = t("cli.kb.draft", lang) if p.status == "draft" else ""
        title = p.title_zh if lang == "zh" and p.title_zh else p.title
        severity = t(f"kb.severity.{p.severity}", lang)
        print(f"{p.id:48} {p.layer:16} {severity}{' ' * (10 - columns(severity))}{draft}{title}")
    print(t("cli.kb.count", lang, n=len(entries)))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Show one entry."""
    try:
        entry = open_kb(args).get(args.id)
    except NotFound:
        raise NotFound(msg("errors.kb.no_pitfall_listed", id=args.id)) from None
    data = entry.to_dict()
    if args.json:
        emit_json("pitfall", data)
        return 0
    for key, value in data.items():
        if isinstance(value, list):
            print(f"{key}:")
            print("\n".join(f"  - {item}" for item in value) or t("cli.kb.none", lang_of(args)))
        else:
            print(f"{key}: {value}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Print every entry with all its text fields as JSON (`--learned`: the learned bundle)."""
    if args.learned:
        return kb_learning.run_export_learned(args)
    if not args.json:
        raise UsageError(msg("errors.cli.export_what"))

    emit_json("kb-export", {"entries": [p.to_dict() | {"status": p.status} for p in open_kb(args).all()]})
    return 0
