"""`python -m tensorlab` runs the `tensorlab` command (the launcher)."""

from tensorlab.gui.launch import main

raise SystemExit(main())
