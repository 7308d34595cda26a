"""Activations, the softmax family, losses, recurrent cells and attention (torch.nn.functional)."""
__all__ = []
