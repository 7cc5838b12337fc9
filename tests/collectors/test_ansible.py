"""Ansible import equals the real `ansible-inventory --list` on a table of inventories.

For every case both readers run: the built-in one (Ansible's rules re-implemented) and the one
through `ansible-inventory`. The ground truth is `ansible-inventory --list` itself (ansible-core is a
test dependency): the built-in reader must give the same hosts, the same merged variables per host
and the same group membership; both imports must give the same Pitstop host fields, and those must
be the connection variables Ansible reports.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pitstop.collectors import ansible, inventory

PROGRAM = shutil.which("ansible-inventory")

# (case id, main file name, {relative path: text})
CASES: list[tuple[str, str, dict[str, str]]] = [
    ("ini-basic", "hosts.ini", {"hosts.ini": "lonely\n[web]\nweb1 ansible_host=10.0.0.1\nweb2\n"}),
    (
        "ini-child-over-parent",
        "hosts.ini",
        {
            "hosts.ini": "[all:vars]\nansible_user=root\n[gpu]\ng1\ng2\n[gpu:vars]\nansible_user=ops\n"
            "[fleet:children]\ngpu\n[fleet:vars]\nansible_user=parent\nansible_port=2201\n"
        },
    ),
    (
        "ini-ranges-with-steps",
        "hosts.ini",
        {"hosts.ini": "[n]\nnode[01:08:2]\ndb-[a:c]\nr[1:2]n[1:3:2]\nx[8:10]\n[n:vars]\nansible_user=ops\n"},
    ),
    (
        "ini-host-port",
        "hosts.ini",
        {"hosts.ini": "[gpu]\ngpu10:2222\n10.0.0.5:2200 ansible_user=admin\ngpu11:2223 ansible_port=2300\n"},
    ),
    (
        "ini-host-over-group",
        "hosts.ini",
        {
            "hosts.ini": "[g]\nh1 ansible_user=own ansible_port=2022\nh2\n[g:vars]\n"
            "ansible_user=grp\nansible_port=22\n"
        },
    ),
    (
        "ini-group-vars-dir",
        "inv/hosts.ini",
        {
            "inv/hosts.ini": "[all:vars]\nansible_user=inline-all\n[gpu]\nn1 ansible_port=2001\nn2\n"
            "[gpu:vars]\nansible_user=inline-gpu\n",
            "inv/group_vars/all.yml": "ansible_port: 2999\nansible_user: dir-all\n",
            "inv/group_vars/gpu.yaml": "ansible_user: dir-gpu\nansible_ssh_private_key_file: /keys/gpu\n",
            "inv/host_vars/n1.yml": "ansible_host: 10.1.1.1\n",
            "inv/host_vars/n2": "ansible_port: 2777\n",
        },
    ),
    (
        "ini-group-vars-subdir",
        "hosts.ini",
        {
            "hosts.ini": "[db]\ndb1\ndb2\n",
            "group_vars/db/10-conn.yml": "ansible_user: first\nansible_port: 3022\n",
            "group_vars/db/20-more.yaml": "ansible_user: second\n",
            "host_vars/db2/main.yml": "ansible_user: hostdir\n",
        },
    ),
    (
        "ini-group-priority",
        "hosts.ini",
        {
            "hosts.ini": "[a]\nh\n[b]\nh\n[a:vars]\nansible_user=from-a\nansible_group_priority=10\n"
            "[b:vars]\nansible_user=from-b\n"
        },
    ),
    (
        "ini-siblings-by-name",
        "hosts.ini",
        {"hosts.ini": "[zeta]\nh\n[alpha]\nh\n[zeta:vars]\nansible_user=z\n[alpha:vars]\nansible_user=a\n"},
    ),
    (
        "ini-literal-values",
        "hosts.ini",
        {
            "hosts.ini": "[g]\n"
            "h1 ansible_port=2222 ansible_user='quoted user' ansible_ssh_common_args='-J bastion'\n"
            '[g:vars]\nansible_ssh_extra_args="-o ProxyJump=ops@gate:2022"\nflag=True\n'
        },
    ),
    (
        "ini-legacy-names",
        "hosts.ini",
        {"hosts.ini": "[old]\nlegacy ansible_ssh_host=10.3.3.3 ansible_ssh_user=old ansible_ssh_port=2023\n"},
    ),
    (
        "ini-deep-children",
        "hosts.ini",
        {
            "hosts.ini": "[leaf]\nl1\n[mid:children]\nleaf\n[top:children]\nmid\n"
            "[top:vars]\nansible_user=top\nansible_port=1\n[mid:vars]\n"
            "ansible_port=2\n[leaf:vars]\nansible_port=3\n"
        },
    ),
    (
        "ini-proxycommand",
        "hosts.ini",
        {
            "hosts.ini": "[g]\nviaw\nvianc\n[g:vars]\nrack=r7\n"
            "[g]\nviaw ansible_ssh_common_args='-o ProxyCommand=\"ssh -W %h:%p -q jump@bastion\"'\n"
            "vianc ansible_ssh_common_args='-o ProxyCommand=\"nc -X connect -x proxy:8080 %h %p\"'\n"
        },
    ),
    ("ini-connection-local", "hosts.ini", {"hosts.ini": "[ctl]\ncontroller ansible_connection=local\n"}),
    (
        "yaml-basic",
        "hosts.yml",
        {
            "hosts.yml": "all:\n  vars: {ansible_user: admin}\n  hosts:\n    solo: {ansible_host: 10.9.0.1}\n"
            "  children:\n    a100:\n      hosts:\n        node1: {ansible_ssh_private_key_file: /keys/k}\n"
            "        node2:\n"
        },
    ),
    (
        "yaml-child-over-parent",
        "hosts.yaml",
        {
            "hosts.yaml": "all:\n  vars: {ansible_user: root, ansible_port: 22}\n  children:\n    fleet:\n"
            "      vars: {ansible_user: parent}\n      children:\n        gpu:\n"
            "          vars: {ansible_user: child}\n"
            "          hosts: {g1: {}, g2: {ansible_user: own}}\n"
        },
    ),
    (
        "yaml-ranges-and-ports",
        "hosts.yml",
        {
            "hosts.yml": "all:\n  children:\n    n:\n      hosts:\n"
            "        'node[1:7:3]': {ansible_user: ops}\n"
            "        'gpu7:2200':\n        'db-[x:z]':\n"
        },
    ),
    (
        "yaml-group-in-two-places",
        "hosts.yml",
        {
            "hosts.yml": "all:\n  children:\n    east:\n      children:\n        shared:\n"
            "          hosts: {s1: {}}\n"
            "    west:\n      children:\n        shared:\n          hosts: {s2: {}}\n"
            "          vars: {ansible_port: 2525}\n"
        },
    ),
    (
        "yaml-top-level-groups-and-dirs",
        "site.yml",
        {
            "site.yml": "gpus:\n  hosts:\n    g1:\n    g2: {ansible_port: 2001}\n"
            "  vars: {ansible_user: yaml}\n",
            "group_vars/gpus.yml": "ansible_user: dir\n",
            "group_vars/all/conn.yml": "ansible_ssh_private_key_file: /keys/all\n",
            "host_vars/g1.yaml": "ansible_host: 10.4.4.4\n",
        },
    ),
]

CONNECTION = {
    "address": ("ansible_host", "ansible_ssh_host"),
    "port": ("ansible_port", "ansible_ssh_port"),
    "user": ("ansible_user", "ansible_ssh_user"),
    "identity_file": ("ansible_ssh_private_key_file",),
}


def _write(tmp_path: Path, main: str, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path / main


def _truth(path: Path) -> dict[str, Any]:
    """`ansible-inventory --list` parsed here, independently of the module under test."""
    assert PROGRAM, "ansible-core is a test dependency: pip install -e '.[test]'"
    out = subprocess.run(
        [PROGRAM, "--list", "-i", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={"ANSIBLE_INVENTORY_UNPARSED_FAILED": "True", "PATH": "/usr/bin:/bin", "HOME": str(path.parent)},
    ).stdout
    data = json.loads(out)
    hostvars = data.pop("_meta")["hostvars"]
    for body in data.values():
        for h in body.get("hosts", ()):
            hostvars.setdefault(h, {})
    return {"hostvars": hostvars, "groups": data}


def _membership(groups: dict[str, Any], host: str) -> set[str]:
    direct = {g for g, body in groups.items() if host in body.get("hosts", ())}
    found: set[str] = set()
    while direct:
        g = direct.pop()
        found.add(g)
        direct |= {p for p, body in groups.items() if g in body.get("children", ()) and p not in found}
    return found - {"all", "ungrouped"}


@pytest.mark.parametrize(("case", "main", "files"), CASES, ids=[c[0] for c in CASES])
def test_import_equals_ansible_inventory(tmp_path: Path, case: str, main: str, files: dict[str, str]) -> None:
    path = _write(tmp_path, main, files)
    truth = _truth(path)
    builtin = ansible.read_builtin(path)
    assert builtin.hostvars == truth["hostvars"]
    for host in truth["hostvars"]:
        assert set(builtin.group_names(host)) == _membership(truth["groups"], host), host
    own, through = (
        ansible.import_inventory(path, use_ansible=False),
        ansible.import_inventory(path, use_ansible=True),
    )
    assert (own.reader, through.reader) == ("built-in", "ansible-inventory")
    assert own.data["hosts"] == through.data["hosts"] and own.warnings == through.warnings
    assert set(own.data["hosts"]) == set(truth["hostvars"])
    for host, fields in own.data["hosts"].items():
        variables = truth["hostvars"][host]
        for key, names in CONNECTION.items():
            expected = next((variables[n] for n in reversed(names) if n in variables), None)
            assert fields.get(key) == expected, (host, key)
    inv = inventory.build({**own.data, "ssh_config": False})
    assert set(inv.hosts) == set(truth["hostvars"])


def test_table_size() -> None:
    ini = sum(1 for c in CASES if c[1].endswith(".ini"))
    assert len(CASES) >= 15 and ini >= 5 and len(CASES) - ini >= 5


def test_warnings_name_every_dropped_variable(tmp_path: Path) -> None:
    case = dict((c[0], c) for c in CASES)["ini-proxycommand"]
    got = ansible.import_inventory(_write(tmp_path, case[1], case[2]), use_ansible=False)
    assert got.data["hosts"]["viaw"]["jump"] == "jump@bastion" and "jump" not in got.data["hosts"]["vianc"]
    text = "\n".join(str(w) for w in got.warnings)
    assert "dropped ProxyCommand 'nc -X connect -x proxy:8080 %h %p': Pitstop would connect directly" in text
    assert "丢弃了 ProxyCommand" in "\n".join(w.render("zh") for w in got.warnings)
    assert (
        "converted ProxyCommand 'ssh -W %h:%p -q jump@bastion' to jump jump@bastion on 1 host(s): viaw"
        in text
    )
    assert "dropped variable rack (not a connection setting) on 2 host(s): vianc, viaw" in text


def test_ranges_and_errors() -> None:
    assert ansible.expand_pattern("node[01:08:2]") == ["node01", "node03", "node05", "node07"]
    assert ansible.expand_pattern("r[1:2]n[a:b]") == ["r1na", "r1nb", "r2na", "r2nb"]
    assert ansible.split_port("gpu10:2222") == ("gpu10", 2222) and ansible.split_port("[fe80::1]:22") == (
        "fe80::1",
        22,
    )
    from pitstop.core.errors import UsageError

    for bad in ("n[1:2:0]", "n[01:1]", "n[1]", "n[a:5]"):
        with pytest.raises(UsageError):
            ansible.expand_pattern(bad)
