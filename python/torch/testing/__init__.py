"""torch.testing: assert_close (PyTorch's tolerances per dtype and its messages) and make_tensor."""
from torch.testing._comparison import assert_close  # noqa: F401
from torch.testing._creation import make_tensor  # noqa: F401

__all__ = ['assert_close', 'make_tensor']
