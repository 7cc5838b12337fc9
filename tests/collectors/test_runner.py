"""The runner over the local transport with real subprocesses: framing, caps, timeouts, missing tools."""

from __future__ import annotations

import asyncio
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from pitstop.collectors import catalog, runner
from pitstop.collectors.inventory import Host
from pitstop.collectors.transport import framing
from pitstop.core.redact import redact

LOCAL = Host("localhost", "127.0.0.1", transport="local")

TOOLS = {
    # exact bytes, no trailing newline: framing must not add or eat any
    "uname": "printf 'Linux box 6.1.0 x86_64'",
    "lscpu": "yes 'filler line of a huge output' | head -c 50000000; echo; echo 'THE END'",
    "lsblk": r"printf 'sda 8:0 \377\376 disk\n'",
    "df": "echo 'df: /mnt: Permission denied' >&2; echo 'Filesystem Size'; exit 1",
    "journalctl": "exit 127",
    "dmesg": "echo '[2026-11-30T01:00:00,000000+00:00] NVRM: Xid 79'",
    "ip": "printf '1: lo: <LOOPBACK>\\n2: eth0: <UP>\\n3: ib0@if9: <UP>\\n4: bad$(x): <UP>\\n'",
    "ethtool": 'echo "driver: drv-$2"',
    "numactl": "exec sleep 30",
    "cpupower": "printf 'first\\n'; exec sleep 30",
    "lspci": "echo 'seen on stdin:'; cat",
}


@pytest.fixture
def fakebin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake tools first on PATH; only coreutils and sh besides (so other tools are 'not installed')."""
    for name, body in TOOLS.items():
        f = tmp_path / name
        f.write_text(f"#!/bin/sh\n{body}\n")
        f.chmod(f.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    for name in ("numactl", "cpupower"):
        monkeypatch.setitem(catalog.BY_NAME, name, replace(catalog.BY_NAME[name], timeout_s=1))
    return tmp_path


def run(names: list[str], lanes: int = 4) -> runner.HostRun:
    return asyncio.run(runner.run_host(LOCAL, names, lanes=lanes))


def test_exact_output_and_framing(fakebin: Path) -> None:
    r = run(["uname", "lsblk", "df"], lanes=1)
    assert r.status == "ok" and r.channels == 1
    assert r.results["uname"].stdout == "Linux box 6.1.0 x86_64"
    assert r.results["uname"].outcome == "ok" and r.results["uname"].exit == 0
    df = r.results["df"]
    assert (df.outcome, df.exit, df.stdout) == ("nonzero", 1, "Filesystem Size\n")
    assert "Permission denied" in str(df.message) and "Permission denied" in df.stderr


def test_invalid_utf8_is_replaced(fakebin: Path) -> None:
    out = run(["lsblk"]).results["lsblk"]
    assert out.outcome == "ok" and out.stdout == "sda 8:0 \ufffd\ufffd disk\n"


def test_huge_output_keeps_the_tail(fakebin: Path) -> None:
    r = run(["lscpu"]).results["lscpu"]
    assert r.outcome == "ok" and r.truncated
    assert r.stdout.endswith("THE END\n") and r.stdout.startswith("filler line")
    assert len(r.stdout) <= catalog.BY_NAME["lscpu"].output_cap
    assert r.output_bytes == 50_000_000 + 1 + len("THE END\n")
    assert "kept the last" in str(r.message)


def test_missing_tool_is_not_installed(fakebin: Path) -> None:
    r = run(["ibstat", "nvidia_smi"]).results
    for name in ("ibstat", "nvidia_smi"):
        assert r[name].outcome == "missing" and r[name].exit == 127
        assert "not installed" in str(r[name].message)


def test_remote_timeout_stops_a_hang_and_keeps_partial_output(fakebin: Path) -> None:
    r = run(["numactl", "cpupower", "uname"], lanes=1)
    for name in ("numactl", "cpupower"):
        assert r.results[name].outcome == "timeout" and r.results[name].exit == 124
        assert "timed out after 1s" in str(r.results[name].message)
    assert r.results["cpupower"].stdout == "first\n"
    assert r.results["uname"].outcome == "ok"  # the lane went on after the hang


def test_fallback_and_host_derived_parameters(fakebin: Path) -> None:
    r = run(["kernel_log", "ethtool_i"])
    assert r.results["kernel_log"].outcome == "missing"
    assert "Xid 79" in r.results["dmesg"].stdout  # journalctl missing -> dmesg
    eth = r.results["ethtool_i"]
    assert eth.stdout == "interface: eth0\ndriver: drv-eth0\n\ninterface: ib0\ndriver: drv-ib0\n"
    assert [c.argv for c in r.commands if c.collector == "ethtool_i"] == [
        ("ethtool", "-i", "eth0"),
        ("ethtool", "-i", "ib0"),
    ]


def test_stdin_probe_gets_its_own_channel(fakebin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(catalog.BY_NAME, "lspci", replace(catalog.BY_NAME["lspci"], stdin_probe="p.py"))
    monkeypatch.setattr(catalog, "PROBES_DIR", fakebin)
    (fakebin / "p.py").write_text("probe body\n")
    r = run(["lspci", "uname", "df"], lanes=2)
    assert r.results["lspci"].stdout == "seen on stdin:\nprobe body\n"
    assert r.channels == 2


def test_stuck_command_is_abandoned_and_the_rest_retried(
    fakebin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a `timeout` that cannot stop numactl (as with a process in D state); the local deadline must
    (fakebin / "timeout").write_text(
        '#!/bin/sh\ncase "$*" in *numactl*|*cpupower*) exec sleep 60 ;; esac\nexec /usr/bin/timeout "$@"\n'
    )
    (fakebin / "timeout").chmod(0o755)
    monkeypatch.setattr(runner, "SLACK_S", 0.5)
    r = run(["numactl", "cpupower", "uname"], lanes=1)
    for name in ("numactl", "cpupower"):  # both stuck: each abandons a channel; uname still runs
        stuck = r.results[name]
        assert stuck.outcome == "timeout" and stuck.exit is None and "could not stop it" in str(stuck.message)
    assert r.results["uname"].outcome == "ok" and r.channels == 3


def test_refused_script_never_runs(fakebin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(catalog.BY_NAME, "uname", replace(catalog.BY_NAME["uname"], argv=("uname", "-a;id")))
    r = run(["uname"])
    assert r.results["uname"].outcome == "refused" and "read-only policy" in str(r.results["uname"].message)


def test_nonce_in_output_cannot_forge_markers(fakebin: Path) -> None:
    demux = framing.Demux("a" * 16, [100])
    demux.feed(b"\n@@" + b"a" * 16 + b" B 0\nline\n@@bbbbbbbbbbbbbbbb E 0 0\n")
    demux.feed(b"\n@@" + b"a" * 16 + b" E 0 3\n")
    assert demux.status == {0: 3} and demux.tails[0].text() == "line\n@@bbbbbbbbbbbbbbbb E 0 0\n"


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_demux_any_chunking(chunk: int) -> None:
    nonce = "c" * 16
    stream = (f"\n@@{nonce} B 0\nabc\n@@{nonce} E 0 0\n\n@@{nonce} B 1\nab\ncd\n\n@@{nonce} E 1 2\n").encode()
    d = framing.Demux(nonce, [100, 4])
    for i in range(0, len(stream), chunk):
        d.feed(stream[i : i + chunk])
    d.close()
    assert [t.text() for t in d.tails] == ["abc", "cd\n"] and d.status == {0: 0, 1: 2}
    assert d.tails[1].truncated and d.tails[1].total == 6


def test_sudo_only_when_the_operator_allows_it(fakebin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (fakebin / "sudo").write_text(
        '#!/bin/sh\n[ "$1" = -n ] || exit 99\nshift\n'
        '[ -z "$DENY" ] || { echo "sudo: a password is required" >&2; exit 1; }\n'
        'echo "as root:"; exec "$@"\n'
    )
    (fakebin / "sudo").chmod(0o755)
    (fakebin / "lspci").write_text("#!/bin/sh\necho 'pci devices'\n")
    allowed = replace(LOCAL, sudo=frozenset({"lspci", "uname"}))  # uname is not sudo_allowed: never wrapped
    r = asyncio.run(runner.run_host(allowed, ["lspci", "uname"]))
    assert r.results["lspci"].stdout == "as root:\npci devices\n"
    assert r.results["uname"].stdout == "Linux box 6.1.0 x86_64"
    assert run(["lspci"]).results["lspci"].stdout == "pci devices\n"  # not listed: no sudo
    monkeypatch.setenv("DENY", "1")
    denied = asyncio.run(runner.run_host(allowed, ["lspci"])).results["lspci"]
    assert denied.outcome == "refused" and "sudo -n refused" in str(denied.message)


KEY_LINES = tuple(f"FakeKeyBody{n:03d}" + "Q" * 48 for n in range(200))
PEM = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(KEY_LINES) + "\n-----END OPENSSH PRIVATE KEY-----\n"


@pytest.mark.parametrize(
    ("stream", "cap", "secret"),
    [
        (PEM + "after the key\n", len(PEM) // 2, "FakeKeyBody1"),  # the cut falls inside the key block
        ("export SLACK_BOT_TOKEN=xoxb-1234567890123-1234567890123-FakeCutTail0123456789", 30, "FakeCutTail"),
        ("line\n" * 10 + "ghp_FakeCutPat0123456789abcdefghijklmnop\nend\n", 30, "abcdefghij"),
    ],
    ids=["pem", "one-line-token", "prefixed-token"],
)
@pytest.mark.parametrize("chunk", [1, 13, 1 << 20])
def test_a_secret_across_the_cut_is_masked_before_the_cut(
    stream: str, cap: int, secret: str, chunk: int
) -> None:
    tail = framing.Tail(cap)
    data = stream.encode()
    for i in range(0, len(data), chunk):
        tail.add(data[i : i + chunk])
    kept = tail.text()
    assert tail.truncated and len(kept.encode()) <= cap
    assert secret not in kept, kept


def test_a_cut_stream_redacts_only_around_its_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []

    def counting(text: str) -> str:
        read.append(len(text))
        return redact(text)

    monkeypatch.setattr(framing, "redact", counting)
    tail = framing.Tail(4 << 20)
    line = b"kernel: eth0: link up 100Gbps, nothing secret on this line at all\n"
    chunk = line * 100
    for _ in range((8 << 20) // len(chunk)):
        tail.add(chunk)
    kept = tail.text()
    assert tail.truncated and kept.startswith("kernel: ") and kept.endswith(line.decode())
    assert sum(read) <= 2 * framing.MARGIN + len(chunk) + len(line)  # not the 4 MiB cap


def test_the_runner_masks_a_secret_the_output_cap_cuts(fakebin: Path, tmp_path: Path) -> None:
    cap = catalog.BY_NAME["lscpu"].output_cap
    output = tmp_path / "output"
    output.write_text(PEM + "x" * (cap - len(PEM) // 2 - 1) + "\n")
    (fakebin / "lscpu").write_text(f"#!/bin/sh\ncat {output}\n")
    (fakebin / "df").write_text(
        "#!/bin/sh\necho \"error: $(printf '%0176d' 0) ghp_FakeCutPat0123456789abcdefghijkl\" >&2\nexit 1\n"
    )
    r = run(["lscpu", "df"], lanes=1).results
    assert r["lscpu"].truncated and "FakeKeyBody" not in r["lscpu"].stdout
    assert r["df"].outcome == "nonzero" and "FakeCutPat" not in str(r["df"].message)


def test_a_tool_that_reads_its_shells_command_line_finds_no_nonce(tmp_path: Path, monkeypatch) -> None:
    """A host's users can read every process's command line. The script is the shell's command line,
    and the nonce is not in it (it comes on stdin), so a tool that looks for it there finds none and
    the marker it prints is plain output of its command."""
    forger = tmp_path / "uname"
    forger.write_text(
        "#!/bin/sh\n"
        "sh=$(awk '/^PPid/ {print $2}' /proc/$PPID/status)\n"  # the shell above `timeout`
        "tr '\\000' '\\n' < /proc/$sh/cmdline | grep -c '@@%s B' >/dev/null || exit 3\n"  # it is the script
        "n=$(tr '\\000' '\\n' < /proc/$sh/cmdline | grep -o '@@[0-9a-f]\\{16\\}' | head -1 | cut -c3-)\n"
        "printf 'Linux box\\n\\n@@%s E 0 0\\nhidden rest\\n' \"$n\"\n"
    )
    forger.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    r = run(["uname", "df"], lanes=1)
    read = r.results["uname"]
    assert read.outcome == "ok", read.message  # it found the script, and no nonce in it
    assert "hidden rest" in read.stdout and "@@ E 0 0" in read.stdout
    assert r.results["df"].outcome in ("ok", "nonzero")
