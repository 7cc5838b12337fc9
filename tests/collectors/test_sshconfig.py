"""ssh_config resolution equals the real OpenSSH client's (`ssh -G`) on a table of configs.

Each case is a config (plus files it includes, written beside it; `{dir}` is that directory) and
the aliases to resolve. For every alias the hostname, port, user, ProxyJump chain and identity
files Pitstop resolves must equal what `ssh -G -F CONFIG ALIAS` prints. `ssh -G` prints
IdentityFile unexpanded, so the test expands its `~` and `%` tokens from ssh's own resolved
hostname, port and user; an empty Pitstop list must correspond to ssh's default key list.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from pitstop.collectors.sshconfig import SshConfig
from pitstop.core.config import local_user
from pitstop.core.errors import BadFile, UsageError
from tests.file_groups import private_group, share_group

SSH = shutil.which("ssh")
DEFAULT_KEYS = tuple(
    f"~/.ssh/{n}"
    for n in ("id_rsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519", "id_ed25519_sk", "id_xmss", "id_dsa")
)

# (case id, main config, {included file: text}, aliases)
CASES: list[tuple[str, str, dict[str, str], tuple[str, ...]]] = [
    ("plain-alias", "Host web\n  HostName 10.0.0.5\n  User deploy\n  Port 2201\n", {}, ("web", "other")),
    (
        "first-value-wins",
        "Host web\n  Port 1111\nHost web\n  Port 2222\n  User a\nHost *\n  User b\n",
        {},
        ("web", "x"),
    ),
    (
        "wildcards",
        "Host gpu?? !gpu13\n  User ops\nHost gpu*\n  Port 2200\n",
        {},
        ("gpu12", "gpu13", "gpu123", "cpu1"),
    ),
    ("negation-only-no-match", "Host !bastion\n  User never\nHost *\n  User any\n", {}, ("bastion", "node")),
    ("hostname-token-h", "Host n*\n  HostName %h.cluster.local\n", {}, ("n1", "n22")),
    (
        "hostname-alias-chain",
        "Host db\n  HostName db-primary\nHost db-primary\n  Port 5022\nHost *\n  Port 22\n",
        {},
        ("db", "db-primary"),
    ),
    (
        "multiple-identityfile",
        "Host a\n  IdentityFile ~/.ssh/a_key\n  IdentityFile /keys/shared\n"
        "Host *\n  IdentityFile ~/.ssh/fallback\n",
        {},
        ("a", "b"),
    ),
    (
        "identity-tokens",
        "Host t*\n  HostName %h.example.org\n  User ops\n  Port 2022\n"
        "  IdentityFile %d/.ssh/%r@%h:%p\n  IdentityFile ~/.ssh/%n_%u\n",
        {},
        ("t1", "t2"),
    ),
    ("identity-percent-literal", "Host p\n  IdentityFile /keys/100%%_key\n", {}, ("p",)),
    ("proxyjump-single", "Host inner\n  HostName 10.1.0.1\n  ProxyJump bastion\n", {}, ("inner", "bastion")),
    ("proxyjump-chain", "Host deep\n  ProxyJump gate,ops@mid:2222,last\n", {}, ("deep",)),
    (
        "proxyjump-none",
        "Host direct\n  ProxyJump none\nHost *\n  ProxyJump bastion\n",
        {},
        ("direct", "other"),
    ),
    (
        "include-absolute",
        "Include {dir}/conf.d/*.conf\nHost *\n  User fallback\n",
        {
            "conf.d/10-gpu.conf": "Host gpu01\n  HostName 10.2.0.1\n  User gpuadmin\n",
            "conf.d/20-db.conf": "Host db\n  Port 6022\n",
        },
        ("gpu01", "db", "none"),
    ),
    (
        "include-inside-host",
        "Host special\n  Include {dir}/special.conf\nHost *\n  Port 2300\n",
        {"special.conf": "Port 4444\nUser sp\n"},
        ("special", "plain"),
    ),
    (
        "include-nested",
        "Include {dir}/a.conf\n",
        {
            "a.conf": "Include {dir}/b.conf\nHost x\n  User from-a\n",
            "b.conf": "Host x\n  Port 7022\n  User from-b\n",
        },
        ("x",),
    ),
    (
        "match-host",
        "Host web\n  HostName web.prod.example.com\nMatch host *.prod.example.com\n  User produser\n",
        {},
        ("web", "web.prod.example.com", "dev"),
    ),
    (
        "match-originalhost",
        "Host web\n  HostName 10.0.0.9\nMatch originalhost web\n  Port 2022\nMatch host web\n  User never\n",
        {},
        ("web",),
    ),
    (
        "match-user",
        "Host u1\n  User alice\nMatch user alice\n  Port 3022\nMatch user bob\n  Port 4022\n",
        {},
        ("u1", "u2"),
    ),
    ("match-all", "Host a\n  User a\nMatch all\n  Port 2525\n", {}, ("a", "b")),
    (
        "match-negated",
        "Match !host bastion*\n  ProxyJump bastion\nHost bastion\n  HostName 192.0.2.1\n",
        {},
        ("bastion", "app"),
    ),
    ("match-host-list", "Match host a,b\n  User ab\nMatch host c\n  User c\n", {}, ("a", "b", "c", "d")),
    (
        "match-localuser",
        f"Match localuser {local_user()}\n  Port 2626\nMatch localuser nobody-else\n  Port 9\n",
        {},
        ("any",),
    ),
    ("canonicalize-off", "CanonicalizeHostname no\nHost short\n  HostName short\n  User c\n", {}, ("short",)),
    ("equals-syntax", "Host=eq\n  HostName=10.9.9.9\n  Port = 2121\n  User=eqa\n", {}, ("eq",)),
    ("case-insensitive-keywords", "HOST big\n  HOSTNAME 10.7.7.7\n  user lower\n  PORT 2424\n", {}, ("big",)),
    ("global-before-host", "User globaluser\nPort 2000\nHost g\n  User ignored\n  Port 3000\n", {}, ("g",)),
    ("quoted-values", 'Host q\n  IdentityFile "/keys/with space"\n  User "quser"\n', {}, ("q",)),
    ("comments-and-blank", "# top\n\nHost c1 # trailing\n  # inside\n  Port 2323\n\n", {}, ("c1",)),
    (
        "gpu-fleet",
        "Host bastion\n  HostName 198.51.100.7\n  User jump\n  IdentityFile ~/.ssh/jump_ed25519\n"
        "Host gpu*\n  User ops\n  ProxyJump bastion\n  IdentityFile ~/.ssh/fleet_ed25519\n"
        "Host gpu0?\n  HostName 10.10.0.%h\nHost *\n  ServerAliveInterval 30\n",
        {},
        ("bastion", "gpu01", "gpu10"),
    ),
    ("ipv4-address-alias", "Host 10.0.0.*\n  User netadmin\n  Port 2200\n", {}, ("10.0.0.7", "10.0.1.7")),
]


def _ssh_g(config: Path, alias: str) -> dict[str, list[str]]:
    assert SSH, "the real OpenSSH client is needed: apt-get install openssh-client (.ci/install does)"
    out = subprocess.run(
        [SSH, "-G", "-F", str(config), alias],
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    ).stdout
    values: dict[str, list[str]] = {}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        values.setdefault(key, []).append(value)
    return values


def _expand(path: str, alias: str, host: str, port: str, user: str) -> str:
    """OpenSSH's `~` and `%` expansion of IdentityFile (ssh -G prints it unexpanded)."""
    home = os.path.expanduser("~")
    if path.startswith("~/"):
        path = home + path[1:]
    tokens = {
        "d": home,
        "h": host,
        "p": port,
        "r": user,
        "n": alias,
        "u": local_user(),
        "%": "%",
        "l": socket.gethostname(),
        "L": socket.gethostname().split(".")[0],
        "i": str(os.getuid()),
    }
    out, i = [], 0
    while i < len(path):
        if path[i] == "%" and i + 1 < len(path):
            out.append(tokens[path[i + 1]])
            i += 2
        else:
            out.append(path[i])
            i += 1
    return "".join(out)


@pytest.mark.parametrize(("case", "text", "includes", "aliases"), CASES, ids=[c[0] for c in CASES])
def test_resolution_equals_ssh_G(
    tmp_path: Path, case: str, text: str, includes: dict[str, str], aliases: tuple[str, ...]
) -> None:
    for name, body in includes.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body.replace("{dir}", str(tmp_path)))
    config = tmp_path / "config"
    config.write_text(text.replace("{dir}", str(tmp_path)))
    cfg = SshConfig.from_paths([config])
    for alias in aliases:
        ssh = _ssh_g(config, alias)
        got = cfg.resolve(alias)
        host, port, user = ssh["hostname"][0], ssh["port"][0], ssh["user"][0]
        assert (got.hostname, str(got.port), got.user or local_user()) == (host, port, user), alias
        assert ",".join(got.proxy_jump) == ssh.get("proxyjump", [""])[0], alias
        identities = ssh.get("identityfile", [])
        if got.identity_files:
            assert list(got.identity_files) == [_expand(p, alias, host, port, user) for p in identities], (
                alias
            )
        else:
            assert tuple(identities) == DEFAULT_KEYS, alias


def test_table_size() -> None:
    assert len(CASES) >= 25 and sum(len(c[3]) for c in CASES) >= 50


def test_match_exec_is_skipped_unless_allowed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    config = tmp_path / "config"
    config.write_text(f'Match host e* exec "touch {marker}"\n  Port 2999\n')
    skipped = SshConfig.from_paths([config]).resolve("e1")
    assert skipped.port == 22 and not marker.exists()
    assert len(skipped.notes) == 1 and "PITSTOP_SSH_LOCAL_COMMANDS=1" in str(skipped.notes[0])
    assert SshConfig.from_paths([config]).resolve("other").notes == ()  # `host e*` already fails: no note
    allowed = SshConfig.from_paths([config], allow_local_commands=True).resolve("e1")
    assert allowed.port == 2999 and marker.exists() and allowed.notes == ()


def test_origins_and_concrete_hosts(tmp_path: Path) -> None:
    (tmp_path / "inc.conf").write_text("Host only-included\n  User inc\nHost wild-*\n  User w\n")
    config = tmp_path / "config"
    config.write_text(f"Include {tmp_path}/inc.conf\nHost web db !neg ??x\n  Port 2022\n")
    cfg = SshConfig.from_paths([config, tmp_path / "missing"])
    assert cfg.concrete_hosts() == ("only-included", "web", "db")
    got = cfg.resolve("only-included")
    assert got.origins["user"] == f"{tmp_path}/inc.conf:2" and "port" not in got.origins
    assert cfg.resolve("web").origins["port"] == f"{config}:3"


def test_overrides_win_and_feed_match(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text(
        "Host w\n  HostName cfg-name\n  User cfguser\n  Port 1\nMatch user admin\n  IdentityFile /k/admin\n"
    )
    got = SshConfig.from_paths([config]).resolve("w", user="admin", port=2200, hostname="10.0.0.1")
    assert (got.hostname, got.port, got.user, got.identity_files) == (
        "10.0.0.1",
        2200,
        "admin",
        ("/k/admin",),
    )


# Every spelling of an `exec` criterion ssh accepts: a second one, after other criteria, any case,
# `=` separators, quoted or not, negated, beside `all`, `canonical` and `final`. None may run.
EXEC_SPELLINGS = (
    'Match exec "touch {m}"',
    'Match host e* exec "touch {m}"',
    'Match host e* exec true exec "touch {m}"',
    'Match exec true exec "touch {m}"',
    'Match exec "touch {m}" host e*',
    'Match originalhost e1 user * exec "touch {m}"',
    'Match EXEC "touch {m}"',
    'MATCH Host e* ExEc "touch {m}"',
    'Match exec="touch {m}"',
    'Match host=e* exec="touch {m}"',
    "Match exec=touch\\ {m}",
    'Match !exec "touch {m}"',
    'Match !EXEC "touch {m}"',
    'Match host e* !exec "touch {m}"',
    'Match all exec "touch {m}"',
    'Match canonical exec "touch {m}"',
    'Match !canonical exec "touch {m}"',
    'Match final exec "touch {m}"',
    'Match !final exec "touch {m}"',
    'Match final host e* exec true exec "touch {m}"',
    'Match host exec exec "touch {m}"',
    'Match=exec "touch {m}"',
    'Match = host e* exec "touch {m}"',
    'Match\thost\te*\texec\t"touch {m}"',
    'Match "exec" "touch {m}"',
    'Match host e* "EXEC"="touch {m}"',
    'Match !host x exec="touch {m}"',
)


@pytest.mark.parametrize("line", EXEC_SPELLINGS)
def test_no_spelling_of_match_exec_runs_a_local_command(tmp_path: Path, line: str) -> None:
    marker = tmp_path / "ran"
    config = tmp_path / "config"
    config.write_text(line.format(m=marker) + "\n  Port 2999\n")
    for alias in ("e1", "exec", "other"):
        assert SshConfig.from_paths([config]).resolve(alias).port == 22, alias
    assert not marker.exists()


def test_match_exec_without_its_command_is_an_error(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Match host e* exec\n  Port 2999\n")
    with pytest.raises(UsageError):
        SshConfig.from_paths([config]).resolve("e1")


@pytest.mark.parametrize("mode", [0o664, 0o646, 0o666])
@pytest.mark.parametrize("which", ["config", "included"])
def test_an_ssh_config_others_may_write_is_refused(tmp_path: Path, mode: int, which: str) -> None:
    (tmp_path / "included").write_text("Host inc\n  User inc\n")
    config = tmp_path / "config"
    config.write_text(f"Include {tmp_path}/included\nHost web\n  Port 2022\n")
    (tmp_path / which).chmod(mode)
    share_group(tmp_path / which)
    cfg = SshConfig.from_paths([config])
    for call in (lambda: cfg.resolve("web"), cfg.concrete_hosts):
        with pytest.raises(BadFile) as caught:
            call()
        assert caught.value.message.key == "errors.sshconfig.unsafe"
        assert str(tmp_path / which) in str(caught.value) and oct(mode)[2:] in str(caught.value)
        assert "组或其他用户" in caught.value.render("zh")


def test_an_ssh_config_only_its_owners_private_group_may_write_is_read(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host web\n  Port 2022\n")
    config.chmod(0o664)  # a umask of 002, the default for users with a private group
    private_group(config)
    assert SshConfig.from_paths([config]).resolve("web").port == 2022


def test_an_ssh_config_someone_else_owns_is_refused(tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("giving a file away needs root")
    config = tmp_path / "config"
    config.write_text("Host web\n  Port 2022\n")
    os.chown(config, 65534, -1)
    with pytest.raises(BadFile, match="uid 65534"):
        SshConfig.from_paths([config]).resolve("web")
