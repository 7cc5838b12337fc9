"""Settings from the environment and an optional `.env` file; nothing else reads os.environ for them."""

from __future__ import annotations

import grp
import os
import pwd
import stat
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from pitstop.core.errors import BadFile
from pitstop.core.i18n import msg


def data_dir() -> Path:
    """Where Pitstop keeps its state by default (`$PITSTOP_HOME`, else `~/.local/share/pitstop`)."""
    home = os.environ.get("PITSTOP_HOME")
    if home:
        return Path(home)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "pitstop"


def cache_home() -> Path:
    """Where Pitstop keeps rebuildable caches (the ONNX export, check texts): `$XDG_CACHE_HOME/pitstop`,
    else `~/.cache/pitstop`."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pitstop"


def local_user() -> str:
    """Who runs this process: the real uid's login name from the passwd database (never $USER or
    $LOGNAME, which anyone can set), else the uid as a number."""
    uid = os.getuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _private_group(gid: int, owner: int) -> bool:
    """True when group `gid` has exactly one member, the user `owner` (a user private group, the kind
    a umask of 002 leaves files writable by), counting both primary and listed members, as ssh does."""
    try:
        group = grp.getgrgid(gid)
        name = pwd.getpwuid(owner).pw_name
    except KeyError:
        return False
    primary = {entry.pw_uid for entry in pwd.getpwall() if entry.pw_gid == gid}
    listed = set(group.gr_mem)
    return primary <= {owner} and listed <= {name} and bool(primary or listed)


def trusted(info: os.stat_result, owners: Collection[int]) -> bool:
    """True when a file (its `os.stat` result) belongs to one of `owners`, others may not write it,
    and group members may not either unless the group is the owner's alone (as ssh allows for its
    own config): only then may what it says steer Pitstop."""
    if info.st_uid not in owners or info.st_mode & stat.S_IWOTH:
        return False
    return not info.st_mode & stat.S_IWGRP or _private_group(info.st_gid, info.st_uid)


def write_private_text(path: Path, text: str) -> None:
    """Write `text` to `path` readable and writable by this user only, whatever the umask, so a file
    Pitstop writes for itself (the lab's inventory, policy and ssh config) passes `trusted`."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def load_dotenv_file(path: str | os.PathLike[str] = ".env") -> None:
    """Load `.env` into the environment without overriding variables already set; BadFile when it
    belongs to someone else or group or others may write it (it sets tokens and names the policy)."""
    if not Path(path).is_file():
        return
    from dotenv import load_dotenv

    with open(path, encoding="utf-8") as handle:
        info = os.fstat(handle.fileno())  # the file read is the file checked
        if not trusted(info, (os.getuid(),)):
            mode = oct(stat.S_IMODE(info.st_mode))[2:]
            raise BadFile(msg("errors.dotenv.unsafe", path=str(path), mode=mode, uid=info.st_uid))
        load_dotenv(stream=handle, override=False)


@dataclass(frozen=True)
class Settings:
    """Every knob Pitstop reads from the environment."""

    db_path: Path
    inventory_path: Path | None
    policy_path: Path | None
    slack_bot_token: str | None
    slack_app_token: str | None
    slack_signing_secret: str | None
    slack_api_url: str | None
    maintainers: tuple[str, ...] = ()  # Slack user ids (U…/W…) and user-group ids (S…) who review drafts
    incident_quiet_days: float = 7.0  # an open incident with no activity this long closes as expired
    ssh_local_commands: bool = False  # let ssh config run local commands (Match exec, ProxyCommand)
    ask_server: bool = True  # `pitstop ask` leaves a warm process answering the next ones (cli.ask_server)
    ask_server_idle_s: float = 600.0  # that process exits after this long without a question

    @property
    def has_slack_tokens(self) -> bool:
        """True when enough Slack credentials are set to talk to Slack."""
        return bool(self.slack_bot_token and (self.slack_app_token or self.slack_signing_secret))

    def __repr__(self) -> str:  # never print secrets
        return f"Settings(db_path={self.db_path!s}, inventory_path={self.inventory_path!s})"


def _path_or_none(value: str | None) -> Path | None:
    return Path(value) if value else None


def load_settings(env: dict[str, str] | None = None) -> Settings:
    """Read settings from `env` (default: the process environment after `.env`)."""
    if env is None:
        load_dotenv_file()
        env = dict(os.environ)
    return Settings(
        db_path=Path(env.get("PITSTOP_DB") or data_dir() / "pitstop.db"),
        inventory_path=_path_or_none(env.get("PITSTOP_INVENTORY")),
        policy_path=_path_or_none(env.get("PITSTOP_POLICY")),
        slack_bot_token=env.get("SLACK_BOT_TOKEN") or None,
        slack_app_token=env.get("SLACK_APP_TOKEN") or None,
        slack_signing_secret=env.get("SLACK_SIGNING_SECRET") or None,
        slack_api_url=env.get("SLACK_API_URL") or None,
        maintainers=tuple(m.strip() for m in env.get("PITSTOP_MAINTAINERS", "").split(",") if m.strip()),
        ssh_local_commands=env.get("PITSTOP_SSH_LOCAL_COMMANDS", "").strip().lower() in ("1", "yes", "true"),
        ask_server=env.get("PITSTOP_ASK_SERVER", "").strip().lower() not in ("0", "no", "false", "off"),
        ask_server_idle_s=_seconds(env.get("PITSTOP_ASK_SERVER_IDLE"), 600.0),
    )


def _seconds(value: str | None, default: float) -> float:
    """A positive number of seconds from the environment, else `default`."""
    try:
        seconds = float(value or default)
    except ValueError:
        return default
    return seconds if seconds > 0 else default
