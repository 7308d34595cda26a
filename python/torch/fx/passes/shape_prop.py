"""torch.fx.passes.shape_prop: ShapeProp(gm).propagate(*args) runs gm and stores, on each node whose
value is a tensor, node.meta['tensor_meta'] (a TensorMetadata) and node.meta['type']."""
from typing import Any, NamedTuple, Tuple

import torch
from torch.fx.interpreter import Interpreter
from torch.fx.node import map_aggregate

__all__ = ['TensorMetadata', 'ShapeProp']


class TensorMetadata(NamedTuple):
    shape: torch.Size
    dtype: torch.dtype
    requires_grad: bool
    stride: Tuple[int, ...]
    memory_format: Any
    is_quantized: bool
    qparams: dict


def _memory_format(t):
    if t.is_contiguous():
        return torch.contiguous_format
    last = {4: (0, 2, 3, 1), 5: (0, 2, 3, 4, 1)}.get(t.dim())
    if last is not None and t.permute(*last).is_contiguous():
        return torch.channels_last if t.dim() == 4 else torch.channels_last_3d
    return None


def _extract_tensor_metadata(result):
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, result.stride(), _memory_format(result),
                          False, {})


class ShapeProp(Interpreter):
    """Interpreter that records each node's tensor metadata as it runs."""

    def run_node(self, n):
        result = super().run_node(n)
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, torch.Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta['tensor_meta'] = meta
        n.meta['type'] = type(result)
        return result

    def propagate(self, *args):
        return super().run(*args)
