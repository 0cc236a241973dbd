"""Reference solvers for TAM-Bench Lite tasks: ``baselines.tam.<modality>_<difficulty>``."""
