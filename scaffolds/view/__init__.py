"""The run viewer: every run and every grid as one self-contained HTML page.

``python -m scaffolds.view RUN_DIR`` writes ``RUN_DIR/view.html`` (every run also writes it when
it ends); ``python -m scaffolds.view GRID_DIR`` writes ``GRID_DIR/index.html``, linking the page
of each run. Pages are built from the run record only, redacted, and fetch nothing.
"""

from scaffolds.view.grid import INDEX_FILE, write_grid_index
from scaffolds.view.load import NotARun, load_run
from scaffolds.view.page import PAGE_FILE, run_page, write_run_page

__all__ = [
    "INDEX_FILE",
    "PAGE_FILE",
    "NotARun",
    "load_run",
    "run_page",
    "write_grid_index",
    "write_run_page",
]
