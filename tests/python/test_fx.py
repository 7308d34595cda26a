"""torch.fx: tracing, the generated code, graph editing, Interpreter/Transformer, subgraph rewriting,
ShapeProp. Expected node names and code lines are PyTorch 1.13.1's for the same modules."""
import copy
import math
import operator
import pickle

import pytest
import torch
import torch.fx as fx
from torch.fx.passes.shape_prop import ShapeProp


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)
        self.register_buffer('b', torch.ones(3))
        self.p = torch.nn.Parameter(torch.ones(3))

    def forward(self, x, y=2):
        a = self.lin(x) + self.b
        s = x.shape[0]
        z = torch.relu(a).sum(dim=1, keepdim=True) * y
        m = torch.max(a, 1)[0]
        return z + self.p, {'m': m, 'q': a[:, 0:2, None], 's': s,
                            'n': torch.nn.functional.relu(a, inplace=False)}


def test_trace_names_and_code(capsys):
    gm = fx.symbolic_trace(Small())
    assert [n.name for n in gm.graph.nodes] == [
        'x', 'y', 'lin', 'b', 'add', 'getattr_1', 'getitem', 'relu', 'sum_1', 'mul', 'max_1', 'getitem_1',
        'p', 'add_1', 'getitem_2', 'relu_1', 'output']
    code = gm.code
    assert 'def forward(self, x, y = 2):' in code
    assert 'add = lin + b;  lin = b = None' in code
    assert 'sum_1 = relu.sum(dim = 1, keepdim = True);  relu = None' in code
    assert 'getitem_2 = add[(slice(None, None, None), slice(0, 2, None), None)]' in code
    assert 'relu_1 = torch.nn.functional.relu(add, inplace = False);  add = None' in code
    assert type(gm).__name__ == 'Small'
    assert list(gm.state_dict()) == ['p', 'b', 'lin.weight', 'lin.bias']
    gm.print_readable()
    assert capsys.readouterr().out.startswith('class Small(torch.nn.Module):\n    def forward')
    assert '%add : [#users=4] = call_function[target=operator.add](args = (%lin, %b), kwargs = {})' in str(gm.graph)


def test_traced_module_computes_the_same():
    torch.manual_seed(0)
    m = Small()
    gm = fx.symbolic_trace(m)
    x = torch.randn(5, 4)
    out, d = gm(x, 3)
    ref, rd = m(x, 3)
    assert torch.equal(out, ref) and torch.equal(d['q'], rd['q']) and d['s'] == 5


def test_leaf_modules_and_sequential():
    seq = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU(), torch.nn.Sequential(torch.nn.Flatten()))
    gm = fx.symbolic_trace(seq)
    assert [(n.op, n.target) for n in gm.graph.nodes][1:-1] == [
        ('call_module', '0'), ('call_module', '1'), ('call_module', '2.0')]
    assert 'getattr(self, "0")' in gm.code or "getattr(self, '0')" in gm.code

    class AllLeaves(fx.Tracer):
        def is_leaf_module(self, m, qualname):
            return True
    graph = AllLeaves().trace(seq)
    assert [n.target for n in graph.nodes if n.op == 'call_module'] == ['0', '1', '2']


def test_wrap_and_autowrap_math():
    def f(x):
        return x * math.sqrt(x.size(1)) + len_wrapped(x)
    gm = fx.symbolic_trace(f)
    targets = [n.target for n in gm.graph.nodes if n.op == 'call_function']
    assert math.sqrt in targets and len_wrapped in targets
    x = torch.ones(2, 4)
    assert torch.equal(gm(x), f(x))


def len_wrapped(x):
    return x.shape[0]


fx.wrap('len_wrapped')


def test_control_flow_on_proxy_raises():
    def f(x):
        if x.sum() > 0:
            return x
        return -x
    with pytest.raises(fx.proxy.TraceError):
        fx.symbolic_trace(f)


def test_unpacking_a_proxy():
    # PyTorch 1.13 reads the caller's bytecode for this and fails to under Python 3.11; here it works
    def f(x):
        n, c = x.shape
        return x.view(c, n)
    gm = fx.symbolic_trace(f)
    assert gm(torch.zeros(2, 3)).shape == (3, 2)


def test_concrete_args():
    def f(x, flag):
        return x + 1 if flag else x - 1
    gm = fx.symbolic_trace(f, concrete_args={'flag': True})
    assert 'def forward(self, x, flag_1):' in gm.code
    assert torch.equal(gm(torch.zeros(2), True), torch.ones(2))
    with pytest.raises(AssertionError, match='flag has been specialized to have value True'):
        gm(torch.zeros(2), False)


def test_graph_editing_and_recompile():
    gm = fx.symbolic_trace(lambda x: torch.relu(x) + 1)
    for n in gm.graph.nodes:
        if n.target is torch.relu:
            with gm.graph.inserting_after(n):
                neg = gm.graph.call_function(torch.neg, (n,))
            n.replace_all_uses_with(neg, delete_user_cb=lambda u: u is not neg)
    gm.recompile()
    assert torch.equal(gm(torch.tensor([1.0, -1.0])), torch.tensor([0.0, 1.0]))
    gm.graph.lint()
    with pytest.raises(RuntimeError, match='still had 1 users'):
        gm.graph.erase_node(next(n for n in gm.graph.nodes if n.target is torch.relu))


def test_eliminate_dead_code():
    def f(x):
        unused = x * 2  # noqa: F841
        return x + 1
    gm = fx.symbolic_trace(f)
    assert gm.graph.eliminate_dead_code()
    gm.recompile()
    assert [n.name for n in gm.graph.nodes] == ['x', 'add', 'output']


def test_build_graph_by_hand_and_map_arg():
    g = fx.Graph()
    x = g.placeholder('x')
    y = g.call_function(operator.mul, (x, 3))
    g.output((y, [x]))
    gm = fx.GraphModule(torch.nn.Module(), g)
    out = gm(torch.ones(2))
    assert torch.equal(out[0], torch.full((2,), 3.0))
    assert fx.node.map_arg((x, [y, 1]), lambda n: n.name) == ('x', ['mul', 1])
    assert y.all_input_nodes == [x] and list(x.users) == [y, list(g.nodes)[-1]]


def test_interpreter_transformer_shape_prop():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    gm = fx.symbolic_trace(m)
    x = torch.randn(3, 4)
    assert torch.allclose(fx.Interpreter(gm).run(x), m(x))

    class ReluToSigmoid(fx.Transformer):
        def call_module(self, target, args, kwargs):
            if isinstance(self.fetch_attr(target), torch.nn.ReLU):
                return self.tracer.create_proxy('call_function', torch.sigmoid, args, kwargs)
            return super().call_module(target, args, kwargs)
    new = ReluToSigmoid(gm).transform()
    assert torch.allclose(new(x), m[2](torch.sigmoid(m[0](x))))
    ShapeProp(gm).propagate(x)
    metas = [n.meta['tensor_meta'].shape for n in gm.graph.nodes if 'tensor_meta' in n.meta]
    assert metas == [(3, 4), (3, 8), (3, 8), (3, 2), (3, 2)]


def test_replace_pattern():
    def model(x, w):
        return torch.relu(torch.add(x, w)) * 2

    def pattern(a, b):
        return torch.relu(torch.add(a, b))

    def replacement(a, b):
        return torch.sigmoid(torch.sub(a, b))
    gm = fx.symbolic_trace(model)
    matches = fx.replace_pattern(gm, pattern, replacement)
    assert len(matches) == 1
    x, w = torch.randn(3), torch.randn(3)
    assert torch.allclose(gm(x, w), torch.sigmoid(x - w) * 2)
    assert [n.target for n in gm.graph.nodes if n.op == 'call_function'] == [torch.sub, torch.sigmoid, operator.mul]


def test_copy_deepcopy_pickle():
    torch.manual_seed(0)
    gm = fx.symbolic_trace(Small())
    x = torch.randn(2, 4)
    for other in (copy.deepcopy(gm), copy.copy(gm), pickle.loads(pickle.dumps(gm))):
        assert torch.equal(other(x)[0], gm(x)[0])
    clone = copy.deepcopy(gm)
    assert clone.lin.weight is not gm.lin.weight


def test_tensor_constants_and_parameter_reads():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.ones(2, 2))
            self.c = torch.tensor([1.0, 2.0])  # a plain attribute, not a buffer

        def forward(self, x):
            return torch.matmul(x, self.w) + self.c
    gm = fx.symbolic_trace(M())
    assert [n.target for n in gm.graph.nodes if n.op == 'get_attr'] == ['w', 'c']
    assert '_tensor_constant0 = self._tensor_constant0' in fx.symbolic_trace(lambda x: x + torch.ones(1)).code
    assert torch.equal(gm(torch.ones(1, 2)), torch.tensor([[3.0, 4.0]]))


def test_fx_restores_patched_functions():
    relu = torch.relu
    fx.symbolic_trace(lambda x: torch.relu(x))
    assert torch.relu is relu and torch.nn.Module.__call__ is not None
    assert torch.nn.functional.relu.__module__ != 'torch.fx._symbolic_trace'
