"""`python -m tensorlab.cli COMMAND ...`: the headless commands (the `tensorlab` launcher hands them here)."""

from tensorlab.cli.main import main
from tensorlab.core.engine.process_engine import stop_fork_server

try:
    status = main()
finally:
    stop_fork_server()   # no process outlives the command (its worker was closed by then)
raise SystemExit(status)
