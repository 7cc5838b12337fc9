"""Error detection, per-channel modes and host mentions."""

from __future__ import annotations

import json

import pytest

from pitstop.app.detect import ChannelModes, Detector, has_code_block
from pitstop.app.hosts import mentioned_hosts
from pitstop.core.errors import UsageError

DETECTOR = Detector.from_signatures([r"Xid\s*79", r"NRWTD", "(unbalanced"])


@pytest.mark.parametrize(
    "text",
    [
        'Traceback (most recent call last):\n  File "train.py", line 3',
        "```nvidia-smi output```",
        "NCCL WARN Cuda failure 'unknown error'",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "the job got killed by the OOM killer",
        "storcli shows NRWTD on the data volume",
        "八卡训练 loss 抖得跟心电图似的",
        "训练一跑就报错",
        "gpu-node-3 掉卡了",
    ],
)
def test_error_like_messages_are_detected(text):
    assert DETECTOR.looks_like_error(text)


@pytest.mark.parametrize("text", ["lunch at noon?", "thanks, that fixed it :tada:", "新机器到了", ""])
def test_chatter_is_not(text):
    assert not DETECTOR.looks_like_error(text)


def test_rich_text_code_block_counts(shared_dir):
    sample = json.loads(
        (shared_dir / "slack-payloads" / "docs-rich-text-preformatted-block.json").read_text()
    )
    assert has_code_block(sample["blocks"]) and DETECTOR.looks_like_error("see below", sample["blocks"])
    assert not has_code_block([{"type": "rich_text", "elements": [{"type": "rich_text_section"}]}])


def test_channel_modes():
    modes = ChannelModes.parse("mention,C1=auto")
    assert modes.mode("C1") == "auto" and modes.mode("C2") == "mention"
    assert ChannelModes.parse(None).mode("C9") == "auto"
    with pytest.raises(UsageError, match="--channels"):
        ChannelModes.parse("C1=sometimes")


def test_mentioned_hosts_are_whole_words_in_order():
    names = ["gpu-node-3", "gpu-node-30", "dgx1"]
    assert mentioned_hosts("NCCL hangs on gpu-node-30 and dgx1", names) == ["gpu-node-30", "dgx1"]
    assert mentioned_hosts("gpu-node-3.", names) == ["gpu-node-3"]
    assert mentioned_hosts("gpu-node-3x and mydgx1", names) == []
    assert mentioned_hosts("在 GPU-NODE-3 上跑不起来", names) == ["gpu-node-3"]
    # Chinese written right against the name, as people write it (`\w` took 上 for part of the name)
    assert mentioned_hosts("gpu-node-3上训练很慢，dgx1也是", names) == ["gpu-node-3", "dgx1"]
    assert mentioned_hosts("gpu-node-3.example.com 和 mydgx1", names) == []
