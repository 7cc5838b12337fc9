"""The lab's bastion chain: two jump hosts and a host behind them, defined only in an ssh config.

`bastion-outer` forwards only to `bastion-inner`, which forwards only to `behind-bastion`
(sshd `PermitOpen`); the target itself forwards nothing. None of the three is in the lab's
inventory: they exist in `STATE/ssh_config`, which `Include`s `ssh_config.d/*.conf` (addresses,
user, key) and gives the target its jump chain in a `Match originalhost` block, the way an admin's
`~/.ssh/config` would. Loopback cannot hide the target's port from the client, so the chain is
proved the other way: with either hop stopped the target cannot be reached (tests/lab/test_bastion.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pitstop.core.config import write_private_text
from pitstop.core.i18n import Msg, msg

OUTER, INNER, TARGET = "bastion-outer", "bastion-inner", "behind-bastion"
NAMES = (OUTER, INNER, TARGET)
CHAIN = (OUTER, INNER)
SCENARIO = "h100-sxm5-healthy"  # what the three serve when the lab has it (else its first scenario)


def permit_open(name: str, endpoints: dict[str, tuple[str, int]]) -> str | None:
    """The one `host:port` a chain host may forward to (None: it forwards nothing)."""
    following = {OUTER: INNER, INNER: TARGET}.get(name)
    if following is None:
        return None
    address, port = endpoints[following]
    return f"{address}:{port}"


def write_ssh_config(
    state_dir: Path, endpoints: dict[str, tuple[str, int]], user: str, identity: Path, known_hosts: Path
) -> Path:
    """Write `ssh_config` and `ssh_config.d/10-bastion.conf` for the chain; return the main file."""
    conf_d = state_dir / "ssh_config.d"
    conf_d.mkdir(parents=True, exist_ok=True)
    blocks = [
        f"Host {name}\n    HostName {address}\n    Port {port}\n"
        for name, (address, port) in endpoints.items()
    ]
    write_private_text(
        conf_d / "10-bastion.conf",
        "# written by the Pitstop lab: the bastion chain's addresses\n"
        + "".join(blocks)
        + f"Host {' '.join(NAMES)}\n    User {user}\n    IdentityFile {identity}\n"
        f"    UserKnownHostsFile {known_hosts}\n",
    )
    main = state_dir / "ssh_config"
    write_private_text(
        main,
        "# written by the Pitstop lab: hosts that exist only in this ssh config\n"
        f"Include {conf_d}/*.conf\n\n"
        f"Match originalhost {TARGET}\n    ProxyJump {','.join(CHAIN)}\n\n"
        f"Host {OUTER}\n    ProxyJump none\n",
    )
    return main


def describe(ssh_config: Path) -> Msg:
    """One line naming the chain, where it is defined and what to try."""
    return msg(
        "bastion.describe", target=TARGET, chain=" -> ".join(CHAIN), config=str(ssh_config), try_=TARGET
    )


def check(inventory_path: Path) -> Msg:
    """Reach the target through the chain once (host keys checked at every hop) and say how it went."""
    from pitstop.collectors import inventory
    from pitstop.collectors.transport.base import HostUnavailable
    from pitstop.collectors.transport.ssh import Connector

    inv = inventory.load(inventory_path)

    async def reach() -> Msg:
        connector = Connector(inv)
        try:
            session = await connector.connect(inv.get(TARGET))
            await session.close()
            return msg("bastion.reached", target=TARGET, chain=" -> ".join(CHAIN))
        except HostUnavailable as exc:
            return msg("bastion.failed", target=TARGET, error=exc.message)
        finally:
            await connector.close()

    return asyncio.run(reach())
