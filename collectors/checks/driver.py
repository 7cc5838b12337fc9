"""Driver and framework checks: nvidia-smi error text, driver branch, NVML mismatch, torch build, CUDA."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import as_list, confirmed, inconclusive, ruled_out, smi_errors, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers._text import version_tuple
from pitstop.core.i18n import msg


def nvidia_smi_error(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """nvidia-smi prints a known failure (its text is the evidence)."""
    kinds = as_list(params.get("kind")) or ["no_driver"]
    collector, table = facts.first("nvidia_smi", "nvidia_smi_q")
    if collector is None or table is None:
        return inconclusive(facts.why_missing("nvidia_smi", "nvidia_smi_q"))
    if table.error is not None:
        evidence = facts.evidence(collector, [table.error.line])
        if table.error.kind in kinds:
            return confirmed(msg("reasons.driver.smi_fails", error=table.error.line), evidence)
        return ruled_out(msg("reasons.driver.smi_fails_otherwise", error=table.error.line), evidence)
    if table.gpus:
        return ruled_out(
            msg("reasons.driver.smi_works", n=len(table.gpus)),
            facts.evidence(collector, [getattr(table, "header_line", "") or f"{len(table.gpus)} GPU(s)"]),
        )
    return inconclusive(msg("reasons.driver.smi_unknown"))


def _installed_versions(facts: Facts) -> dict[str, tuple[str, str]]:
    """Driver versions seen by each source: name -> (version, evidence line)."""
    seen: dict[str, tuple[str, str]] = {}
    module = facts.get("driver_version")
    if module and module.version:
        seen["driver_version"] = (module.version, module.line)
    table = facts.get("nvidia_smi")
    if table and table.driver_version:
        seen["nvidia_smi"] = (table.driver_version, table.header_line)
    probe = facts.get("nvml_probe")
    if probe and probe.driver_version:
        seen["nvml_probe"] = (probe.driver_version, f"NVML driver version {probe.driver_version}")
    return seen


def nvml_version_mismatch(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """NVML/kernel-module version mismatch, by error text or by comparing /proc and user-space versions."""
    for collector, error in smi_errors(facts):
        if error.kind == "version_mismatch":
            lines = [error.line] + (
                [f"NVML library version: {error.nvml_library_version}"] if error.nvml_library_version else []
            )
            module = facts.get("driver_version")
            extra = [module.line] if module and module.line else []
            return confirmed(msg("reasons.driver.nvml_mismatch"), facts.evidence(collector, lines + extra))
    table = facts.get("nvidia_smi")
    probe = facts.get("nvml_probe")
    if probe is not None and probe.nvml_error == "lib_rm_version_mismatch":
        return confirmed(
            msg("reasons.gpu.probe_said", error=probe.message), facts.evidence("nvml_probe", [probe.message])
        )
    seen = _installed_versions(facts)
    versions = {v for v, _ in seen.values()}
    if len(versions) > 1:
        return confirmed(
            msg("reasons.driver.module_differs", versions=", ".join(sorted(versions))),
            *[facts.evidence(c, [line]) for c, (_, line) in seen.items()],
        )
    if len(seen) >= 2 or (table is not None and table.gpus):
        return ruled_out(
            msg("reasons.driver.same_everywhere", version=next(iter(versions)))
            if versions
            else msg("reasons.driver.smi_works_plain"),
            *[facts.evidence(c, [line]) for c, (_, line) in seen.items()],
        )
    log_collector, log = facts.kernel_log()
    found = log.api_mismatches() if log_collector is not None and log is not None else ()
    if found:  # another source: the kernel refused a user-space client of another version
        first = found[0]
        return confirmed(
            msg("reasons.driver.api_mismatch", client=first.client, module=first.module),
            facts.evidence(log_collector, first.lines),  # type: ignore[arg-type]  # found implies a log
        )
    return inconclusive(
        msg(
            "reasons.driver.cannot_compare",
            why=facts.why_missing("driver_version", "nvidia_smi", "kernel_log"),
        )
    )


def driver_versions_mixed(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The loaded kernel module and the user-space driver/NVML report different versions."""
    seen = _installed_versions(facts)
    table = facts.get("nvidia_smi")
    library = table.error.nvml_library_version if table and table.error else None
    if library:
        seen["nvidia_smi"] = (library, f"NVML library version: {library}")
    evidence = [facts.evidence(c, [line]) for c, (_, line) in seen.items()]
    if len(seen) < 2:
        return inconclusive(
            msg("reasons.driver.fewer_than_two", why=facts.why_missing("driver_version", "nvidia_smi")),
            *evidence,
        )
    versions = {v for v, _ in seen.values()}
    if len(versions) > 1:
        return confirmed(
            msg("reasons.driver.components_disagree", versions=", ".join(sorted(versions))), *evidence
        )
    return ruled_out(msg("reasons.driver.both_same", version=versions.pop()), *evidence)


def driver_branch(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Installed driver is below the inventory's required branch (e.g. 515 where 535 is required)."""
    required = params.get("min_branch") or ctx.expectations.get("driver_branch")
    if not required:
        return inconclusive(msg("reasons.driver.no_required_branch"))
    seen = _installed_versions(facts)
    if not seen:
        return inconclusive(
            msg("reasons.driver.unknown", why=facts.why_missing("driver_version", "nvidia_smi", "nvml_probe"))
        )
    collector, (version, line) = next(iter(seen.items()))
    have, need = version_tuple(version), version_tuple(str(required))
    if have is None or need is None:
        return inconclusive(msg("reasons.driver.incomparable", version=version, required=required))
    if have[: len(need)] < need:
        return confirmed(
            msg("reasons.driver.below", version=version, required=required), facts.evidence(collector, [line])
        )
    return ruled_out(
        msg("reasons.driver.meets", version=version, required=required), facts.evidence(collector, [line])
    )


def torch_build(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The host's torch is a CPU-only build (`+cpu`, CUDA None)."""
    torch = facts.get("torch_probe")
    if torch is None:
        return inconclusive(facts.why_missing("torch_probe"))
    if torch.not_installed:
        return inconclusive(msg("reasons.driver.no_torch"))
    if torch.cpu_only is None:
        return inconclusive(msg("reasons.no_version", tool="torch"))
    evidence = facts.evidence("torch_probe", [torch.line])
    if torch.cpu_only:
        return confirmed(msg("reasons.driver.torch_cpu", version=torch.version), evidence)
    if torch.cuda_available is False:
        return inconclusive(msg("reasons.driver.torch_no_cuda", version=torch.version), evidence)
    return ruled_out(msg("reasons.driver.torch_cuda", version=torch.version, cuda=torch.cuda), evidence)


def cuda_driver_compat(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The CUDA runtime (torch's) is newer than what the driver supports."""
    torch = facts.get("torch_probe")
    runtime = params.get("runtime_cuda") or (torch.cuda if torch else None)
    probe = facts.get("nvml_probe")
    table = facts.get("nvidia_smi")
    driver_cuda = (probe.cuda_driver_version if probe else None) or (table.cuda_version if table else None)
    if not runtime:
        return inconclusive(msg("reasons.driver.runtime_unknown", why=facts.why_missing("torch_probe")))
    if not driver_cuda:
        return inconclusive(
            msg("reasons.driver.driver_cuda_unknown", why=facts.why_missing("nvidia_smi", "nvml_probe"))
        )
    lines = [f"torch CUDA runtime {runtime}", f"driver supports CUDA {driver_cuda}"]
    evidence = facts.evidence("nvidia_smi" if table else "nvml_probe", lines)
    if version_tuple(str(runtime))[:2] > version_tuple(str(driver_cuda))[:2]:  # type: ignore[index]
        return confirmed(msg("reasons.driver.cuda_too_new", runtime=runtime, driver=driver_cuda), evidence)
    return ruled_out(msg("reasons.driver.cuda_covered", runtime=runtime, driver=driver_cuda), evidence)


SPECS = (
    spec(
        nvidia_smi_error,
        ("nvidia_smi",),
        {
            "kind": "no_driver | no_devices | version_mismatch | gpu_lost | device_handle_error"
            " | nvml_init_failed (one or a list)"
        },
        describe={
            "en": (
                "Runs nvidia-smi and reads its error message: the failure this cause produces "
                "confirms it, a normal table rules it out."
            ),
            "zh": ("运行 nvidia-smi 并看它的报错：出现这个原因特有的报错即确认，正常输出表格则排除。"),
        },
    ),
    spec(
        nvml_version_mismatch,
        ("nvidia_smi", "driver_version", "nvml_probe", "kernel_log"),
        describe={
            "en": (
                "Compares the loaded kernel module's driver version with the user-space "
                "library's, and reads nvidia-smi's error and the kernel log's NVRM API mismatch "
                "lines: a mismatch confirms it, the same version rules it out."
            ),
            "zh": (
                "比较已加载内核模块的驱动版本与用户态库的版本，并看 nvidia-smi 的报错和内核日志里的 "
                "NVRM API mismatch 行：版本不一致即确认，版本相同则排除。"
            ),
        },
    ),
    spec(
        driver_versions_mixed,
        ("driver_version", "nvidia_smi", "nvml_probe"),
        describe={
            "en": (
                "Compares the driver versions reported by the kernel module, nvidia-smi "
                "and NVML: any difference confirms it, one version everywhere rules it "
                "out."
            ),
            "zh": (
                "比较内核模块、nvidia-smi 和 NVML 各自报告的驱动版本：有任何不一致即确认，全都相同则排除。"
            ),
        },
    ),
    spec(
        driver_branch,
        ("driver_version", "nvidia_smi"),
        {"min_branch": "overrides expectations.driver_branch"},
        describe={
            "en": (
                "Compares the installed driver's branch with the branch the inventory requires: "
                "an older branch confirms it, the required branch or newer rules it out."
            ),
            "zh": (
                "比较已安装驱动的大版本（branch）与资产清单要求的版本：更旧即确认，达到或高于要求则排除。"
            ),
        },
    ),
    spec(
        torch_build,
        ("torch_probe",),
        describe={
            "en": (
                "Asks the host's Python which PyTorch build it has: a CPU-only build confirms "
                "it, a CUDA build rules it out."
            ),
            "zh": (
                "查询主机上 Python 里 PyTorch 的构建版本：是只支持 CPU 的版本即确认，带 CUDA 的版本则排除。"
            ),
        },
    ),
    spec(
        cuda_driver_compat,
        ("torch_probe", "nvidia_smi"),
        {"runtime_cuda": "overrides the torch probe's CUDA version"},
        describe={
            "en": (
                "Compares the CUDA version PyTorch was built with and the highest CUDA "
                "version the driver supports: a newer runtime confirms it, a supported "
                "one rules it out."
            ),
            "zh": (
                "比较 PyTorch 编译时用的 CUDA 版本和驱动支持的最高 CUDA 版本：运行时更新即确认"
                "，在支持范围内则排除。"
            ),
        },
    ),
)
