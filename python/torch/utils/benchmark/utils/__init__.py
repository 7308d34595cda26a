"""torch.utils.benchmark.utils: the timer, its measurements and their comparison tables (PyTorch's layout)."""
