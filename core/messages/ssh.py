"""Why a host could not be reached over SSH (collectors/transport/ssh.py)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "ssh.key_changed": (
        "host key for {host} has CHANGED: presented {key} does not match {files}; refusing to connect "
        "(verify the host, then fix known_hosts)",
        "{host} 的主机密钥已改变：对方出示的 {key} 与 {files} 不符；"
        "拒绝连接（请先核实主机，再修正 known_hosts）",
    ),
    "ssh.key_unknown": (
        "host key for {host} is unknown: presented {key} is not in {files}; refusing to connect "
        "(add it to known_hosts after verifying it)",
        "{host} 的主机密钥未知：对方出示的 {key} 不在 {files} 中；拒绝连接（核实后再加入 known_hosts）",
    ),
    "ssh.key_revoked": (
        "host key for {host} is REVOKED: the server presented {key}, which {files} marks @revoked; "
        "refusing to connect (the host must get a new key)",
        "{host} 的主机密钥已被吊销：对方出示的 {key} 在 {files} 中标为 @revoked；"
        "拒绝连接（该主机需要更换密钥）",
    ),
    "ssh.key_not_verified": (
        "host key for {host} could not be verified against {files} ({reason}); refusing to connect",
        "无法用 {files} 验证 {host} 的主机密钥（{reason}）；拒绝连接",
    ),
    "ssh.ca_only": (
        "known_hosts ({files}) trusts only a certificate authority (@cert-authority) for {host}, and the "
        "server offered no host certificate signed by it; refusing to connect (give the host a certificate "
        "or add its key to known_hosts after verifying it)",
        "known_hosts（{files}）对 {host} 只信任证书颁发机构（@cert-authority），"
        "但服务器没有出示由其签发的主机证书；"
        "拒绝连接（请为主机签发证书，或核实后把它的密钥加入 known_hosts）",
    ),
    "ssh.not_ssh": (
        "{host} does not speak SSH: it answered {answer!r} (another service is on that port)",
        "{host} 不是 SSH 服务：它回答的是 {answer!r}（该端口上运行着别的服务）",
    ),
    "ssh.auth_refused": (
        "{host}: authentication as {user!r} refused (no accepted key in the agent or identity files)",
        "{host}：以 {user!r} 身份认证被拒绝（代理和密钥文件中没有被接受的密钥）",
    ),
    "ssh.no_answer": (
        "{host}: no SSH answer within {seconds}s",
        "{host}：{seconds} 秒内没有 SSH 应答",
    ),
    "ssh.refused": ("{host}: connection refused", "{host}：连接被拒绝"),
    "ssh.dns": ("{host}: cannot resolve {address} ({reason})", "{host}：无法解析 {address}（{reason}）"),
    "ssh.lost": ("{host}: connection lost ({reason})", "{host}：连接中断（{reason}）"),
    "ssh.os_error": ("{host}: {reason}", "{host}：{reason}"),
    "ssh.failed": ("{host}: SSH failed: {reason}", "{host}：SSH 失败：{reason}"),
    "ssh.jump_refused": (
        "via jump host {jump}: it refused to forward to {host} ({reason})",
        "经跳板机 {jump}：它拒绝转发到 {host}（{reason}）",
    ),
    "ssh.via_jump": ("via jump host {jump}: {error}", "经跳板机 {jump}：{error}"),
    "ssh.match_exec_skipped": (
        "{where}: `Match {line}` skipped: it runs a local command, which Pitstop does only when "
        "PITSTOP_SSH_LOCAL_COMMANDS=1",
        "{where}：跳过了 `Match {line}`：它会执行本地命令，"
        "仅当设置 PITSTOP_SSH_LOCAL_COMMANDS=1 时 Pitstop 才执行",
    ),
    "ssh.proxy_command_skipped": (
        "{host}: the ssh config reaches it through ProxyCommand {command!r}, a local command Pitstop runs "
        "only when the admin sets PITSTOP_SSH_LOCAL_COMMANDS=1; not connecting",
        "{host}：ssh 配置要求经 ProxyCommand {command!r} 连接，这是本地命令，仅当管理员设置 "
        "PITSTOP_SSH_LOCAL_COMMANDS=1 时 Pitstop 才会执行；不连接",
    ),
}
