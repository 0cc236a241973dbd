import sys

from bench_adapters.mlebench.synthetic.cli import main

sys.exit(main())
