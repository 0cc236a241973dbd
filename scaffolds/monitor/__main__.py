"""``python -m scaffolds.monitor RUN_DIR|GRID_DIR [...]`` and ``... plagiarism --code F --against D``."""

from scaffolds.monitor.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
