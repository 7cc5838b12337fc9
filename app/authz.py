"""Authorization: who may run read-only collectors on which hosts, how often, and how many at once.

Knowledge-base answers are open to everyone; running collectors is refused until a policy file
(`$PITSTOP_POLICY`, YAML) allows it::

    max_hosts: 64                    # one request may expand to at most this many hosts
    rate_limit:
      burst: 5                       # requests a user may make back to back (token bucket) ...
      per_minute: 2                  # ... refilled at this rate, in this process
      hosts_per_hour: 500            # host checks per user per hour, counted when allowed (database)
    groups:                          # named user sets, usable in `user_groups`
      gpu-oncall: [U0123ABCD, alice]
    rules:
      - name: oncall
        user_groups: [gpu-oncall, S0456EFGH]   # policy groups or Slack user-group ids
        inventory_groups: [gpu-nodes]          # `*` would do too: it never matches the Pitstop host
      - name: a100-channel
        channels: [C0789IJKL]                  # anyone in this channel ...
        inventory_groups: [a100]               # ... on hosts of this inventory group
      - name: operators
        origins: [console, cli]                # default: slack, console and cli
        users: [alice]
        hosts: ["gpu[01-16]", "dgx-*"]         # names, host-list ranges, shell-style globs

A request is allowed when every host it names is granted by some rule that matches the requester
(user or group, channel and origin all as listed). Every refusal is a sentence for the person and
a log line for the operator.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Protocol

from pitstop.collectors import hostlist
from pitstop.collectors.audit import take_host_checks
from pitstop.core import yamlio
from pitstop.core.db import open_db
from pitstop.core.errors import BadFile, PitstopError, UsageError
from pitstop.core.i18n import Msg, msg
from pitstop.core.redact import redact

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())  # the CLI prints the refusal itself; services configure real handlers

ORIGINS = ("slack", "console", "cli")
DEFAULT_MAX_HOSTS = 64
NO_POLICY = Msg("errors.authz.no_policy")
_TOP_KEYS = {"max_hosts", "rate_limit", "groups", "rules"}
_RULE_KEYS = {"name", "users", "user_groups", "channels", "origins", "hosts", "inventory_groups"}
_RATE_KEYS = {"burst", "per_minute", "hosts_per_hour"}


class HostLike(Protocol):
    """What authorization needs of an inventory host (read-only, as `Host` is frozen)."""

    @property
    def name(self) -> str:
        """The inventory name."""
        ...

    @property
    def groups(self) -> tuple[str, ...]:
        """The inventory groups it belongs to."""
        ...


@dataclass(frozen=True)
class Decision:
    """The answer to one request: allowed or not, and a sentence saying why."""

    allowed: bool
    reason: Msg  # rendered in the reader's language; str() gives English

    rule: str | None = None
    retry_after_s: float | None = None


@dataclass(frozen=True)
class RateLimit:
    """Per-user limits on running collectors (0 switches a limit off)."""

    burst: int = 5
    per_minute: float = 2.0
    hosts_per_hour: int = 500


@dataclass(frozen=True)
class Rule:
    """Who (users, groups, channels, origins) may check where (host patterns, inventory groups)."""

    name: str
    users: frozenset[str] = frozenset()
    user_groups: frozenset[str] = frozenset()
    channels: frozenset[str] = frozenset()
    origins: frozenset[str] = frozenset(ORIGINS)
    host_names: frozenset[str] = frozenset()
    host_globs: tuple[str, ...] = ()
    inventory_groups: frozenset[str] = frozenset()

    def matches(self, user: str, groups: frozenset[str], channel: str | None, origin: str) -> bool:
        """True when the requester is one this rule speaks about."""
        if origin not in self.origins:
            return False
        if self.channels and channel not in self.channels:
            return False
        if self.users or self.user_groups:
            return user in self.users or "*" in self.users or bool(groups & self.user_groups)
        return True

    def grants(self, host: HostLike) -> bool:
        """True when this rule covers `host`. The Pitstop host itself (localhost, 127.0.0.1, ::1, this
        machine's name and interface addresses, names /etc/hosts gives them, in any spelling; the
        `local` transport) is covered only when the rule names it: never by a glob such as `*` or by
        an inventory group."""
        if host.name in self.host_names:
            return True
        if is_pitstop_host(host):
            return False
        return bool(self.inventory_groups & set(host.groups)) or any(
            fnmatch.fnmatchcase(host.name, g) for g in self.host_globs
        )


_SELF_ADDRESSES = frozenset(
    {"localhost", "localhost.localdomain", "127.0.0.1", "127.0.1.1", "::1", "0.0.0.0", "::"}
)
HOSTS_FILE = Path("/etc/hosts")
FIB_TRIE = Path("/proc/net/fib_trie")  # Linux: the local IPv4 addresses are its `/32 host LOCAL` routes
IF_INET6 = Path("/proc/net/if_inet6")  # Linux: every interface's IPv6 addresses, 32 hex digits first
_HEX128 = re.compile(r"[0-9a-f]{32}")


def _spelling(name: str) -> str:
    """One spelling of a host name or address: lowercase without brackets, zone or trailing dot; a
    numeric address as the resolver reads it (127.1, 0x7f.0.0.1, 2130706433 -> 127.0.0.1), an
    IPv4-mapped IPv6 address as its IPv4 address."""
    text = name.strip().strip("[]").split("%", 1)[0].rstrip(".").lower()
    try:
        found = socket.getaddrinfo(text, None, flags=socket.AI_NUMERICHOST)
    except (OSError, UnicodeError, ValueError):
        return text
    address = ipaddress.ip_address(str(found[0][4][0]))
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return str(mapped or address)


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _interface_addresses(fib_trie: Path, if_inet6: Path) -> set[str]:
    """This machine's own addresses on every interface, loopback and not (none where `/proc` lacks them)."""
    lines = _lines(fib_trie)
    ipv4 = {above.split()[-1] for above, line in pairwise(lines) if line.split() == ["/32", "host", "LOCAL"]}
    ipv6 = {
        str(ipaddress.IPv6Address(bytes.fromhex(w[0])))
        for w in map(str.split, _lines(if_inet6))
        if w and _HEX128.fullmatch(w[0])
    }
    return ipv4 | ipv6


def _hosts_file_names(path: Path, own: frozenset[str]) -> set[str]:
    """The names `path` (an /etc/hosts file) gives to one of the `own` addresses."""
    names: set[str] = set()
    for line in _lines(path):
        words = line.split("#", 1)[0].split()
        if len(words) > 1 and _spelling(words[0]) in own:
            names.update(_spelling(w) for w in words[1:])
    return names


@lru_cache(maxsize=4)
def _own_names(hosts_file: Path, fib_trie: Path, if_inet6: Path) -> frozenset[str]:
    name = _spelling(socket.gethostname())
    own = _SELF_ADDRESSES | {_spelling(a) for a in _interface_addresses(fib_trie, if_inet6)}
    return own | {name, name.split(".")[0]} | _hosts_file_names(hosts_file, own)


def _is_own(name: str) -> bool:
    """True when `name` (a host name or address, any spelling) is the machine Pitstop runs on."""
    text = _spelling(name)
    return text in _own_names(HOSTS_FILE, FIB_TRIE, IF_INET6) or text.endswith(".localhost")


def is_pitstop_host(host: HostLike) -> bool:
    """True when `host` is the machine Pitstop runs on (by name, address or the `local` transport)."""
    address = str(getattr(host, "address", "") or "")
    return _is_own(host.name) or _is_own(address) or getattr(host, "transport", "ssh") == "local"


class _Buckets:
    """In-process token buckets, one per user; thread-safe."""

    def __init__(self, limit: RateLimit, clock: Callable[[], float]) -> None:
        self._limit, self._clock = limit, clock
        self._state: dict[str, tuple[float, float]] = {}  # user -> (tokens, last refill time)
        self._lock = threading.Lock()

    def take(self, user: str, charge: bool) -> float | None:
        """Spend a token (unless `charge` is False); None when allowed, else seconds until one is back."""
        burst, rate = self._limit.burst, self._limit.per_minute / 60.0
        if burst <= 0 or rate <= 0:
            return None
        with self._lock:
            now = self._clock()
            tokens, last = self._state.get(user, (float(burst), now))
            tokens = min(float(burst), tokens + (now - last) * rate)
            if tokens < 1.0:
                self._state[user] = (tokens, now)
                return (1.0 - tokens) / rate
            self._state[user] = (tokens - 1.0 if charge else tokens, now)
            return None


@dataclass(frozen=True)
class Policy:
    """A loaded policy; `authorize` is the one question the bot, the console and the CLI ask."""

    rules: tuple[Rule, ...] = ()
    groups: Mapping[str, frozenset[str]] = field(default_factory=dict)
    max_hosts: int = DEFAULT_MAX_HOSTS
    rate: RateLimit = RateLimit()
    source: str | None = None
    audit_db: Path | None = None
    clock: Callable[[], float] = time.monotonic
    _buckets: _Buckets = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_buckets", _Buckets(self.rate, self.clock))

    @classmethod
    def load(
        cls,
        path: str | Path | None,
        *,
        audit_db: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Policy:
        """The policy in `path` (None: no rules, so nobody may run collectors); UsageError if invalid."""
        if path is None:
            return cls(audit_db=Path(audit_db) if audit_db else None, clock=clock)
        p = Path(path).expanduser()
        data = yamlio.load_yaml_file(p, msg("security.what.policy"), owned=True)
        try:
            return cls.from_data(data or {}, source=str(p), audit_db=audit_db, clock=clock)
        except UsageError as exc:  # a file with the wrong shape: exit 5, like an unreadable one
            raise BadFile(exc.message) from None

    @classmethod
    def from_data(
        cls,
        data: Mapping[str, Any],
        *,
        source: str = "<memory>",
        audit_db: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Policy:
        """Build a policy from parsed YAML (see the module docstring for the format)."""
        if not isinstance(data, Mapping):
            raise UsageError(msg("errors.policy.not_mapping", source=source))
        _no_unknown(data, _TOP_KEYS, source)
        rate_raw = data.get("rate_limit") or {}
        _no_unknown(rate_raw, _RATE_KEYS, f"{source}: rate_limit")
        try:
            rate = RateLimit(**{k: (float if k == "per_minute" else int)(v) for k, v in rate_raw.items()})  # type: ignore[arg-type]
            max_hosts = int(data.get("max_hosts", DEFAULT_MAX_HOSTS))
        except (TypeError, ValueError):
            raise UsageError(msg("errors.policy.not_numbers", source=source)) from None
        if max_hosts < 1 or any(v < 0 for v in (rate.burst, rate.per_minute, rate.hosts_per_hour)):
            raise UsageError(msg("errors.policy.bad_numbers", source=source))
        if not isinstance(data.get("groups") or {}, Mapping) or not isinstance(data.get("rules") or [], list):
            raise UsageError(msg("errors.policy.top_shape", source=source))
        groups = {
            str(k): _strings(v, msg("errors.policy.where_group", source=source, group=str(k)))
            for k, v in (data.get("groups") or {}).items()
        }
        rules = tuple(_rule(raw, i, source) for i, raw in enumerate(data.get("rules") or (), start=1))
        audit = Path(audit_db) if audit_db else None
        return cls(rules, groups, max_hosts, rate, source, audit, clock)

    def authorize(
        self,
        *,
        user: str,
        user_groups: Iterable[str] = (),
        channel: str | None = None,
        hosts: Sequence[HostLike],
        origin: str,
        charge: bool = True,
    ) -> Decision:
        """May `user` run collectors on `hosts` now? Denials are logged; `charge=False` is a dry run."""
        decision = self._decide(str(user), frozenset(user_groups), channel, hosts, origin, charge)
        names = ",".join(h.name for h in hosts[:5]) + (f",+{len(hosts) - 5}" if len(hosts) > 5 else "")
        if decision.allowed:
            log.info(
                "authz allowed user=%s origin=%s channel=%s hosts=%s rule=%s",
                user,
                origin,
                channel,
                names,
                decision.rule,
            )
        else:
            log.warning(
                "authz denied user=%s origin=%s channel=%s hosts=%s: %s",
                redact(str(user))[:64],
                origin,
                redact(str(channel))[:64],
                names,
                decision.reason,
            )
        return decision

    def member_groups(self, user: str) -> frozenset[str]:
        """The policy's own groups that list `user`."""
        return frozenset(g for g, members in self.groups.items() if user in members)

    def _decide(
        self,
        user: str,
        user_groups: frozenset[str],
        channel: str | None,
        hosts: Sequence[HostLike],
        origin: str,
        charge: bool,
    ) -> Decision:
        if origin not in ORIGINS:
            return Decision(False, msg("errors.authz.unknown_origin", origin=origin))
        if not hosts:
            return Decision(False, msg("errors.authz.no_hosts"))
        if len(hosts) > self.max_hosts:
            return Decision(False, msg("errors.authz.too_many", n=len(hosts), limit=self.max_hosts))
        if not self.rules:
            return Decision(False, NO_POLICY)
        groups = user_groups | self.member_groups(user)
        rules = [r for r in self.rules if r.matches(user, groups, channel, origin)]
        refused = [h for h in hosts if not any(r.grants(h) for r in rules)]
        if refused:
            denied = [h.name for h in refused]
            where = (
                msg("errors.authz.where_channel", channel=channel)
                if channel and origin == "slack"
                else msg("errors.authz.where_origin", origin=origin)
            )
            listed: str | Msg = ", ".join(denied[:5])
            if len(denied) > 5:
                listed = msg("errors.authz.hosts_more", hosts=listed, n=len(denied) - 5)

            own = [h.name for h in refused if is_pitstop_host(h)]
            if own:
                return Decision(
                    False,
                    msg(
                        "security.authz.self_host",
                        hosts=listed,
                        where=where,
                        own=", ".join(own[:3]),
                        first=own[0],
                    ),
                )
            return Decision(
                False,
                msg("errors.authz.denied_channel", hosts=listed, channel=channel)
                if channel and origin == "slack"
                else msg("errors.authz.denied_origin", hosts=listed, origin=origin),
            )
        used = [r.name for r in rules if any(r.grants(h) for h in hosts)]
        wait = self._buckets.take(user, charge)
        if wait is not None:
            return Decision(
                False,
                msg(
                    "errors.authz.rate_limit",
                    burst=self.rate.burst,
                    per_minute=f"{self.rate.per_minute:g}",
                    wait=f"{wait:.0f}",
                ),
                retry_after_s=wait,
            )
        over = self._over_hourly(user, len(hosts), charge)
        if over:
            return Decision(False, over, retry_after_s=3600.0)
        return Decision(True, msg("errors.authz.allowed", rules=", ".join(used)), rule=used[0])

    def _over_hourly(self, user: str, requested: int, charge: bool) -> Msg | None:
        """The refusal when `requested` more host checks pass the hourly cap; else None, and (when
        `charge` is set) they are counted from now on, whether or not they are ever audited."""
        limit = self.rate.hosts_per_hour
        if limit <= 0 or self.audit_db is None or not (charge or self.audit_db.is_file()):
            return None
        db = open_db(self.audit_db)
        try:
            since = datetime.now(UTC) - timedelta(hours=1)
            done = take_host_checks(db, user, requested, limit, since, charge)
        finally:
            db.conn.close()
        return None if done + requested <= limit else msg("errors.authz.hourly", done=done, limit=limit)


def _no_unknown(data: Any, allowed: set[str], where: str | Msg) -> None:
    if not isinstance(data, Mapping):
        raise UsageError(msg("errors.shape.mapping", where=where))
    bad = sorted(set(map(str, data)) - allowed)
    if bad:
        raise UsageError(
            msg(
                "errors.policy.unknown_keys",
                where=where,
                keys=", ".join(bad),
                allowed=", ".join(sorted(allowed)),
            )
        )


def _strings(value: Any, where: str | Msg) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, (str, int)):
        return frozenset({str(value)})
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return frozenset(str(v) for v in value)
    raise UsageError(msg("errors.policy.names", where=where))


def _rule(raw: Any, index: int, source: str) -> Rule:
    where = msg("errors.policy.where_rule", source=source, index=index)
    _no_unknown(raw, _RULE_KEYS, where)
    name = str(raw.get("name") or f"rule {index}")
    origins = _strings(raw.get("origins"), where) or frozenset(ORIGINS)
    if origins - set(ORIGINS):
        raise UsageError(msg("errors.policy.origins", where=where, origins=", ".join(ORIGINS)))
    names: set[str] = set()
    globs: list[str] = []
    for pattern in _strings(raw.get("hosts"), where):
        if any(ch in pattern for ch in "*?"):
            globs.append(pattern)
            continue
        try:
            names.update(hostlist.expand(pattern, max_hosts=100_000))
        except PitstopError as exc:
            raise UsageError(msg("errors.policy.hosts", where=where, error=exc.message)) from None
    rule = Rule(
        name=name,
        users=_strings(raw.get("users"), where),
        user_groups=_strings(raw.get("user_groups"), where),
        channels=_strings(raw.get("channels"), where),
        origins=origins,
        host_names=frozenset(names),
        host_globs=tuple(sorted(globs)),
        inventory_groups=_strings(raw.get("inventory_groups"), where),
    )
    if not (rule.users or rule.user_groups or rule.channels):
        raise UsageError(msg("errors.policy.no_who", where=where))
    if not (rule.host_names or rule.host_globs or rule.inventory_groups):
        raise UsageError(msg("errors.policy.no_where", where=where))
    return rule
