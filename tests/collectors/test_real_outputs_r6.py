"""Real outputs of round 6 (tests/fixtures/outputs, sources in its INDEX.md): what Pitstop reads in them."""

from __future__ import annotations

from pitstop.core.i18n import render
from tests.collectors.check_inputs import FIXTURES, check, ok

POWER_BRAKE = {"reason": ["hw_slowdown", "hw_power_brake_slowdown"], "unless_reason": ["hw_thermal_slowdown"]}


def test_hw_slowdown_without_its_thermal_line_is_not_a_power_brake() -> None:
    """`HW Slowdown : Active` whose `HW Thermal Slowdown` line is missing (drivers before the
    breakdown, a cut output) or N/A: the slowdown may be thermal, so the power-brake entry cannot be
    confirmed (it was). The V100 fragment itself, which says thermal is Not Active, still confirms."""
    text = (
        FIXTURES
        / "outputs/nvidia-smi-q/clocks-throttle-reasons-v100-sxm2-32gb-c4130-power-brake-fragment.txt"
    ).read_text()
    assert check("gpu_clock_event", ok("nvidia_smi_q", text), params=POWER_BRAKE).verdict == "confirmed"
    thermal = "        HW Thermal Slowdown           : Not Active\n"
    brake = "        HW Power Brake Slowdown       : Active\n"
    assert thermal in text and brake in text
    for variant in (
        text.replace(thermal, "").replace(brake, ""),
        text.replace(thermal, thermal.replace("Not Active", "N/A")).replace(brake, ""),
    ):
        verdict = check("gpu_clock_event", ok("nvidia_smi_q", variant), params=POWER_BRAKE)
        assert verdict.verdict == "inconclusive"
        assert "hw_thermal_slowdown" in render(verdict.reason, "en")
        assert "原因未知" in render(verdict.reason, "zh")
