"""The catalog: names and argv exactly as docs/ARCHITECTURE.md, well-formed declarations, parameters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pitstop.collectors import catalog

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"
_TABLE = re.compile(
    r"<!-- generated: catalog.markdown_table\(\)[^\n]*-->\n(.*?)<!-- end of generated table -->", re.S
)


def test_architecture_table_is_the_catalog() -> None:
    found = _TABLE.search(ARCHITECTURE.read_text(encoding="utf-8"))
    assert found, "docs/ARCHITECTURE.md lost its generated catalog table markers"
    assert found.group(1) == catalog.markdown_table(), (
        "regenerate the table: python3 -c 'from pitstop.collectors.catalog import markdown_table; "
        "print(markdown_table())'"
    )


def test_table_shows_parameters_and_probes_by_name() -> None:
    table = catalog.markdown_table()
    assert "| `ethtool_i` | `ethtool -i IFACE` |" in table
    assert "`python3 -c <collectors/probes/torch_probe.py>`" in table
    assert "(only when `kernel_log` is missing, failed or denied)" in table


@pytest.mark.parametrize("c", catalog.CATALOG, ids=lambda c: c.name)
def test_declaration_is_well_formed(c: catalog.Collector) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9_]*", c.name) and c.doc
    assert 0 < c.timeout_s <= 60 and 0 < c.output_cap <= 8 * catalog.MiB
    assert (catalog.PARAM in c.argv) == bool(c.param or c.argv_probe)
    assert not (c.param and c.fallback_for)
    for source in (c.param.source if c.param else None, c.fallback_for):
        assert source is None or source in catalog.BY_NAME
    assert c.param is None or (
        c.param.pattern.match(c.param.example) and (c.param.extract is None) == (c.param.source is None)
    )
    assert c.fallback_when is None or c.fallback_for
    assert callable(c.parser) and (c.lab_file is None or re.fullmatch(r"[A-Za-z0-9_.-]+\.txt", c.lab_file))


def test_lab_files_are_unique() -> None:
    files = [c.lab_file for c in catalog.CATALOG if c.lab_file]
    assert len(files) == len(set(files))


def test_interfaces_come_from_ip_link_and_are_validated() -> None:
    text = (
        "1: lo: <LOOPBACK,UP> mtu 65536\n2: eth0: <BROADCAST> mtu 1500\n"
        "3: ib0@if7: <UP> mtu 2044\n4: evil;rm: <UP>\n5: $(reboot): <UP>\n"
        "6: averyveryverylongname0: <UP>\n"
    )
    ethtool = catalog.BY_NAME["ethtool_i"]
    assert catalog.param_values(ethtool, text) == ("eth0", "ib0")
    assert catalog.render(ethtool, "eth0").argv == ("ethtool", "-i", "eth0")
    with pytest.raises(ValueError):
        catalog.render(ethtool, "eth0; reboot")


def test_probes_are_read_at_call_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "PROBES_DIR", tmp_path)
    with pytest.raises(catalog.ProbeMissing, match="nvml_probe.py is missing"):
        catalog.render(catalog.BY_NAME["nvml_probe"])
    (tmp_path / "nvml_probe.py").write_text("print('v1')\n")
    assert catalog.render(catalog.BY_NAME["nvml_probe"]).argv[-1] == "print('v1')\n"
    (tmp_path / "nvml_probe.py").write_text("print('v2')\n")
    assert catalog.render(catalog.BY_NAME["nvml_probe"]).argv[-1] == "print('v2')\n"
    (tmp_path / "torch_probe.py").write_text("import torch\nprint(torch.__version__)\n")
    assert catalog.render(catalog.BY_NAME["torch_probe"]).argv == (
        "python3",
        "-c",
        "import torch\nprint(torch.__version__)\n",
    )


def test_display_names_probes_instead_of_inlining_them() -> None:
    torch = catalog.render(catalog.BY_NAME["torch_probe"])
    assert catalog.display(torch.argv) == "python3 -c <collectors/probes/torch_probe.py>"
    nvml = catalog.render(catalog.BY_NAME["nvml_probe"])
    assert catalog.display(nvml.argv) == "python3 -c <collectors/probes/nvml_probe.py>"
    assert catalog.display(("python3", "-c", "print(1)")) == "python3 -c 'print(1)'"
    assert catalog.display(("ethtool", "-i", "eth0")) == "ethtool -i eth0"
