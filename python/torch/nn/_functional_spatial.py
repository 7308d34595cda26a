"""Convolution, pooling, normalisation, dropout, embedding, resampling and padding (torch.nn.functional)."""
__all__ = []
