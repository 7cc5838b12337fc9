"""Pitstop in Slack and in a terminal: listeners and the console call `bot.flows`, which calls kb/ and
collectors/ and returns the content that `bot.render` shows."""
