"""The objects the serialization tests save on both sides, and how a loaded object is described, for
tests/python/test_serialization.py and tools/gen_serialization_data.py. Everything here takes the
torch module to use as an argument: the generator runs it under the reference PyTorch 1.13 and,
in a subprocess, under this project's torch.

describe() turns an object into JSON-able data: tensors with dtype, shape, strides, offset,
requires_grad, values and which storage they share (numbered in the order they are met); storages;
containers; torch.Size, dtypes, devices and layouts; Python numbers and strings.

canonical_legacy() reads a legacy-format file without torch: its pickles become trees of the
globals they call, storage ids are renumbered in the order the object pickle meets them (the files
key storages by their addresses), and the raw storages are listed by that number. Two writers that
give the same canonical form wrote the same file up to those keys.
"""
import collections
import io
import pickle
import struct

CASES = ['tensor', 'views', 'dtypes', 'containers', 'requires_grad', 'empty', 'storage', 'state_dict', 'many',
         'offset', 'scalars', 'complex', 'parameters', 'module_state_dict']


def available(torch, name):
    """Whether this torch has what case `name` needs (complex dtypes, torch.nn)."""
    if name == 'complex':
        return isinstance(getattr(torch, 'complex64', None), torch.dtype)
    if name in ('parameters', 'module_state_dict'):
        nn = getattr(torch, 'nn', None)
        return all(hasattr(nn, cls) for cls in ('Parameter', 'Linear', 'Sequential'))
    return True


def make_case(torch, name):
    x = torch.arange(6.).view(2, 3)
    if name == 'tensor':
        return x
    if name == 'views':  # one storage under four tensors, two of them non-contiguous
        return {'a': x, 'b': x[1:], 't': x.t(), 'col': x[:, 1]}
    if name == 'dtypes':
        values = [0, 1, -2, 3]
        return collections.OrderedDict(
            (str(dtype), torch.tensor(values if dtype not in (torch.bool, torch.uint8) else [0, 1, 1, 3], dtype=dtype)
             .view(2, 2))
            for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.bool, torch.uint8,
                          torch.int8, torch.int16, torch.int32, torch.int64))
    if name == 'containers':
        return {'list': [1, 2.5, 'three', None, True, -7, 2 ** 70], 'tuple': (torch.Size([2, 3]), torch.float16,
                                                                               torch.device('cpu'), torch.strided),
                'nested': {'deep': [x[0], (x[1],)]}, 'bytes': b'xy\x00', 'empty': {}}
    if name == 'requires_grad':
        return [torch.tensor([1.0, 2.0, 3.0], requires_grad=True), torch.zeros(2),
                torch.tensor([[0.5]], dtype=torch.float64, requires_grad=True)]
    if name == 'empty':
        return [torch.empty(0), torch.zeros(2, 0, 3), torch.tensor(7), torch.tensor(2.5)]
    if name == 'storage':
        return [x.storage(), x]
    if name == 'state_dict':
        weight = torch.arange(12, dtype=torch.float32).view(3, 4) / 8
        return collections.OrderedDict([('layer.weight', weight), ('layer.bias', torch.tensor([0.25, -0.5, 1.0])),
                                        ('bn.running_mean', torch.zeros(3)), ('bn.running_var', torch.ones(3)),
                                        ('bn.num_batches_tracked', torch.tensor(5))])
    if name == 'many':  # more than ten storages: keys '10' and '11' sort before '2'
        return [torch.full((i + 1,), float(i)) for i in range(12)]
    if name == 'offset':
        base = torch.arange(24, dtype=torch.int32).view(2, 3, 4)
        return [base[1, 1:, 2:], base.permute(2, 0, 1), base[:, 2]]
    if name == 'complex':
        real = torch.tensor([[1.5, -2.0], [0.25, 3.0]])
        z = torch.complex(real, real.flip(1))
        return {'c64': z, 'c128': z.to(torch.complex128), 'row': z[1]}
    if name == 'parameters':  # nn.Parameter pickles as torch._utils._rebuild_parameter(data, ...)
        p = torch.nn.Parameter(torch.arange(4.).view(2, 2))
        return {'p': p, 'row': p.data[1], 'frozen': torch.nn.Parameter(torch.ones(2), requires_grad=False)}
    if name == 'module_state_dict':  # an OrderedDict with _metadata, as Module.state_dict() makes it
        net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Linear(2, 1, bias=False))
        with torch.no_grad():
            net[0].weight.copy_(torch.arange(6.).view(2, 3) / 4)
            net[0].bias.copy_(torch.tensor([0.5, -1.0]))
            net[1].weight.fill_(0.25)
        net[1].register_buffer('steps', torch.tensor(5))
        return net.state_dict()
    if name == 'scalars':
        return [torch.tensor(True), torch.tensor(-3, dtype=torch.int16), torch.tensor(0.125, dtype=torch.float16)]
    raise KeyError(name)


def describe(torch, obj):
    storages = {}

    def storage_group(ptr, nbytes):
        if not nbytes:
            return None
        return storages.setdefault(ptr, len(storages))

    def walk(o):
        if isinstance(o, torch.Tensor):
            if o.device.type == 'meta':
                values = None
            else:
                values = _plain(o.tolist())
            s = o.storage()
            return {'tensor': str(o.dtype), 'type': type(o).__name__, 'shape': list(o.shape),
                    'stride': list(o.stride()), 'offset': o.storage_offset(), 'requires_grad': o.requires_grad,
                    'values': values, 'storage': storage_group(s.data_ptr(), s.nbytes()),
                    'storage_size': s.size(), 'device': str(o.device)}
        if isinstance(o, torch.storage.TypedStorage):
            return {'typed_storage': str(o.dtype), 'size': o.size(), 'values': _plain(o.tolist()),
                    'storage': storage_group(o.data_ptr(), o.nbytes())}
        if isinstance(o, torch.Size):
            return {'Size': list(o)}
        if isinstance(o, torch.dtype):
            return {'dtype': str(o)}
        if isinstance(o, torch.device):
            return {'device': str(o)}
        if isinstance(o, torch.layout):
            return {'layout': str(o)}
        if isinstance(o, collections.OrderedDict):
            return {'OrderedDict': [[walk(k), walk(v)] for k, v in o.items()]}
        if isinstance(o, dict):
            return {'dict': [[walk(k), walk(v)] for k, v in o.items()]}
        if isinstance(o, (list, tuple)):
            return {type(o).__name__: [walk(v) for v in o]}
        if isinstance(o, bytes):
            return {'bytes': o.hex()}
        if isinstance(o, float):
            return {'float': repr(o)}
        if isinstance(o, int) and not isinstance(o, bool) and abs(o) >= 2 ** 53:
            return {'int': str(o)}
        if o is None or isinstance(o, (bool, int, str)):
            return o
        raise TypeError('cannot describe %r' % (o,))

    return walk(obj)


def _plain(values):
    # complex numbers as [real, imag], so that the description is JSON
    if isinstance(values, list):
        return [_plain(v) for v in values]
    if isinstance(values, complex):
        return [values.real, values.imag]
    return values


class _Global:
    """A global a pickle names; calling it (REDUCE) records the call."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args):
        return _Call(self.name, args)

    def __repr__(self):
        return self.name


class _Call:
    """What a global's call returned: its name and arguments, and what the pickle then put into it
    (items of an OrderedDict, BUILD's state)."""

    def __init__(self, name, args):
        self.name, self.args, self.state, self.items = name, args, None, []

    def __setstate__(self, state):
        self.state = state

    def __setitem__(self, key, value):
        self.items.append((key, value))

    def append(self, value):
        self.items.append(value)

    def extend(self, values):
        self.items.extend(values)

    def __repr__(self):
        return '%s%r%s%s' % (self.name, self.args, ' items=%r' % (self.items,) if self.items else '',
                             '' if self.state is None else ' state=%r' % (self.state,))


class _Storage:
    def __init__(self, number, type_name, location, numel, view):
        self.number, self.type_name, self.location, self.numel, self.view = number, type_name, location, numel, view

    def __repr__(self):
        return 'storage#%d(%s, %s, %d, %r)' % (self.number, self.type_name, self.location, self.numel, self.view)


_ELEMENT_SIZES = {'DoubleStorage': 8, 'FloatStorage': 4, 'HalfStorage': 2, 'BFloat16Storage': 2, 'LongStorage': 8,
                  'IntStorage': 4, 'ShortStorage': 2, 'CharStorage': 1, 'ByteStorage': 1, 'BoolStorage': 1,
                  'UntypedStorage': 1, 'ComplexFloatStorage': 8, 'ComplexDoubleStorage': 16}


def canonical_legacy(data):
    """The legacy file `data` as text, independent of its storage keys (see the module's docstring)."""
    f = io.BytesIO(data)
    header = [pickle.load(f) for _ in range(3)]  # magic number, protocol version, system information
    numbers, storages = {}, {}

    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            return _Global('%s.%s' % (module, name))

        def persistent_load(self, saved_id):
            typename, storage_type, key, location, numel, view = saved_id
            assert typename == 'storage'
            number = numbers.setdefault(key, len(numbers))
            storages[key] = _Storage(number, repr(storage_type).split('.')[-1], location, numel, view)
            return storages[key]

    tree = repr(Reader(f).load())
    keys = pickle.load(f)
    blocks = {}
    for key in keys:
        count, = struct.unpack('<q', f.read(8))
        size = _ELEMENT_SIZES[storages[key].type_name]
        blocks[numbers[key]] = (count, f.read(count * size).hex())
    rest = f.read()
    return '\n'.join([repr(header), tree, repr(sorted(blocks.items())), 'trailing bytes: %d' % len(rest)])
