#!/usr/bin/env bash
# Reproduces Tables 1 and 2 of the demo paper: results/ (risks.csv, table1.md, table2.md).
set -euo pipefail
cd "$(dirname "$0")"
python3 -c "import numpy" 2>/dev/null || pip install --quiet numpy
python3 simulate.py --out results
