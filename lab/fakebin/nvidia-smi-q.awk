# Derive `nvidia-smi -q [-d SECTION,...] [-i INDEX]` from a scenario's full `nvidia-smi -q` output.
# A top-level GPU field is a line indented by exactly 4 spaces; its block runs until the next one.
BEGIN {
    split("MEMORY:FB Memory Usage|MEMORY:BAR1 Memory Usage|MEMORY:Conf Compute Protected Memory Usage|" \
          "UTILIZATION:Utilization|ECC:ECC Mode|ECC:ECC Errors|TEMPERATURE:Temperature|" \
          "POWER:GPU Power Readings|POWER:Power Readings|POWER:Module Power Readings|" \
          "CLOCK:Clocks|CLOCK:Applications Clocks|CLOCK:Default Applications Clocks|CLOCK:Max Clocks|" \
          "CLOCK:Max Customer Boost Clocks|CLOCK:Deferred Clocks|CLOCK:Clock Policy|COMPUTE:Compute Mode|" \
          "PIDS:Processes|PERFORMANCE:Performance State|PERFORMANCE:Clocks Event Reasons|" \
          "PERFORMANCE:Clocks Throttle Reasons|PERFORMANCE:Sparse Operation Mode|" \
          "SUPPORTED_CLOCKS:Supported Clocks|PAGE_RETIREMENT:Retired Pages|ACCOUNTING:Accounting Mode|" \
          "ACCOUNTING:Accounting Mode Buffer Size|ACCOUNTING:Accounted Processes|" \
          "ENCODER_STATS:Encoder Stats|FBC_STATS:FBC Stats|ROW_REMAPPER:Remapped Rows|VOLTAGE:Voltage|" \
          "GSP_FIRMWARE_VERSION:GSP Firmware Version", pairs, "|")
    for (k in pairs) { split(pairs[k], kv, ":"); section[kv[2]] = kv[1] }
    n = split(toupper(sections), list, ",")
    for (k = 1; k <= n; k++) wanted[list[k]] = 1
    index_ = -1
}
/^GPU [0-9A-Fa-f]+:/ { index_++; show = (gpu == "" || gpu == index_); keep = 0; if (show) print; next }
index_ < 0 { print; next }
/^    [^ ]/ {
    title = $0; sub(/^ +/, "", title); sub(/ +:.*$/, "", title)
    keep = show && (n == 0 || ((title in section) && (section[title] in wanted)))
    if (keep) print
    next
}
/^$/ { if (show) print; next }
keep { print }
