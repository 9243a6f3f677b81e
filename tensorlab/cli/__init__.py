"""The headless command line (`python -m tensorlab.cli`): torch runs in the worker or, with `--in-process`, here."""
