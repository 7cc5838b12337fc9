"""Schema migrations for Pitstop's SQLite database (sqlite-utils `Migrations`).

Each area owns one module; modules register named functions on the one `migrations`
set, in the order they are imported below. A shipped migration is never edited: add
a new function instead.
"""

from __future__ import annotations

from sqlite_utils.migrations import Migrations

migrations = Migrations("pitstop")

# Import order is application order (module names sort in that order too).
from pitstop.migrations import (  # noqa: E402  (the modules register on `migrations` above)
    m001_kb,  # noqa: F401
    m002_audit,  # noqa: F401
    m003_incidents,  # noqa: F401
    m004_prefs,  # noqa: F401
    m005_stamps,  # noqa: F401
    m006_incident_lifecycle,  # noqa: F401
    m007_outbox,  # noqa: F401
    m008_candidate_details,  # noqa: F401
    m009_server_secrets,  # noqa: F401
    m010_verdict_reason_msg,  # noqa: F401
    m011_slack_requests,  # noqa: F401
    m012_resolution_learned_msg,  # noqa: F401
    m013_signature_hits,  # noqa: F401
    m014_entry_documents,  # noqa: F401
    m015_host_grants,  # noqa: F401
    m016_resolution_vouched,  # noqa: F401
)

__all__ = ["migrations"]
