"""The host system checks on real outputs (tests/fixtures/outputs) and minimal literal ones."""

from __future__ import annotations

import json

from tests.collectors.check_inputs import check, fixture, missing, ok

HOSTS_UBUNTU = "outputs/etc-hosts/ubuntu1804-127.0.1.1-hostname.txt"


def nvml(*jobs: dict) -> str:
    """The NVML probe's JSON with these GPU processes."""
    return json.dumps({"probe": "pitstop-nvml", "source": "nvml", "gpus": [], "jobs": list(jobs)})


PROBE_NO_JOBS = nvml()


def test_hostname_loopback() -> None:
    name = ok("hostname", "kbrazil-ubuntu\n")
    hosts = fixture("etc_hosts", HOSTS_UBUNTU)
    verdict = check("hostname_loopback", name, hosts, missing("getent_self"))
    assert verdict.verdict == "confirmed" and verdict.evidence[0].lines == ("127.0.1.1 kbrazil-ubuntu",)
    routable = ok("getent_self", "10.0.3.17       kbrazil-ubuntu\n")
    assert check("hostname_loopback", name, routable, hosts).verdict == "ruled_out"  # getent decides first
    assert check("hostname_loopback", hosts).verdict == "inconclusive"  # the name is never guessed
    other = ok("hostname", "gpu-node-9\n")  # /etc/hosts does not list it: DNS decides
    assert check("hostname_loopback", other, hosts, missing("getent_self")).verdict == "inconclusive"


def test_port_listening() -> None:
    ss = fixture("ss_listen", "outputs/ss-ltn/ubuntu1804-ss-tulpen-docker-dnsmasq.txt")
    probe = ok("nvml_probe", PROBE_NO_JOBS)
    free = check("port_listening", ss, probe)
    assert free.verdict == "ruled_out" and "29500" in str(free.reason)
    held = ok(
        "ss_listen",
        "State  Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n"
        "LISTEN 0      4096         0.0.0.0:29500      0.0.0.0:*\n",
    )
    assert check("port_listening", held, probe).verdict == "confirmed"
    assert check("port_listening", held).verdict == "inconclusive"  # a running job may own it


def test_shm_mode() -> None:
    good = ok("shm_stat", "drwxrwxrwt 1777 root root directory /dev/shm\n")
    assert check("shm_mode", good).verdict == "ruled_out"
    bad = ok("shm_stat", "drwxr-xr-x 755 root root directory /dev/shm\n")
    verdict = check("shm_mode", bad)
    assert verdict.verdict == "confirmed" and "755" in str(verdict.reason)
    ro = fixture("mount", "outputs/mount/centos77-cgroup-v1-xfs.txt")
    assert check("shm_mode", ro).verdict == "inconclusive"  # rw mount, mode unknown


def test_logind_remove_ipc() -> None:
    default = ok("logind_conf", "# /etc/systemd/logind.conf\n[Login]\n#RemoveIPC=yes\n")
    assert check("logind_remove_ipc", default).verdict == "inconclusive"
    on = ok(
        "logind_conf",
        "[Login]\n#RemoveIPC=yes\n\n# /etc/systemd/logind.conf.d/x.conf\n[Login]\nRemoveIPC=yes\n",
    )
    assert check("logind_remove_ipc", on).verdict == "confirmed"
    off = ok("logind_conf", "[Login]\nRemoveIPC=no\n")
    assert check("logind_remove_ipc", off).verdict == "ruled_out"


def test_nccl_library() -> None:
    two = ok(
        "ldconfig_p",
        "812 libs found in cache `/etc/ld.so.cache'\n"
        "\tlibnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
        "\tlibnccl.so.2 (libc6,x86-64) => /usr/local/cuda/lib64/libnccl.so.2\n",
    )
    assert check("nccl_library", two).verdict == "confirmed"
    none = ok(
        "ldconfig_p",
        "812 libs found in cache `/etc/ld.so.cache'\n\tlibc.so.6 (libc6,x86-64) => /lib/libc.so.6\n",
    )
    assert check("nccl_library", none).verdict == "inconclusive"  # no job environment read
    jobs = ok("nvml_probe", nvml({"pid": 7, "name": "python", "environ": {}}))
    assert check("nccl_library", none, jobs).verdict == "ruled_out"


def test_rdma_stack_versions() -> None:
    ofed = fixture("ofed_info", "outputs/ofed_info-s/mlnx-ofed-5.0-2.1.8.0.txt")
    assert check("rdma_stack_versions", ofed, ok("mlx5_version", "5.0-2.1.8\n")).verdict == "ruled_out"
    assert check("rdma_stack_versions", ofed, ok("mlx5_version", "5.8-1.0.1\n")).verdict == "confirmed"
    assert check("rdma_stack_versions", ofed, missing("mlx5_version")).verdict == "inconclusive"
    assert check("rdma_stack_versions", missing("ofed_info")).verdict == "inconclusive"


def test_roce_gid_index() -> None:
    empty = fixture("show_gids", "outputs/show_gids/pod-calico-no-gids-found-0.txt")
    verdict = check("roce_gid_index", empty)
    assert verdict.verdict == "confirmed" and verdict.evidence[0].lines == ("n_gids_found=0",)
    table = fixture("show_gids", "outputs/show_gids/connectx6-roce-v1-v2-ipv4-index5.txt")
    assert check("roce_gid_index", table).verdict == "inconclusive"  # NCCL version and setting unknown
    old = ok("torch_probe", "2.1.0+cu121 12.1 True\nnccl 2.18.1\n")
    assert check("roce_gid_index", table, old).verdict == "confirmed"  # NCCL < 2.21 uses index 0 (v1)
    new = ok("torch_probe", "2.5.1+cu124 12.4 True\nnccl 2.21.5\n")
    assert check("roce_gid_index", table, new).verdict == "ruled_out"
    five = nvml({"pid": 7, "name": "python", "environ": {"NCCL_IB_GID_INDEX": "5"}})
    assert check("roce_gid_index", table, ok("nvml_probe", five)).verdict == "ruled_out"
    zero = nvml({"pid": 7, "name": "python", "environ": {"NCCL_IB_GID_INDEX": "0"}})
    assert check("roce_gid_index", table, ok("nvml_probe", zero)).verdict == "confirmed"
