from bench_adapters.tam.cli import main

raise SystemExit(main())
