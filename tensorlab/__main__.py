"""`python -m tensorlab` runs the `tensorlab` command."""

from tensorlab.cli import main

raise SystemExit(main())
