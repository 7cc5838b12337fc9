"""Pitstop in Slack and in a terminal: listeners and the console call the use cases in `app.flows`
and render the cards they return (`app.cards`) with `bot.render`."""
