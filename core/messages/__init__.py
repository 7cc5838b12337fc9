"""Message areas: one module per area, `MESSAGES = {key: (english, chinese)}` (see `pitstop.core.i18n`)."""
