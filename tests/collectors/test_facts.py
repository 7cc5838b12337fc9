"""Facts: lazy parsing per collector and honest reasons when a fact is unavailable."""

from __future__ import annotations

from pathlib import Path

from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CommandResult
from tests.collectors.check_inputs import NOW, argv, denied, missing, ok, shared


def test_reasons_for_unavailable_facts() -> None:
    facts = Facts(
        {
            "storcli": missing("storcli"),
            "kernel_log": denied(
                "kernel_log", "No journal files were opened due to insufficient permissions."
            ),
            "ipmi_sel": denied(
                "ipmi_sel", "Could not open device at /dev/ipmi0 or /dev/ipmi/0: No such file or directory"
            ),
            "lspci": CommandResult("lspci", argv("lspci"), "timeout", None, message="timed out"),
        },
        now=NOW,
    )
    assert facts.get("storcli") is None and str(facts.missing("storcli")) == "storcli64 not installed"
    assert str(facts.missing("kernel_log")).startswith("kernel log not readable without root")
    assert str(facts.missing("ipmi_sel")) == "the BMC event log needs root (/dev/ipmi0)"
    assert str(facts.missing("lspci")) == "`lspci -vv` timed out"
    assert str(facts.missing("megacli")) == "megacli was not collected"
    assert (
        str(facts.why_missing("storcli", "megacli")) == "storcli64 not installed; megacli was not collected"
    )


def test_nvidia_smi_failure_text_is_parsed_as_evidence(shared_dir: Path) -> None:
    result = shared(shared_dir, "nvidia_smi", "nvidia-smi-errors/no-devices-were-found.txt", exit_code=6)
    facts = Facts({"nvidia_smi": result})
    assert facts.missing("nvidia_smi") is None and facts.get("nvidia_smi").error.kind == "no_devices"


def test_gpus_prefer_the_probe_then_nvidia_smi_q(shared_dir: Path) -> None:
    q = shared(shared_dir, "nvidia_smi_q", "nvidia-smi-q/h100-590-load.txt")
    probe = ok(
        "nvml_probe", '{"probe": "pitstop-nvml", "source": "nvml", "gpus": [{"index": 0, "name": "X"}]}'
    )
    assert Facts({"nvidia_smi_q": q}).gpus()[0] == "nvidia_smi_q"
    collector, gpus = Facts({"nvidia_smi_q": q, "nvml_probe": probe}).gpus()
    assert collector == "nvml_probe" and gpus[0].name == "X"
    assert Facts({}).gpus() == (None, None)


def test_kernel_log_falls_back_to_dmesg_and_parsing_is_cached(shared_dir: Path) -> None:
    facts = Facts(
        {
            "kernel_log": denied("kernel_log", "Permission denied"),
            "dmesg": shared(shared_dir, "dmesg", "dmesg/xid-63-row-remapper-new-row.txt"),
        },
        now=NOW,
    )
    collector, log = facts.kernel_log()
    assert collector == "dmesg" and log.xids()[0].xid == 63
    assert facts.get("dmesg") is log


def test_evidence_names_the_command_and_a_rerun() -> None:
    facts = Facts({"nvml_probe": ok("nvml_probe", "{}"), "df": ok("df", "")})
    evidence = facts.evidence("nvml_probe", ["line"])
    assert (evidence.command, evidence.rerun, evidence.lines) == (
        "python3 -c <collectors/probes/nvml_probe.py>",
        "nvidia-smi -q",
        ("line",),
    )
    assert facts.evidence("df", []).rerun == "df -h"
    probe = Facts({"torch_probe": ok("torch_probe", "2.13.0+cpu None False")}).evidence("torch_probe", [])
    assert probe.command == "python3 -c <collectors/probes/torch_probe.py>"  # the code itself is not inlined
    assert str(facts.missing("df")) == "`df -h` printed nothing"


def test_a_failed_command_is_not_an_empty_result() -> None:
    gone = CommandResult(
        "kernel_log", argv("kernel_log"), "nonzero", 1, stderr="No journal files were found.\n"
    )
    facts = Facts({"kernel_log": gone})
    assert facts.get("kernel_log") is None
    assert str(facts.missing("kernel_log")) == (
        "`journalctl -k -b --no-pager -o short-iso` failed (exit 1): No journal files were found."
    )
    torch = CommandResult(
        "torch_probe",
        ("python3", "-c", "..."),
        "nonzero",
        1,
        stderr="ModuleNotFoundError: No module named 'torch'\n",
    )
    assert Facts({"torch_probe": torch}).get("torch_probe").not_installed
