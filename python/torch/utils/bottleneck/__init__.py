"""torch.utils.bottleneck: `python3 -m torch.utils.bottleneck script.py [args]` profiles a script."""
