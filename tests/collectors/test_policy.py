"""The read-only policy: every catalog command and generated script passes; state changes never do."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitstop.collectors import catalog, policy
from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.transport import framing
from pitstop.core.errors import PitstopError
from pitstop.core.i18n import Msg, catalogue, msg
from tests.core.test_error_messages_zh import blank, prose_left
from tests.core.test_i18n import untranslated


def _all_commands() -> list[catalog.Command]:
    cmds = []
    for c in catalog.CATALOG:
        try:
            cmds.append(catalog.render(c, c.param.example if c.param else None, sudo=c.sudo_allowed))
        except catalog.ProbeMissing:
            continue  # the probe files are the facts engineer's; checked below when present
    return cmds


@pytest.mark.parametrize("cmd", _all_commands(), ids=lambda c: c.collector)
def test_every_catalog_command_is_allowed(cmd: catalog.Command) -> None:
    assert policy.violation(cmd.argv) is None


def test_every_generated_script_is_allowed() -> None:
    cmds = _all_commands()
    for lane_count in (1, 2, 4, 8):
        n = max(1, lane_count)
        plain = [c for c in cmds if c.stdin is None]
        for lane in [plain[i::n] for i in range(n)] + [[c] for c in cmds if c.stdin is not None]:
            script = framing.build_script(lane)
            assert policy.violation(("sh", "-c", script)) is None


@pytest.mark.parametrize(
    "argv",
    [
        "dmesg -c",
        "dmesg -C",
        "dmesg --clear",
        "dmesg -D",
        "dmesg -n 1",
        "dmesg -Tc",
        "nvidia-smi -r",
        "nvidia-smi --gpu-reset",
        "nvidia-smi -pm 1",
        "nvidia-smi -e 0",
        "nvidia-smi -mig 1",
        "nvidia-smi -pl 300",
        "nvidia-smi -ac 1215,1410",
        "nvidia-smi -rac",
        "nvidia-smi -c 3",
        "nvidia-smi --persistence-mode=1",
        "nvidia-smi -q -r",
        "nvidia-smi -i 0 -r",
        "ipmitool sel clear",
        "scontrol update jobid=123 nodelist=gpu01",
        "scontrol requeue 123",
        "scontrol cancel 123",
        "scontrol show job -o 123;reboot",
        "scontrol show job -o 12a",
        "sacct -j 123,124 -n -P -o JobID",
        "sacct -j 123 -n -P -o JobID --starttime=x",
        "ipmitool chassis power cycle",
        "ipmitool raw 0x06 0x02",
        "ipmitool mc reset cold",
        "modprobe nvidia",
        "rmmod nvidia",
        "insmod x.ko",
        "setpci -s 01:00.0 COMMAND=0x02",
        "storcli64 /c0/v0 set wrcache=wb",
        "storcli64 /c0/v0 delete",
        "storcli64 /c0 start rebuild",
        "ethtool -s eth0 speed 100",
        "ethtool -K eth0 tso off",
        "ethtool -G eth0 rx 4096",
        "perfquery -R",
        "systemctl restart nvidia-fabricmanager",
        "systemctl stop x",
        "rm -rf /",
        "dd if=/dev/zero",
        "journalctl --vacuum-size=1M",
        "cpupower frequency-set -g performance",
        "ip link set eth0 down",
        "cat /etc/shadow",
        "cat /proc/../etc/shadow",
        "bash -c id",
        "sh -c id",
        "python3 -c print(1)",
        "/usr/bin/nvidia-smi",
        "nvidia-smi -q > /tmp/x",
        "lspci -vv | sh",
    ],
)
def test_state_changing_commands_are_refused(argv: str) -> None:
    reason = policy.violation(tuple(argv.split(" ")))
    assert reason is not None, argv
    with pytest.raises(PitstopError, match="refused by the read-only policy"):
        policy.check_argv(tuple(argv.split(" ")))


def _reason(*argv: str) -> Msg:
    reason = policy.violation(argv)
    assert reason is not None, argv
    return reason


def test_reasons_name_the_danger() -> None:
    assert str(_reason("dmesg", "-C")) == "dmesg -C: clears or reconfigures the kernel ring buffer"
    assert "GPU state" in str(_reason("nvidia-smi", "-pm", "1"))
    assert str(_reason("curl", "x")) == "'curl' is not on the read-only allow-list"
    assert str(_reason("modprobe", "nvidia")) == "modprobe changes system state"


def test_reasons_read_in_chinese_with_tool_names_verbatim() -> None:
    assert _reason("nvidia-smi", "-pm", "1").render("zh") == "`nvidia-smi -pm 1`：会改变 GPU 状态"
    assert _reason("modprobe", "nvidia").render("zh") == "`modprobe` 会改变系统状态"
    assert _reason("lspci", "-vv;id").render("zh") == "参数 '-vv;id' 含有 shell 元字符，或为空"
    assert _reason(*_script(["echo hi"])).render("zh") == "脚本没有以固定的开头部分起始"
    with pytest.raises(PitstopError) as refused:
        policy.check_argv(("systemctl", "restart", "sshd"))
    assert refused.value.render("zh") == (
        "只读策略拒绝了这条命令：`systemctl restart sshd`：只有 `status`、`show` 和 `is-active` 是只读的"
    )


@pytest.mark.parametrize("key", sorted(k for k in catalogue() if k.startswith("readonly.")))
def test_every_refusal_reason_has_chinese_without_english_prose(key: str) -> None:
    en, zh = catalogue()[key]
    assert not untranslated(en, zh), zh
    assert not prose_left(blank(zh)), blank(zh)


def test_every_denied_rule_names_a_catalogue_reason() -> None:
    for tool, _, key in policy.DENIED:
        assert tool in policy.ALLOWED and str(msg(key))


def _script(lines: list[str]) -> tuple[str, ...]:
    return ("sh", "-c", "\n".join(lines) + "\n")


def test_tampered_scripts_are_refused() -> None:
    good = framing.build_script([catalog.render(catalog.BY_NAME["uname"])])
    assert policy.violation(("sh", "-c", good)) is None
    lines = good.rstrip("\n").split("\n")
    assert policy.violation(_script(lines + ["reboot"])) is not None
    assert policy.violation(_script([*lines[:3], "timeout -k 2 5 uname -a; reboot", *lines[4:]])) is not None
    assert policy.violation(_script([*lines[:3], "uname -a", *lines[4:]])) is not None  # no remote timeout
    assert policy.violation(_script([*lines[:3], "timeout -k 2 5 sudo -n uname -a", *lines[4:]])) is not None
    assert policy.violation(_script(lines[1:])) is not None  # header missing
    assert policy.violation(_script(lines[:-1])) is not None  # unterminated block
    # a marker with its nonce written in (the format before the nonce moved to stdin) is refused
    literal = good.replace('%s B 0\\n\' "$_ps_nonce"', "0123456789abcdef B 0\\n'", 1)
    assert literal != good and policy.violation(("sh", "-c", literal)) is not None


HOSTILE = st.one_of(
    st.sampled_from(
        [
            "gpu1; rm -rf /",
            "$(reboot)",
            "`reboot`",
            "gpu1\nreboot",
            "a|b",
            "x && y",
            "'; id; '",
            "gpu\u037e1",
            "ｇｐｕ１",
            "gpu[1-10000]",
            "--help",
            "-oProxyCommand=id",
        ]
    ),
    st.text(min_size=1, max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_user_text_never_reaches_argv(text: str) -> None:
    """Host arguments are only looked up; an argv is built from the catalog and inventory data alone."""
    inv = Inventory(hosts={"gpu1": Host("gpu1", "127.0.0.9")}, groups={})
    try:
        hosts = inv.select(text)
    except PitstopError:
        return
    for host in hosts:
        assert host.name in ("gpu1", "localhost")
        for cmd in _all_commands():
            script = framing.build_script([cmd])
            assert text not in shlex.split(framing.command_line(cmd)) or text in cmd.argv
            assert policy.violation(("sh", "-c", script)) is None
