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


def _extract_tensor_metadata(result):
    memory_format = None
    for fmt in (torch.contiguous_format, torch.channels_last, torch.channels_last_3d):
        if result.is_contiguous(memory_format=fmt):
            memory_format = fmt
            break
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, result.stride(), memory_format,
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
