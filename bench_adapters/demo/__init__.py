"""Demo tasks generated from scikit-learn's bundled datasets: no download, seconds to run."""

from bench_adapters.demo.adapter import Demo
from bench_adapters.demo.cache import demo_root, ensure_generated
from bench_adapters.demo.specs import DEMO_IDS, demo_grader_spec

__all__ = ["DEMO_IDS", "Demo", "demo_grader_spec", "demo_root", "ensure_generated"]
