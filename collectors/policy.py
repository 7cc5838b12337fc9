"""The read-only policy: an allow-list of tools and argument shapes; everything else is refused.

`check_argv` is called by the runner on every command before it leaves the process, and by a
conformance test over the whole catalog and every generated script. Deny rules exist only to
give a precise reason for well-known state-changing flags; an argv is accepted only when its tool
is listed in `ALLOWED` and its arguments fully match one of the tool's shapes.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Mapping

from pitstop.collectors import catalog
from pitstop.core.errors import PitstopError
from pitstop.core.i18n import Msg, msg

# Shell metacharacters, quotes, globs, control characters: never in an argv element.
_UNSAFE = re.compile(r"[;&|<>$`\\\n\r\t\x00-\x1f\x7f*?~!{}()'\"#]")
_IFACE = catalog.IFACE_PATTERN.pattern.strip("^$")
_JOB = catalog.JOB_ID_PATTERN.pattern.strip("^$")
_UNIT = r"[A-Za-z0-9@._-]{1,64}"
_HOST = r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}"  # a host name as `hostname` prints it (no user text)
_BDF = r"(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]"

# tool -> regexes one of which must fully match the space-joined arguments ("" = no arguments).
ALLOWED: Mapping[str, tuple[str, ...]] = {
    "nvidia-smi": (
        r"",
        r"-q",
        r"-q -d [A-Z_,]+",
        r"topo -m",
        r"nvlink -s",
        r"nvlink -e",
        r"--query-gpu=[a-z_.,]+ --format=csv(?:,noheader)?(?:,nounits)?",
    ),
    "cat": (
        r"/proc/driver/nvidia/version",
        r"/proc/cmdline",
        r"/proc/mounts",
        r"/etc/os-release",
        r"/etc/hosts",
        r"/sys/module/mlx5_core/version",
    ),
    "hostname": (r"",),
    "getent": (rf"hosts {_HOST}",),
    "ss": (r"-ltn",),
    "stat": (r"-L -c %A %a %U %G %F %n /dev/shm",),
    "systemd-analyze": (r"cat-config systemd/logind\.conf",),
    "ldconfig": (r"-p",),  # without -p ldconfig rebuilds the cache
    "ofed_info": (r"-s",),
    "show_gids": (r"",),
    "journalctl": (
        r"-k -b --no-pager -o short-iso",
        r"-k -b -1 --no-pager -o short-iso",
        rf"-u {_UNIT} --no-pager -n \d{{1,5}}",
    ),
    "dmesg": (r"--time-format iso", r"-T"),
    "lspci": (r"-vv", r"-vvv", r"-nn", rf"-s {_BDF} -vv"),
    "ip": (r"-s link", r"link", r"-br addr", r"-br link"),
    "ethtool": (rf"-i {_IFACE}", rf"-S {_IFACE}"),
    "ibstat": (r"", r"-l"),
    "ibv_devinfo": (r"", r"-v"),
    "numactl": (r"-H",),
    "lscpu": (r"",),
    "cpupower": (r"frequency-info", r"idle-info"),
    "storcli64": (r"/c(?:all|\d+)(?:/v(?:all|\d+))? show(?: all)?",),
    "MegaCli64": (r"-LDInfo -Lall -aALL", r"-AdpAllInfo -aALL", r"-PDList -aALL"),
    "lsblk": (r"",),
    "df": (r"-h",),
    "ipmitool": (r"sel elist", r"sel list", r"sel info", r"sensor", r"sensor list", r"sdr(?: elist| list)?"),
    "systemctl": (rf"(?:status|show|is-active) {_UNIT} --no-pager", rf"(?:status|show|is-active) {_UNIT}"),
    "nvidia-ctk": (r"--version",),
    "nvidia-container-cli": (r"--version",),
    "docker": (r"info", r"version"),
    "uname": (r"-a", r"-r"),
    "setpci": (rf"-s {_BDF} [A-Za-z0-9_.+]+(?:\.[bwl])?",),  # reads only: a write has `=`
    "perfquery": (r"", r"-x"),
    "scontrol": (
        rf"show job -o {_JOB}",
        rf"show job {_JOB}",
        rf"show node -o {_HOST}",
    ),
    "sacct": (rf"-j {_JOB} -n -P -o [A-Za-z,]+",),
}

# (tool, regex on the joined arguments, reason key in core/messages/readonly.py): checked first,
# for a precise message.
DENIED: tuple[tuple[str, str, str], ...] = (
    (
        "dmesg",
        r"(?:^| )(?:-[a-zA-Z]*[cCDEn][a-zA-Z]*|--clear|--read-clear|--console-\w+)(?: |$)",
        "readonly.denied.ring_buffer",
    ),
    (
        "nvidia-smi",
        r"(?:^| )(?:-r|--gpu-reset|-pm|--persistence-mode(?:=\S*)?|-e|--ecc-config(?:=\S*)?|"
        r"-mig|--multi-instance-gpu(?:=\S*)?|-pl|--power-limit(?:=\S*)?|-ac|--applications-clocks(?:=\S*)?|"
        r"-rac|--reset-applications-clocks|-c|--compute-mode(?:=\S*)?|-lgc|-rgc|-lmc|-rmc|-cc|-am|-caa|-p|"
        r"--reset-ecc-errors(?:=\S*)?|-dm|--driver-model(?:=\S*)?)(?: |$)",
        "readonly.denied.gpu",
    ),
    (
        "ipmitool",
        r"^(?:sel (?:clear|delete|add|set)|chassis|power|raw|mc reset|lan set|user|sol|fru write|"
        r"sensor thresh|bmc reset)",
        "readonly.denied.bmc",
    ),
    ("setpci", r"=", "readonly.denied.pci"),
    (
        "storcli64",
        r"(?:^| )(?:set|delete|start|stop|add|del|pause|resume|suspend|flash|download)(?: |$)",
        "readonly.denied.raid",
    ),
    (
        "MegaCli64",
        r"(?i)-(?:LDSetProp|CfgClr|CfgLdDel|CfgLdAdd|AdpSetProp|PDMakeGood|AdpFwFlash)",
        "readonly.denied.raid",
    ),
    (
        "ethtool",
        r"(?:^| )(?:-s|--change|-K|--offload|-G|--set-ring|-A|--pause|-L|--set-channels|-E|-f|"
        r"--flash|-r|--negotiate|-W|-C|--coalesce|-p|--identify)(?: |$)",
        "readonly.denied.nic",
    ),
    ("perfquery", r"(?:^| )(?:-R|--Reset_only|-r|--reset_after_read)(?: |$)", "readonly.denied.ib_counters"),
    ("systemctl", r"^(?!(?:status|show|is-active) )", "readonly.denied.systemctl"),
    (
        "journalctl",
        r"--(?:vacuum|rotate|flush|sync|relinquish|setup-keys|update-catalog)",
        "readonly.denied.journal",
    ),
    ("cpupower", r"(?:^| )(?:frequency-set|idle-set|set)(?: |$)", "readonly.denied.cpu_power"),
    ("ip", r"(?:^| )(?:set|add|del|delete|change|replace|flush)(?: |$)", "readonly.denied.network"),
    (
        "scontrol",
        r"^(?!show )|(?:^| )(?:update|hold|release|requeue|suspend|resume|cancel|delete|create|reboot|"
        r"reconfigure|shutdown|takeover|notify|top|uhold|write)(?: |$)",
        "readonly.denied.slurm",
    ),
)

STATE_CHANGING_TOOLS = frozenset(
    {
        "modprobe",
        "rmmod",
        "insmod",
        "rm",
        "dd",
        "reboot",
        "shutdown",
        "poweroff",
        "halt",
        "kill",
        "pkill",
        "killall",
        "mkfs",
        "fdisk",
        "parted",
        "tee",
        "cp",
        "mv",
        "chmod",
        "chown",
        "nvidia-persistenced",
        "systemd-run",
        "nvme",
    }
)
_WRAPPER = re.compile(r"timeout -k (\d{1,3}) (\d{1,4}) (sudo -n )?(.+?)(?: </dev/null)?", re.S)


class PolicyViolation(PitstopError):
    """An argv or script that the read-only policy refuses."""


def _probe_code(argv: tuple[str, ...]) -> bool:
    """True when argv is `python3 -` (a stdin probe) or `python3 -c <a catalog probe script, verbatim>`."""
    if argv == ("python3", "-") and any(c.stdin_probe for c in catalog.CATALOG):
        return True
    if len(argv) != 3 or argv[:2] != ("python3", "-c"):
        return False
    probes = [c.argv_probe for c in catalog.CATALOG if c.argv_probe]
    try:
        return any(argv[2] == catalog.probe_text(p) for p in probes)
    except catalog.ProbeMissing:
        return False


def violation(argv: tuple[str, ...] | list[str]) -> Msg | None:
    """Why `argv` is refused, or None when it is an allowed read-only command."""
    argv = tuple(argv)
    if not argv:
        return msg("readonly.empty")
    tool, args = argv[0], argv[1:]
    if tool == "python3":
        return None if _probe_code(argv) else msg("readonly.python")
    if tool == "sh":
        return script_violation(args[1]) if len(args) == 2 and args[0] == "-c" else msg("readonly.sh")
    if tool in STATE_CHANGING_TOOLS:
        return msg("readonly.state_tool", tool=tool)
    if tool not in ALLOWED:
        return msg("readonly.not_allowed", tool=tool)
    bad = next((a for a in args if _UNSAFE.search(a) or not a), None)
    if bad is not None:
        return msg("readonly.unsafe_arg", arg=bad)
    joined = " ".join(args)
    for denied_tool, pattern, reason in DENIED:
        if denied_tool == tool and re.search(pattern, joined):
            return msg("readonly.denied", command=f"{tool} {joined}", reason=msg(reason))
    if not any(re.fullmatch(shape, joined) for shape in ALLOWED[tool]):
        return msg("readonly.shape", tool=tool, args=joined)
    return None


def check_argv(argv: tuple[str, ...] | list[str]) -> None:
    """Raise PolicyViolation unless `argv` is an allowed read-only command."""
    reason = violation(argv)
    if reason is not None:
        raise PolicyViolation(msg("errors.policy.read_only", reason=reason))


def script_violation(script: str) -> Msg | None:
    """Why a framing script is refused: it must be the fixed header, then marker-framed allowed argvs."""
    from pitstop.collectors.transport import framing  # the wire format lives with the transports

    blocks = framing.script_blocks(script)
    if blocks is None:
        return msg("readonly.script.grammar")
    fixed, commands = blocks
    if tuple(fixed[: len(framing.HEADER)]) != framing.HEADER:
        return msg("readonly.script.header")
    for line in fixed[len(framing.HEADER) :]:
        if not (framing.BEGIN_LINE.fullmatch(line) or framing.END_LINE.fullmatch(line)):
            return msg("readonly.script.line", line=line[:80])
    for text in commands:
        reason = _command_violation(text)
        if reason:
            return reason
    return None


@functools.lru_cache(maxsize=4096)  # the same command texts recur for every host
def _command_violation(text: str) -> Msg | None:
    m = _WRAPPER.fullmatch(text)
    if not m:
        return msg("readonly.script.no_timeout", text=text[:80])
    try:
        argv = tuple(shlex.split(m.group(4)))
    except ValueError:
        return msg("readonly.script.unparsable", text=text[:80])
    if shlex.join(argv) != m.group(4):
        return msg("readonly.script.quoting", text=text[:80])
    if m.group(3) and not _sudo_allowed(argv):
        return msg("readonly.script.sudo", command=shlex.join(argv)[:80])
    return violation(argv)


def _sudo_allowed(argv: tuple[str, ...]) -> bool:
    return any(c.sudo_allowed and c.argv == argv for c in catalog.CATALOG)
