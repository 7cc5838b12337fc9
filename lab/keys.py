"""Ed25519 keys for the lab: host keys, the client key, known_hosts lines. Generated in-process."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import asyncssh


@dataclass(frozen=True)
class KeyPair:
    """A private key file and its public key line (`ssh-ed25519 AAAA... comment`)."""

    private_path: Path
    public_line: str


def ensure_key(path: Path, comment: str) -> KeyPair:
    """Return the ed25519 key at `path`, generating it (mode 0600, plus `.pub`) the first time."""
    if path.is_file():
        key = asyncssh.read_private_key(str(path))
    else:
        key = asyncssh.generate_private_key("ssh-ed25519", comment=comment)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key("openssh"))
        path.with_name(path.name + ".pub").write_bytes(key.export_public_key("openssh"))
    return KeyPair(path, key.export_public_key("openssh").decode().strip())


def known_hosts_line(address: str, port: int, public_line: str) -> str:
    """One known_hosts line for a host key at address:port (bracketed form unless port 22)."""
    key_type, key_data = public_line.split()[:2]
    pattern = address if port == 22 else f"[{address}]:{port}"
    return f"{pattern} {key_type} {key_data}"


def fingerprint(public_line: str) -> str:
    """The SHA256 fingerprint OpenSSH prints for a public key line."""
    return asyncssh.import_public_key(public_line).get_fingerprint("sha256")
