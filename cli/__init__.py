"""One module per `pitstop` sub-command; see `pitstop.cli.COMMAND_MODULES`."""
