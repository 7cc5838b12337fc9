"""The odd one out: compare the hosts of one diagnose with each other, fact by fact.

Each host's facts are reduced to a small `Profile` (fact key -> value) as soon as its checks ran,
so a 500-host diagnose keeps a few hundred bytes per host instead of its outputs. `outliers`
then reports, per fact:

- categorical facts (versions, models, link shapes, states): a host whose value differs from the
  value most hosts share (a strict majority of the hosts that reported the fact);
- numeric facts (temperatures, power, error counters): a host far from the median, by the median
  absolute deviation (a robust spread that one faulty host cannot inflate), with an absolute floor
  per fact so that identical peers do not turn a 1 degree difference into an outlier.

A difference is evidence, not a verdict: the rendered line says what differs and what the peers have.
`cross_host_verdicts` turns the version differences into verdicts for the KB entries that are about them.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pitstop.collectors.checks.gpu import form_factor
from pitstop.collectors.facts import Facts
from pitstop.collectors.hostlist import compress
from pitstop.collectors.model import Evidence, Verdict
from pitstop.core.i18n import catalogue, fields_of, msg, t

Value = str | float
MIN_HOSTS = 3  # fewer hosts than this have no majority worth naming
MAD_K = 3.5  # the usual robust z-score cut (Iglewicz and Hoaglin)
MAD_SCALE = 1.4826  # MAD -> standard deviation for normal data


@dataclass(frozen=True)
class FactSpec:
    """How one kind of fact is compared; worded by the message `fleet.fact.<name>` ({value}, {subject})."""

    name: str
    numeric: bool = False
    floor: float = 0.0  # numeric: the smallest distance from the median worth reporting
    unit: str = ""


SPECS: Mapping[str, FactSpec] = {
    s.name: s
    for s in (
        FactSpec("driver"),
        FactSpec("cuda"),
        FactSpec("torch"),
        FactSpec("torch_cuda"),
        FactSpec("nccl"),
        FactSpec("kernel"),
        FactSpec("os"),
        FactSpec("cpu_model"),
        FactSpec("gpu_model"),
        FactSpec("gpu_count"),
        FactSpec("form_factor"),
        FactSpec("vbios"),
        FactSpec("pcie"),
        FactSpec("nvlink_up"),
        FactSpec("throttle"),
        FactSpec("sm_clock", numeric=True, floor=300, unit=" MHz"),
        FactSpec("max_sm_clock", numeric=True, floor=50, unit=" MHz"),
        FactSpec("temperature", numeric=True, floor=10, unit=" °C"),
        FactSpec("power", numeric=True, floor=100, unit=" W"),
        FactSpec("power_limit", numeric=True, floor=1, unit=" W"),
        FactSpec("ecc_uncorrected", numeric=True, floor=0.5),
        FactSpec("ecc_corrected", numeric=True, floor=10),
        FactSpec("remap_uncorrectable", numeric=True, floor=0.5),
        FactSpec("remap_pending"),
        FactSpec("nic_firmware"),
        FactSpec("nic_driver"),
        FactSpec("mtu"),
        FactSpec("ib_state"),
        FactSpec("ib_rate"),
        FactSpec("hca_firmware"),
        FactSpec("numa_nodes"),
        FactSpec("raid_cache"),
    )
}


@dataclass(frozen=True)
class Profile:
    """The comparable facts of one host: `facts[key]` where key is `name` or `name@subject`."""

    host: str
    facts: Mapping[str, Value]


@dataclass(frozen=True)
class Outlier:
    """One host that differs from its peers on one fact."""

    fact: str
    host: str
    value: str
    peers: str
    peer_count: int

    @property
    def spec(self) -> FactSpec:
        """The fact's kind."""
        return SPECS[self.fact.partition("@")[0]]

    def describe(self, lang: str = "en") -> str:
        """`PCIe Gen4 x8 on GPU3 (peers Gen4 x16)`; a numeric fact names the peers' median."""
        name, _, subject = self.fact.partition("@")
        key = f"fleet.fact.{name}"
        fields = fields_of(catalogue()[key][0])
        given = {"value": self.value, "subject": subject}
        fact = t(key, lang, **{k: v for k, v in given.items() if k in fields})
        return t(
            "fleet.outlier.median" if self.spec.numeric else "fleet.outlier",
            lang,
            fact=fact,
            peers=self.peers,
        )

    def to_json(self) -> dict[str, Any]:
        """`{"fact", "host", "value", "peers", "peer_count", "numeric"}` (`peers`: the majority's value,
        or the peers' median for a numeric fact)."""
        return {
            "fact": self.fact,
            "host": self.host,
            "value": self.value,
            "peers": self.peers,
            "peer_count": self.peer_count,
            "numeric": self.spec.numeric,
        }


def _put(out: dict[str, Value], name: str, value: Any, subject: object = None) -> None:
    if value is None or value == "":
        return
    key = name if subject is None else f"{name}@{subject}"
    out[key] = float(value) if SPECS[name].numeric else str(value)


def _gpu_facts(out: dict[str, Value], facts: Facts) -> None:
    _, gpus = facts.gpus()
    if not gpus:
        return
    models = Counter(g.name for g in gpus if g.name)
    _put(out, "gpu_count", len(gpus))
    if models:
        _put(out, "gpu_model", models.most_common(1)[0][0])
    forms = Counter(f for g in gpus if (f := form_factor(g)))
    if forms:
        _put(out, "form_factor", forms.most_common(1)[0][0])
    for i, g in enumerate(gpus):
        n = g.index if g.index is not None else i
        _put(out, "vbios", g.vbios_version, n)
        if g.pcie_gen_current is not None and g.pcie_width_current is not None:
            _put(out, "pcie", f"Gen{g.pcie_gen_current} x{g.pcie_width_current}", n)
        events = g.active_clock_events
        if events is not None:
            shown = [e for e in events if e not in ("gpu_idle", "applications_clocks_setting")]
            _put(out, "throttle", ",".join(sorted(shown)) or "none", n)
        _put(out, "sm_clock", g.sm_clock_mhz, n)
        _put(out, "max_sm_clock", g.max_sm_clock_mhz, n)
        _put(out, "temperature", g.temperature_c, n)
        _put(out, "power", g.power_draw_w, n)
        _put(out, "power_limit", g.power_limit_w, n)
        _put(out, "ecc_uncorrected", g.ecc_volatile_uncorrected, n)
        _put(out, "ecc_corrected", g.ecc_volatile_corrected, n)
        _put(out, "remap_uncorrectable", g.remap_uncorrectable, n)
        if g.remap_pending is not None:
            _put(out, "remap_pending", "yes" if g.remap_pending else "no", n)

    status = facts.get("nvidia_smi_nvlink")
    for g in status.gpus if status else ():
        if g.supported and g.links:
            _put(out, "nvlink_up", sum(link.state == "up" for link in g.links), g.index)


def _versions(out: dict[str, Value], facts: Facts) -> None:
    driver = facts.get("driver_version")
    probe = facts.get("nvml_probe")
    smi = facts.get("nvidia_smi_q")
    _put(
        out,
        "driver",
        (driver.version if driver else None)
        or (probe.driver_version if probe else None)
        or (smi.driver_version if smi else None),
    )
    _put(out, "cuda", (probe.cuda_driver_version if probe else None) or (smi.cuda_version if smi else None))
    torch = facts.get("torch_probe")
    if torch is not None and not torch.not_installed:
        _put(out, "torch", torch.version)
        _put(out, "torch_cuda", torch.cuda)
        _put(out, "nccl", torch.nccl)
    uname = facts.get("uname")
    _put(out, "kernel", uname.release if uname else None)
    osr = facts.get("os_release")
    _put(out, "os", osr.pretty_name if osr else None)
    lscpu = facts.get("lscpu")
    _put(out, "cpu_model", lscpu.fields.get("Model name") if lscpu else None)


def _network_and_host(out: dict[str, Value], facts: Facts) -> None:
    eth = facts.get("ethtool_i")
    for nic in eth.nics if eth else ():
        _put(out, "nic_firmware", nic.firmware, nic.interface)
        _put(out, "nic_driver", " ".join(p for p in (nic.driver, nic.version) if p), nic.interface)
    links = facts.get("ip_link")
    for iface in links.interfaces if links else ():
        _put(out, "mtu", iface.mtu, iface.name)
    ib = facts.get("ibstat")
    for port in ib.ports if ib else ():
        subject = f"{port.ca}/{port.port}"
        _put(out, "ib_state", "/".join(p for p in (port.state, port.physical_state) if p), subject)
        if port.rate_gbps is not None:
            _put(out, "ib_rate", f"{port.rate_gbps:g} Gb/s", subject)
        _put(out, "hca_firmware", port.firmware, port.ca)
    numa = facts.get("numactl")
    if numa is not None:  # the count numactl prints: node lines go missing from a cut output
        _put(out, "numa_nodes", numa.available)
    storcli = facts.get("storcli")
    for vd in storcli.vds if storcli else ():
        _put(out, "raid_cache", vd.cache, f"VD {vd.controller}/{vd.vd}")
    mega = facts.get("megacli")
    for vd in mega.vds if mega else ():
        _put(out, "raid_cache", vd.current_write, f"VD {vd.adapter}/{vd.vd}")


def profile(host: str, facts: Facts) -> Profile:
    """Read every comparable fact of one host; a fact a parser could not read is simply absent."""
    out: dict[str, Value] = {}
    for part in (_versions, _gpu_facts, _network_and_host):
        try:
            part(out, facts)
        except Exception:  # noqa: BLE001, S112 - one odd output must not cost the host its other facts
            continue
    return Profile(host, out)


def _show(spec: FactSpec, value: float) -> str:
    return f"{value:g}{spec.unit}"


def _categorical(key: str, values: Mapping[str, str]) -> list[Outlier]:
    counts = Counter(values.values())
    top, top_n = counts.most_common(1)[0]
    if top_n * 2 <= len(values) or top_n == len(values):
        return []
    return [Outlier(key, h, v, top, top_n) for h, v in values.items() if v != top]


def _numeric(key: str, values: Mapping[str, float]) -> list[Outlier]:
    spec = SPECS[key.partition("@")[0]]
    median = statistics.median(values.values())
    mad = statistics.median(abs(v - median) for v in values.values())
    cut = max(MAD_K * MAD_SCALE * mad, spec.floor)
    peers = _show(spec, median)
    return [
        Outlier(key, h, _show(spec, v), peers, len(values) - 1)
        for h, v in values.items()
        if abs(v - median) > cut
    ]


def outliers(profiles: Iterable[Profile]) -> tuple[Outlier, ...]:
    """Every (host, fact) that differs from the hosts' majority or lies far from their median."""
    by_fact: dict[str, dict[str, Value]] = {}
    for p in profiles:
        for key, value in p.facts.items():
            by_fact.setdefault(key, {})[p.host] = value
    found: list[Outlier] = []
    for key, values in by_fact.items():
        if len(values) < MIN_HOSTS:
            continue
        if SPECS[key.partition("@")[0]].numeric:
            found += _numeric(key, {h: float(v) for h, v in values.items()})
        else:
            found += _categorical(key, {h: str(v) for h, v in values.items()})
    order = {name: i for i, name in enumerate(SPECS)}
    return tuple(sorted(found, key=lambda o: (o.host, order[o.fact.partition("@")[0]], o.fact)))


def by_host(found: Sequence[Outlier]) -> dict[str, list[Outlier]]:
    """Outliers grouped per host, hosts with the most differences first."""
    groups: dict[str, list[Outlier]] = {}
    for o in found:
        groups.setdefault(o.host, []).append(o)
    return dict(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def _number(text: str) -> float:
    return float(text.split()[0])


def _merged(group: Sequence[Outlier], lang: str) -> str:
    """One phrase for the same fact on several subjects: `VBIOS 96.00.30 on GPU[0-7] (peers 96.00.89)`."""
    first = group[0]
    subjects = [o.fact.partition("@")[2] for o in group]
    values = sorted({o.value for o in group}, key=_number) if first.spec.numeric else [first.value]
    peers = sorted({o.peers for o in group}, key=_number) if first.spec.numeric else [first.peers]
    if len(values) > 1 or len(peers) > 1:
        unit = first.spec.unit
        value = f"{values[0].removesuffix(unit)}–{values[-1]}" if len(values) > 1 else values[0]
        peer = f"{peers[0].removesuffix(unit)}–{peers[-1]}" if len(peers) > 1 else peers[0]
        first = replace(first, value=value, peers=peer)
    return replace(first, fact=f"{first.fact.partition('@')[0]}@{compress(subjects)}").describe(lang)


def describe_host(host: str, found: Sequence[Outlier], lang: str = "en", limit: int = 4) -> str:
    """`gpu17 differs from 63 peers: PCIe Gen4 x8 on GPU3 (peers Gen4 x16); ...`: the same fact on several
    GPUs or ports is one phrase; at most `limit` phrases, then how many more."""
    groups: dict[tuple[str, str, str], list[Outlier]] = {}
    for o in found:
        name, _, subject = o.fact.partition("@")
        same = ("", "") if o.spec.numeric or not subject else (o.value, o.peers)
        groups.setdefault((name, *same), []).append(o)
    parts = [_merged(g, lang) for g in groups.values()]
    peers = max(o.peer_count for o in found)
    more = len(parts) - limit
    sep = "；" if lang == "zh" else "; "
    text = sep.join(parts[:limit])
    if more > 0:
        text += sep + t("fleet.more", lang, n=more)
    return t("fleet.differs", lang, host=host, peers=peers, facts=text)


RERUN_VERSIONS = (
    "python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.nccl.version())'; "
    "cat /proc/driver/nvidia/version  # on each host"
)


def cross_host_verdicts(
    pitfall: str, names: Sequence[str], profiles: Sequence[Profile]
) -> dict[str, Verdict]:
    """Per host, the verdict of a cause that only a comparison can decide (versions differing between the
    hosts of one job): confirmed on each host whose `names` facts differ from the majority's (on every host
    when there is no majority), ruled out on the others; inconclusive when fewer than two hosts reported."""
    values = {p.host: tuple(str(p.facts.get(n, "")) for n in names) for p in profiles}
    values = {h: v for h, v in values.items() if any(v)}
    if len(values) < 2:
        why = msg("reasons.fleet.too_few_hosts", facts=", ".join(names))
        return {p.host: Verdict(pitfall, "inconclusive", why) for p in profiles}
    counts = Counter(values.values())
    top, top_n = counts.most_common(1)[0]
    majority = top if top_n * 2 > len(values) else None

    def show(v: tuple[str, ...]) -> str:
        return ", ".join(f"{n} {x}" for n, x in zip(names, v, strict=True) if x)

    out: dict[str, Verdict] = {}
    for p in profiles:
        mine = values.get(p.host)
        if mine is None:
            out[p.host] = Verdict(
                pitfall, "inconclusive", msg("reasons.fleet.none_reported", facts=", ".join(names))
            )
        elif len(counts) == 1:
            out[p.host] = Verdict(
                pitfall, "ruled_out", msg("reasons.fleet.all_same", n=len(values), versions=show(mine))
            )
        elif mine == majority:
            out[p.host] = Verdict(
                pitfall, "ruled_out", msg("reasons.fleet.as_peers", n=top_n - 1, versions=show(mine))
            )
        elif majority and not any(a and b and a != b for a, b in zip(mine, majority, strict=True)):
            # a fact this host did not report is unknown, not different
            missing = ", ".join(n for n, a, b in zip(names, mine, majority, strict=True) if b and not a)
            out[p.host] = Verdict(pitfall, "inconclusive", msg("reasons.fleet.partly_known", missing=missing))
        else:
            lines = tuple(
                f"{show(v)}: {n} host(s)" for v, n in sorted(counts.items(), key=lambda kv: -kv[1])
            )[:20]
            out[p.host] = Verdict(
                pitfall,
                "confirmed",
                msg("reasons.fleet.differs", versions=show(mine), peers=show(majority))
                if majority
                else msg("reasons.fleet.no_majority", versions=show(mine)),
                (Evidence("torch probe and driver version on every host", lines, RERUN_VERSIONS),),
            )
    return out
