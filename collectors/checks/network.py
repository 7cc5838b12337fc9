"""Network and InfiniBand checks: NIC driver version, interface errors and MTU, IB port state and rate,
the verbs userspace the RDMA ports are used through."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers._text import version_tuple
from pitstop.core.i18n import msg


def nic_driver(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A NIC driver older than a minimum version."""
    info = facts.get("ethtool_i")
    if info is None:
        return inconclusive(facts.why_missing("ethtool_i"))
    driver = str(params.get("driver", "i40e"))
    minimum = params.get("min_version") or (ctx.expectations.get("nic_driver_min") or {}).get(driver)
    nics = [n for n in info.nics if n.driver == driver]
    if not nics:
        return ruled_out(
            msg("reasons.network.driver_unused", driver=driver),
            facts.evidence("ethtool_i", [f"driver: {n.driver} {n.version}" for n in info.nics]),
        )
    lines = [line for n in nics for line in n.lines]
    if not minimum:
        return inconclusive(
            msg("reasons.network.no_minimum", driver=driver), facts.evidence("ethtool_i", lines)
        )
    host = facts.get("uname")
    release = host.release if host is not None else None
    unversioned = [n for n in nics if version_tuple(n.driver_version(release)) is None]
    fixed = [n for n in unversioned if n.in_tree_fixed]
    if fixed:  # the kernel's own mlx4/mlx5 driver: not MLNX_OFED, and its version string is a constant
        return inconclusive(
            msg(
                "reasons.network.driver_in_tree_fixed",
                driver=driver,
                version=fixed[0].version,
                minimum=minimum,
            ),
            facts.evidence("ethtool_i", lines),
        )
    if unversioned:
        return inconclusive(
            msg("reasons.network.driver_unversioned", driver=driver, version=unversioned[0].version or "-"),
            facts.evidence("ethtool_i", lines),
        )
    old = [n for n in nics if version_tuple(n.driver_version(release)) < version_tuple(str(minimum))]  # type: ignore[operator]
    if old:
        return confirmed(
            msg("reasons.network.driver_old", driver=driver, version=old[0].version, minimum=minimum),
            facts.evidence("ethtool_i", lines),
        )
    return ruled_out(
        msg("reasons.network.driver_ok", driver=driver, version=nics[0].version, minimum=minimum),
        facts.evidence("ethtool_i", lines),
    )


def link_errors(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """RX/TX errors on active interfaces (ip -s link)."""
    links = facts.get("ip_link")
    if links is None:
        return inconclusive(facts.why_missing("ip_link"))
    minimum = int(params.get("min", 1))
    pattern = re.compile(str(params.get("iface", r"^(?!lo$|docker|veth|virbr|cali|br-).*")))
    up = [i for i in links.interfaces if i.state == "UP" and pattern.search(i.name)]
    known = [i for i in up if i.rx_errors is not None]
    if not known:
        return inconclusive(msg("reasons.network.no_counters"))
    bad = [i for i in known if (i.rx_errors or 0) + (i.tx_errors or 0) >= minimum]
    lines = [line for i in (bad or known) for line in (i.line, *i.stats_lines)]
    if bad:
        return confirmed(
            msg("reasons.network.errors", ifaces=", ".join(i.name for i in bad)),
            facts.evidence("ip_link", lines),
        )
    return ruled_out(msg("reasons.network.no_errors"), facts.evidence("ip_link", lines[:6]))


def link_mtu(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Active interfaces' MTU differs from the expected one."""
    links = facts.get("ip_link")
    if links is None:
        return inconclusive(facts.why_missing("ip_link"))
    expected = params.get("expect") or ctx.expectations.get("mtu")
    pattern = re.compile(str(params.get("iface", r"^(?!lo$|docker|veth|virbr|cali|br-).*")))
    up = [i for i in links.interfaces if i.state == "UP" and pattern.search(i.name) and i.mtu is not None]
    if not up:
        return inconclusive(msg("reasons.network.no_mtu"))
    lines = [i.line for i in up]
    if not expected:
        return inconclusive(msg("reasons.network.no_expected_mtu"), facts.evidence("ip_link", lines))
    wrong = [i for i in up if i.mtu != int(expected)]
    if wrong:
        return confirmed(
            msg("reasons.network.mtu_differs", mtu=expected, ifaces=", ".join(i.name for i in wrong)),
            facts.evidence("ip_link", [i.line for i in wrong]),
        )
    return ruled_out(msg("reasons.network.mtu_ok", mtu=expected), facts.evidence("ip_link", lines))


_KNOWN_STATES = frozenset(
    {"Active", "Down", "Initializing", "Init", "Armed", "PORT_ACTIVE", "PORT_DOWN", "PORT_INIT", "PORT_ARMED"}
)
_ACTIVE = ("Active", "PORT_ACTIVE")
_LINK_UP = ("LinkUp", "LINK_UP")


def _held_down(state: str | None, phys: str | None) -> bool:
    """Logically Down while the physical link is up: not Active, but not a dead link either."""
    return state in ("Down", "PORT_DOWN") and phys in _LINK_UP


# state -> test of (state, physical state): True this cause, False not, None the port cannot tell
_PORT_TESTS: Mapping[str, Callable[[str | None, str | None], bool | None]] = {
    "not_active": lambda state, phys: state not in _ACTIVE,
    "init": lambda state, phys: (
        None
        if _held_down(state, phys)
        else state in ("Initializing", "Init", "PORT_INIT", "Armed", "PORT_ARMED")
        and phys in (None, *_LINK_UP)
    ),
    "down": lambda state, phys: (
        None
        if _held_down(state, phys)
        else state in ("Down", "PORT_DOWN") or phys in ("Polling", "POLLING", "Disabled", "DISABLED")
    ),
}


def ib_port_state(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """InfiniBand ports not Active (init: no subnet manager; down: physical/polling)."""
    which = str(params.get("state", "not_active"))
    test = _PORT_TESTS.get(which)
    if test is None:
        return inconclusive(msg("reasons.unknown_param", param="state", value=which))
    collector, info = facts.first("ibstat", "ibv_devinfo")
    if collector is None or info is None:
        return inconclusive(facts.why_missing("ibstat", "ibv_devinfo"))
    # The fabric's link layer: InfiniBand when the host has IB ports (its Ethernet ports are then
    # other networks), else Ethernet (a RoCE host, whose down ports count). A subnet manager
    # exists only on InfiniBand.
    # A port without a `Link layer` line among ports that show one was cut off before it: its layer
    # is unknown (only an ibstat older than RoCE shows none at all, and its ports are InfiniBand),
    # and so is that of any port of an output cut at the size cap.
    shown = any(p.link_layer for p in info.ports) or collector in facts.truncated()
    unshown = [p for p in info.ports if shown and not p.link_layer]
    layers = {(p.link_layer or "infiniband").lower() for p in info.ports if p not in unshown}
    fabric = "infiniband" if "infiniband" in layers or which == "init" else "ethernet"
    layer = str(params.get("link_layer", fabric)).lower()
    ports = [p for p in info.ports if p not in unshown and (p.link_layer or "infiniband").lower() == layer]
    if not ports:
        return inconclusive(msg("reasons.network.no_port", layer=layer))
    layer = "RoCE (Ethernet)" if layer == "ethernet" else "InfiniBand"
    if getattr(info, "stray", ()):
        return inconclusive(msg("reasons.network.stray_line", line=info.stray[0]))
    unknown = [p for p in ports if p.state not in _KNOWN_STATES]
    if unknown:
        return inconclusive(msg("reasons.network.state_not_shown", n=len(unknown), layer=layer))
    bad = [p for p in ports if test(p.state, p.physical_state)]
    held = [p for p in ports if test(p.state, p.physical_state) is None]
    name = (
        (lambda p: f"{p.ca} port {p.port}") if collector == "ibstat" else (lambda p: f"{p.hca} port {p.port}")
    )
    lines = [f"{name(p)}: {line}" for p in (bad or ports) for line in p.lines]
    errors = list(getattr(info, "errors", ()))
    if bad:
        return confirmed(
            msg(
                "reasons.network.ports_bad",
                n=len(bad),
                layer=layer,
                state=which,
                ports=", ".join(name(p) for p in bad),
            ),
            facts.evidence(collector, lines + errors),
        )
    if unshown:
        return inconclusive(
            msg("reasons.network.link_layer_not_shown", ports=", ".join(name(p) for p in unshown)),
            facts.evidence(collector, [f"{name(p)}: {line}" for p in unshown for line in p.lines] + errors),
        )
    if held:
        return inconclusive(
            msg(
                "reasons.network.ports_held_down",
                n=len(held),
                layer=layer,
                ports=", ".join(name(p) for p in held),
            ),
            facts.evidence(collector, [f"{name(p)}: {line}" for p in held for line in p.lines] + errors),
        )
    return ruled_out(
        msg("reasons.network.ports_ok", n=len(ports), layer=layer, state=which),
        facts.evidence(collector, lines[:6] + errors),
    )


def ib_rate(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Active InfiniBand ports below the expected (or the best seen) rate."""
    info = facts.get("ibstat")
    if info is None:
        return inconclusive(facts.why_missing("ibstat"))
    ports = [p for p in info.ports if (p.link_layer or "").lower() == "infiniband" and p.state == "Active"]
    rates = [p.rate_gbps for p in ports if p.rate_gbps is not None]
    if not ports:  # down ports, RoCE-only hosts, or a link layer not shown: no rate to hold against anything
        return inconclusive(msg("reasons.network.no_active_ib_port", n=len(info.ports)))
    if not rates or len(rates) < len(ports):
        return inconclusive(msg("reasons.network.rate_not_shown"))
    minimum = float(params.get("min_gbps") or ctx.expectations.get("ib_rate_gbps") or max(rates))
    slow = [p for p in ports if p.rate_gbps is not None and p.rate_gbps < minimum]
    lines = [f"{p.ca} port {p.port}: rate {p.rate_gbps:g}" for p in (slow or ports)]
    if slow:
        return confirmed(
            msg("reasons.network.rate_low", n=len(slow), rate=f"{minimum:g}"), facts.evidence("ibstat", lines)
        )
    return ruled_out(msg("reasons.network.rate_ok", rate=f"{minimum:g}"), facts.evidence("ibstat", lines[:6]))


def rdma_verbs_userspace(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The kernel lists RDMA ports (ibstat) but libibverbs lists no device (ibv_devinfo): the host's verbs
    userspace (its provider library, or the RDMA service) is missing. Working verbs on the host are
    inconclusive, never ruled out: a container image carries its own copy of the libraries."""
    kernel = facts.get("ibstat")
    if kernel is None:
        return inconclusive(facts.why_missing("ibstat"))
    if not kernel.ports:
        return inconclusive(msg("reasons.network.no_rdma_ports"))
    ports = facts.evidence(
        "ibstat", [f"{p.ca} port {p.port}: {line}" for p in kernel.ports[:6] for line in p.lines[:1]]
    )
    verbs = facts.get("ibv_devinfo")
    if verbs is None:
        return inconclusive(msg("reasons.network.verbs_unread", why=facts.why_missing("ibv_devinfo")), ports)
    abi = [line for line in verbs.warnings if "kernel ABI" in line]
    if abi:
        return inconclusive(msg("reasons.network.verbs_abi"), ports, facts.evidence("ibv_devinfo", abi))
    if verbs.ports:
        return inconclusive(
            msg("reasons.network.verbs_host_ok", n=len(verbs.ports)),
            facts.evidence("ibv_devinfo", [f"{p.hca} port {p.port}: {p.lines[-1]}" for p in verbs.ports[:6]]),
        )
    complaint = [*verbs.warnings[:5], *([verbs.no_devices] if verbs.no_devices else [])]
    if not complaint:
        return inconclusive(msg("reasons.network.verbs_silent"), ports)
    return confirmed(
        msg("reasons.network.verbs_missing", n=len(kernel.ports)),
        ports,
        facts.evidence("ibv_devinfo", complaint),
    )


SPECS = (
    spec(
        nic_driver,
        ("ethtool_i", "uname"),
        {"driver": "driver name (default i40e)", "min_version": "or expectations.nic_driver_min[driver]"},
        describe={
            "en": (
                "Reads the network card driver's version: older than the minimum with the "
                "fix confirms it, that version or newer rules it out."
            ),
            "zh": "读取网卡驱动的版本：低于修复该问题的最低版本即确认，达到或更新则排除。",
        },
    ),
    spec(
        link_errors,
        ("ip_link",),
        {"min": "errors (default 1)", "iface": "interface regex"},
        describe={
            "en": (
                "Reads the error counters of the active network interfaces: receive or "
                "transmit errors confirm it, zero errors rule it out."
            ),
            "zh": "读取活动网口的错误计数：有收发错误即确认，全为零则排除。",
        },
    ),
    spec(
        link_mtu,
        ("ip_link",),
        {"expect": "MTU (or expectations.mtu)", "iface": "interface regex"},
        describe={
            "en": (
                "Compares the MTU of the active network interfaces with the expected one: "
                "a different MTU confirms it, the expected MTU everywhere rules it out."
            ),
            "zh": "比较活动网口的 MTU 与预期值：不一致即确认，全部一致则排除。",
        },
    ),
    spec(
        ib_port_state,
        ("ibstat", "ibv_devinfo"),
        {
            "state": "not_active (default) | init | down",
            "link_layer": "InfiniBand | Ethernet (RoCE); default: InfiniBand when the host has IB ports, "
            "else Ethernet",
        },
        describe={
            "en": (
                "Reads the state of each RDMA port of the fabric's link layer (InfiniBand, or "
                "Ethernet on a RoCE-only host): a port that is not Active in the way this cause "
                "describes confirms it, all ports Active rule it out; an unknown state decides nothing."
            ),
            "zh": (
                "读取该主机 RDMA 网络所用链路层（InfiniBand；纯 RoCE 主机则为 Ethernet）每个端口的状态："
                "出现这个原因描述的非 Active 状态即确认，全部 Active 则排除；状态读不出则不作结论。"
            ),
        },
    ),
    spec(
        ib_rate,
        ("ibstat",),
        {"min_gbps": "or expectations.ib_rate_gbps"},
        describe={
            "en": (
                "Compares the rate of each active InfiniBand port with the expected rate: "
                "a slower port confirms it, full rate everywhere rules it out."
            ),
            "zh": ("比较每个活动 InfiniBand 端口的速率与预期速率：有端口速率偏低即确认，全部满速则排除。"),
        },
    ),
    spec(
        rdma_verbs_userspace,
        ("ibstat", "ibv_devinfo"),
        describe={
            "en": (
                "Compares the RDMA ports the kernel lists (ibstat) with the devices libibverbs lists: "
                "ports the kernel has but libibverbs cannot list confirm it; working verbs "
                "on the host decide nothing, since a container image brings its own libraries."
            ),
            "zh": (
                "对比内核列出的 RDMA 端口（ibstat）和 libibverbs 能列出的设备："
                "内核有端口而 libibverbs 一个设备都列不出即确认；"
                "宿主机上 verbs 正常则不作结论，因为容器镜像带的是自己的库。"
            ),
        },
    ),
)
