"""`python -m pitstop`: the command line."""

from pitstop.cli.main import main

raise SystemExit(main())
