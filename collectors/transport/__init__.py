"""Transports run a generated framing script on a host: `ssh` (asyncssh) and `local` (subprocess)."""
