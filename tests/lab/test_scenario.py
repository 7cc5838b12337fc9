"""The scenario format: loading, inheritance, validation, and agreement with the catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pitstop.collectors import catalog
from pitstop.core.errors import UsageError
from pitstop.lab.fleet import DEFAULT_PORT, FAKE_TOOLS, PORT_ENV, default_port, endpoint
from pitstop.lab.scenario import (
    COLLECTORS,
    Fault,
    load_all,
    load_scenario,
    parse_faults,
    shipped_scenarios,
)
from pitstop.lab.sshd import LabError


def make(root: Path, name: str, files: dict[str, str]) -> Path:
    d = root / name
    d.mkdir()
    for fname, text in files.items():
        (d / fname).write_text(text)
    return d


def test_shipped_scenarios_load_and_name_taxonomy_slugs(shared_dir: Path) -> None:
    taxonomy = yaml.safe_load((shared_dir / "taxonomy.yaml").read_text(encoding="utf-8"))
    slugs = {item["slug"] for item in taxonomy}
    scenarios = load_all(shipped_scenarios())
    assert len(scenarios) >= 16
    for s in scenarios:
        assert set(s.confirmed) | set(s.ruled_out) <= slugs, s.name
        assert s.expect.get("gpu_model") and "uname-a.txt" in s.files, s.name


def test_the_lab_simulates_every_catalog_command() -> None:
    assert COLLECTORS == set(catalog.BY_NAME)
    assert {c.argv[0] for c in catalog.CATALOG} <= set(FAKE_TOOLS)


def test_base_inheritance_and_absent(tmp_path: Path) -> None:
    make(tmp_path, "parent", {"uname-a.txt": "Linux p\n", "lscpu.txt": "cpu\n", "ibstat.txt": "ib\n"})
    child = make(
        tmp_path,
        "child",
        {
            "host.yaml": "base: parent\nabsent: [ibstat.txt]\ngroups: [g]\n",
            "lscpu.txt": "own cpu\n",
            "expect.yaml": "confirmed: [x-y-z]\n",
        },
    )
    s = load_scenario(child)
    assert sorted(s.files) == ["lscpu.txt", "uname-a.txt"]
    assert s.files["lscpu.txt"].read_text() == "own cpu\n" and s.files["uname-a.txt"].parent.name == "parent"
    assert (s.groups, s.confirmed) == (("g",), ("x-y-z",))


def test_a_shipped_base_is_found_from_anywhere(tmp_path: Path) -> None:
    s = load_scenario(make(tmp_path, "mine", {"host.yaml": "base: h100-sxm5-healthy\n"}))
    assert "nvidia-smi-q.txt" in s.files and s.name == "mine"


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"nvidia-smi-q.text": ""}, "unknown scenario file"),
        ({"faults.yaml": "freeze: [uname]\n"}, "unknown fault 'freeze'"),
        ({"faults.yaml": "hang: [nvidia_smi_qq]\n"}, "unknown collector 'nvidia_smi_qq'"),
        ({"faults.yaml": "slow: {uname: -1}\n"}, "non-negative integer"),
        ({"faults.yaml": "slow: [uname]\n"}, "expected a mapping"),
        ({"host.yaml": "base: nowhere\n"}, "no base scenario 'nowhere'"),
        ({"host.yaml": "base: bad\n"}, "loops back"),
        ({"host.yaml": "absent: [ibstat]\n"}, "unknown file 'ibstat'"),
        ({"host.yaml": "colour: red\n"}, "unknown field(s) colour"),
        ({"expect.yaml": "confirmed: [a-b-c]\nruled_out: [a-b-c]\n"}, "both confirmed and ruled out"),
        ({"expect.yaml": "confirmed: a-b-c\n"}, "expected a list of names"),
        ({"expect.yaml": "confirmed: [\n"}, "not valid YAML"),
    ],
)
def test_validation_names_the_problem(tmp_path: Path, files: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        load_scenario(make(tmp_path, "bad", files))


def test_faults_parse_into_records() -> None:
    faults = parse_faults({"hang": ["uname"], "huge": {"kernel_log": 52428800}, "exit": {"ipmi_sel": 3}})
    assert faults == (
        Fault("uname", "hang"),
        Fault("kernel_log", "huge", 52428800),
        Fault("ipmi_sel", "exit", 3),
    )


def test_host_names_must_be_unique(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    one = make(tmp_path / "a", "same", {})
    two = make(tmp_path, "same", {})
    with pytest.raises(UsageError, match="unique"):
        load_all([one, two])


def test_endpoints_stay_on_loopback_and_add_ports_beyond_250_hosts() -> None:
    points = [endpoint(i, 2222) for i in range(600)]
    assert len(set(points)) == 600
    assert points[0] == ("127.0.0.2", 2222) and points[249] == ("127.0.0.251", 2222)
    assert points[250] == ("127.0.0.2", 2223) and points[599] == ("127.0.0.101", 2224)
    assert all(a.startswith("127.0.0.") and 2 <= int(a.rsplit(".", 1)[1]) <= 251 for a, _ in points)


def test_the_first_port_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PORT_ENV, "31400")  # what tests/conftest.py sets for each test process
    assert default_port() == 31400
    monkeypatch.delenv(PORT_ENV)
    assert default_port() == DEFAULT_PORT == 2222
    for bad in ("0", "70000", "22x"):
        monkeypatch.setenv(PORT_ENV, bad)
        with pytest.raises(LabError, match=f"{PORT_ENV}='{bad}' is not a TCP port"):
            default_port()
