"""Import an Ansible inventory (INI or YAML) as Pitstop inventory data.

Connection variables map to host fields (`ansible_host` -> address, `ansible_port` -> port,
`ansible_user` -> user, `ansible_ssh_private_key_file` -> identity_file, `-J`/ProxyJump in
`ansible_ssh_common_args` -> jump); Ansible groups become Pitstop groups. Numeric ranges
(`gpu[01:16]`) become host-list keys. Other variables are dropped.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from pitstop.core.errors import UsageError

_VARS = {
    "ansible_host": "address",
    "ansible_ssh_host": "address",
    "ansible_port": "port",
    "ansible_ssh_port": "port",
    "ansible_user": "user",
    "ansible_ssh_user": "user",
    "ansible_ssh_private_key_file": "identity_file",
}
_JUMP = re.compile(r"(?:-J\s*|ProxyJump=)(\S+)")
_ANSIBLE_RANGE = re.compile(r"\[(\d+):(\d+)(?::\d+)?\]")
_SKIP_GROUPS = {"all", "ungrouped"}


def _fields(variables: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in variables.items():
        if key in _VARS:
            out[_VARS[key]] = int(value) if _VARS[key] == "port" else str(value)
        elif key == "ansible_ssh_common_args" and (m := _JUMP.search(str(value))):
            out["jump"] = m.group(1).strip("'\"")
    return out


def _host_key(pattern: str) -> str:
    """`gpu[01:16]` -> `gpu[01-16]`; alphabetic ranges are refused."""
    if re.search(r"\[[a-z]:[a-z]\]", pattern):
        raise UsageError(f"Ansible alphabetic range {pattern!r} is not supported; list the hosts")
    return _ANSIBLE_RANGE.sub(lambda m: f"[{m.group(1)}-{m.group(2)}]", pattern)


class _Builder:
    def __init__(self) -> None:
        self.hosts: dict[str, dict[str, Any]] = {}
        self.group_vars: dict[str, dict[str, Any]] = {}
        self.children: dict[str, list[str]] = {}
        self.members: dict[str, list[str]] = {}

    def add_host(self, name: str, group: str | None, variables: Mapping[str, Any]) -> None:
        key = _host_key(name)
        host = self.hosts.setdefault(key, {})
        host.update(_fields(variables))
        if group and group not in _SKIP_GROUPS:
            self.members.setdefault(group, []).append(key)

    def result(self) -> dict[str, Any]:
        """Pitstop inventory data: group vars and child groups flattened onto hosts."""

        def descendants(group: str, seen: frozenset[str] = frozenset()) -> list[str]:
            out = list(self.members.get(group, []))
            for child in self.children.get(group, []):
                if child not in seen:
                    out += descendants(child, seen | {group})
            return out

        groups = sorted((set(self.members) | set(self.children)) - _SKIP_GROUPS)
        for group in ["all", *groups]:
            members = list(self.hosts) if group == "all" else descendants(group)
            for key in dict.fromkeys(members):
                host = self.hosts[key]
                for field, value in _fields(self.group_vars.get(group, {})).items():
                    host.setdefault(field, value)
                if group != "all":
                    host.setdefault("groups", [])
                    if group not in host["groups"]:
                        host["groups"].append(group)
        return {"hosts": self.hosts, "groups": {g: {} for g in groups}}


def _parse_ini(text: str) -> dict[str, Any]:
    b = _Builder()
    section, kind = "ungrouped", "hosts"
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            name, _, suffix = line[1:-1].partition(":")
            section, kind = name, suffix or "hosts"
            if kind == "children":
                b.children.setdefault(section, [])
            continue
        if kind == "vars":
            key, _, value = line.partition("=")
            b.group_vars.setdefault(section, {})[key.strip()] = value.strip().strip("'\"")
        elif kind == "children":
            b.children[section].append(line.split()[0])
        else:
            parts = shlex.split(line)
            b.add_host(parts[0], section, dict(p.split("=", 1) for p in parts[1:] if "=" in p))
    return b.result()


def _walk_yaml(b: _Builder, name: str, node: Mapping[str, Any]) -> None:
    for host, variables in (node.get("hosts") or {}).items():
        b.add_host(str(host), name, variables or {})
    b.group_vars.setdefault(name, {}).update(node.get("vars") or {})
    for child, sub in (node.get("children") or {}).items():
        b.children.setdefault(name, []).append(str(child))
        _walk_yaml(b, str(child), sub or {})


def _parse_yaml(data: Mapping[str, Any]) -> dict[str, Any]:
    b = _Builder()
    for name, node in data.items():
        _walk_yaml(b, str(name), node or {})
    return b.result()


def import_inventory(path: str | Path) -> dict[str, Any]:
    """Read an Ansible inventory file (YAML or INI, by content) and return Pitstop inventory data."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {p}: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if isinstance(data, Mapping) and all(isinstance(v, Mapping | None) for v in data.values()):
        return _parse_yaml(data)
    return _parse_ini(text)


def to_yaml(data: Mapping[str, Any]) -> str:
    """Pitstop inventory YAML text for imported data."""
    return yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True)
