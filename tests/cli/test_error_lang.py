"""A failing CLI command says why in the reader's language (`--lang`, before or after the command), with
the documented exit code (2 usage, 3 not found, 5 bad file) whatever the language."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitstop.cli.main import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err.strip()


def test_a_usage_error_in_each_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["diagnose"], capsys) == (2, "pitstop: give HOSTS or --job ID (one of them)")
    assert run(["--lang", "zh", "diagnose"], capsys) == (2, "pitstop：请给出 HOSTS 或 --job ID（二选一）")
    assert run(["diagnose", "--lang", "zh"], capsys) == (2, "pitstop：请给出 HOSTS 或 --job ID（二选一）")


def test_a_missing_file_in_each_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "hosts.ini"
    assert run(["inventory", "import", str(missing)], capsys) == (
        2,
        f"pitstop: cannot read {missing}: no such file",
    )
    for argv in (
        ["--lang", "zh", "inventory", "import", str(missing)],
        ["inventory", "import", str(missing), "--lang", "zh"],
    ):
        assert run(argv, capsys) == (2, f"pitstop：无法读取 {missing}：文件不存在")


def test_a_bad_file_in_each_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "inventory.yaml"
    bad.write_text("hosts:\n  gpu1: {port: 99999}\n", encoding="utf-8")
    argv = ["inventory", "show", "--inventory", str(bad)]
    assert run(argv, capsys) == (5, "pitstop: host 'gpu1': port 99999 is out of range")
    assert run(["--lang", "zh", *argv], capsys) == (5, "pitstop：主机 'gpu1'：端口 99999 超出范围")


def test_an_unknown_host_in_each_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inventory = tmp_path / "inventory.yaml"
    inventory.write_text("hosts:\n  gpu-node-1: {}\n", encoding="utf-8")
    argv = ["inventory", "show", "gpu-node-2", "--inventory", str(inventory)]
    assert run(argv, capsys) == (
        3,
        "pitstop: unknown host 'gpu-node-2' in the inventory; did you mean gpu-node-1?",
    )
    assert run([*argv, "--lang", "zh"], capsys) == (
        3,
        "pitstop：清单里没有主机 'gpu-node-2'；你是不是想找 gpu-node-1？",
    )


def test_the_operating_systems_reason_in_each_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Why a file cannot be read is the reader's language too for the common reasons (it was the OS's
    English, "No such file or directory", inside a Chinese sentence)."""
    missing = tmp_path / "error.log"
    assert run(["ask", "--file", str(missing)], capsys) == (
        2,
        f"pitstop: cannot read {missing}: no such file or directory",
    )
    assert run(["ask", "--file", str(missing), "--lang", "zh"], capsys) == (
        2,
        f"pitstop：无法读取 {missing}：文件或目录不存在",
    )
    assert run(["ask", "--file", str(tmp_path), "--lang", "zh"], capsys) == (
        2,
        f"pitstop：无法读取 {tmp_path}：这是一个目录",
    )


def test_a_file_that_is_not_a_learned_bundle_is_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`kb import` of a file that is not a bundle exits 5, as every other malformed file (it was 2)."""
    db = ["--db", str(tmp_path / "pitstop.db")]
    other = tmp_path / "other.json"
    other.write_text('{"schema": "pitstop.stats/1"}', encoding="utf-8")
    assert run(["kb", "import", str(other), *db], capsys) == (
        5,
        f"pitstop: {other} is not a Pitstop learned bundle (made by `pitstop kb export --learned`)",
    )
    assert run(["kb", "import", str(other), *db, "--lang", "zh"], capsys) == (
        5,
        f"pitstop：{other} 不是 Pitstop 的学习包（由 `pitstop kb export --learned` 生成）",
    )
