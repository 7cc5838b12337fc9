"""`python -m pitstop.cli`: the command line."""

from pitstop.cli.main import main

raise SystemExit(main())
