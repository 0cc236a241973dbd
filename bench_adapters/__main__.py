import sys

from bench_adapters.cli import main

sys.exit(main())
