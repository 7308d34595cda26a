"""torch.utils: hooks, checkpointing, data loading (torch.utils.data)."""
