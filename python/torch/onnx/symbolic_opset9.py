"""torch.onnx.symbolic_opset9: the ONNX opset-9 forms of ops, as symbolic functions (g, inputs...) that
emit nodes through g.op. Only the ones that libraries build their own symbolics from are defined."""
from torch.onnx.symbolic_helper import parse_args

__all__ = ['unsqueeze', 'squeeze', 'select', 'reshape', 'transpose', 'add', 'sub', 'mul', 'div', 'relu',
           'sigmoid', 'tanh']

# ONNX TensorProto data types, by the cast's name
_ONNX_TYPES = {'Byte': 2, 'Char': 3, 'Short': 5, 'Int': 6, 'Long': 7, 'Half': 10, 'Float': 1, 'Double': 11,
               'Bool': 9}


@parse_args('v', 'i')
def unsqueeze(g, self, dim):
    return g.op('Unsqueeze', self, axes_i=[dim])


@parse_args('v', 'i')
def squeeze(g, self, dim=None):
    return g.op('Squeeze', self) if dim is None else g.op('Squeeze', self, axes_i=[dim])


@parse_args('v', 'i', 'v')
def select(g, self, dim, index):
    return g.op('Gather', self, index, axis_i=dim)


def reshape(g, self, shape):
    return g.op('Reshape', self, shape)


@parse_args('v', 'i', 'i')
def transpose(g, self, dim0, dim1):
    return g.op('Transpose', self, perm_i=[dim1 if i == dim0 else dim0 if i == dim1 else i
                                           for i in range(max(dim0, dim1) + 1)])


def add(g, self, other, alpha=None):
    return g.op('Add', self, other if alpha is None else g.op('Mul', other, alpha))


def sub(g, self, other, alpha=None):
    return g.op('Sub', self, other if alpha is None else g.op('Mul', other, alpha))


def mul(g, self, other):
    return g.op('Mul', self, other)


def div(g, self, other, *args):
    return g.op('Div', self, other)


def relu(g, input):
    return g.op('Relu', input)


def sigmoid(g, self):
    return g.op('Sigmoid', self)


def tanh(g, self):
    return g.op('Tanh', self)


def _make_cast(name, onnx_type):
    @parse_args('v', 'b')
    def cast(g, input, non_blocking):
        return g.op('Cast', input, to_i=onnx_type)
    cast.__name__ = '_cast_' + name
    return cast


for _name, _code in _ONNX_TYPES.items():
    globals()['_cast_' + _name] = _make_cast(_name, _code)
