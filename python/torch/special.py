"""torch.special: PyTorch's special-function namespace, whose functions are ops of the op table under
their aten names (special_xlogy is xlogy)."""
from torch._C import special_xlogy as xlogy  # noqa: F401
