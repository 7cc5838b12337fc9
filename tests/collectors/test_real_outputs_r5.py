"""Real outputs of round 5 (tests/fixtures/outputs, sources in its INDEX.md): what Pitstop reads in them."""

from __future__ import annotations

from tests.collectors.check_inputs import check, fixture


def test_topo_header_run_together_is_not_a_row() -> None:
    """DGX-1 `topo -m` pasted with the GPU names of its header run together ("GPU0GPU1...mlx5_0"):
    GPU0's row must not become the column names, or every GPU reads as far from every NIC although
    each has a PIX one (it confirmed gpu-nic-cross-numa for GPU1-GPU7)."""
    topo = fixture(
        "nvidia_smi_topo", "outputs/nvidia-smi-topo-m/soc-dgx1-8gpu-nv1-4nic-header-names-run-together.txt"
    )
    assert check("gpu_nic_numa", topo).verdict == "inconclusive"
    # the same generation's outputs with a readable header: `SOC` (the pre-R384 name of SYS) is far
    for name, far in {
        "soc-4gpu-k80-mlx5-0-nimbix-two-far.txt": "GPU0, GPU1",
        "soc-4gpu-k80-mlx4-0-unindented-legend.txt": "GPU0, GPU1",
        "soc-8gpu-p40-mlx5-0-all-soc-tabs.txt": "GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6, GPU7",
    }.items():
        verdict = check("gpu_nic_numa", fixture("nvidia_smi_topo", f"outputs/nvidia-smi-topo-m/{name}"))
        assert verdict.verdict == "confirmed", name
        assert far in str(verdict.reason), name
