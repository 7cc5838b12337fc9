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

# (text containing a secret, the secret) — fake values in real shapes.
SECRETS: list[tuple[str, str]] = [
    (
        "SLACK_BOT_TOKEN is xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    (
        "user token xoxp-1234567890-0987654321-1122334455-abcdef0123456789abcdef0123456789",
        "abcdef0123456789abcdef",
    ),
    (
        "socket mode: xapp-1-A0123456789-1234567890123-0123456789abcdef0123456789abcdef",
        "0123456789abcdef01234567",
    ),
    ("refresh xoxe.xoxp-1-Mi0yLTEyMzQ1Njc4OTAtMTIzNDU2Nzg5MA", "Mi0yLTEyMzQ1Njc4OTAtMTIzNDU2Nzg5MA"),
    (
        "webhook https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "XXXXXXXXXXXXXXXXXXXXXXXX",
    ),
    ("curl -H 'Authorization: Bearer eyJhbGciOi.abcdefghijkl.mnopqrstuvwx' https://api", "abcdefghijkl"),
    ("Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==", "dXNlcjpodW50ZXIyaHVudGVyMg"),
    ("authorization=ZmFrZS1zZWNyZXQtdG9rZW4tdmFsdWU", "ZmFrZS1zZWNyZXQtdG9rZW4tdmFsdWU"),
    (
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/s3/aws4_request, Signature=fe5f80f77d5fa3beca038a248ff027",
        "fe5f80f77d5fa3beca038a248ff027",
    ),
    (
        'Authorization: Digest username="ops", response="6629fae49393a05397450978507c4ef1"',
        "6629fae49393a05397450978507c4ef1",
    ),
    (
        "requests.exceptions.HTTPError: 401 for bearer ya29.a0AfH6SMBxxxxxxxxxxxxxx",
        "ya29.a0AfH6SMBxxxxxxxxxxxxxx",
    ),
    ("Cookie: session=9f8e7d6c5b4a; csrftoken=abcdef", "9f8e7d6c5b4a"),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG"),
    ("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG"),
    (
        "https://bucket.s3.amazonaws.com/ckpt.pt?X-Amz-Credential=AKIDEXAMPLE%2F2024&X-Amz-Signature=fe5f80f77d5fa3"
        "beca038a248ff027",
        "fe5f80f77d5fa3beca038a248ff027",
    ),
    ("export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789", "hf_abcdefghijklmnopqrstuvwxyz0123456789"),
    (
        "git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/org/repo",
        "ghp_abcdefghijklmnopqrstuvwx",
    ),
    ("GITLAB: glpat-abcdefghij0123456789xyz", "glpat-abcdefghij0123456789xyz"),
    ("openai.AuthenticationError: sk-proj-abcdefghij0123456789ABCDEFGHIJ", "abcdefghij0123456789ABCDEFGHIJ"),
    ("key=AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234"),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM\n(paste cut here)",
        "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM",
    ),
    (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGXfakekey\n-----END PGP PRIVATE KEY BLOCK-----",
        "lQOYBGXfakekey",
    ),
    ("DATABASE_URL=postgres://pitstop:hunter2hunter2@db:5432/pitstop", "hunter2hunter2"),
    ("redis.exceptions.AuthenticationError: redis://:s3cr3tpass@10.0.0.5:6379/0", "s3cr3tpass"),
    ("mysql -u root -pS3cretPass -h db01", "S3cretPass"),
    ("sshpass -p 'correct horse' ssh gpu01", "correct horse"),
    ("curl -u admin:Adm1nPassw0rd http://bmc01/redfish/v1", "Adm1nPassw0rd"),
    ("ipmitool -I lanplus -H bmc01 -U admin --password=BmcPass123 sel elist", "BmcPass123"),
    ("wandb login --api-key 0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef"),
    ('docker run -e WANDB_API_KEY=0123456789abcdef0123 -e DB_PASSWORD="two words" img', "two words"),
    ("docker run -e WANDB_API_KEY=0123456789abcdef0123 img", "0123456789abcdef0123"),
    ("export SLACK_SIGNING_SECRET=8f742231b10e8888abcd99yyyzzz85a5", "8f742231b10e8888abcd99yyyzzz85a5"),
    ('{"password": "hunter2hunter2", "user": "ops"}', "hunter2hunter2"),
    ("{'client_secret': 'cs-abcdef012345'}", "cs-abcdef012345"),
    ("db.password: Tr0ub4dor&3", "Tr0ub4dor"),
    ("accessToken=9a8b7c6d5e4f", "9a8b7c6d5e4f"),
    ('"auths": {"registry.example": {"auth": "dXNlcjpwYXNzd29yZA=="}}', "dXNlcjpwYXNzd29yZA"),
    ("token=abc123secretvalue", "abc123secretvalue"),
    ("wget 'https://acct.blob.core.windows.net/ckpt?sv=2022-11-02&sig=c2lnbmF0dXJlLXZhbHVl'", "c2lnbmF0dXJl"),
    ("AzureStorage: DefaultEndpointsProtocol=https;AccountName=x;AccountKey=bG9uZ2tleQ==;", "bG9uZ2tleQ"),
    ("数据库密码：Zh0ngWen!Pass", "Zh0ngWen!Pass"),
    ("令牌=abcdef123456 已过期", "abcdef123456"),
]

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


@pytest.mark.parametrize(("text", "secret"), SECRETS, ids=[t[:30] for t, _ in SECRETS])
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
