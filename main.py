"""Launch the TensorLab desktop app: `python main.py`."""

from tensorlab.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
