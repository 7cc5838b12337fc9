"""Log, PCIe, network, storage, CPU, BMC, fabric and container checks on facts from real outputs."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.collectors.check_inputs import (
    FIXTURES,
    check,
    context,
    denied,
    failed,
    fixture,
    missing,
    ok,
    shared,
)
from tests.collectors.fixture_verdicts import entries, verdicts


def klog(shared_dir: Path, rel: str) -> object:
    return shared(shared_dir, "kernel_log", rel)


# --- kernel log ---------------------------------------------------------------------------------


def test_xid_confirmed_with_pci_and_lines(shared_dir: Path) -> None:
    verdict = check(
        "kernel_log_match",
        klog(shared_dir, "dmesg/xid-119-gsp-rpc-timeout-h100.txt"),
        params={"xid": [119, 120]},
    )
    assert verdict.verdict == "confirmed" and "PCI 9b:00" in str(verdict.reason)
    assert "Xid (PCI:0000:9b:00): 119" in verdict.evidence[0].lines[0]
    assert verdict.evidence[0].command == "journalctl -k -b --no-pager -o short-iso"
    assert verdict.evidence[0].rerun.endswith(r"| grep -iP 'Xid \(.*\): (119|120)\b'")
    assert (
        check(
            "kernel_log_match", klog(shared_dir, "dmesg/xid-119-gsp-rpc-timeout-h100.txt"), params={"xid": 79}
        ).verdict
        == "ruled_out"
    )


def test_window_keeps_old_events_out(shared_dir: Path) -> None:
    log = klog(shared_dir, "dmesg/xid-13-109-ctime.txt")  # August 2024
    assert check("kernel_log_match", log, params={"xid": 13}).verdict == "confirmed"  # this boot, no --since
    recent = context(since=datetime(2026, 2, 28, tzinfo=UTC))
    verdict = check("kernel_log_match", log, params={"xid": 13}, ctx=recent)
    assert verdict.verdict == "ruled_out" and "older line(s) outside the window ignored" in str(
        verdict.reason
    )
    assert check("kernel_log_match", log, params={"xid": 13, "hours": 24}).verdict == "ruled_out"


def test_untimed_lines_count_as_this_boot(shared_dir: Path) -> None:
    log = klog(shared_dir, "dmesg/xid-63-row-remapper-new-row.txt")
    verdict = check(
        "kernel_log_match", log, params={"xid": 63}, ctx=context(since=datetime(2026, 2, 28, tzinfo=UTC))
    )
    assert verdict.verdict == "confirmed" and "without a wall-clock time" in str(verdict.reason)


def test_sympathetic_xid_defers_to_the_earlier_one(shared_dir: Path) -> None:
    log = klog(shared_dir, "dmesg/peermem-invalid-context-iso.txt")  # 48, 63, then 94
    follow = check("kernel_log_match", log, params={"xid": 94, "unless_xid": [48]})
    assert follow.verdict == "ruled_out" and "Xid 48 also occurred" in str(follow.reason)
    lone = check(
        "kernel_log_match",
        klog(shared_dir, "journalctl-k/xid-45-after-nvlink-xid-145-149.txt"),
        params={"xid": [43, 45], "unless_xid": [48, 74, 79, 94, 95]},
    )
    assert lone.verdict == "confirmed"


@pytest.mark.parametrize(
    ("rel", "pattern"),
    [
        ("dmesg/fallen-off-bus-multiline-570-open.txt", r"fallen off the bus"),
        ("dmesg/fallen-off-bus-legacy-optimus.txt", r"fallen off the bus"),
        ("journalctl-k/rtx5090-rm-init-adapter-failed-syslog.txt", r"RmInitAdapter failed"),
        ("dmesg/rcu-sched-self-detected-stall-3.14-syslog.txt", r"rcu_sched .*stall"),
        ("dmesg/aer-fatal-cmpltto-reltime.txt", r"AER: .*Uncorrected \(Fatal\)"),
        ("dmesg/nvrm-probe-not-called-nouveau.txt", r"probe routine was not called"),
    ],
)
def test_kernel_patterns(shared_dir: Path, rel: str, pattern: str) -> None:
    assert (
        check("kernel_log_match", klog(shared_dir, rel), params={"pattern": pattern}).verdict == "confirmed"
    )
    clean = klog(shared_dir, "journalctl-k/k8s-node-short-iso.txt")
    assert check("kernel_log_match", clean, params={"pattern": pattern}).verdict == "ruled_out"


def test_unreadable_kernel_log_is_inconclusive(shared_dir: Path) -> None:
    verdict = check(
        "kernel_log_match",
        denied("kernel_log", "Permission denied"),
        denied("dmesg", "dmesg: read kernel buffer failed: Operation not permitted"),
        params={"xid": 79},
    )
    assert verdict.verdict == "inconclusive" and "not readable without root" in str(verdict.reason)
    via_dmesg = check(
        "kernel_log_match",
        denied("kernel_log", "Permission denied"),
        shared(shared_dir, "dmesg", "dmesg/aer-surprise-down-then-xid-79-tesla.txt"),
        params={"xid": 79},
    )
    assert via_dmesg.verdict == "confirmed" and via_dmesg.evidence[0].command == "dmesg --time-format iso"


def test_presence_can_rule_out(shared_dir: Path) -> None:
    log = klog(shared_dir, "journalctl-k/i40e-boot-dcb-init-failed.txt")
    params = {"pattern": "i40e: Intel.*Driver", "when_found": "ruled_out", "when_absent": "inconclusive"}
    assert check("kernel_log_match", log, params=params).verdict == "ruled_out"
    other = klog(shared_dir, "journalctl-k/k8s-node-short-iso.txt")
    assert check("kernel_log_match", other, params=params).verdict == "inconclusive"


# --- BMC ----------------------------------------------------------------------------------------


def test_sel_power_events_in_window(shared_dir: Path) -> None:
    sel = shared(shared_dir, "ipmi_sel", "ipmitool-sel/sel-list-2014-ps1-ac-lost-excerpt.txt")
    params = {
        "pattern": "AC lost|Power Supply|voltage",
        "consistent_with": "consistent with an input power problem",
    }
    in_2014 = context(since=datetime(2014, 6, 1, tzinfo=UTC))
    verdict = check("ipmi_sel_match", sel, params=params, ctx=in_2014)
    assert verdict.verdict == "confirmed" and "consistent with" in str(verdict.reason)
    assert any("AC lost" in line for line in verdict.evidence[0].lines)
    stale = check("ipmi_sel_match", sel, params=params)  # default: last 7 days before NOW
    assert stale.verdict == "ruled_out" and "older event(s) ignored" in str(stale.reason)
    free = shared(shared_dir, "ipmi_sel", "ipmitool-sel/freeipmi-ipmi-sel-psu-failure.txt")
    assert (
        check(
            "ipmi_sel_match",
            free,
            params={"pattern": "Power Supply Failure"},
            ctx=context(since=datetime(2024, 12, 1, tzinfo=UTC)),
        ).verdict
        == "confirmed"
    )
    root = check("ipmi_sel_match", denied("ipmi_sel", "Could not open device at /dev/ipmi0"))
    assert root.verdict == "inconclusive" and "needs root" in str(root.reason)


def test_sel_undated_events_are_not_in_the_window() -> None:
    """PostInit/Pre-Init records predate the BMC clock: they neither confirm nor let a rule-out stand."""
    sel = fixture("ipmi_sel", "outputs/ipmitool-sel/freeipmi-postinit-ps2-failure-then-2017-dated.txt")
    params = {"pattern": "Power Supply.*Failure"}
    verdict = check("ipmi_sel_match", sel, params=params)
    assert verdict.verdict == "inconclusive" and "no date" in str(verdict.reason)
    assert any("PostInit" in line for line in verdict.evidence[0].lines)
    in_2017 = check("ipmi_sel_match", sel, params=params, ctx=context(since=datetime(2017, 7, 1, tzinfo=UTC)))
    assert in_2017.verdict == "confirmed" and all("Jul-20-2017" in line for line in in_2017.evidence[0].lines)
    assert check("ipmi_sel_match", sel, params={"pattern": "Fan"}).verdict == "ruled_out"


def _fan_sel_params() -> dict[str, object]:
    """The fan-failure entry's own SEL parameters (kb/pitfalls/fan-failure.yaml)."""
    (fan,) = [p for p in entries() if p.id == "fan-failure"]
    return next(dict(r.params) for r in fan.checks if r.check == "ipmi_sel_match")


def test_sel_fan_failure_states_only() -> None:
    """Real Supermicro fan records: Lower Critical/Non-recoverable going low asserted is a fan failure; a
    deasserted record never is; a failure every record of which was deasserted later is inconclusive."""
    params = _fan_sel_params()
    flapping = fixture(
        "ipmi_sel", "outputs/ipmitool-sel/sel-list-supermicro-x11sch-fan-lcr-flapping-then-reasserted.txt"
    )
    in_2023 = context(since=datetime(2023, 10, 1, tzinfo=UTC))
    verdict = check("ipmi_sel_match", flapping, params=params, ctx=in_2023)
    assert verdict.verdict == "confirmed" and "3 BMC event(s)" in str(verdict.reason)
    assert not any("Deasserted" in line for line in verdict.evidence[0].lines)
    assert check("ipmi_sel_match", flapping, params=params).verdict == "ruled_out"  # 2023: outside 7 days
    recovered = fixture(
        "ipmi_sel",
        "outputs/ipmitool-sel/sel-list-supermicro-x10dru-fans-lcr-lnr-asserted-then-deasserted.txt",
    )
    verdict = check(
        "ipmi_sel_match", recovered, params=params, ctx=context(since=datetime(2024, 12, 1, tzinfo=UTC))
    )
    assert verdict.verdict == "inconclusive" and "deasserted later" in str(verdict.reason)
    assert any(
        "Fan #0x41 | Lower Critical going low  | Deasserted" in line for line in verdict.evidence[0].lines
    )
    # the deasserted records alone (constructed: the real file's Deasserted lines only) decide nothing
    text = (
        FIXTURES / "outputs/ipmitool-sel/sel-list-supermicro-x10dru-fans-lcr-lnr-asserted-then-deasserted.txt"
    )
    only_ends = "".join(line for line in text.read_text().splitlines(True) if "Deasserted" in line)
    ends = check("ipmi_sel_match", ok("ipmi_sel", only_ends), params=params, ctx=in_2023)
    assert ends.verdict == "ruled_out"
    # benign fan states (constructed on the real record layout, in the words `ipmitool sdr elist` prints
    # for healthy fans on an HP ProLiant DL360 G7: Transition to Running, Fully Redundant, Device Present)
    line = "   5 | 10/19/2023 | 05:20:59 PM CEST | Fan #0x46 | {event} | {direction}\n"
    benign = [
        ("Transition to Running", "Asserted"),
        ("Fully Redundant", "Asserted"),
        ("Device Present", "Asserted"),
        ("Upper Non-critical going high", "Asserted"),
        ("Upper Non-critical going high", "Deasserted"),
        ("Lower Critical going low", "Deasserted"),
    ]
    for event, direction in benign:
        sel = ok("ipmi_sel", line.format(event=event, direction=direction))
        assert check("ipmi_sel_match", sel, params=params, ctx=in_2023).verdict == "ruled_out", event
    failing = [
        "Redundancy Lost",
        "Redundancy Degraded",
        "Device Removed/Device Absent",
        "Transition to Degraded",
    ]
    for event in failing:
        sel = ok("ipmi_sel", line.format(event=event, direction="Asserted"))
        assert check("ipmi_sel_match", sel, params=params, ctx=in_2023).verdict == "confirmed", event
    # FreeIPMI words a deassertion in the event text
    free = ok(
        "ipmi_sel",
        "1 | Oct-19-2023 | 17:15:35 | FAN1 | Fan | Critical | Lower Critical - Going Low - Deassertion\n",
    )
    assert check("ipmi_sel_match", free, params=params, ctx=in_2023).verdict == "ruled_out"


def test_sel_psu_redundancy_is_a_power_sensor() -> None:
    """A power supply's failure and redundancy lost confirm the PSU cause; a fan redundancy sensor's
    "Redundancy Lost" is the fan cause's, not a PSU failure."""
    (psu,) = [p for p in entries() if p.id == "psu-failure-redundancy-lost"]
    params = next(dict(r.params) for r in psu.checks if r.check == "ipmi_sel_match")
    in_2023 = context(since=datetime(2023, 8, 1, tzinfo=UTC))
    real = fixture(
        "ipmi_sel", "outputs/ipmitool-sel/sel-list-supermicro-psu-failure-ac-lost-redundancy-lost-2023.txt"
    )
    verdict = check("ipmi_sel_match", real, params=params, ctx=in_2023)
    assert verdict.verdict == "confirmed" and "6 BMC event(s)" in str(verdict.reason)
    # only the real file's redundancy records (constructed subset) still confirm: a power sensor's
    text = FIXTURES / "outputs/ipmitool-sel/sel-list-supermicro-psu-failure-ac-lost-redundancy-lost-2023.txt"
    redundancy = "".join(line for line in text.read_text().splitlines(True) if "Redundancy" in line)
    assert (
        check("ipmi_sel_match", ok("ipmi_sel", redundancy), params=params, ctx=in_2023).verdict == "confirmed"
    )
    # constructed: the same record from a fan redundancy sensor
    fan = ok("ipmi_sel", redundancy.replace("Power Supply #0x3e", "Fan #0x3e"))
    assert check("ipmi_sel_match", fan, params=params, ctx=in_2023).verdict == "ruled_out"
    assert check("ipmi_sel_match", fan, params=_fan_sel_params(), ctx=in_2023).verdict == "inconclusive"


def test_sel_absence_needs_a_sel_listing(shared_dir: Path) -> None:
    """An empty SEL rules out; another command's output (here a real `ipmitool sensor`) does not."""
    assert check("ipmi_sel_match", ok("ipmi_sel", "SEL has no entries\n")).verdict == "ruled_out"
    sensors = shared(shared_dir, "ipmi_sel", "ipmitool-sensor/bpn-fan-nc-single-row.txt")
    foreign = check("ipmi_sel_match", sensors, params={"pattern": "Power Supply"})
    assert foreign.verdict == "inconclusive" and "does not read as a BMC event list" in str(foreign.reason)


def test_empty_sel_on_stderr_rules_out() -> None:
    """ipmitool prints 'SEL has no entries' on stderr (exit 0 now, nonzero in old releases): an empty SEL,
    while another stderr sentence with no records stays a failed read."""
    empty = (FIXTURES / "outputs/ipmitool-sel/stderr-sel-has-no-entries.txt").read_text(encoding="utf-8")
    for exit_code in (1, 255):
        assert check("ipmi_sel_match", failed("ipmi_sel", empty, exit_code)).verdict == "ruled_out"
    broken = check("ipmi_sel_match", failed("ipmi_sel", "Get SEL Info command failed\n"))
    assert broken.verdict == "inconclusive" and "Get SEL Info command failed" in str(broken.reason)


def test_sensors(shared_dir: Path) -> None:
    fan = shared(shared_dir, "ipmi_sensor", "ipmitool-sensor/bpn-fan-nc-single-row.txt")
    assert check("ipmi_sensor_alarm", fan, params={"pattern": "fan|RPM"}).verdict == "confirmed"
    temps = shared(shared_dir, "ipmi_sensor", "ipmitool-sensor/supermicro-epyc-sensor-head-excerpt.txt")
    assert check("ipmi_sensor_alarm", temps, params={"pattern": "Temp"}).verdict == "ruled_out"
    assert check("ipmi_sensor_alarm", temps, params={"pattern": "fan"}).verdict == "inconclusive"
    hpe = fixture("ipmi_sensor", "outputs/ipmitool-sensor/hpe-ilo-discrete-psu-memory-freebsd.txt")
    psu = check("ipmi_sensor_alarm", hpe, params={"pattern": "^PS|Power Supply|PSU"})
    assert psu.verdict == "inconclusive" and "Power Supply 1" in str(psu.reason)  # discrete: no reading
    assert check("ipmi_sensor_alarm", hpe, params={"pattern": "fan"}).verdict == "ruled_out"  # 12.544 % ok
    temps = check("ipmi_sensor_alarm", hpe, params={"pattern": "Ambient|Max"})  # 'na' rows: absent sensors
    assert temps.verdict == "ruled_out" and [x.split("|")[0] for x in temps.evidence[0].lines] == [
        "01-Inlet Ambient "
    ]
    cmm = fixture(
        "ipmi_sensor", "outputs/ipmitool-sensor/cmm-psu-vout-iout-discrete-present-status-fan-rpm-excerpt.txt"
    )
    assert (
        check("ipmi_sensor_alarm", cmm, params={"pattern": "^PS|PSU"}).verdict == "inconclusive"
    )  # PSUn_Status
    assert check("ipmi_sensor_alarm", cmm, params={"pattern": "fan|RPM"}).verdict == "ruled_out"
    no_reading = ok("ipmi_sensor", "FAN1             | na         | RPM        | ok    | na        | na\n")
    assert check("ipmi_sensor_alarm", no_reading, params={"pattern": "fan"}).verdict == "inconclusive"


# --- PCIe ---------------------------------------------------------------------------------------


def test_pcie_links(shared_dir: Path) -> None:
    bcm = shared(shared_dir, "lspci", "lspci-vv/bcm5720-width-downgraded-benign.txt")
    assert check("pcie_link_downgraded", bcm).verdict == "inconclusive"  # not a GPU: do not over-trigger
    assert check("pcie_link_downgraded", bcm, params={"device": "nic"}).verdict == "confirmed"
    gpu = shared(shared_dir, "lspci", "lspci-vv/h100-gpu-gen5-x16-ok.txt")
    assert check("pcie_link_downgraded", gpu).verdict == "ruled_out"
    narrowed = ok(
        "lspci",
        "19:00.0 3D controller: NVIDIA Corporation Device 2330 (rev a1)\n"
        "\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM L1\n"
        "\t\tLnkSta:\tSpeed 32GT/s (ok), Width x8 (downgraded)\n\tKernel driver in use: nvidia\n",
    )
    verdict = check("pcie_link_downgraded", narrowed)
    assert verdict.verdict == "confirmed" and "Width x8 (downgraded)" in verdict.evidence[0].lines[0]
    switch = shared(shared_dir, "lspci", "lspci-vv/pex890xx-switch-port-speed-downgraded.txt")
    assert check("pci_acs_redirect", switch).verdict == "inconclusive"  # no GPU below it
    full = fixture("lspci", "outputs/lspci-vv/xe9680-8x-h100-full-lspci-vvv.txt")
    acs = check("pci_acs_redirect", full)  # ReqRedir+ only on a PMC-Sierra switch above no GPU
    assert acs.verdict == "ruled_out" and "PMC-Sierra" not in " ".join(acs.evidence[0].lines)
    assert check("pci_kernel_driver", gpu).verdict == "ruled_out"
    nouveau = ok(
        "lspci",
        "01:00.0 VGA compatible controller: NVIDIA Corporation GA102\n\tKernel driver in use: nouveau\n",
    )
    assert check("pci_kernel_driver", nouveau).verdict == "confirmed"
    nnk = fixture("lspci", "outputs/lspci-nnk/dell-xps-9570-intel-uhd630-gtx1050ti-nvidia.txt")
    driver = check("pci_kernel_driver", nnk)  # the NVIDIA `3D controller [0302]` is found, the Intel iGPU not
    assert driver.verdict == "ruled_out" and driver.evidence[0].lines[0].startswith("01:00.0")


# --- network and InfiniBand ---------------------------------------------------------------------


def test_nic_driver(shared_dir: Path) -> None:
    i40e = ok(
        "ethtool_i",
        "interface: eth2\ndriver: i40e\nversion: 2.8.20-k\nfirmware-version: 7.10 0x80006471\n"
        "bus-info: 0000:19:00.0\n\ninterface: eth3\ndriver: mlx5_core\nversion: 5.8-1.0.1\n",
    )
    old = check("nic_driver", i40e, params={"driver": "i40e", "min_version": "2.23.17"})
    assert old.verdict == "confirmed" and "version: 2.8.20-k" in old.evidence[0].lines
    assert (
        check("nic_driver", i40e, params={"driver": "i40e", "min_version": "2.8.10"}).verdict == "ruled_out"
    )
    assert (
        check(
            "nic_driver", i40e, params={"driver": "i40e"}, ctx=context(nic_driver_min={"i40e": "2.22"})
        ).verdict
        == "confirmed"
    )
    ice = shared(shared_dir, "ethtool_i", "ethtool-i/ice-e810-fedora-5.19.txt")
    assert check("nic_driver", ice, params={"driver": "i40e", "min_version": "2.22"}).verdict == "ruled_out"
    # in-tree drivers print the kernel's release (or no version at all): not a driver version to compare
    in_tree = check("nic_driver", ice, params={"driver": "ice", "min_version": "1.9.11"})
    assert in_tree.verdict == "inconclusive" and "5.19.4-100.fc35.x86_64" in str(in_tree.reason)
    e1000e = fixture("ethtool_i", "outputs/ethtool-i/e1000e-5.11-ubuntu-kernel.txt")
    assert (
        check("nic_driver", e1000e, params={"driver": "e1000e", "min_version": "3.8.4"}).verdict
        == "inconclusive"
    )
    for name in (
        "mlx5_core-in-tree-6.5.0-14-generic-cx4lx-hp-fw.txt",
        "mlx5_core-in-tree-6.4.0-rc2-net-next-debug-kernel.txt",  # an rc kernel's release too
        "mlx5_core-in-tree-5.11.0-net-next-named-branch.txt",  # a release whose suffix is a branch name
    ):
        mlx5 = fixture("ethtool_i", f"outputs/ethtool-i/{name}")
        verdict = check("nic_driver", mlx5, params={"driver": "mlx5_core", "min_version": "5.8"})
        assert verdict.verdict == "inconclusive"


def test_nic_driver_mellanox_in_tree_fixed_string(shared_dir: Path) -> None:
    """In-tree mlx5_core prints a fixed `version: 5.0-0` (mlx4_en `4.0-0`, older mlx5 `3.0-1 (January
    2015)`): not a MLNX_OFED release, so an OFED minimum cannot be compared with it."""
    ofed_min = {"driver": "mlx5_core", "min_version": "5.8-1.0.1"}
    for name in (
        "mlx5_core-in-tree-fixed-5.0-0-kernel-5.5.0-rc1.txt",
        "mlx5_core-in-tree-fixed-5.0-0-connectx4-mcx416a.txt",
    ):
        mlx5 = fixture("ethtool_i", f"outputs/ethtool-i/{name}")
        verdict = check("nic_driver", mlx5, params=ofed_min)
        assert verdict.verdict == "inconclusive" and "fixed string" in str(verdict.reason), name
        assert "version: 5.0-0" in verdict.evidence[0].lines
    # with the host's kernel release known (the post printed `uname -r`: 5.5.0-rc1+) it stays unknown
    rc1 = fixture("ethtool_i", "outputs/ethtool-i/mlx5_core-in-tree-fixed-5.0-0-kernel-5.5.0-rc1.txt")
    uname = ok("uname", "Linux host 5.5.0-rc1+ #1 SMP x86_64 GNU/Linux\n")
    assert check("nic_driver", rc1, uname, params=ofed_min).verdict == "inconclusive"
    # the operator's minimum from the inventory, as for i40e
    by_inventory = check(
        "nic_driver", rc1, params={"driver": "mlx5_core"}, ctx=context(nic_driver_min={"mlx5_core": "5.8"})
    )
    assert by_inventory.verdict == "inconclusive"
    old = shared(shared_dir, "ethtool_i", "ethtool-i/mlx5-connectx4lx-3.0-1.txt")
    assert check("nic_driver", old, params=ofed_min).verdict == "inconclusive"
    mlx4 = shared(shared_dir, "ethtool_i", "ethtool-i/mlx4-en-trailing-spaces.txt")
    assert check("nic_driver", mlx4, params={"driver": "mlx4_en", "min_version": "4.9-4.1.7.0"}).verdict == (
        "inconclusive"
    )
    # a real MLNX_OFED release is still compared
    ofed = fixture("ethtool_i", "outputs/ethtool-i/mlx5_core-ofed-5.5-1.0.3-huawei-fw.txt")
    assert check("nic_driver", ofed, params=ofed_min).verdict == "confirmed"
    assert check("nic_driver", ofed, params={**ofed_min, "min_version": "5.4-3.0.3"}).verdict == "ruled_out"
    bare = ok("ethtool_i", "driver: i40e\nfirmware-version: 9.20 0x8000d8c5 0.0.0\nbus-info: 0000:3b:00.0\n")
    assert (
        check("nic_driver", bare, params={"driver": "i40e", "min_version": "2.22"}).verdict == "inconclusive"
    )


def test_nic_driver_bare_kernel_release() -> None:
    """An in-tree driver printing the bare kernel release (`6.7.4`) is not compared with a vendor minimum."""
    cases = (
        ("ice", "ice-in-tree-bare-6.7.4-e810-xxvda2.txt", "1.13.7", "6.7.4"),
        ("bnxt_en", "bnxt_en-6.6.43-fw-220-pkg.txt", "1.10.3", "6.6.43-1-lts"),
        ("i40e", "i40e-in-tree-6.12.49-dot-suffix-kernel.txt", "2.25.7", "6.12.49.mx64.487"),
    )
    for driver, name, minimum, release in cases:
        nic = fixture("ethtool_i", f"outputs/ethtool-i/{name}")
        params = {"driver": driver, "min_version": minimum}
        alone = check("nic_driver", nic, params=params)  # no uname: a kernel-release-looking version
        assert alone.verdict == "inconclusive", name
        host = ok("uname", f"Linux node1 {release} #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\n")
        assert check("nic_driver", nic, host, params=params).verdict == "inconclusive", name
    ofed = fixture("ethtool_i", "outputs/ethtool-i/mlx5_core-ofed-5.5-1.0.3-huawei-fw.txt")
    assert (
        check("nic_driver", ofed, params={"driver": "mlx5_core", "min_version": "5.8"}).verdict == "confirmed"
    )
    pve = fixture("ethtool_i", "outputs/ethtool-i/i40e-in-tree-6.17.2-pve-xxv710-fw-9.57.txt")
    assert (
        check("nic_driver", pve, params={"driver": "i40e", "min_version": "2.25.7"}).verdict == "inconclusive"
    )
    real_ixgbe = fixture("ethtool_i", "outputs/ethtool-i/ixgbe-out-of-tree-5.19.6-fw-nvm-pair.txt")
    params = {"driver": "ixgbe", "min_version": "5.20.9"}
    assert check("nic_driver", real_ixgbe, params=params).verdict == "inconclusive"
    # the host's release tells an out-of-tree driver whose version looks like a kernel's (ixgbe 5.19.6)
    ixgbe = ok("ethtool_i", "driver: ixgbe\nversion: 5.19.6\nfirmware-version: 0x800003df\n")
    params = {"driver": "ixgbe", "min_version": "5.20.9"}
    assert check("nic_driver", ixgbe, params=params).verdict == "inconclusive"
    other = ok("uname", "Linux node1 6.8.0-45-generic #45-Ubuntu SMP x86_64 x86_64 x86_64 GNU/Linux\n")
    assert check("nic_driver", ixgbe, other, params=params).verdict == "confirmed"
    same = ok("uname", "Linux node1 5.19.6 #1 SMP x86_64 GNU/Linux\n")
    assert check("nic_driver", ixgbe, same, params=params).verdict == "inconclusive"


def test_links() -> None:
    here = fixture("ip_link", "ip-s-link-dev-container.txt")
    assert check("link_errors", here).verdict == "ruled_out"
    errors = ok(
        "ip_link",
        "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP mode DEFAULT\n"
        "    RX:  bytes packets errors dropped  missed   mcast\n   1000 10 57 0 0 0\n"
        "    TX:  bytes packets errors dropped carrier collsns\n   1000 10 0 0 0 0\n",
    )
    assert check("link_errors", errors).verdict == "confirmed"
    assert check("link_mtu", errors, ctx=context(mtu=9000)).verdict == "ruled_out"
    assert check("link_mtu", here, ctx=context(mtu=9000)).verdict == "confirmed"  # eth0 at 1400
    assert check("link_mtu", here).verdict == "inconclusive"


def test_ib_ports(shared_dir: Path) -> None:
    mixed = shared(shared_dir, "ibstat", "ibstat/h100-cx7-ib-active-eth-down.txt")
    assert check("ib_port_state", mixed).verdict == "ruled_out"  # the down ports are Ethernet
    assert check("ib_port_state", mixed, params={"link_layer": "Ethernet"}).verdict == "confirmed"
    verbs = shared(shared_dir, "ibv_devinfo", "ibv_devinfo/mlx4-verbose-port2-polling.txt")
    down = check("ib_port_state", missing("ibstat"), verbs, params={"state": "down"})
    assert down.verdict == "confirmed" and "mlx4_1 port 2" in str(down.reason)
    assert check("ib_port_state", missing("ibstat"), verbs, params={"state": "init"}).verdict == "ruled_out"
    init = ok(
        "ibstat",
        "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Initializing\n\t\tPhysical state: LinkUp\n"
        "\t\tRate: 400\n\t\tLink layer: InfiniBand\n",
    )
    assert check("ib_port_state", init, params={"state": "init"}).verdict == "confirmed"
    # logically Down while the physical link is up (BlueField-3, SM lid 0): not Active, but neither a dead
    # link nor, from this alone, a missing subnet manager
    held = fixture("ibstat", "outputs/ibstat/bf3-cx7-ib-state-down-physical-linkup-sm-lid-0.txt")
    assert check("ib_port_state", held).verdict == "confirmed"
    for state in ("down", "init"):
        verdict = check("ib_port_state", held, params={"state": state})
        assert verdict.verdict == "inconclusive" and "mlx5_1 port 1" in str(verdict.reason)
        assert any("Physical state: LinkUp" in line for line in verdict.evidence[0].lines)
    pod = fixture("ibstat", "outputs/ibstat/cx6-sriov-vf-in-pod-down-linkup-sm-lid-1.txt")  # has an SM lid
    assert check("ib_port_state", pod, params={"state": "init"}).verdict == "inconclusive"
    # a host where only ibv_devinfo ran: the KB entry is still decided from it (RoCE, mlx5_1 PORT_DOWN)
    roce = fixture("ibv_devinfo", "outputs/ibv_devinfo/connectx4lx-roce-4-hcas-mlx5-1-port-down.txt")
    got = dict((p.id, v) for p, v in verdicts(roce, entries()))
    assert got["ib-port-down-physical"].verdict == "confirmed"
    assert "mlx5_1 port 1" in str(got["ib-port-down-physical"].reason)
    rates = shared(shared_dir, "ibstat", "ibstat/a100-cx6-all-active.txt")
    assert check("ib_rate", rates).verdict == "ruled_out"
    assert check("ib_rate", rates, ctx=context(ib_rate_gbps=400)).verdict == "confirmed"


# --- storage ------------------------------------------------------------------------------------


def test_raid_rule_outs_need_every_vd_the_controller_declares() -> None:
    cut = fixture("storcli", "outputs/storcli/c0-show-21-vds-raid0-rawbd-excerpt.txt")  # 7 of 21 rows
    for name in ("raid_cache_policy", "raid_vd_state"):
        verdict = check(name, cut)
        assert verdict.verdict == "inconclusive"
        assert verdict.reason.params == {"declared": 21, "n": 7}
    whole = fixture("storcli", "outputs/storcli/c0-vall-show-raid1-nrwtd-raid6-rwtd.txt")  # no count line
    assert check("raid_cache_policy", whole).verdict == "confirmed"


def test_raid(shared_dir: Path) -> None:
    wt = shared(shared_dir, "megacli", "megacli/ldinfo-raid5-writethrough-slow-db.txt")
    verdict = check("raid_cache_policy", missing("storcli"), wt)
    assert (
        verdict.verdict == "confirmed"
        and "Current Cache Policy: WriteThrough" in verdict.evidence[0].lines[1]
    )
    wb = shared(shared_dir, "storcli", "storcli/sas3508-c0-show-raid1-rwbd-cv-optimal.txt")
    assert check("raid_cache_policy", wb).verdict == "ruled_out"
    neither = check("raid_cache_policy", missing("storcli"), missing("megacli"))
    assert neither.verdict == "inconclusive" and "storcli64 not installed" in str(neither.reason)
    mine = fixture("storcli", "storcli-call-vall-show-all-wt.txt")
    assert check("raid_cache_policy", mine).verdict == "confirmed"
    assert check("raid_vd_state", mine).verdict == "confirmed"
    assert check("raid_vd_state", wb).verdict == "ruled_out"
    assert check("raid_bbu", wb).verdict == "ruled_out"
    assert check("raid_bbu", missing("storcli"), wt).verdict == "inconclusive"  # WT by default, not forced


def test_disks(shared_dir: Path) -> None:
    vm = shared(shared_dir, "df", "df-h/ubuntu1804-vm.txt")
    assert check("disk_full", vm).verdict == "ruled_out"  # snap loop mounts at 100% are ignored
    full = ok("df", "Filesystem Size Used Avail Use% Mounted on\n/dev/nvme0n1 3.5T 3.5T 12G 100% /data\n")
    assert check("disk_full", full).verdict == "confirmed"
    assert check("shm_size", vm).verdict == "ruled_out"  # 986M: half of a 2 GB VM, not Docker's 64M
    big = ok("df", "Filesystem Size Used Avail Use% Mounted on\ntmpfs 252G 0 252G 0% /dev/shm\n")
    assert check("shm_size", big).verdict == "ruled_out"


# --- CPU, NUMA, kernel command line -------------------------------------------------------------


def test_cpu_governor(shared_dir: Path) -> None:
    save = shared(shared_dir, "cpupower", "cpupower/intel-pstate-powersave-no-boost.txt")
    verdict = check("cpu_governor", save)
    assert verdict.verdict == "confirmed" and "powersave" in verdict.evidence[0].lines[1]
    vm = shared(shared_dir, "cpupower", "cpupower/cpufreq-info-no-driver-vm.txt")
    assert check("cpu_governor", vm).verdict == "inconclusive"
    arm = check(
        "cpu_governor", fixture("cpupower", "outputs/cpupower/not-available-no-driver-ampere-arm64-5.10.txt")
    )
    assert arm.verdict == "inconclusive" and arm.evidence[0].lines == (
        "no or unknown cpufreq driver is active on this CPU",
    )
    assert check("cpu_governor", save, params={"expect": "powersave"}).verdict == "ruled_out"
    dynamic = check("cpu_governor", fixture("cpupower", "outputs/cpupower/cppc-cpufreq-arm64-schedutil.txt"))
    assert dynamic.verdict == "inconclusive" and "schedutil" in str(dynamic.reason)  # scales with load
    assert dynamic.evidence[0].lines[1].startswith('The governor "schedutil"')


def test_cmdline_flag(shared_dir: Path) -> None:
    cmd = shared(shared_dir, "cmdline", "proc-cmdline/ubuntu-5.4-nomodeset.txt")
    assert check("cmdline_flag", cmd, params={"flag": "nomodeset"}).verdict == "confirmed"
    assert check("cmdline_flag", cmd, params={"flag": "iommu", "value": "pt"}).verdict == "ruled_out"
    absent = {"flag": "intel_idle.max_cstate", "when_present": "ruled_out", "when_absent": "inconclusive"}
    assert check("cmdline_flag", cmd, params=absent).verdict == "inconclusive"


def test_numa(shared_dir: Path) -> None:
    single = shared(shared_dir, "numactl", "numactl-H/single-node-vm.txt")
    assert check("numa_topology", single).verdict == "ruled_out"
    two = shared(shared_dir, "numactl", "numactl-H/2x-epyc-9135-cpu-compress.txt")
    dgx = shared(shared_dir, "nvidia_smi_topo", "nvidia-smi-topo-m/dgx-a100-8gpu-12nic-470.txt")
    verdict = check("numa_topology", two, dgx)
    assert verdict.verdict == "inconclusive" and "GPUs attached to node(s) 1, 3, 5, 7" in str(verdict.reason)
    assert any("GPU0: CPU affinity 48-63,176-191" in line for line in verdict.evidence[0].lines)
    assert check("gpu_nic_numa", dgx).verdict == "ruled_out"
    far = ok(
        "nvidia_smi_topo",
        "\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\tNUMA Affinity\n"
        "GPU0\t X \tNV18\tSYS\t0-31\t0\nGPU1\tNV18\t X \tPIX\t32-63\t1\nmlx5_0\tSYS\tPIX\t X \n",
    )
    verdict = check("gpu_nic_numa", far)
    assert (
        verdict.verdict == "confirmed" and "GPU0" in str(verdict.reason) and "GPU1" not in str(verdict.reason)
    )


# --- NVLink and Fabric Manager ------------------------------------------------------------------


def test_nvlink(shared_dir: Path) -> None:
    down = shared(
        shared_dir, "nvidia_smi_nvlink", "nvidia-smi-nvlink/dcgmi-nvlink-link-status-all-down-h100.txt"
    )
    assert check("nvlink_state", down).verdict == "confirmed"
    up = shared(shared_dir, "nvidia_smi_nvlink", "nvidia-smi-nvlink/h100-590-nvlink-s.txt")
    assert check("nvlink_state", up).verdict == "ruled_out"
    assert check("nvlink_state", up, ctx=context(nvlink_count=18)).verdict == "ruled_out"
    a100 = shared(shared_dir, "nvidia_smi_nvlink", "nvidia-smi-nvlink/a100x8-nvlink-status.txt")
    assert check("nvlink_state", a100, ctx=context(nvlink_count=18)).verdict == "confirmed"
    none = shared(shared_dir, "nvidia_smi_nvlink", "nvidia-smi-nvlink/l40s-595-nvlink-s-unsupported.txt")
    assert check("nvlink_state", none).verdict == "inconclusive"
    assert check("nvlink_state", none, ctx=context(nvlink_count=18)).verdict == "confirmed"
    b200 = "outputs/nvidia-smi-nvlink/b200-gpu2-all-links-inactive-uuid-masked.txt"
    inactive = fixture("nvidia_smi_nvlink", b200)
    verdict = check("nvlink_state", inactive)  # NVML's line in place of the link lines
    assert verdict.verdict == "confirmed" and "GPU 2 (0 up)" in str(verdict.reason)
    assert any("all links are inActive" in line for line in verdict.evidence[0].lines)
    dgx = shared(shared_dir, "nvidia_smi_topo", "nvidia-smi-topo-m/dgx-a100-8gpu-12nic-470.txt")
    assert (
        check("nvlink_topology", dgx, ctx=context(form_factor="SXM4", nvlink_count=12)).verdict == "ruled_out"
    )
    pcie = shared(shared_dir, "nvidia_smi_topo", "nvidia-smi-topo-m/dgx1-v100-topo-mp-pcie-only.txt")
    assert check("nvlink_topology", pcie, ctx=context(form_factor="SXM2")).verdict == "confirmed"
    assert check("nvlink_topology", pcie).verdict == "inconclusive"


def test_nvlink_unknown_state_is_not_down(shared_dir: Path) -> None:
    """A link state the parser does not recognise is neither up nor down: nothing is decided."""
    real = (shared_dir / "outputs/nvidia-smi-nvlink/h100-590-nvlink-s.txt").read_text()
    # constructed variant of the real H100 output: two links in a state no parser rule knows
    odd = real.replace("Link 3: 26.562 GB/s", "Link 3: N/A").replace("Link 4: 26.562 GB/s", "Link 4: Unknown")
    assert odd != real
    unknown = ok("nvidia_smi_nvlink", odd)
    verdict = check("nvlink_state", unknown)
    assert verdict.verdict == "inconclusive" and "GPU 0 (2/18)" in str(verdict.reason)
    assert any("Link 3: N/A" in line for line in verdict.evidence[0].lines)
    # 16 up + 2 unknown could still be the 18 expected: not short
    assert check("nvlink_state", unknown, ctx=context(nvlink_count=18)).verdict == "inconclusive"
    # a real down link beside the unknown ones still confirms
    down = ok("nvidia_smi_nvlink", odd.replace("Link 5: 26.562 GB/s", "Link 5: <inactive>"))
    assert check("nvlink_state", down).verdict == "confirmed"
    # dcgmi's "Not Supported" column (_) is no link at all: neither down nor unknown
    grid = "gpuId 0:\n    " + " ".join(["U"] * 12 + ["_"] * 6) + "\n"
    assert check("nvlink_state", ok("nvidia_smi_nvlink", grid)).verdict == "ruled_out"
    assert check("nvlink_state", ok("nvidia_smi_nvlink", grid), ctx=context(nvlink_count=12)).verdict == (
        "ruled_out"
    )


def test_fabric_manager(shared_dir: Path) -> None:
    running = shared(
        shared_dir,
        "fabricmanager_status",
        "systemctl-status-fabricmanager/active-running-bottlerocket-b200.txt",
    )
    assert check("fabric_manager_state", running).verdict == "ruled_out"
    failed = ok(
        "fabricmanager_status",
        "x nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
        "     Active: failed (Result: exit-code) since Mon 2026-02-23 10:00:00 UTC; 1h ago\n",
    )
    assert check("fabric_manager_state", failed).verdict == "confirmed"
    absent = ok("fabricmanager_status", "Unit nvidia-fabricmanager.service could not be found.\n")
    assert check("fabric_manager_state", absent).verdict == "inconclusive"
    # the GPUs' own word (nvidia-smi -q Fabric): not registered + service down confirms ...
    pending = fixture(
        "nvidia_smi_q", "outputs/nvidia-smi-q-d/fabric-in-progress-580.159-gpu-operator-excerpt.txt"
    )
    verdict = check("fabric_manager_state", pending, failed)
    assert verdict.verdict == "confirmed" and "not initialised" in str(verdict.reason)
    assert any("In Progress" in line for e in verdict.evidence for line in e.lines)
    refused = "outputs/nvidia-smi-q-d/fabric-completed-insufficient-resources-excerpt.txt"
    assert check("fabric_manager_state", fixture("nvidia_smi_q", refused), failed).verdict == "confirmed"
    # ... but with the service running, not installed here or unread, it decides nothing
    assert check("fabric_manager_state", pending, running).verdict == "inconclusive"
    assert check("fabric_manager_state", pending, absent).verdict == "inconclusive"
    assert check("fabric_manager_state", pending).verdict == "inconclusive"
    # registered (Completed, Success) rules it out even with the service down (GB200 trays, service VM)
    hgx = fixture("nvidia_smi_q", "outputs/nvidia-smi-q/h100x8-535.161-hw-slowdown-power-brake-all.txt")
    verdict = check("fabric_manager_state", hgx, failed)
    assert verdict.verdict == "ruled_out" and "8 GPU(s)" in str(verdict.reason)
    assert check("fabric_manager_state", hgx, running).verdict == "ruled_out"
    grep = fixture(
        "nvidia_smi_q", "outputs/nvidia-smi-q-d/grep-fabric-completed-success-health-unhealthy.txt"
    )
    assert check("fabric_manager_state", grep).verdict == "ruled_out"
    # N/A (PCIe boards) says nothing: the service state alone decides, as before
    pcie = fixture("nvidia_smi_q", "outputs/nvidia-smi-q/l40s-595-idle.txt")
    assert check("fabric_manager_state", pcie, failed).verdict == "confirmed"
    assert check("fabric_manager_state", pcie, running).verdict == "ruled_out"
    assert check("fabric_manager_state", pcie).verdict == "inconclusive"
    zh = shared(
        shared_dir, "fabricmanager_log", "fabricmanager-log/journal-nv-warn-nothing-to-do-zh-locale.txt"
    )
    verdict = check("fabricmanager_log_match", zh, params={"kind": "nothing_to_do"})
    assert verdict.verdict == "confirmed" and "NV_WARN_NOTHING_TO_DO" in verdict.evidence[0].lines[0]
    healthy = shared(
        shared_dir, "fabricmanager_log", "fabricmanager-log/journal-xeu-h20-started-then-stopped.txt"
    )
    assert check("fabricmanager_log_match", healthy, params={"kind": "nothing_to_do"}).verdict == "ruled_out"
    switch = shared(shared_dir, "fabricmanager_log", "fabricmanager-log/nvswitch-12028-nonfatal-errors.txt")
    assert check("fabricmanager_log_match", switch, params={"kind": "nvswitch_error"}).verdict == "confirmed"


# --- containers ---------------------------------------------------------------------------------


def test_containers(shared_dir: Path) -> None:
    runc = shared(shared_dir, "docker_info", "docker-info/grep-runtime-nvidia-missing.txt")
    verdict = check("docker_nvidia_runtime", runc, missing("nvidia_ctk"))
    assert verdict.verdict == "confirmed"
    by_command = {e.command: e.lines for e in verdict.evidence}  # each line under the command that printed it
    assert "Runtimes: io.containerd.runc.v2 runc" in by_command["docker info"]
    assert by_command["nvidia-ctk --version"] == ("command not found",)
    assert check("docker_nvidia_runtime", runc).verdict == "inconclusive"  # the toolkit was not read
    nvidia = ok("docker_info", " Runtimes: io.containerd.runc.v2 nvidia runc\n Default Runtime: runc\n")
    assert check("docker_nvidia_runtime", nvidia).verdict == "ruled_out"
    cdi = fixture("docker_info", "outputs/docker-info/cli-golden-cdi-discovered-devices-nvidia-gpu0.txt")
    modern = check("docker_nvidia_runtime", cdi, missing("nvidia_ctk"))  # CDI devices, no nvidia runtime
    assert modern.verdict == "ruled_out" and "cdi: nvidia.com/gpu=gpu0" in modern.evidence[0].lines
    # no container engine on the host: nothing needs the toolkit
    assert (
        check("nvidia_ctk_installed", missing("nvidia_ctk"), missing("docker_info")).verdict == "inconclusive"
    )
    assert check("nvidia_ctk_installed", missing("nvidia_ctk"), runc).verdict == "confirmed"
    ctk = shared(shared_dir, "nvidia_ctk", "nvidia-ctk-version/ctk-1.12.0.txt")
    assert check("nvidia_ctk_installed", ctk).verdict == "ruled_out"
    desktop = ok(
        "docker_info", "Server:\n Kernel Version: 6.10.14-linuxkit\n Operating System: Docker Desktop\n"
    )
    assert check("docker_desktop", desktop).verdict == "confirmed"
    engine = shared(shared_dir, "docker_info", "docker-info/docker-19.03-fedora32-runc-only.txt")
    assert check("docker_desktop", engine).verdict == "ruled_out"
    down = ok("docker_info", "Cannot connect to the Docker daemon at unix:///var/run/docker.sock.\n")
    assert check("docker_nvidia_runtime", down).verdict == "inconclusive"


def test_unless_parameters(shared_dir: Path) -> None:
    log = klog(shared_dir, "journalctl-k/xid-45-after-nvlink-xid-145-149.txt")
    params = {"xid": [43, 45], "unless_pattern": r"caused by previous Xid (48|74|79|94|95|14[4-9])"}
    verdict = check("kernel_log_match", log, params=params)
    assert verdict.verdict == "ruled_out" and "caused by previous Xid" in str(verdict.reason)
    iommu = {"flag": "intel_iommu", "value": "on", "unless": "iommu=pt"}
    assert (
        check("cmdline_flag", ok("cmdline", "ro intel_iommu=on iommu=pt"), params=iommu).verdict
        == "ruled_out"
    )
    assert (
        check("cmdline_flag", ok("cmdline", "ro intel_iommu=on quiet"), params=iommu).verdict == "confirmed"
    )
    vm = shared(shared_dir, "df", "df-h/ubuntu1804-vm.txt")
    big = ok("df", "Filesystem Size Used Avail Use% Mounted on\ntmpfs 252G 0 252G 0% /dev/shm\n")
    assert check("shm_size", big, params={"when_large": "inconclusive"}).verdict == "inconclusive"
    assert check("shm_size", vm, params={"when_large": "inconclusive"}).verdict == "inconclusive"


def test_nvlink_topology_defers_to_the_sku(shared_dir: Path) -> None:
    pcie = shared(shared_dir, "nvidia_smi_topo", "nvidia-smi-topo-m/dgx1-v100-topo-mp-pcie-only.txt")
    cards = ok(
        "nvml_probe",
        '{"probe": "pitstop-nvml", "gpus": [{"index": 0, "name": "NVIDIA H100 PCIe", '
        '"max_power_limit_w": 350.0}]}',
    )
    verdict = check("nvlink_topology", pcie, cards, ctx=context(form_factor="SXM5", nvlink_count=18))
    assert verdict.verdict == "inconclusive" and "wrong-gpu-sku-delivered" in str(verdict.reason)


def test_a_hardware_xid_on_another_gpu_does_not_explain_this_one() -> None:
    log = ok(
        "kernel_log",
        "2026-02-01T00:00:00+0000 h kernel: NVRM: Xid (PCI:0000:19:00): 48, pid=1, DBE\n"
        "2026-02-01T00:00:01+0000 h kernel: NVRM: Xid (PCI:0000:3b:00): 13, pid=2, Graphics Exception\n",
    )
    verdict = check("kernel_log_match", log, params={"xid": [13], "unless_xid": [48]})
    assert verdict.verdict == "confirmed" and "PCI 3b:00" in str(verdict.reason)
