"""Preprocessing of pastes: noise removal, long logs, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitstop.core.errors import UsageError
from pitstop.core.i18n import detect_lang
from pitstop.kb.preprocess import decode, is_error_line, prepare


def test_strips_ansi_timestamps_pids_hex_and_paths():
    text = (
        "\x1b[31m2024-03-01T12:00:03.123Z\x1b[0m [12345.678901] NVRM: Xid (PCI:0000:3b:00): 79, pid=48213, "
        "GPU has fallen off the bus at 0x7f3a2b1c4d50\n"
        "OSError: /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: cannot open"
    )
    prepared = prepare(text)
    assert "\x1b" not in prepared.raw and "\x1b" not in prepared.clean
    assert "PCI:0000:3b:00" in prepared.raw  # signatures see the raw text
    for noise in ("2024-03-01", "48213", "0x7f3a2b1c4d50", "/opt/conda", "12345.678901"):
        assert noise not in prepared.clean
    assert "Xid" in prepared.clean and "79" in prepared.clean and "libtorch_cuda.so" in prepared.clean


def test_stack_trace_frames_are_dropped_and_the_error_lines_kept():
    text = (
        "training stopped at step 40:\n"
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 47, in main\n'
        "    board = lock_gpu()\n"
        '  File "/home/me/gpu.py", line 20, in lock_gpu\n'
        "    cm.cuda_set_device(board)\n"
        "             ^^^^^^^^^^^^^^\n"
        "RuntimeError: CUDA error: no CUDA-capable device is detected\n"
        "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44\n"
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f in libc10.so)\n"
        "During handling of the above exception, another exception occurred:\n"
    )
    clean = prepare(text).clean
    assert clean.splitlines() == [
        "training stopped at step 40:",
        "RuntimeError: CUDA error: no CUDA-capable device is detected",
        "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44",
    ]
    assert "Traceback" in prepare(text).raw  # the signatures still see every line


def test_a_paste_of_frames_only_keeps_them():
    text = '  File "/home/me/train.py", line 47, in main\n    board = lock_gpu()'
    assert "train.py" in prepare(text).clean


def test_repeated_lines_are_kept_once():
    text = "\n".join(f"[{i}.000] NCCL WARN NET/IB : Got completion with error 12" for i in range(50))
    assert prepare(text).clean.count("Got completion") == 1


def test_megabyte_log_keeps_the_error_lines():
    filler = "".join(f"step {i} loss=0.{i % 97:02d} lr=3e-4 throughput=812 samples/s\n" for i in range(20000))
    error = "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    text = "training on gpu07\n" + filler + error
    assert len(text) > 1_000_000
    prepared = prepare(text)
    assert prepared.truncated
    assert "illegal memory access" in prepared.clean
    assert "training on gpu07" in prepared.clean
    assert len(prepared.raw) <= 12_000


PIP_NOISE = (
    "Successfully installed nvidia-cublas-cu12-12.1.3.1 torch-2.3.1",
    "Downloading nvidia_cudnn_cu12-8.9.2.26-py3-none-manylinux1_x86_64.whl (731.7 MB)",
    "  Attempting uninstall: fsspec",
    "Requirement already satisfied: filelock in ./site-packages (3.13.1)",
    "Loss scale changed to 32768 after 1000 steps",
)


@pytest.mark.parametrize("line", PIP_NOISE)
def test_error_words_inside_other_words_do_not_count(line):
    assert not is_error_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "cudaErrorSystemNotReady: system not yet initialized",
        "OSError: [Errno 28] No space left on device",
        "CUDA_ERROR_ILLEGAL_ADDRESS",
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970",
        "mlx5_core 0000:41:00.0: Port module event: module 1, Cable unplugged, link is down",
        "loss is NaN at step 812",
        "训练跑着跑着就挂了",
    ],
)
def test_error_words_at_word_starts_count(line):
    assert is_error_line(line)


def test_long_log_drops_pip_noise():
    noise = "".join(f"{PIP_NOISE[i % len(PIP_NOISE)]} {i}\n" for i in range(200))
    text = "my job died\n" + noise + "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n" + noise
    prepared = prepare(text)
    assert prepared.truncated and "fallen off the bus" in prepared.raw
    assert len(prepared.raw.splitlines()) == 4  # the three opening lines and the error line


def test_ten_megabytes_without_error_words_still_answers():
    text = "all good here, nothing to see\n" * 350_000
    prepared = prepare(text)
    assert prepared.truncated and prepared.clean


def test_oversized_paste_is_refused_with_a_sentence():
    with pytest.raises(UsageError, match="MB"):
        prepare("x" * 20_000_001)


@pytest.mark.parametrize("text", ["", "   \n\t  ", "\x00\x00"])
def test_empty_or_blank_is_a_usage_error(text):
    with pytest.raises(UsageError, match="Nothing to search"):
        prepare(text)


def test_binary_and_invalid_utf8_are_refused():
    with pytest.raises(UsageError, match="binary"):
        decode(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    with pytest.raises(UsageError, match="UTF-8"):
        decode(bytes(range(0x80, 0x100)) * 4)


def test_a_stray_bad_byte_in_a_log_is_tolerated():
    assert "Xid 79" in decode(b"NVRM: Xid 79 \xff fallen off the bus")


def test_language_detection():
    assert detect_lang("八卡训练 loss 抖得跟心电图似的 i40e") == "zh"
    mixed = "nvidia-smi -q 看到 Remapped Rows Pending: Yes，最近偶尔出现 uncorrectable ECC error，训练挂掉"
    assert detect_lang(mixed) == "zh"
    assert detect_lang("Failed to initialize NVML: Driver/library version mismatch") == "en"


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_any_text_gives_a_result_or_a_usage_error(text):
    try:
        prepared = prepare(text)
    except UsageError as exc:
        assert str(exc)
    else:
        assert prepared.lang in ("en", "zh")
