"""Signed values: what Pitstop hands to Slack and reads back later (a modal's `private_metadata`)
carries an HMAC-SHA256 tag under a server key, so an altered or forged value is refused.

The key is derived from a random secret kept in the database (`server_secrets`, created on first
use), never from the Slack signing secret: that one belongs to Slack, is shared with whoever
configures the app, and already signs whole requests. Every instance on the same database shares
the key, and a restart keeps it, so a modal opened before a restart still submits. Deleting the
row rotates it (open modals are then refused, nothing else is lost).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from pitstop.core.clock import stamp, utc_now
from pitstop.core.errors import NotAllowed
from pitstop.core.i18n import msg

SECRET_NAME = "slack-metadata"
KEY_LABEL = b"pitstop/slack-private-metadata/v1"  # the derived key serves only this purpose
TAG_BYTES = 16
SEPARATOR = "."  # the tag is base64url, which has no dot, so the last dot always splits


class Tampered(NotAllowed):
    """A signed value that is missing, altered, forged or meant for another form or person."""

    def __init__(self) -> None:
        super().__init__(msg("security.interaction.tampered"))


def server_secret(db: sqlite_utils.Database, name: str = SECRET_NAME) -> bytes:
    """The server's secret called `name`, created (32 random bytes) the first time it is asked for."""
    db.execute(
        "INSERT OR IGNORE INTO server_secrets (name, secret, created_at) VALUES (?, ?, ?)",
        [name, secrets.token_bytes(32), stamp(utc_now())],
    )
    return bytes(db.execute("SELECT secret FROM server_secrets WHERE name = ?", [name]).fetchone()[0])


@dataclass(frozen=True)
class Sealer:
    """`seal(purpose, fields)` -> signed text; `open(purpose, text)` -> the fields, or `Tampered`."""

    key: bytes = field(repr=False)

    @classmethod
    def from_db(cls, db: sqlite_utils.Database) -> Sealer:
        """The sealer keyed by this database's secret."""
        return cls(hmac.new(server_secret(db), KEY_LABEL, hashlib.sha256).digest())

    def seal(self, purpose: str, fields: Mapping[str, Any]) -> str:
        """`fields` as compact JSON, then a tag binding them to `purpose` (e.g. a modal's callback id)."""
        body = json.dumps(dict(fields), separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        return f"{body}{SEPARATOR}{self._tag(purpose, body)}"

    def open(self, purpose: str, value: object) -> dict[str, Any]:
        """The fields `seal(purpose, ...)` wrote; `Tampered` for anything else (unsigned, altered, reused)."""
        if not isinstance(value, str) or SEPARATOR not in value:
            raise Tampered()
        body, _, tag = value.rpartition(SEPARATOR)
        if not hmac.compare_digest(tag.encode(), self._tag(purpose, body).encode()):
            raise Tampered()
        fields = json.loads(body)
        if not isinstance(fields, dict):
            raise Tampered()
        return fields

    def _tag(self, purpose: str, body: str) -> str:
        mac = hmac.new(self.key, f"{purpose}\n{body}".encode(), hashlib.sha256).digest()[:TAG_BYTES]
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")
