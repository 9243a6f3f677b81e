"""`python -m tensorlab` runs the `tensorlab` command."""

from tensorlab.cli.main import main

raise SystemExit(main())
