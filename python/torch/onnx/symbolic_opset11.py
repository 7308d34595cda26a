"""torch.onnx.symbolic_opset11: the symbolic functions for opset 11. The ones defined so far keep their
opset-9 form (Gather for select; Squeeze/Unsqueeze with axes attributes)."""
from torch.onnx.symbolic_opset9 import select, squeeze, unsqueeze  # noqa: F401

__all__ = ['select', 'squeeze', 'unsqueeze']
