"""Import an Ansible inventory as Pitstop inventory data.

Two readers produce the same model, what `ansible-inventory --list` prints (every host with its
merged variables, every group with its hosts and children):

- `ansible-inventory --list -i FILE` when ansible-core is installed: every inventory format and
  plugin, group_vars/host_vars and precedence are Ansible's own. It is a local, read-only command
  on the Pitstop host, run with the admin's file path as one argument (no shell).
- otherwise a built-in reader for INI and YAML files that follows Ansible's rules: ranges
  (`node[01:08:2]`, `db-[a:c]`, several per name), `host:port`, `[g:vars]`/`[g:children]`,
  `group_vars/` and `host_vars/` beside the file, and precedence (all < parent group < child group,
  by depth, then `ansible_group_priority`, then name; inventory-file group vars < group_vars files <
  inventory-file host vars < host_vars files).

Connection variables become host fields (`ansible_host` -> address, `ansible_port` -> port,
`ansible_user` -> user, `ansible_ssh_private_key_file` -> identity_file, `-J`/`ProxyJump` or a
`ProxyCommand=ssh -W %h:%p [user@]bastion` in the ssh args -> jump, `ansible_connection=local` ->
transport local); Ansible groups become Pitstop groups. Every variable that is not carried over is
reported in a warning, by name and host count.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import string
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pitstop.core.errors import UsageError, os_reason
from pitstop.core.i18n import Msg, msg
from pitstop.core.yamlio import read_text_file

ANSIBLE_TIMEOUT_S = 120
_ADDRESS = ("ansible_host", "ansible_ssh_host")  # later names win, as in Ansible's ssh connection
_PORT = ("ansible_port", "ansible_ssh_port")
_USER = ("ansible_user", "ansible_ssh_user")
_KEY = ("ansible_private_key_file", "ansible_ssh_private_key_file")
_SSH_ARGS = ("ansible_ssh_common_args", "ansible_ssh_extra_args")
_USED = {*_ADDRESS, *_PORT, *_USER, *_KEY, *_SSH_ARGS, "ansible_connection", "ansible_group_priority"}
_SPECIAL_GROUPS = {"all", "ungrouped"}
_VARS_EXTENSIONS = ("", ".yml", ".yaml", ".json")
_SECTION = re.compile(r"^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:[#;].*)?$")
_PROXY_W = re.compile(r"^ssh\s+(?:-\w+\s+)*-W\s*%h:%p\s+(?:(?:-[lp]\s*\S+|-\w+)\s+)*([^\s-]\S*)(?:\s.*)?$")


@dataclass(frozen=True)
class Model:
    """What `ansible-inventory --list` says: hosts with merged vars, groups with hosts and children."""

    hostvars: dict[str, dict[str, Any]]
    groups: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # name -> (direct hosts, child groups)
    reader: str

    def group_names(self, host: str) -> tuple[str, ...]:
        """Every group `host` is in, directly or through children, except all and ungrouped (sorted)."""
        parents: dict[str, set[str]] = {}
        for g, (_, children) in self.groups.items():
            for c in children:
                parents.setdefault(c, set()).add(g)
        found: set[str] = set()
        todo = [g for g, (hosts, _) in self.groups.items() if host in hosts]
        while todo:
            g = todo.pop()
            if g not in found:
                found.add(g)
                todo.extend(parents.get(g, ()))
        return tuple(sorted(found - _SPECIAL_GROUPS))


@dataclass(frozen=True)
class Imported:
    """Pitstop inventory data, the warnings about what was not carried over, and which reader ran."""

    data: dict[str, Any]
    warnings: tuple[Msg, ...]
    reader: str


# ---- ranges and host patterns ---------------------------------------------------------------


def expand_pattern(pattern: str) -> list[str]:
    """Ansible's `[beg:end(:step)]` ranges, numeric (zero padding kept) or alphabetic, several per name."""
    if "[" not in pattern:
        return [pattern]
    head, _, rest = pattern.partition("[")
    body, sep, tail = rest.partition("]")
    bounds = body.split(":")
    if not sep or len(bounds) not in (2, 3):
        raise UsageError(msg("errors.ansible.range_shape", pattern=pattern))
    beg, end = bounds[0] or "0", bounds[1]
    try:
        step = int(bounds[2]) if len(bounds) == 3 else 1
    except ValueError:
        raise UsageError(msg("errors.ansible.range_step", pattern=pattern, step=bounds[2])) from None
    if not end or step < 1:
        raise UsageError(msg("errors.ansible.range_end", pattern=pattern))
    width = len(beg) if beg.startswith("0") and len(beg) > 1 else 0
    if width and len(end) != width:
        raise UsageError(msg("errors.ansible.range_width", pattern=pattern))
    letters = string.ascii_letters
    if beg in letters and end in letters and len(beg) == len(end) == 1:
        if letters.index(beg) > letters.index(end):
            raise UsageError(msg("errors.ansible.range_order", pattern=pattern))
        items = list(letters[letters.index(beg) : letters.index(end) + 1 : step])
    else:
        try:
            items = [str(n).zfill(width) for n in range(int(beg), int(end) + 1, step)]
        except ValueError:
            raise UsageError(msg("errors.ansible.range_kind", pattern=pattern)) from None
    return [name for item in items for name in expand_pattern(head + item + tail)]


def split_port(pattern: str) -> tuple[str, int | None]:
    """`host:2222` -> (`host`, 2222); `[v6]:22` and plain names as Ansible parses them."""
    m = re.match(r"^\[([^\]]*:[^\]]*)\](?::(\d+))?$", pattern)  # bracketed IPv6 (ranges have no colon pair)
    if m:
        return m.group(1), int(m.group(2)) if m.group(2) else None
    name, sep, port = pattern.rpartition(":")
    if sep and port.isdigit() and name and ":" not in name:
        return name, int(port)
    return pattern, None


def _hosts_of(pattern: str) -> tuple[list[str], int | None]:
    name, port = split_port(pattern)
    return expand_pattern(name), port


# ---- the built-in reader --------------------------------------------------------------------


@dataclass
class _Group:
    hosts: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    vars: dict[str, Any] = field(default_factory=dict)


class _Builder:
    def __init__(self) -> None:
        self.groups: dict[str, _Group] = {"all": _Group(), "ungrouped": _Group()}
        self.hostvars: dict[str, dict[str, Any]] = {}

    def group(self, name: str) -> _Group:
        return self.groups.setdefault(name, _Group())

    def add_host(self, pattern: str, group: str, variables: Mapping[str, Any]) -> None:
        names, port = _hosts_of(pattern)
        for name in names:
            own = self.hostvars.setdefault(name, {})
            if port is not None:
                own["ansible_port"] = port
            own.update(variables)
            if name not in self.group(group).hosts:
                self.group(group).hosts.append(name)

    def add_child(self, parent: str, child: str) -> None:
        self.group(child)
        if child not in self.group(parent).children:
            self.group(parent).children.append(child)

    def finish(self, base: Path) -> Model:
        has_parent = {c for g in self.groups.values() for c in g.children}
        for name in self.groups:
            if name != "all" and name not in has_parent and name not in self.groups["all"].children:
                self.groups["all"].children.append(name)
        grouped = {h for n, g in self.groups.items() if n not in _SPECIAL_GROUPS for h in g.hosts}
        for h in self.hostvars:
            if h not in grouped and h not in self.groups["ungrouped"].hosts:
                self.groups["ungrouped"].hosts.append(h)
        depth = self._depths()
        model = Model(
            {}, {n: (tuple(g.hosts), tuple(g.children)) for n, g in self.groups.items()}, "built-in"
        )
        for host, own in self.hostvars.items():
            ordered = sorted(
                (g for g in model.group_names(host) + (("ungrouped",) if self._ungrouped(host) else ())),
                key=lambda g: (depth[g], _priority(self.groups[g].vars), g),
            )
            merged: dict[str, Any] = dict(self.groups["all"].vars)
            for g in ordered:
                merged.update(self.groups[g].vars)
            merged.update(_vars_files(base / "group_vars", "all"))
            for g in ordered:
                merged.update(_vars_files(base / "group_vars", g))
            merged.update(own)
            merged.update(_vars_files(base / "host_vars", host))
            merged.pop("ansible_group_priority", None)
            model.hostvars[host] = merged
        return model

    def _ungrouped(self, host: str) -> bool:
        return host in self.groups["ungrouped"].hosts

    def _depths(self) -> dict[str, int]:
        depth = {"all": 0}

        def walk(name: str, d: int, path: tuple[str, ...]) -> None:
            if name in path:
                raise UsageError(msg("errors.ansible.group_cycle", name=name, path=" -> ".join(path)))
            if depth.get(name, -1) >= d and name != "all":
                return
            depth[name] = d
            for child in self.groups[name].children:
                walk(child, d + 1, (*path, name))

        for child in self.groups["all"].children:
            walk(child, 1, ("all",))
        return depth


def _priority(variables: Mapping[str, Any]) -> int:
    try:
        return int(variables.get("ansible_group_priority", 1))
    except (TypeError, ValueError):
        return 1


def _vars_files(directory: Path, name: str) -> dict[str, Any]:
    """Variables from `group_vars/NAME{,.yml,.yaml,.json}` or every such file under `group_vars/NAME/`."""
    found: list[Path] = []
    for ext in _VARS_EXTENSIONS:
        candidate = directory / f"{name}{ext}"
        if candidate.is_file():
            found.append(candidate)
        elif ext == "" and candidate.is_dir():
            found += sorted(
                p
                for p in candidate.rglob("*")
                if p.is_file() and not p.name.startswith(".") and p.suffix in _VARS_EXTENSIONS
            )
    merged: dict[str, Any] = {}
    for path in found:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise UsageError(msg("errors.ansible.vars_unreadable", path=str(path), error=str(exc))) from None
        if data is None:
            continue
        if not isinstance(data, Mapping):
            raise UsageError(msg("errors.ansible.vars_not_mapping", path=str(path)))
        merged.update(data)
    return merged


def _ini_value(text: str) -> Any:
    """A value as Ansible's INI reader keeps it: a Python literal where it is one, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


def _parse_ini(text: str, where: str) -> _Builder:
    b = _Builder()
    section, kind = "ungrouped", "hosts"
    declared = {"all", "ungrouped"}
    pending_vars: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            m = _SECTION.match(line)
            if not m:
                raise UsageError(
                    msg("errors.ansible.bad_section", where=where, line=number, section=line[:60])
                )
            section, kind = m.group(1), m.group(2) or "hosts"
            if kind not in ("hosts", "vars", "children"):
                raise UsageError(msg("errors.ansible.section_suffix", where=where, line=number))
            if kind == "vars":
                pending_vars.setdefault(section, number)
            else:
                declared.add(section)
                b.group(section)
            continue
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError as exc:
            raise UsageError(
                msg("errors.ansible.unsplittable", where=where, line=number, error=str(exc))
            ) from None
        if not tokens:
            continue
        if kind == "vars":
            key, sep, value = line.partition("=")
            if not sep:
                raise UsageError(msg("errors.ansible.vars_line", where=where, line=number, section=section))
            b.group(section).vars[key.strip()] = _ini_value(value.strip())
        elif kind == "children":
            b.add_child(section, tokens[0])
            declared.add(tokens[0])
        else:
            pairs = {}
            for token in tokens[1:]:
                key, sep, value = token.partition("=")
                if not sep:
                    raise UsageError(msg("errors.ansible.host_line", where=where, line=number, token=token))
                pairs[key] = _ini_value(value)
            b.add_host(tokens[0], section, pairs)
    for group, number in pending_vars.items():
        if group not in declared:
            raise UsageError(msg("errors.ansible.vars_undefined", where=where, line=number, group=group))
    return b


def _walk_yaml(b: _Builder, name: str, node: Any, where: str) -> None:
    b.group(name)
    if node is None:
        return
    if not isinstance(node, Mapping):
        raise UsageError(msg("errors.ansible.group_shape", where=where, name=name))
    hosts = node.get("hosts") or {}
    if not isinstance(hosts, Mapping):
        raise UsageError(msg("errors.ansible.group_hosts", where=where, name=name))
    for pattern, variables in hosts.items():
        if variables is not None and not isinstance(variables, Mapping):
            raise UsageError(msg("errors.ansible.host_vars", where=where, pattern=pattern))
        b.add_host(str(pattern), name, variables or {})
    variables = node.get("vars") or {}
    if not isinstance(variables, Mapping):
        raise UsageError(msg("errors.ansible.group_vars", where=where, name=name))
    b.group(name).vars.update(variables)
    children = node.get("children") or {}
    if not isinstance(children, Mapping):
        raise UsageError(msg("errors.ansible.group_children", where=where, name=name))
    for child, sub in children.items():
        b.add_child(name, str(child))
        _walk_yaml(b, str(child), sub, where)


def read_builtin(path: str | Path) -> Model:
    """Read an INI or YAML inventory file (by content) the way Ansible would, without Ansible."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(msg("errors.ansible.directory", path=str(p)))
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
        raise UsageError(msg("errors.file.unreadable", path=str(p), reason=reason)) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if isinstance(data, Mapping) and all(isinstance(v, Mapping | None) for v in data.values()):
        b = _Builder()
        for name, node in data.items():
            _walk_yaml(b, str(name), node, str(p))
    else:
        b = _parse_ini(text, str(p))
    return b.finish(p.parent)


# ---- ansible-inventory ----------------------------------------------------------------------


def ansible_inventory() -> str | None:
    """The `ansible-inventory` program, when ansible-core is installed."""
    return shutil.which("ansible-inventory")


def read_with_ansible(path: str | Path, program: str) -> Model:
    """Run `ansible-inventory --list -i PATH` (no shell, a scratch temp dir) and read its JSON."""
    with tempfile.TemporaryDirectory(prefix="pitstop-ansible-") as scratch:
        env = {
            **os.environ,
            "ANSIBLE_INVENTORY_UNPARSED_FAILED": "True",
            "ANSIBLE_LOCAL_TEMP": scratch,
            "ANSIBLE_HOME": scratch,
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_RETRY_FILES_ENABLED": "False",
        }
        try:
            done = subprocess.run(
                [program, "--list", "-i", str(path)],
                capture_output=True,
                text=True,
                env=env,
                stdin=subprocess.DEVNULL,
                timeout=ANSIBLE_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise UsageError(
                msg("errors.ansible.timeout", seconds=ANSIBLE_TIMEOUT_S, path=str(path))
            ) from None
    if done.returncode != 0:
        last = [line for line in done.stderr.splitlines() if line.strip()][-3:]
        raise UsageError(msg("errors.ansible.failed", path=str(path), stderr=" ".join(last)[:400]))
    try:
        data = json.loads(done.stdout)
        hostvars = {str(h): dict(v) for h, v in data.get("_meta", {}).get("hostvars", {}).items()}
        groups = {
            str(g): (tuple(body.get("hosts", ())), tuple(body.get("children", ())))
            for g, body in data.items()
            if g != "_meta"
        }
    except (ValueError, AttributeError, TypeError):
        raise UsageError(msg("errors.ansible.not_inventory", path=str(path))) from None
    for hosts, _ in groups.values():
        for h in hosts:
            hostvars.setdefault(h, {})
    return Model(hostvars, groups, "ansible-inventory")


# ---- to Pitstop -----------------------------------------------------------------------------


def _last(variables: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    value = None
    for name in names:
        if variables.get(name) not in (None, ""):
            value = variables[name]
    return value


def _ssh_args(host: str, text: str, dropped: dict[tuple[str, ...], list[str]]) -> dict[str, Any]:
    """Fields from ssh options Pitstop understands; everything else is reported as dropped."""
    out: dict[str, Any] = {}
    try:
        words = shlex.split(text)
    except ValueError:
        dropped.setdefault(("ansible.unparsable_args", text[:40]), []).append(host)
        return out
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-J", "-o", "-i", "-p", "-l") and i + 1 < len(words):
            value, i = words[i + 1], i + 2
        elif word[:2] in ("-J", "-o", "-i", "-p", "-l") and len(word) > 2:
            value, word, i = word[2:], word[:2], i + 1
        else:
            dropped.setdefault(("ansible.ssh_option", word), []).append(host)
            i += 1
            continue
        if word == "-o":
            key, _, option = value.partition("=")
            word, value = {"proxyjump": "-J", "proxycommand": "proxycommand"}.get(key.lower(), key), option
        if word == "-J":
            out["jump"] = value
        elif word == "-i":
            out["identity_file"] = value
        elif word == "-p" and value.isdigit():
            out["port"] = int(value)
        elif word == "-l":
            out["user"] = value
        elif word == "proxycommand" and (m := _PROXY_W.match(value.strip())):
            out["jump"] = m.group(1)
            dropped.setdefault(("ansible.proxy_converted", value[:60], m.group(1)), []).append(host)
        elif word == "proxycommand":
            dropped.setdefault(("ansible.proxy_dropped", value[:60]), []).append(host)
        else:
            dropped.setdefault(("ansible.ssh_option", f"{word}={value[:40]}"), []).append(host)
    return out


_NOTE_FIELDS = {
    "ansible.unparsable_args": ("args",),
    "ansible.ssh_option": ("option",),
    "ansible.proxy_converted": ("command", "jump"),
    "ansible.proxy_dropped": ("command",),
    "ansible.template": ("name",),
    "ansible.variable": ("name",),
    "ansible.connection": ("connection",),
}


def _warning(note: tuple[str, ...], names: list[str]) -> Msg:
    key, *values = note
    hosts = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return msg(key, **dict(zip(_NOTE_FIELDS[key], values, strict=True)), count=len(names), hosts=hosts)


def to_pitstop(model: Model, source: str) -> Imported:
    """Pitstop inventory data for `model`, with a warning for each variable not carried over or converted."""
    hosts: dict[str, dict[str, Any]] = {}
    dropped: dict[tuple[str, ...], list[str]] = {}
    for name, all_vars in model.hostvars.items():
        templated = {k for k, v in all_vars.items() if isinstance(v, str) and "{{" in v}
        for key in templated:
            dropped.setdefault(("ansible.template", key), []).append(name)
        for key in sorted(set(all_vars) - _USED - templated):
            dropped.setdefault(("ansible.variable", key), []).append(name)
        variables = {k: v for k, v in all_vars.items() if k not in templated}
        fields: dict[str, Any] = {}
        for key in _SSH_ARGS:
            if variables.get(key):
                fields.update(_ssh_args(name, str(variables[key]), dropped))
        for target, names in (
            ("address", _ADDRESS),
            ("port", _PORT),
            ("user", _USER),
            ("identity_file", _KEY),
        ):
            value = _last(variables, names)
            if value is not None:
                fields[target] = int(value) if target == "port" and str(value).isdigit() else str(value)
        connection = str(variables.get("ansible_connection") or "ssh")
        if connection == "local":
            fields["transport"] = "local"
        elif connection not in ("ssh", "paramiko", "smart"):
            dropped.setdefault(("ansible.connection", connection), []).append(name)
        groups = list(model.group_names(name))
        if groups:
            fields["groups"] = groups
        hosts[name] = fields
    group_names = sorted({g for f in hosts.values() for g in f.get("groups", ())})
    warnings = tuple(_warning(note, sorted(names)) for note, names in sorted(dropped.items()))
    data = {
        "imported_from": f"{source} via {model.reader}",
        "hosts": hosts,
        "groups": {g: {} for g in group_names},
    }
    return Imported(data, warnings, model.reader)


def import_inventory(path: str | Path, use_ansible: bool | None = None) -> Imported:
    """Import an Ansible inventory: through ansible-inventory when installed (or asked), else built in."""
    program = ansible_inventory()
    if use_ansible and not program:
        raise UsageError(msg("errors.ansible.not_installed"))
    if not Path(path).exists():
        raise UsageError(msg("errors.file.missing", path=str(path)))

    if Path(path).is_file():  # binary is refused before either reader (ansible-inventory reads it as empty)
        read_text_file(Path(path), msg("security.what.ansible"))
    use = bool(program) if use_ansible is None else use_ansible
    model = read_with_ansible(path, program) if use and program else read_builtin(path)
    return to_pitstop(model, str(path))


def to_yaml(data: Mapping[str, Any]) -> str:
    """Pitstop inventory YAML text for imported data."""
    return yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True)
