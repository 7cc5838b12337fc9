"""Inventory loading, ssh_config fallback, expectations, group selection, Ansible import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pitstop.collectors import ansible, inventory
from pitstop.collectors.sshconfig import SshConfig
from pitstop.core.errors import NotFound, UsageError

SSH_CONFIG = """
Host bastion
    HostName 10.9.9.9
    User jumper
Host gpu*
    Port 2200
    User ops
    IdentityFile ~/.ssh/fleet_key
    ProxyJump bastion
Host gpu03 !gpu04
    HostName gpu03.internal
Host *
    User fallback
"""

INVENTORY = {
    "known_hosts": "/tmp/kh",
    "defaults": {"user": "defuser", "sudo": ["ipmi_sel"]},
    "groups": {
        "h100": {"expect": {"gpu_model": "H100", "form_factor": "SXM5", "gpu_count": 8}, "sudo": ["storcli"]},
        "lab": {"hosts": ["gpu03"]},
    },
    "hosts": {
        "gpu01": {
            "address": "10.0.0.1",
            "port": 22,
            "user": "root",
            "groups": ["h100"],
            "expect": {"gpu_count": 4},
            "jump": "none",
        },
        "gpu[02-04]": {"groups": ["h100"]},
        "bastion": {},
        "cpu1": {"address": "10.0.0.9", "tags": ["cpu"]},
    },
}


def _config(tmp_path: Path, text: str) -> SshConfig:
    path = tmp_path / "ssh_config"
    path.write_text(text)
    return SshConfig.from_paths([path])


@pytest.fixture
def inv(tmp_path: Path) -> inventory.Inventory:
    return inventory.build({**INVENTORY, "ssh_config_hosts": False}, ssh=_config(tmp_path, SSH_CONFIG))


def test_explicit_fields_win_over_ssh_config(inv: inventory.Inventory) -> None:
    h = inv.get("gpu01")
    assert (h.address, h.port, h.user, h.jump) == ("10.0.0.1", 22, "root", None)
    assert h.origins["address"] == h.origins["jump"] == "inventory"
    assert inv.jump_host(h) is None
    assert h.expect == {"gpu_model": "H100", "form_factor": "SXM5", "gpu_count": 4}
    assert h.sudo == {"ipmi_sel", "storcli"}


def test_ssh_config_fills_the_gaps(inv: inventory.Inventory) -> None:
    h = inv.get("gpu03")
    assert (h.address, h.port, h.user) == ("gpu03.internal", 2200, "ops")
    assert h.identity_files == (str(Path("~/.ssh/fleet_key").expanduser()),)
    assert inv.get("gpu04").address == "gpu04"  # negated pattern
    jump = inv.jump_host(h)
    assert jump is not None
    assert (jump.name, jump.address, jump.user) == ("bastion", "10.9.9.9", "jumper")
    assert inv.get("cpu1").user == "fallback"  # `Host *` beats inventory defaults, as ssh would
    assert h.origins["port"].startswith("ssh config ") and h.origins["port"].endswith("ssh_config:6")
    assert set(inv.get("gpu03").groups) == {"h100", "lab"}


def test_select_groups_ranges_and_lists(inv: inventory.Inventory) -> None:
    names = lambda expr: [h.name for h in inv.select(expr)]  # noqa: E731
    assert names("@h100") == ["gpu01", "gpu02", "gpu03", "gpu04"]
    assert names("h100") == names("@h100")
    assert names("gpu[02-03],cpu1,gpu02") == ["gpu02", "gpu03", "cpu1"]
    assert names("cpu") == ["cpu1"]  # tags are groups
    assert names("localhost")[0] == "localhost" and inv.get("localhost").is_local


def test_unknown_names_get_close_matches(inv: inventory.Inventory) -> None:
    with pytest.raises(NotFound, match=r"unknown host 'gpu1' .*did you mean gpu01"):
        inv.select("gpu1")
    with pytest.raises(NotFound, match=r"unknown host 'gpu05'.*in the inventory"):
        inv.select("gpu[04-06]")
    with pytest.raises(NotFound, match="unknown group 'h200'.*h100"):
        inv.select("@h200")


def test_select_cap_counts_groups_and_ranges(inv: inventory.Inventory) -> None:
    with pytest.raises(UsageError, match="expands to 10000 hosts"):
        inv.select("gpu[1-10000]")
    with pytest.raises(UsageError, match="expands to 5 hosts; the limit is 4"):
        inv.select("@h100,cpu1", max_hosts=4)


def test_load_file_and_errors(tmp_path: Path) -> None:
    f = tmp_path / "inv.yaml"
    f.write_text(yaml.safe_dump({"ssh_config": False, "hosts": [{"name": "a", "address": "127.0.0.5"}]}))
    assert inventory.load(f).get("a").address == "127.0.0.5"
    f.write_text("hosts: {a: {adress: x}}")
    with pytest.raises(UsageError, match="unknown field.*adress"):
        inventory.load(f)
    f.write_text("hosts: {'n[1-2]': {address: 10.0.0.1}}")
    with pytest.raises(UsageError, match="cannot share one address"):
        inventory.load(f)
    f.write_text("hosts: {a: {sudo: [uname]}}")
    with pytest.raises(UsageError, match="sudo is not allowed for uname"):
        inventory.load(f)
    f.write_text("groups: {g: {expct: {}}}\nhosts: {}")
    with pytest.raises(UsageError, match="group 'g': unknown field.*expct"):
        inventory.load(f)
    f.write_text("hosts: [unclosed")
    with pytest.raises(UsageError, match="not valid YAML"):
        inventory.load(f)
    with pytest.raises(UsageError, match="cannot read the inventory"):
        inventory.load(tmp_path / "missing.yaml")
    assert [h.name for h in inventory.load(None).select("localhost")] == ["localhost"]


def test_sshconfig_missing_file_is_empty(tmp_path: Path) -> None:
    assert SshConfig.from_paths([tmp_path / "nope"]).paths == ()
    assert _config(tmp_path, "Host x\n  Port=2022\n  ProxyJump none\n").resolve("x").port == 2022


ANSIBLE_INI = """
# fleet
[h100]
gpu01 ansible_host=10.0.1.1 ansible_user=ubuntu
gpu[02:03] ansible_port=2222

[h100:vars]
ansible_user=ops
ansible_ssh_common_args='-J bastion.example.com'

[storage]
nas1 ansible_host=10.0.2.1

[gpus:children]
h100
"""

ANSIBLE_YAML = """
all:
  vars: {ansible_user: admin}
  children:
    gpus:
      children:
        a100:
          hosts:
            node1: {ansible_host: 10.1.0.1, ansible_ssh_private_key_file: /keys/k}
            node2:
"""


def test_ansible_ini(tmp_path: Path) -> None:
    f = tmp_path / "hosts.ini"
    f.write_text(ANSIBLE_INI)
    data = ansible.import_inventory(f, use_ansible=False).data
    inv = inventory.build({**yaml.safe_load(ansible.to_yaml(data)), "ssh_config": False})
    g1, g3 = inv.get("gpu01"), inv.get("gpu03")
    assert (g1.address, g1.user, g1.jump) == ("10.0.1.1", "ubuntu", "bastion.example.com")
    assert (g3.port, g3.user) == (2222, "ops")
    assert [h.name for h in inv.select("@gpus")] == ["gpu01", "gpu02", "gpu03"]
    assert inv.get("nas1").groups == ("storage",)


def test_ansible_yaml(tmp_path: Path) -> None:
    f = tmp_path / "hosts.yml"
    f.write_text(ANSIBLE_YAML)
    inv = inventory.build({**ansible.import_inventory(f, use_ansible=False).data, "ssh_config": False})
    n1 = inv.get("node1")
    assert (n1.address, n1.user, n1.identity_files) == ("10.1.0.1", "admin", ("/keys/k",))
    assert [h.name for h in inv.select("gpus")] == ["node1", "node2"]


def test_cli_import_and_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pitstop.cli import main as cli

    monkeypatch.setenv("HOME", str(tmp_path))  # no personal ~/.ssh/config
    src, out = tmp_path / "hosts.ini", tmp_path / "inventory.yaml"
    src.write_text(ANSIBLE_INI)
    assert cli.main(["inventory", "import", str(src), "--out", str(out), "--reader", "builtin"]) == 0
    assert "wrote 4 host(s)" in capsys.readouterr().err
    assert cli.main(["inventory", "show", "@h100", "--inventory", str(out)]) == 0
    text = capsys.readouterr().out
    blocks = text.split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == ["gpu01", "gpu02", "gpu03"]
    assert "10.0.1.1   [imported from Ansible: " in blocks[0] and "bastion.example.com" in blocks[0]
    assert "ubuntu   [imported from Ansible" in blocks[0] and "{'" not in text
    assert f"{tmp_path}/.ssh/known_hosts" in blocks[0] and "/etc/ssh/ssh_known_hosts" in blocks[0]
    assert cli.main(["inventory", "show", "gpu03", "--json", "--inventory", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    g3 = data["hosts"][0]
    assert (g3["name"], g3["port"], g3["user"], g3["origins"]["port"]) == (
        "gpu03",
        2222,
        "ops",
        g3["origins"]["user"],
    )
    assert g3["jump_chain"] == [
        {"name": "bastion.example.com", "address": "bastion.example.com", "port": 22, "user": None}
    ]
    assert cli.main(["inventory", "show", "gpu01", "--lang", "zh", "--inventory", str(out)]) == 0
    assert "跳板链" in capsys.readouterr().out
    assert cli.main(["inventory", "show", "gpu1", "--inventory", str(out)]) == 3


def test_cli_show_without_inventory_fails_clearly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pitstop.cli import main as cli

    monkeypatch.delenv("PITSTOP_INVENTORY", raising=False)
    monkeypatch.chdir(Path(__file__).parent)  # no .env here
    assert cli.main(["inventory", "show"]) == 2
    captured = capsys.readouterr()
    assert "no inventory: pass --inventory FILE or set PITSTOP_INVENTORY" in captured.err and not captured.out


def test_jump_specs_and_hostname_tokens(tmp_path: Path) -> None:
    ssh = _config(tmp_path, "Host n*\n  HostName %h.cluster.local\n  ProxyJump ops@gate:2022\n")
    inv = inventory.build({"hosts": {"n1": {}, "n2": {"jump": "bad:port"}}}, ssh=ssh)
    n1 = inv.get("n1")
    assert n1.address == "n1.cluster.local"
    jump = inv.jump_host(n1)
    assert jump is not None and (jump.address, jump.port, jump.user) == ("gate", 2022, "ops")
    with pytest.raises(UsageError, match="bad jump host"):
        inv.jump_host(inv.get("n2"))
