"""The odd one out: hosts compared with each other on the facts the collectors read (lab scenario outputs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitstop.collectors import compare
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CommandResult
from pitstop.lab.scenario import SCENARIOS_DIR
from tests.collectors.test_checks_scenarios import scenario_results

REPO = Path(__file__).resolve().parents[2]


def _profile(host: str, scenario: str) -> compare.Profile:
    return compare.profile(host, Facts(scenario_results(SCENARIOS_DIR / scenario)))


@pytest.fixture(scope="module")
def healthy() -> compare.Profile:
    return _profile("gpu01", "h100-sxm5-healthy")


def _fleet(healthy: compare.Profile, n: int, odd: dict[str, str]) -> list[compare.Profile]:
    names = [f"gpu{i:02d}" for i in range(1, n + 2) if f"gpu{i:02d}" not in odd][:n]
    peers = [compare.Profile(name, healthy.facts) for name in names]
    return peers + [_profile(host, scenario) for host, scenario in odd.items()]


def test_a_profile_reads_every_kind_of_fact(healthy: compare.Profile) -> None:
    names = {key.partition("@")[0] for key in healthy.facts}
    assert names >= {
        "driver", "cuda", "torch", "torch_cuda", "kernel", "gpu_model", "gpu_count", "form_factor", "vbios",
        "pcie", "nvlink_up", "throttle", "temperature", "power", "ecc_corrected", "remap_pending",
        "nic_firmware", "mtu", "ib_state", "ib_rate", "hca_firmware", "numa_nodes", "raid_cache",
    }  # fmt: skip
    assert healthy.facts["pcie@2"] == "Gen5 x16"
    assert healthy.facts["gpu_count"] == "8"


def test_identical_hosts_have_no_outliers(healthy: compare.Profile) -> None:
    assert compare.outliers(_fleet(healthy, 8, {})) == ()


@pytest.mark.parametrize(
    ("scenario", "fact", "value", "peers"),
    [
        ("raid-writethrough", "raid_cache@VD 0/1/1", "RWTD", "RWBD"),
        ("ib-port-down", "ib_state@mlx5_3/1", "Down/Polling", "Active/LinkUp"),
        ("driver-515", "driver", "515.65.01", "535.161.08"),
    ],
)
def test_the_odd_host_and_fact_are_named(
    healthy: compare.Profile, scenario: str, fact: str, value: str, peers: str
) -> None:
    found = compare.outliers(_fleet(healthy, 8, {"gpu17": scenario}))
    assert {o.host for o in found} == {"gpu17"}
    hit = next(o for o in found if o.fact == fact)
    assert (hit.value, hit.peers, hit.peer_count) == (value, peers, 8)


def test_the_sentence_is_evidence_with_the_peers_value(healthy: compare.Profile) -> None:
    found = compare.outliers(_fleet(healthy, 63, {"gpu17": "pcie-downtrained"}))
    groups = compare.by_host(found)
    line = compare.describe_host("gpu17", groups["gpu17"])
    assert line.startswith("gpu17 differs from 63 peers: PCIe Gen5 x8 on GPU2 (peers Gen5 x16)")
    assert "GPU2 的 PCIe Gen5 x8（其他节点 Gen5 x16）" in compare.describe_host(
        "gpu17", groups["gpu17"], "zh"
    )


def test_numeric_outliers_use_the_median_absolute_deviation() -> None:
    temps = {f"n{i}": 60.0 + (i % 5) for i in range(20)} | {"hot": 91.0, "warm": 68.0}
    profiles = [compare.Profile(h, {"temperature@3": t}) for h, t in temps.items()]
    found = compare.outliers(profiles)
    assert [(o.host, o.value, o.peers) for o in found] == [("hot", "91 °C", "62 °C")]
    assert found[0].describe() == "temperature 91 °C on GPU3 (peers median 62 °C)"
    assert found[0].describe("zh") == "GPU3 温度 91 °C（其他节点中位数 62 °C）"


def test_a_spread_fleet_has_no_majority_to_differ_from() -> None:
    profiles = [compare.Profile(f"n{i}", {"driver": v}) for i, v in enumerate(["535", "550", "535", "550"])]
    assert compare.outliers(profiles) == ()
    assert compare.outliers(profiles[:2]) == ()  # two hosts: no majority worth naming


def test_repeated_facts_on_several_gpus_are_one_phrase(healthy: compare.Profile) -> None:
    found = compare.outliers(_fleet(healthy, 8, {"gpu17": "driver-515"}))
    line = compare.describe_host("gpu17", compare.by_host(found)["gpu17"])
    assert "VBIOS 96.00.30.00.01 on GPU[0-7] (peers 96.00.89.00.01)" in line


def test_cross_host_versions_confirm_only_the_differing_host(healthy: compare.Profile) -> None:
    odd = compare.Profile("gpu09", {**healthy.facts, "nccl": "2.18.1"})
    peers = [compare.Profile(f"gpu{i:02d}", {**healthy.facts, "nccl": "2.21.5"}) for i in range(1, 9)]
    got = compare.cross_host_verdicts("nccl-version-mismatch-across-nodes", ("nccl", "torch"), [*peers, odd])
    assert got["gpu09"].verdict == "confirmed"
    assert "nccl 2.18.1" in str(got["gpu09"].reason) and "nccl 2.21.5" in str(got["gpu09"].reason)
    assert {got[p.host].verdict for p in peers} == {"ruled_out"}
    same = compare.cross_host_verdicts("x", ("nccl",), peers)
    assert {v.verdict for v in same.values()} == {"ruled_out"}
    alone = compare.cross_host_verdicts("x", ("nccl",), peers[:1])
    assert alone["gpu01"].verdict == "inconclusive"


def test_a_profile_is_small(healthy: compare.Profile) -> None:
    size = sum(len(k) + len(str(v)) for k, v in healthy.facts.items())
    assert size < 4096  # kept per host for the whole diagnose instead of the outputs


def test_unreadable_outputs_give_an_empty_profile(tmp_path: Path) -> None:
    assert compare.profile("x", Facts({})).facts == {}


def test_clocks_are_read_and_a_capped_gpu_is_named(healthy: compare.Profile) -> None:
    """SM clocks come from the real `nvidia-smi -q` layout; a GPU whose clocks were capped stands out."""
    assert {"sm_clock@0", "max_sm_clock@0"} <= set(healthy.facts)
    capped = dict(healthy.facts) | {"max_sm_clock@5": 1410.0}
    found = compare.outliers(_fleet(healthy, 8, {}) + [compare.Profile("gpu17", capped)])
    hit = next(o for o in found if o.fact == "max_sm_clock@5")
    assert (hit.host, hit.value) == ("gpu17", "1410 MHz") and hit.peers.endswith(" MHz")
    assert "maximum SM clock" in compare.describe_host("gpu17", compare.by_host(found)["gpu17"])


def test_numa_nodes_come_from_the_available_line() -> None:
    # a real `numactl -H` of a 16-node host (SPR with flat-mode HBM) cut after node 10's lines
    text = (REPO / "tests/fixtures/outputs/numactl-H/spr-hbm-flat-16-nodes-excerpt.txt").read_text(
        encoding="utf-8"
    )
    result = CommandResult("numactl", ("numactl", "-H"), "ok", 0, stdout=text)
    assert compare.profile("spr", Facts({"numactl": result})).facts["numa_nodes"] == "16"
    no_line = CommandResult("numactl", ("numactl", "-H"), "ok", 0, stdout=text.partition("\n")[2])
    assert "numa_nodes" not in compare.profile("spr", Facts({"numactl": no_line})).facts  # never counted
