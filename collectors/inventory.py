"""The inventory: which hosts exist, how to reach them, and what hardware they are expected to have.

Format (YAML; see docs/COLLECTORS.md)::

    known_hosts: ~/.ssh/known_hosts      # replaces UserKnownHostsFile; checked strictly, never written
    ssh_config: ~/.ssh/config            # a file or list (like `ssh -F`); `false` to ignore ssh config
    ssh_config_hosts: true               # concrete `Host` aliases of the ssh config are hosts too
    connect_timeout: 10
    slurm: {controller: login01, timezone: UTC}  # where `diagnose --job` runs scontrol and sacct
    defaults: {user: ops, port: 22, identity_file: ~/.ssh/id_ed25519, jump: bastion, sudo: []}
    groups:
      h100: {expect: {gpu_model: H100, gpu_count: 8, form_factor: SXM5, driver_branch: "535"},
             sudo: [ipmi_sel]}
    hosts:
      bastion: {address: 10.0.0.1, jump: none}
      gpu01: {address: 10.0.1.1, groups: [h100], expect: {nvlink_count: 18}}
      "gpu[02-16]": {groups: [h100]}   # a host-list key declares many hosts at once

Every host is resolved through the ssh config as `ssh` would resolve it (collectors/sshconfig.py),
with the host's own fields as overrides on top and `defaults` below the config.
`localhost` is always known and runs through the local transport.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pitstop.collectors import catalog, hostlist
from pitstop.collectors.sshconfig import DEFAULT_GLOBAL_KNOWN_HOSTS, DEFAULT_USER_KNOWN_HOSTS, SshConfig
from pitstop.core import yamlio
from pitstop.core.errors import BadFile, NotFound, UsageError
from pitstop.core.i18n import Msg, msg

LOCAL = "localhost"
DEFAULT_MAX_HOSTS = 1024
CONFIG_GROUP = "ssh_config"  # the group of hosts that exist only in the ssh config
MAX_HOPS = 8
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
    proxy_command: str | None = None  # from the ssh config; run only when local commands are allowed
    user_known_hosts: tuple[str, ...] = ()  # empty: ~/.ssh/known_hosts{,2}
    global_known_hosts: tuple[str, ...] = ()  # empty: /etc/ssh/ssh_known_hosts{,2}
    origins: Mapping[str, str] = field(default_factory=dict)  # field -> where its value came from
    notes: tuple[Msg, ...] = ()  # what was skipped while resolving (Match exec)

    @property
    def is_local(self) -> bool:
        """True when commands run on this machine without SSH."""
        return self.transport == "local"


@dataclass(frozen=True)
class SlurmSettings:
    """The inventory's `slurm:` block: the controller or login host that answers scontrol and sacct,
    and the time zone Slurm prints its times in (it prints none)."""

    controller: str
    timezone: str = "UTC"


def _slurm(raw: Any, source: str) -> SlurmSettings | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not raw.get("controller") or set(raw) - {"controller", "timezone"}:
        raise UsageError(msg("errors.inventory.slurm_shape", source=source))
    zone = str(raw.get("timezone") or "UTC")
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(msg("errors.inventory.slurm_zone", source=source, zone=zone)) from None
    return SlurmSettings(str(raw["controller"]), zone)


@dataclass(frozen=True)
class Inventory:
    """Hosts by name, groups by name, and the SSH settings shared by all hosts."""

    hosts: Mapping[str, Host]
    groups: Mapping[str, tuple[str, ...]]
    known_hosts: str | None = None
    connect_timeout: float = 10.0
    source: str = "<memory>"
    ssh: SshConfig | None = None
    slurm: SlurmSettings | None = None  # where `diagnose --job` asks Slurm

    @property
    def allow_local_commands(self) -> bool:
        """True when the admin lets ssh config run local commands (Match exec, ProxyCommand)."""
        return bool(self.ssh and self.ssh.allow_local_commands)

    def get(self, name: str) -> Host:
        """The host called `name`; unknown names raise NotFound with close matches."""
        if name in self.hosts:
            return self.hosts[name]
        if name == LOCAL:
            return Host(LOCAL, "127.0.0.1", transport="local")
        raise NotFound(_unknown_message(name, list(self.hosts) + list(self.groups)))

    def known_hosts_files(self, host: Host) -> tuple[str, ...]:
        """The known_hosts files checked for `host`: user files (the inventory's `known_hosts` replaces
        them, like `-o UserKnownHostsFile`), then the global ones."""
        user = (
            (self.known_hosts,)
            if self.known_hosts
            else host.user_known_hosts or tuple(os.path.expanduser(p) for p in DEFAULT_USER_KNOWN_HOSTS)
        )
        return user + (host.global_known_hosts or DEFAULT_GLOBAL_KNOWN_HOSTS)

    def jump_host(self, host: Host) -> Host | None:
        """The last hop of `host.jump`, whose own `jump` holds the hops before it (as `ssh -J`).

        A hop is an inventory name, else `[user@]alias[:port]` resolved through the ssh config.
        """
        hops = [h.strip() for h in (host.jump or "").split(",") if h.strip()]
        if not hops or hops == ["none"]:
            return None
        if len(hops) > MAX_HOPS:
            raise UsageError(
                msg("errors.inventory.jump_many", host=host.name, limit=MAX_HOPS, jump=host.jump)
            )
        last, before = hops[-1], ",".join(hops[:-1]) or None
        if last in self.hosts:
            hop = self.hosts[last]
        else:
            user, _, rest = last.rpartition("@")
            addr, _, port = rest.partition(":")
            if not addr or (port and not port.isdigit()) or "/" in addr:
                raise UsageError(msg("errors.inventory.jump_bad", host=host.name, hop=last))
            fields = {"user": user or None, "port": int(port) if port else None}
            hop = _resolve_host(last, addr, fields, {}, self.ssh)
        return replace(hop, jump=before) if before else hop

    def jump_chain(self, host: Host) -> tuple[Host, ...]:
        """Every hop from the first to the last before `host`; loops and over-long chains raise."""
        chain: list[Host] = []
        hop = self.jump_host(host)
        while hop is not None:
            if len(chain) >= MAX_HOPS or any(h.name == hop.name and h.jump == hop.jump for h in chain):
                raise UsageError(msg("errors.inventory.jump_loop", host=host.name, limit=MAX_HOPS))
            chain.insert(0, hop)
            hop = self.jump_host(hop)
        return tuple(chain)

    def select(self, expr: str, max_hosts: int = DEFAULT_MAX_HOSTS) -> tuple[Host, ...]:
        """Hosts named by an expression of names, groups (`@g` or bare) and ranges; at most `max_hosts`."""
        terms = hostlist.split_terms(expr)
        if not terms:
            raise UsageError(msg("errors.hostlist.empty"))
        sizes = [len(self.groups[g]) if (g := self._group_name(t)) else hostlist.count(t) for t in terms]
        if sum(sizes) > max_hosts:
            raise UsageError(
                msg("errors.hostlist.too_many", expr=repr(expr[:60]), n=sum(sizes), limit=max_hosts)
            )
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


def _unknown_message(name: str, known: list[str], kind: str = "host", more: Iterable[str] = ()) -> Msg:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    extra = list(more)
    what = msg(f"errors.inventory.kind.{kind}")
    if extra:
        listed = ", ".join(extra[:3]) + ("..." if len(extra) > 3 else "")
        unknown = msg("errors.inventory.unknown_more", kind=what, name=repr(name), n=len(extra), more=listed)
    else:
        unknown = msg("errors.inventory.unknown", kind=what, name=repr(name))
    return msg("errors.inventory.did_you_mean", unknown=unknown, close=", ".join(close)) if close else unknown


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
    raise UsageError(msg("errors.inventory.hosts_shape"))


def _ssh_config(data: Mapping[str, Any], source: str, allow_local_commands: bool) -> SshConfig | None:
    cfg = data.get("ssh_config", None)
    if cfg is False:
        return None
    if cfg is None:
        return SshConfig.default(allow_local_commands)
    paths = [cfg] if isinstance(cfg, str) else cfg
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise UsageError(msg("errors.inventory.ssh_config_shape", source=source))
    return SshConfig.from_paths(paths, allow_local_commands)


def build(
    data: Mapping[str, Any],
    source: str = "<memory>",
    ssh: SshConfig | None = None,
    allow_local_commands: bool = False,
) -> Inventory:
    """Build an Inventory from parsed YAML data (see the module docstring for the format).

    `ssh` replaces the data's `ssh_config` setting; `allow_local_commands` lets that config run
    `Match exec` and `ProxyCommand`.
    """
    if not isinstance(data, Mapping):
        raise UsageError(msg("errors.inventory.not_mapping", source=source))
    _check_shapes(data, source)
    defaults = dict(data.get("defaults") or {})
    groups_raw = {str(k): dict(v or {}) for k, v in (data.get("groups") or {}).items()}
    if ssh is None:
        ssh = _ssh_config(data, source, allow_local_commands)
    label = f"imported: {data['imported_from']}" if data.get("imported_from") else "inventory"
    for g, spec in groups_raw.items():
        bad = set(spec) - _GROUP_KEYS
        if bad:
            raise UsageError(
                msg("errors.inventory.group_fields", source=source, group=g, fields=", ".join(sorted(bad)))
            )
    members: dict[str, list[str]] = {g: [] for g in groups_raw}
    entries = _host_entries(data.get("hosts"))
    if ssh is not None and data.get("ssh_config_hosts", True):
        declared = {n for key, _ in entries for n in hostlist.expand(key, max_hosts=100_000)}
        entries += [(a, {"groups": [CONFIG_GROUP]}) for a in ssh.concrete_hosts() if a not in declared]
    hosts: dict[str, Host] = {}
    for key, fields in entries:
        bad = set(fields) - _HOST_KEYS
        if bad:
            raise UsageError(
                msg("errors.inventory.host_fields", source=source, host=key, fields=", ".join(sorted(bad)))
            )
        names = hostlist.expand(key, max_hosts=100_000)
        if len(names) > 1 and fields.get("address"):
            raise UsageError(msg("errors.inventory.range_address", source=source, range=key))
        for name in names:
            host = _make_host(name, fields, defaults, groups_raw, ssh, label)
            hosts[name] = host
            for g in host.groups:
                members.setdefault(g, []).append(name)
    for g, spec in groups_raw.items():
        for name in (n for t in _as_tuple(spec.get("hosts")) for n in hostlist.expand(t, 100_000)):
            if name not in hosts:
                raise UsageError(
                    msg("errors.inventory.group_unknown_host", source=source, group=g, host=name)
                )
            if name not in members[g]:
                members[g].append(name)
                hosts[name] = _with_group(hosts[name], g, groups_raw)
    for host in hosts.values():
        allowed = {c.name for c in catalog.CATALOG if c.sudo_allowed}
        wrong = sorted(host.sudo - allowed)
        if wrong:
            raise UsageError(
                msg("errors.inventory.sudo", source=source, host=host.name, collectors=", ".join(wrong))
            )
    timeout = float(data.get("connect_timeout", 10))
    known = data.get("known_hosts")
    return Inventory(
        hosts=hosts,
        groups={g: tuple(m) for g, m in members.items()},
        known_hosts=str(Path(str(known)).expanduser()) if known else None,
        connect_timeout=timeout,
        source=source,
        ssh=ssh,
        slurm=_slurm(data.get("slurm"), source),
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


def _port(name: str, value: Any) -> int | None:
    if value is None or value == "":
        return None
    try:
        port = int(value)
    except (TypeError, ValueError):
        raise UsageError(msg("errors.inventory.port_nan", host=name, port=value)) from None
    if not 0 < port < 65536:
        raise UsageError(msg("errors.inventory.port_range", host=name, port=port))
    return port


def _resolve_host(
    name: str,
    alias: str,
    fields: Mapping[str, Any],
    defaults: Mapping[str, Any],
    ssh: SshConfig | None,
    label: str = "inventory",
) -> Host:
    """Connection parameters of `name`: its own fields over the ssh config (for `alias`) over defaults."""
    own_port, own_user = _port(name, fields.get("port")), fields.get("user") or None
    address = fields.get("address")
    r = (
        ssh.resolve(alias, user=own_user, port=own_port, hostname=str(address) if address else None)
        if ssh
        else None
    )
    where = {k: f"ssh config {v}" for k, v in (r.origins if r else {}).items()}
    origins: dict[str, str] = {}

    def pick(key: str, own: Any, cfg_key: str, from_cfg: Any, default: Any, fallback: Any) -> Any:
        if own not in (None, "", ()):
            origins[key] = label
            return own
        if cfg_key in where:
            origins[key] = where[cfg_key]
            return from_cfg
        if default not in (None, "", ()):
            origins[key] = "inventory defaults"
            return default
        origins[key] = "default"
        return fallback

    own_ids = tuple(str(Path(p).expanduser()) for p in _as_tuple(fields.get("identity_file")))
    default_ids = tuple(str(Path(p).expanduser()) for p in _as_tuple(defaults.get("identity_file")))
    jump = pick(
        "jump",
        fields.get("jump"),
        "proxyjump",
        ",".join(r.proxy_jump) if r and r.proxy_jump else "none",
        defaults.get("jump"),
        None,
    )
    command = r.proxy_command if r and "proxycommand" in where and origins["jump"] == "default" else None
    if command:
        origins["proxy_command"] = where["proxycommand"]
    host = Host(
        name=name,
        address=str(pick("address", address, "hostname", r and r.hostname, None, alias)),
        port=int(pick("port", own_port, "port", r and r.port, _port(name, defaults.get("port")), 22)),
        user=pick("user", own_user, "user", r and r.user, defaults.get("user"), None),
        jump=None if jump == "none" else jump,
        identity_files=pick(
            "identity_files",
            own_ids,
            "identityfile",
            r and r.identity_files,
            default_ids,
            (),
        ),
        proxy_command=command,
        user_known_hosts=r.user_known_hosts if r else (),
        global_known_hosts=r.global_known_hosts if r else (),
        notes=r.notes if r else (),
    )
    for key, cfg_key in (
        ("user_known_hosts", "userknownhostsfile"),
        ("global_known_hosts", "globalknownhostsfile"),
    ):
        origins[key] = where.get(cfg_key, "default")
    return replace(host, origins=origins)


def _make_host(
    name: str,
    fields: Mapping[str, Any],
    defaults: Mapping[str, Any],
    groups_raw: Mapping,
    ssh: SshConfig | None,
    label: str = "inventory",
) -> Host:
    groups = _as_tuple(fields.get("groups")) + _as_tuple(fields.get("tags"))
    transport = str(fields.get("transport") or ("local" if name == LOCAL else "ssh"))
    if transport not in ("ssh", "local"):
        raise UsageError(msg("errors.inventory.transport", host=name, transport=transport))
    return replace(
        _resolve_host(name, name, fields, defaults, ssh, label),
        groups=groups,
        expect=_merged_expect(groups, defaults, groups_raw, fields.get("expect") or {}),
        sudo=_merged_sudo(groups, defaults, groups_raw, fields.get("sudo")),
        transport=transport,
    )


def load(path: str | os.PathLike[str] | None, allow_local_commands: bool | None = None) -> Inventory:
    """Load an inventory file; None gives an inventory that knows only `localhost`.

    `allow_local_commands` defaults to the `PITSTOP_SSH_LOCAL_COMMANDS` setting.
    """
    if path is None:
        return build({"hosts": {}, "ssh_config": False}, source="<none>")
    if allow_local_commands is None:
        from pitstop.core.config import load_settings

        allow_local_commands = load_settings().ssh_local_commands
    p = Path(path).expanduser()
    data = yamlio.load_yaml_file(p, msg("security.what.inventory"), owned=True)
    try:
        return build(data or {}, source=str(p), allow_local_commands=allow_local_commands)
    except BadFile:
        raise
    except UsageError as exc:  # a file that has the wrong shape: exit 5, like an unreadable one
        raise BadFile(exc.message) from None


def _check_shapes(data: Mapping[str, Any], source: str) -> None:
    """Refuse the wrong YAML shapes with the field's name, before anything indexes into them."""

    def mapping(value: Any, where: str) -> None:
        if value is not None and not isinstance(value, Mapping):
            raise UsageError(
                msg("security.inventory.mapping", source=source, field=where, shape=_shape(value))
            )

    mapping(data.get("defaults"), "defaults")
    mapping((data.get("defaults") or {}).get("expect"), "defaults.expect")
    mapping(data.get("groups"), "groups")
    for name, spec in (data.get("groups") or {}).items():
        mapping(spec, f"groups.{name}")
        mapping((spec or {}).get("expect"), f"groups.{name}.expect")
    hosts = data.get("hosts")
    for name, spec in hosts.items() if isinstance(hosts, Mapping) else ():
        mapping(spec, f"hosts.{name}")
        mapping((spec or {}).get("expect"), f"hosts.{name}.expect")
    timeout = data.get("connect_timeout", 10)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 3600:
        raise UsageError(msg("security.inventory.timeout", source=source, value=repr(timeout)[:40]))


def _shape(value: Any) -> Msg:
    kind = {list: "list", str: "string", int: "number", float: "number", bool: "number"}.get(
        type(value), "other"
    )
    return msg(f"security.shape.{kind}")
