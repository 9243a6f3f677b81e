"""`python -m tensorlab.cli COMMAND ...`: the headless commands (the `tensorlab` launcher hands them here)."""

from tensorlab.cli.main import main

raise SystemExit(main())
