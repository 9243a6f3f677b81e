"""Launch the TensorLab desktop app: `python main.py`."""

from tensorlab.gui.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
