"""The inventory: which hosts exist, how to reach them, and what hardware they are expected to have.

Format (YAML; see docs/COLLECTORS.md)::

    known_hosts: ~/.ssh/known_hosts      # checked strictly, never written
    ssh_config: ~/.ssh/config            # `false` to ignore it
    connect_timeout: 10
    defaults: {user: ops, port: 22, identity_file: ~/.ssh/id_ed25519, jump: bastion, sudo: []}
    groups:
      h100: {expect: {gpu_model: H100, gpu_count: 8, form_factor: SXM5, driver_branch: "535"},
             sudo: [ipmi_sel]}
    hosts:
      bastion: {address: 10.0.0.1, jump: none}
      gpu01: {address: 10.0.1.1, groups: [h100], expect: {nvlink_count: 18}}
      "gpu[02-16]": {groups: [h100]}   # a host-list key declares many hosts at once

Hosts not fully specified take HostName, Port, User, IdentityFile and ProxyJump from `~/.ssh/config`.
`localhost` is always known and runs through the local transport.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from pitstop.collectors import catalog, hostlist, sshconfig
from pitstop.core.errors import NotFound, UsageError

LOCAL = "localhost"
DEFAULT_MAX_HOSTS = 1024
_GROUP_KEYS = {"expect", "sudo", "hosts"}
_HOST_KEYS = {
    "name",
    "address",
    "port",
    "user",
    "jump",
    "groups",
    "tags",
    "identity_file",
    "expect",
    "sudo",
    "transport",
}


@dataclass(frozen=True)
class Host:
    """One inventory host, with everything needed to reach it and judge it."""

    name: str
    address: str
    port: int = 22
    user: str | None = None
    jump: str | None = None
    groups: tuple[str, ...] = ()
    identity_files: tuple[str, ...] = ()
    expect: Mapping[str, Any] = field(default_factory=dict)
    sudo: frozenset[str] = frozenset()
    transport: str = "ssh"  # "ssh" | "local"

    @property
    def is_local(self) -> bool:
        """True when commands run on this machine without SSH."""
        return self.transport == "local"


@dataclass(frozen=True)
class Inventory:
    """Hosts by name, groups by name, and the SSH settings shared by all hosts."""

    hosts: Mapping[str, Host]
    groups: Mapping[str, tuple[str, ...]]
    known_hosts: str | None = None
    connect_timeout: float = 10.0
    source: str = "<memory>"

    def get(self, name: str) -> Host:
        """The host called `name`; unknown names raise NotFound with close matches."""
        if name in self.hosts:
            return self.hosts[name]
        if name == LOCAL:
            return Host(LOCAL, "127.0.0.1", transport="local")
        raise NotFound(_unknown_message(name, list(self.hosts) + list(self.groups)))

    def jump_host(self, host: Host) -> Host | None:
        """Resolve `host.jump` to a Host: an inventory name, or `[user@]addr[:port]`."""
        spec = host.jump
        if not spec or spec.lower() == "none":
            return None
        if spec in self.hosts:
            return self.hosts[spec]
        user, _, rest = spec.rpartition("@")
        addr, _, port = rest.partition(":")
        if not addr or (port and not port.isdigit()):
            raise UsageError(f"host {host.name}: bad jump host {spec!r}")
        return Host(name=spec, address=addr, port=int(port or 22), user=user or None)

    def select(self, expr: str, max_hosts: int = DEFAULT_MAX_HOSTS) -> tuple[Host, ...]:
        """Hosts named by an expression of names, groups (`@g` or bare) and ranges; at most `max_hosts`."""
        terms = hostlist.split_terms(expr)
        if not terms:
            raise UsageError("no hosts given")
        sizes = [
            len(self.groups[self._group_name(t)]) if self._group_name(t) else hostlist.count(t) for t in terms
        ]
        if sum(sizes) > max_hosts:
            raise UsageError(f"{expr[:60]!r} expands to {sum(sizes)} hosts; the limit is {max_hosts}")
        names: dict[str, None] = {}
        for term in terms:
            group = self._group_name(term)
            if term.startswith("@") and not group:
                raise NotFound(_unknown_message(term[1:], list(self.groups), kind="group"))
            names.update(dict.fromkeys(self.groups[group] if group else hostlist.expand_term(term)))
        unknown = [n for n in names if n not in self.hosts and n != LOCAL]
        if unknown:
            known = list(self.hosts) + list(self.groups)
            raise NotFound(_unknown_message(unknown[0], known, more=unknown[1:]))
        return tuple(self.get(n) for n in names)

    def _group_name(self, term: str) -> str | None:
        name = term[1:] if term.startswith("@") else term
        if name in self.groups and (term.startswith("@") or term not in self.hosts):
            return name
        return None


def _unknown_message(name: str, known: list[str], kind: str = "host", more: Iterable[str] = ()) -> str:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    extra = list(more)
    msg = f"unknown {kind} {name!r}"
    if extra:
        msg += f" (and {len(extra)} more: {', '.join(extra[:3])}{'...' if len(extra) > 3 else ''})"
    msg += " in the inventory"
    if close:
        msg += f"; did you mean {', '.join(close)}?"
    return msg


def _as_tuple(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def _host_entries(raw: Any) -> list[tuple[str, dict[str, Any]]]:
    """Accept `hosts:` as a mapping name -> fields or a list of mappings with `name`."""
    if raw is None:
        return []
    if isinstance(raw, Mapping):
        return [(str(k), dict(v or {})) for k, v in raw.items()]
    if isinstance(raw, list) and all(isinstance(h, Mapping) and "name" in h for h in raw):
        return [(str(h["name"]), dict(h)) for h in raw]
    raise UsageError("inventory: `hosts` must be a mapping of name -> settings or a list with `name`")


def build(data: Mapping[str, Any], source: str = "<memory>", ssh_blocks: tuple | None = None) -> Inventory:
    """Build an Inventory from parsed YAML data (see the module docstring for the format)."""
    if not isinstance(data, Mapping):
        raise UsageError(f"{source}: an inventory is a YAML mapping with a `hosts` key")
    defaults = dict(data.get("defaults") or {})
    groups_raw = {str(k): dict(v or {}) for k, v in (data.get("groups") or {}).items()}
    if ssh_blocks is None:
        cfg = data.get("ssh_config", None)
        ssh_blocks = () if cfg is False else sshconfig.load(cfg)
    for g, spec in groups_raw.items():
        bad = set(spec) - _GROUP_KEYS
        if bad:
            raise UsageError(f"{source}: group {g!r}: unknown field(s) {', '.join(sorted(bad))}")
    members: dict[str, list[str]] = {g: [] for g in groups_raw}
    hosts: dict[str, Host] = {}
    for key, fields in _host_entries(data.get("hosts")):
        bad = set(fields) - _HOST_KEYS
        if bad:
            raise UsageError(f"{source}: host {key!r}: unknown field(s) {', '.join(sorted(bad))}")
        names = hostlist.expand(key, max_hosts=100_000)
        if len(names) > 1 and fields.get("address"):
            raise UsageError(f"{source}: host range {key!r} cannot share one address; list the hosts")
        for name in names:
            host = _make_host(name, fields, defaults, groups_raw, ssh_blocks)
            hosts[name] = host
            for g in host.groups:
                members.setdefault(g, []).append(name)
    for g, spec in groups_raw.items():
        for name in (n for t in _as_tuple(spec.get("hosts")) for n in hostlist.expand(t, 100_000)):
            if name not in hosts:
                raise UsageError(f"{source}: group {g!r} lists unknown host {name!r}")
            if name not in members[g]:
                members[g].append(name)
                hosts[name] = _with_group(hosts[name], g, groups_raw)
    for host in hosts.values():
        allowed = {c.name for c in catalog.CATALOG if c.sudo_allowed}
        wrong = sorted(host.sudo - allowed)
        if wrong:
            raise UsageError(
                f"{source}: host {host.name!r}: sudo is not allowed for {', '.join(wrong)} "
                "(only catalog collectors declared sudo_allowed)"
            )
    timeout = float(data.get("connect_timeout", 10))
    known = data.get("known_hosts")
    return Inventory(
        hosts=hosts,
        groups={g: tuple(m) for g, m in members.items()},
        known_hosts=str(Path(str(known)).expanduser()) if known else None,
        connect_timeout=timeout,
        source=source,
    )


def _merged_expect(groups: tuple[str, ...], defaults: Mapping, groups_raw: Mapping, own: Mapping) -> dict:
    expect = dict(defaults.get("expect") or {})
    for g in groups:
        expect.update(groups_raw.get(g, {}).get("expect") or {})
    expect.update(own or {})
    return expect


def _merged_sudo(groups: tuple[str, ...], defaults: Mapping, groups_raw: Mapping, own: Any) -> frozenset[str]:
    names = set(_as_tuple(defaults.get("sudo"))) | set(_as_tuple(own))
    for g in groups:
        names |= set(_as_tuple(groups_raw.get(g, {}).get("sudo")))
    return frozenset(names)


def _with_group(host: Host, group: str, groups_raw: Mapping) -> Host:
    groups = host.groups + (group,)
    return replace(
        host,
        groups=groups,
        expect={**_merged_expect((group,), {}, groups_raw, {}), **host.expect},
        sudo=host.sudo | _merged_sudo((group,), {}, groups_raw, ()),
    )


def _make_host(
    name: str, fields: Mapping[str, Any], defaults: Mapping[str, Any], groups_raw: Mapping, ssh_blocks: tuple
) -> Host:
    cfg = sshconfig.lookup(name, ssh_blocks)
    groups = _as_tuple(fields.get("groups")) + _as_tuple(fields.get("tags"))
    identity = _as_tuple(fields.get("identity_file") or defaults.get("identity_file"))
    port = fields.get("port") or cfg.port or defaults.get("port") or 22
    try:
        port = int(port)
    except (TypeError, ValueError):
        raise UsageError(f"host {name!r}: port {port!r} is not a number") from None
    transport = str(fields.get("transport") or ("local" if name == LOCAL else "ssh"))
    if transport not in ("ssh", "local"):
        raise UsageError(f"host {name!r}: transport must be ssh or local, not {transport!r}")
    return Host(
        name=name,
        address=str(fields.get("address") or cfg.hostname or name),
        port=port,
        user=fields.get("user") or cfg.user or defaults.get("user"),
        jump=fields.get("jump") or cfg.proxy_jump or defaults.get("jump"),
        groups=groups,
        identity_files=tuple(str(Path(p).expanduser()) for p in identity) or cfg.identity_files,
        expect=_merged_expect(groups, defaults, groups_raw, fields.get("expect") or {}),
        sudo=_merged_sudo(groups, defaults, groups_raw, fields.get("sudo")),
        transport=transport,
    )


def load(path: str | os.PathLike[str] | None) -> Inventory:
    """Load an inventory file; None gives an inventory that knows only `localhost`."""
    if path is None:
        return build({"hosts": {}, "ssh_config": False}, source="<none>")
    p = Path(path).expanduser()
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read inventory {p}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise UsageError(f"inventory {p} is not valid YAML: {exc}") from None
    return build(data or {}, source=str(p))
