"""The lab: a simulated fleet of real OpenSSH hosts serving canned outputs (docs/LAB.md).

`fleet.up(load_all(paths))` starts it, `fleet.down()` stops it, `read_audit(fleet.audit_log)` lists
every command the hosts ran.
"""
