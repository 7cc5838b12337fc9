# ruff: noqa: E501 - the corpus keeps each secret shape on one line, as it is pasted
"""The redactor: a corpus of secret shapes that must all disappear, and evidence lines (from the
field and from ../shared/outputs) that must come through unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitstop.core.redact import MASK, redact
from tests.security.scale import examples
from tests.security.secrets import load_corpus

SECRETS: list[tuple[str, str]] = [(s["text"], s["secret"]) for s in load_corpus()]

# Evidence lines that decide verdicts: they must come through byte for byte.
EVIDENCE: list[str] = [
    "[ 2375.123456] NVRM: Xid (PCI:0000:3b:00): 79, pid=12345, name=python, GPU has fallen off the bus.",
    "NVRM: Xid (PCI:0000:18:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE)",
    "[   84.300476] NVRM: GPU6 kbusSendSysmembarSingle_GH100: - timeout error waiting for startToken = 0x3",
    "pcieport 0000:00:01.1: AER: Uncorrected (Fatal) error received: 0000:3b:00.0",
    "node01:1234:5678 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<57612> with error 12, opcode 0,"
    " len 0, vendor err 129",
    "node01:1234:1234 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
    "NCCL WARN Cuda failure 'unknown error'",
    "|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |",
    "| N/A   34C    P0             69W / 700W |      4MiB / 81559MiB |      0%      Default |",
    "| NVIDIA-SMI 535.129.03             Driver Version: 535.129.03   CUDA Version: 12.2     |",
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023",
    "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-5f9b7c1e-3a2d-4c8b-9e1f-0a1b2c3d4e5f)",
    "  MIG 1g.10gb     Device  0: (UUID: MIG-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d)",
    "    Serial Number                         : 1654922006374",
    "    Pending Page Blacklist                : No",
    "        Remapping Failure Occurred        : Yes",
    "Node GUID: 0x98039b0300a1b2c4",
    "    link/ether 0c:42:a1:5e:7f:10 brd ff:ff:ff:ff:ff:ff",
    "huggingface/tokenizers: The current process just got forked. Set TOKENIZERS_PARALLELISM=false",
    "generate(max_new_tokens=512, num_beams: 4) token_count=128",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691, unhandled system error",
    "sha256:2f9c3d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e",
    "Sep 12 03:14:07 gpu01 nv-fabricmanager[2211]: request to query NVSwitch device information failed",
    "ssh gpu01 -p 22 'nvidia-smi -q -d ECC'",
    "kern  :info  : 2025-01-17T15:36:24,218871+00:00 microcode: sig=0x806f8, pf=0x1, revision=0x2b0005d2",
    "训练时报错：NCCL 超时，八卡 loss 抖动",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS, ids=[s["shape"] for s in load_corpus()])
def test_secret_shapes_are_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out, out
    assert MASK in out


@pytest.mark.parametrize("line", EVIDENCE, ids=[e[:30] for e in EVIDENCE])
def test_evidence_lines_are_kept_intact(line: str) -> None:
    assert redact(line) == line


def test_labels_stay_so_a_reader_knows_what_was_there() -> None:
    assert redact("curl -H 'Authorization: Bearer abcdef0123456789xyz' https://u:pw12345@host/v2/") == (
        f"curl -H 'Authorization: Bearer {MASK}' https://u:{MASK}@host/v2/"
    )
    assert redact("Authorization: AWS4-HMAC-SHA256 Credential=x, Signature=y") == (
        f"Authorization: AWS4-HMAC-SHA256 {MASK}"
    )
    assert redact("export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789") == f"export HF_TOKEN={MASK}"
    assert redact("mysql -u root -pS3cretPass") == f"mysql -u root -p{MASK}"
    assert redact("postgres://u:pw12345@db/x") == f"postgres://u:{MASK}@db/x"


def test_disguised_secrets_are_masked_where_they_stand() -> None:
    """The rules also run on the text decoded (escapes, full-width, invisible characters, wrapped
    lines); what they find there is masked in the original, and the words around it stay."""
    assert redact("cb?t=xoxb%2D1234567890123%2D1234567890123%2DFakePercent01&lang=zh") == (
        f"cb?t={MASK}&lang=zh"
    )
    assert redact("密钥：FakeZhKey789，请勿外传") == f"密钥：{MASK}，请勿外传"
    assert redact("ghp_FakeWrappedPatHead\nFakeWrappedPatTail0123456789\nnext line") == f"{MASK}\nnext line"
    harmless = "x\u200by ｘｙ %41 \\u0041 \\/ 密码是正确的"  # disguises around no secret: nothing changes
    assert redact(harmless) == harmless


def test_real_command_outputs_come_through_unchanged(shared_dir: Path) -> None:
    """Every real output in ../shared/outputs is evidence; none of it holds a secret."""
    files = [p for p in sorted((shared_dir / "outputs").rglob("*")) if p.is_file() and p.name != "INDEX.md"]
    assert len(files) > 100
    changed = [p.name for p in files if redact(t := p.read_text(encoding="utf-8", errors="replace")) != t]
    assert changed == []


def test_secrets_inside_real_output_are_found(shared_dir: Path) -> None:
    """A secret planted in a long real kernel log is masked and the rest of the log is unchanged."""
    log = next((shared_dir / "outputs" / "dmesg").glob("*.txt")).read_text(encoding="utf-8", errors="replace")
    planted = log + "\nsystemd[1]: Started job with GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"
    out = redact(planted)
    assert "ghp_abcdefghijklmnop" not in out and out.startswith(log)


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=400)


@settings(
    max_examples=examples(150), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(prefix=_TEXT, suffix=_TEXT, pick=st.integers(min_value=0, max_value=len(SECRETS) - 1))
def test_a_secret_stays_hidden_whatever_surrounds_it(prefix: str, suffix: str, pick: int) -> None:
    text, secret = SECRETS[pick]
    out = redact(f"{prefix}\n{text}\n{suffix}")
    assert secret not in out.replace(prefix, "").replace(suffix, "") or secret in prefix + suffix


@settings(max_examples=examples(150), deadline=None, database=None)
@given(_TEXT)
def test_redact_is_idempotent_and_total(text: str) -> None:
    once = redact(text)
    assert isinstance(once, str) and redact(once) == once
