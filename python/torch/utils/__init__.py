"""torch.utils: hooks, checkpointing (and, later, data loading)."""
