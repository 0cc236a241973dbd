"""``python -m bench_adapters.paperbench``: see ``bench_adapters.paperbench.cli``."""

import sys

from bench_adapters.paperbench.cli import main

sys.exit(main())
