"""What every Slack listener needs besides Bolt's own arguments, handed to it as the `deps` argument."""

from __future__ import annotations

from dataclasses import dataclass

from pitstop.app.services import Services
from pitstop.bot.maintainers import Maintainers
from pitstop.core.sealing import Sealer


@dataclass(frozen=True)
class Deps:
    """The services (duplicate deliveries are caught by the outbox), who may review drafts, the signer
    of modal metadata, and the update throttle.

    `bot.listeners.register` puts it in every request's Bolt context under the name `deps`, so a
    listener (or the error handler) that declares a `deps` parameter receives it.
    """

    services: Services
    maintainers: Maintainers
    sealer: Sealer  # signs the private_metadata of every modal Pitstop opens
    update_interval_s: float = 1.5
