"""torch.nn.Module and its containers: registration, iteration orders, state_dict and load_state_dict,
hooks, conversions, printing and the errors, compared with the reference PyTorch 1.13.1 (recorded in
tests/data/reference/nn_module.json by tools/record_reference), plus checks that need this process
(identity of parameters, gradients through full backward hooks, pickling, deepcopy).

Nothing at module level imports this project's torch (the recorder loads this file by path)."""
import copy
import pickle

import pytest

from snippets import SnippetSuite

NET = '''
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("scratch", torch.ones(1), persistent=False)
        self.scale = nn.Parameter(torch.ones(()))
    def forward(self, x):
        return self.fc(x) * self.scale

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block()
        self.seq = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
        self.shared = self.a
        self.empty = None
        self.register_parameter("p", nn.Parameter(torch.arange(3.)))
    def forward(self, x):
        return self.seq(self.a(x))
torch.manual_seed(0)
net = Net()
'''


def names(expr):
    return NET + 'out = [n for n, _ in %s]' % expr


CASES = {
    # iteration orders, prefixes, recursion, duplicates
    'named_parameters': names('net.named_parameters()'),
    'named_parameters_prefix': names('net.named_parameters(prefix="model")'),
    'named_parameters_flat': names('net.named_parameters(recurse=False)'),
    'named_buffers': names('net.named_buffers()'),
    'named_children': names('net.named_children()'),
    'named_modules': names('net.named_modules()'),
    'named_modules_dup': names('net.named_modules(remove_duplicate=False)'),
    'named_modules_prefix': names('net.named_modules(prefix="m")'),
    'parameters': NET + 'out = list(net.parameters())',
    'modules_types': NET + 'out = [type(m).__name__ for m in net.modules()]',
    'shared_parameter': '''
lin = nn.Linear(2, 2)
seq = nn.Sequential(lin, nn.ReLU(), lin)
out = [[n for n, _ in seq.named_parameters()], [n for n, _ in seq.named_modules()], list(seq.state_dict().keys())]
''',
    # state_dict
    'state_dict': NET + 'sd = net.state_dict()\nout = [list(sd.keys()), dict(sd._metadata), sd["p"].requires_grad]',
    'state_dict_keep_vars': NET + 'out = [v.requires_grad for v in net.state_dict(keep_vars=True).values()]',
    'state_dict_prefix': NET + 'out = list(net.a.state_dict(prefix="x.").keys())',
    'state_dict_positional': NET + 'd = {}\nnet.a.state_dict(d, "pre.")\nout = list(d.keys())',
    'load_state_dict_round_trip': NET + '''
sd = {k: v * 2 for k, v in net.state_dict().items()}
r = net.load_state_dict(sd)
out = [repr(r), net.p, net.a.running, r.missing_keys, r.unexpected_keys]
''',
    'load_state_dict_strict_errors': NET + '''
sd = net.state_dict()
del sd["a.fc.bias"]
sd["a.extra"] = torch.ones(1)
sd["bogus"] = torch.ones(1)
net.load_state_dict(sd)
''',
    'load_state_dict_not_strict': NET + '''
sd = net.state_dict()
del sd["a.fc.bias"]
sd["a.extra"] = torch.ones(1)
r = net.load_state_dict(sd, strict=False)
out = [repr(r), r.missing_keys, r.unexpected_keys]
''',
    'load_state_dict_size_mismatch': NET + '''
sd = net.state_dict()
sd["a.fc.weight"] = torch.ones(3, 3)
sd["p"] = "not a tensor"
net.load_state_dict(sd)
''',
    'load_state_dict_scalar_from_1elem': NET + '''
sd = net.state_dict()
sd["a.scale"] = torch.tensor([5.0])
net.load_state_dict(sd)
out = net.a.scale
''',
    'load_state_dict_not_mapping': NET + 'net.load_state_dict([1, 2])',
    'load_state_dict_copy_error': NET + '''
sd = net.state_dict()
sd["seq.0.weight"] = torch.ones(4, 2, dtype=torch.int64) * 3
net.load_state_dict(sd)
out = net.seq[0].weight
''',
    'load_state_dict_hooks': NET + '''
calls = []
def pre(state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
    calls.append(("pre", prefix, dict(local_metadata)))
def post(module, keys):
    calls.append(("post", type(module).__name__, list(keys.missing_keys)))
net.a._register_load_state_dict_pre_hook(pre)
net.register_load_state_dict_post_hook(post)
sd = net.state_dict()
del sd["p"]
net.load_state_dict(sd, strict=False)
out = calls
''',
    'state_dict_hook': NET + '''
def hook(module, sd, prefix, meta):
    sd[prefix + "added"] = torch.zeros(1)
net.a._register_state_dict_hook(hook)
out = list(net.state_dict().keys())
''',
    'extra_state': '''
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1))
        self.value = 3
    def get_extra_state(self):
        return {"value": self.value}
    def set_extra_state(self, state):
        self.value = state["value"]
m = M()
sd = m.state_dict()
m2 = M(); m2.value = 0
m2.load_state_dict(sd)
out = [list(sd.keys()), m2.value]
''',
    # registration errors
    'err_param_name_dot': 'nn.Module().register_parameter("a.b", None)',
    'err_param_name_empty': 'nn.Module().register_parameter("", None)',
    'err_param_name_type': 'nn.Module().register_parameter(1, None)',
    'err_param_exists': 'm = nn.Module()\nm.x = 1\nm.register_parameter("x", None)',
    'err_param_type': 'nn.Module().register_parameter("w", torch.ones(1))',
    'err_param_non_leaf': 'nn.Module().register_parameter("w", nn.Parameter(torch.ones(1)) * 2)',
    'err_param_non_leaf_param': '''
p = nn.Parameter(torch.ones(2))
q = p * 2
q.__class__ = nn.Parameter
nn.Module().register_parameter("w", q)
''',
    'err_buffer_name_dot': 'nn.Module().register_buffer("a.b", None)',
    'err_buffer_name_empty': 'nn.Module().register_buffer("", None)',
    'err_buffer_name_type': 'nn.Module().register_buffer(None, None)',
    'err_buffer_type': 'nn.Module().register_buffer("b", [1])',
    'err_buffer_exists': 'm = nn.Module()\nm.b = 1\nm.register_buffer("b", None)',
    'err_module_name_dot': 'nn.Module().add_module("a.b", None)',
    'err_module_name_empty': 'nn.Module().add_module("", None)',
    'err_module_name_type': 'nn.Module().add_module(3, None)',
    'err_module_type': 'nn.Module().add_module("m", torch.ones(1))',
    'err_module_type_int': 'nn.Module().register_module("m", 5)',
    'err_module_exists': 'm = nn.Module()\nm.z = 1\nm.add_module("z", nn.ReLU())',
    'err_before_init': '''
class M(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))
M()
''',
    'err_module_before_init': '''
class M(nn.Module):
    def __init__(self):
        self.w = nn.ReLU()
M()
''',
    'err_buffer_before_init': '''
class M(nn.Module):
    def __init__(self):
        self.register_buffer("b", None)
M()
''',
    'err_assign_tensor_to_param': 'm = nn.Linear(2, 2)\nm.weight = torch.ones(2, 2)',
    'err_assign_to_child': 'm = nn.Sequential(nn.ReLU())\nsetattr(m, "0", 5)',
    'err_assign_to_buffer': 'm = nn.Module()\nm.register_buffer("b", torch.ones(1))\nm.b = 3',
    'err_getattr': 'nn.Linear(2, 2).nope',
    'err_forward_missing': 'nn.Module()(1)',
    'assign_rules': '''
m = nn.Module()
m.register_buffer("b", torch.ones(1))
m.b = torch.zeros(2)
m.w = nn.Parameter(torch.ones(1))
m.w = None
m.c = nn.ReLU()
m.c = None
m.x = 5
m.x = nn.Parameter(torch.ones(3))
out = [list(m._parameters), list(m._buffers), list(m._modules), "x" in m.__dict__, m.b]
''',
    'delattr': '''
m = nn.Linear(2, 2)
m.register_buffer("b", torch.ones(1), persistent=False)
del m.weight
del m.b
m.y = 3
del m.y
out = [list(m._parameters), list(m._buffers), list(m._non_persistent_buffers_set), hasattr(m, "y")]
''',
    'buffer_persistence_toggle': '''
m = nn.Module()
m.register_buffer("b", torch.ones(1), persistent=False)
m.register_buffer("b", torch.ones(2))
out = list(m.state_dict().keys())
''',
    # get_submodule / get_parameter / get_buffer
    'get_submodule': NET + 'out = [type(net.get_submodule("seq.2")).__name__, net.get_submodule("") is net]',
    'get_submodule_missing': NET + 'net.get_submodule("seq.7")',
    'get_submodule_not_module': NET + 'net.get_submodule("a.scale.x")',
    'get_parameter': NET + 'out = net.get_parameter("a.scale")',
    'get_parameter_not_param': NET + 'net.get_parameter("a.running")',
    'get_parameter_missing': NET + 'net.get_parameter("a.nothing")',
    'get_buffer': NET + 'out = net.get_buffer("a.running")',
    'get_buffer_not_buffer': NET + 'net.get_buffer("a.scale")',
    'get_buffer_missing': NET + 'net.get_buffer("seq.0.x")',
    # printing
    'repr_net': NET + 'out = repr(net)',
    'repr_custom_extra': '''
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1, bias=False)
    def extra_repr(self):
        return "first line\\nsecond"
out = [repr(M()), repr(nn.Module()), repr(nn.Sequential())]
''',
    'repr_layers': '''
out = [repr(m) for m in [nn.Identity(), nn.Linear(3, 4, bias=False), nn.Flatten(), nn.Flatten(0, 2),
                         nn.Unflatten(1, (2, 5)), nn.ReLU(), nn.ReLU(inplace=True), nn.Tanh(), nn.Sigmoid(),
                         nn.Dropout(), nn.Dropout1d(0.3), nn.Dropout2d(0.1, True), nn.Dropout3d(), nn.AlphaDropout(0.2),
                         nn.FeatureAlphaDropout(0.7)]]
''',
    'repr_parameter': 'out = [repr(nn.Parameter(torch.arange(3.))), str(nn.Parameter(torch.ones(2), False))]',
    'repr_containers': '''
pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(1, dtype=torch.float64), "s"])
pd = nn.ParameterDict({"b": torch.ones(4), "a": nn.Parameter(torch.ones(1)), "c": 3})
out = [repr(pl), repr(pd), repr(nn.ModuleList([nn.ReLU(), nn.Tanh()])),
       repr(nn.ModuleDict({"x": nn.ReLU(), "y": nn.Sequential(nn.Tanh())}))]
''',
    'dir': NET + 'out = [k for k in dir(net) if not k.startswith("_") and k not in dir(nn.Module)]',
    'dir_sequential': 'out = [k for k in dir(nn.Sequential(nn.ReLU(), nn.Tanh())) if k[0].isdigit() or k == "forward"]',
    # modes, grads, conversions
    'train_eval': NET + 'net.eval()\na = [m.training for m in net.modules()]\nnet.train()\nb = net.seq[1].training\n'
                        'out = [a, b, net.train(False) is net]',
    'train_not_bool': NET + 'net.train("yes")',
    'requires_grad_': NET + 'net.requires_grad_(False)\nout = [p.requires_grad for p in net.parameters()]',
    'zero_grad': NET + '''
net(torch.ones(5, 3)).sum().backward()
g = net.p.grad
net.zero_grad()
a = [p.grad is None for p in net.parameters()]
net(torch.ones(5, 3)).sum().backward()
net.zero_grad(set_to_none=True)
out = [a, [p.grad is None for p in net.parameters()], net.seq[0].weight.grad]
''',
    'apply_order': NET + 'seen = []\nnet.apply(lambda m: seen.append(type(m).__name__))\nout = seen',
    'to_double': NET + '''
w = net.a.fc.weight
net.a.fc.weight.grad = torch.ones(2, 3)
net.double()
out = [net.a.fc.weight is w, w.dtype, w.grad.dtype, net.a.running.dtype, net(torch.ones(2, 3, dtype=torch.float64))]
''',
    'to_variants': NET + '''
net.register_buffer("count", torch.zeros(2, dtype=torch.int64))
r = [net.to(torch.float64) is net, net.p.dtype, net.count.dtype]
net.to("cpu", torch.float16)
r.append(net.p.dtype)
net.to(torch.ones(1, dtype=torch.float32))
r.append(net.p.dtype)
net.to(dtype=torch.bfloat16)
r.append(net.a.running.dtype)
net.half().float()
r.append(net.count.dtype)
out = r
''',
    'to_int_refused': NET + 'net.to(torch.int32)',
    'cpu_type': NET + 'net.type(torch.float64)\nout = [net.cpu() is net, net.p.dtype]',
    # forward hooks
    'forward_hooks': NET + '''
calls = []
def pre(m, inp):
    calls.append(("pre", type(m).__name__, [t.shape for t in inp]))
    return (inp[0] * 2,)
def post(m, inp, outp):
    calls.append(("post", type(m).__name__, outp.shape))
    return outp + 1
h1 = net.seq.register_forward_pre_hook(pre)
h2 = net.seq.register_forward_hook(post)
y1 = net(torch.ones(2, 3))
h1.remove(); h2.remove()
y2 = net(torch.ones(2, 3))
out = [calls, y1 - y2]
''',
    'forward_pre_hook_not_tuple': '''
m = nn.Identity()
m.register_forward_pre_hook(lambda mod, inp: inp[0] + 10)
out = m(torch.zeros(2))
''',
    'global_hooks': '''
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
calls = []
h = register_module_forward_hook(lambda m, i, o: calls.append(type(m).__name__))
h2 = register_module_forward_pre_hook(lambda m, i: calls.append("pre " + type(m).__name__))
nn.Sequential(nn.ReLU(), nn.Tanh())(torch.ones(1))
h.remove(); h2.remove()
nn.ReLU()(torch.ones(1))
out = calls
''',
    # full backward hooks
    'full_backward_hook': ('''
torch.manual_seed(0)
lin = nn.Linear(3, 2)
seen = []
def hook(m, grad_input, grad_output):
    seen.append(([g if g is None else g.clone() for g in grad_input], [g.clone() for g in grad_output]))
    return (grad_input[0] * 10,)
lin.register_full_backward_hook(hook)
x = torch.ones(4, 3, requires_grad=True)
y = lin(x)
(y * torch.arange(8.).reshape(4, 2)).sum().backward()
out = [seen, x.grad, lin.weight.grad, y.grad_fn.name()]
''', 1e-6),  # the products' summation order is the BLAS provider's
    'full_backward_hook_no_input_grad': '''
lin = nn.Linear(2, 2)
seen = []
lin.register_full_backward_hook(lambda m, gi, go: seen.append((gi, [g.shape for g in go])))
lin(torch.ones(1, 2)).sum().backward()
out = seen
''',
    'full_backward_hook_bad_return': '''
lin = nn.Identity()
lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
x = torch.ones(2, requires_grad=True)
lin(x).sum().backward()
''',
    'backward_hook_kinds_mixed': 'm = nn.ReLU()\nm.register_backward_hook(lambda *a: None)\n'
                                 'm.register_full_backward_hook(lambda *a: None)',
    'backward_hook_kinds_mixed2': 'm = nn.ReLU()\nm.register_full_backward_hook(lambda *a: None)\n'
                                  'm.register_backward_hook(lambda *a: None)',
    'legacy_backward_hook': '''
m = nn.Sigmoid()
seen = []
m.register_backward_hook(lambda mod, gi, go: seen.append((len(gi), len(go))))
x = torch.zeros(3, requires_grad=True)
m(x).sum().backward()
out = [seen, x.grad]
''',
    # containers
    'sequential_ops': '''
s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity())
r = [type(s[1]).__name__, type(s[-1]).__name__, [type(m).__name__ for m in s[1:3]], type(s[1:3]).__name__, len(s)]
del s[1]
r.append(list(s._modules.keys()))
s.append(nn.ReLU())
s.insert(1, nn.Tanh())
s.insert(-1, nn.Flatten())
r.append([type(m).__name__ for m in s])
r.append(type(s.pop(0)).__name__)
s[0] = nn.Sigmoid()
r.append([type(m).__name__ for m in s])
t = s + nn.Sequential(nn.ReLU())
s += nn.Sequential(nn.Tanh())
r.append([len(t), len(s), len(s * 2), len(2 * s)])
s *= 2
r.append(list(s._modules.keys()))
r.append(list(nn.Sequential(nn.ReLU()).extend([nn.Tanh(), nn.ReLU()])._modules.keys()))
out = r
''',
    'sequential_dict': '''
from collections import OrderedDict
s = nn.Sequential(OrderedDict([("first", nn.Linear(2, 3)), ("act", nn.ReLU())]))
out = [list(s._modules), repr(s), list(s.state_dict().keys()), type(s[0:1]).__name__, list(s[0:1]._modules)]
''',
    'sequential_index_error': 'nn.Sequential(nn.ReLU())[3]',
    'sequential_index_error_neg': 'nn.Sequential(nn.ReLU())[-2]',
    'sequential_add_error': 'nn.Sequential() + nn.ReLU()',
    'sequential_mul_error': 'nn.Sequential() * 0',
    'sequential_mul_type_error': 'nn.Sequential() * 1.5',
    'sequential_insert_error': 'nn.Sequential().insert(0, 3)',
    'sequential_insert_range': 'nn.Sequential().insert(2, nn.ReLU())',
    # Linear is matmul then add until F.linear (addmm, one rounding) comes with the nn-spatial family
    'sequential_forward': ('torch.manual_seed(0)\n'
                           'out = nn.Sequential(nn.Linear(2, 3), nn.Tanh())(torch.ones(1, 2))', 1e-6),
    'modulelist_ops': '''
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
ml.append(nn.Sigmoid())
ml.extend([nn.Identity()])
ml.insert(1, nn.Flatten())
r = [[type(m).__name__ for m in ml], type(ml[-1]).__name__, len(ml[1:3]), type(ml[1:3]).__name__]
del ml[0]
r.append(list(ml._modules))
ml[0] = nn.ReLU()
r.append(type(ml.pop(1)).__name__)
r.append([type(m).__name__ for m in ml + nn.ModuleList([nn.ReLU()])])
ml += [nn.Tanh()]
r.append(len(ml))
out = r
''',
    'modulelist_errors': 'nn.ModuleList([nn.ReLU()])[5]',
    'modulelist_extend_error': 'nn.ModuleList().extend(5)',
    'modulelist_bad_item': 'nn.ModuleList([3])',
    'moduledict_ops': '''
md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
md.update([("c", nn.Sigmoid())])
md["d"] = nn.Identity()
r = [list(md.keys()), "a" in md, len(md), type(md.pop("b")).__name__, list(md)]
r.append([type(v).__name__ for v in md.values()])
md.clear()
r.append(len(md))
out = r
''',
    'moduledict_update_errors': 'nn.ModuleDict().update(5)',
    'moduledict_update_errors2': 'nn.ModuleDict().update([("a", nn.ReLU(), 3)])',
    'moduledict_update_errors3': 'nn.ModuleDict().update([5])',
    'parameterlist_ops': '''
pl = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(3))])
pl.append(torch.ones(1))
pl.extend([torch.ones(4)])
r = [len(pl), [type(p).__name__ for p in pl], [n for n, _ in pl.named_parameters()], len(pl[1:3])]
pl[0] = torch.full((2,), 5.0)
r.append(pl[0])
r.append(isinstance(pl[-1], nn.Parameter))
out = r
''',
    'parameterlist_errors': 'nn.ParameterList([torch.ones(1)])[3]',
    'parameterlist_extend_tensor': 'nn.ParameterList().extend(torch.ones(2))',
    'parameterlist_call': 'nn.ParameterList()()',
    'parameterdict_ops': '''
pd = nn.ParameterDict({"z": torch.ones(1), "a": torch.zeros(2)})
pd.update([("m", torch.ones(3))])
pd["n"] = nn.Parameter(torch.ones(1))
r = [list(pd.keys()), [n for n, _ in pd.named_parameters()], "m" in pd, len(pd), pd.get("q", 7)]
r.append(type(pd.pop("z")).__name__)
r.append(pd.popitem()[0])
r.append(list(reversed(pd)))
c = pd.copy()
r.append(list(c.keys()))
r.append(list((pd | nn.ParameterDict({"w": torch.ones(1)})).keys()))
pd.setdefault("s", torch.ones(1))
pd.clear()
r.append(len(pd))
out = r
''',
    'parameterdict_key_error': 'nn.ParameterDict()[3]',
    'parameterdict_update_error': 'nn.ParameterDict().update(3)',
    'parameterdict_call': 'nn.ParameterDict()(1)',
    # layers
    'linear_forward': ('''
torch.manual_seed(0)
lin = nn.Linear(3, 2)
x = torch.arange(6.).reshape(2, 3)
y = lin(x)
y.sum().backward()
out = [y, lin.weight.grad, lin.bias.grad, nn.Linear(3, 2, bias=False).bias]
''', 1e-6),
    'flatten_unflatten': '''
x = torch.arange(24.).reshape(2, 3, 4)
out = [nn.Flatten()(x).shape, nn.Flatten(0, 1)(x).shape, nn.Unflatten(2, (2, 2))(x).shape,
       nn.Unflatten(-1, [2, -1])(x).shape, nn.Unflatten(1, (3, 1))(x).shape]
''',
    'unflatten_errors': 'nn.Unflatten(1, 5)',
    'unflatten_errors2': 'nn.Unflatten(1, (2, 2.0))',
    'unflatten_errors3': 'nn.Unflatten(1.0, (2, 2))',
    'unflatten_errors4': 'nn.Unflatten("n", (2, 2))',
    'activations': '''
x = torch.tensor([-1.0, 0.0, 2.0])
r = nn.ReLU(inplace=True)(x)
out = [nn.ReLU()(torch.tensor([-1.0, 3.0])), nn.Tanh()(torch.tensor([0.5])), nn.Sigmoid()(torch.tensor([0.5])),
       r is x, x, nn.Identity(1, b=2)(x) is x]
''',
    'dropout_module_modes': '''
torch.manual_seed(0)
d = nn.Dropout(0.5)
a = d(torch.ones(8))
d.eval()
b = d(torch.ones(8))
out = [a, b]
''',
    'dropout_bad_p': 'nn.Dropout(1.5)',
    'parameter_basics': '''
p = nn.Parameter(torch.ones(2, 2))
q = nn.Parameter(torch.ones(1), requires_grad=False)
e = nn.Parameter()
out = [type(p).__name__, p.requires_grad, q.requires_grad, e.shape, isinstance(p, torch.Tensor), p.is_leaf,
       type(p * 2).__name__, type(p.detach()).__name__, p.grad_fn]
''',
    'parameter_pickle': '''
p = nn.Parameter(torch.arange(4.).reshape(2, 2))
q = pickle.loads(pickle.dumps(p))
out = [type(q).__name__, q, q.requires_grad]
''',
    'module_pickle': NET + '''
net2 = pickle.loads(pickle.dumps(net))
out = [repr(net2), list(net2.state_dict().keys()), net2.a is net2.shared,
       [a.tolist() == b.tolist() for a, b in zip(net.parameters(), net2.parameters())]]
''',
    'incompatible_keys_repr': '''
from torch.nn.modules.module import _IncompatibleKeys
out = [repr(_IncompatibleKeys([], [])), repr(_IncompatibleKeys(["a"], [])), str(_IncompatibleKeys([], ["b"]))]
''',
}

SUITE = SnippetSuite('nn_module', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('case', SUITE.names)
def test_matches_reference(reports, case):
    SUITE.check(reports, case)


# ---- what needs this process ----

def _equal(a, b):
    # torch.equal comes with the comparison family
    return a.shape == b.shape and a.dtype == b.dtype and a.tolist() == b.tolist()


def test_parameter_shares_storage_and_version():
    import torch
    t = torch.ones(3)
    p = torch.nn.Parameter(t)
    assert p.data_ptr() == t.data_ptr()
    with torch.no_grad():
        p.add_(1)
    assert t.tolist() == [2.0, 2.0, 2.0]
    assert torch.nn.Parameter(p).data_ptr() == t.data_ptr()


def test_conversions_keep_parameter_identity_and_optimizer_state():
    import torch
    m = torch.nn.Linear(2, 2)
    w = m.weight
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    m.double()
    assert m.weight is w and w.dtype == torch.float64
    m(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
    before = w.detach().clone()
    opt.step()
    assert not _equal(before, w.detach())


def test_deepcopy_module():
    import torch
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
    net.register_buffer('b', torch.arange(3.))
    net[0].weight.grad = torch.ones(3, 2)
    twin = copy.deepcopy(net)
    assert twin[0].weight is not net[0].weight and type(twin[0].weight) is torch.nn.Parameter
    assert _equal(twin[0].weight, net[0].weight) and twin[0].weight.requires_grad
    assert twin[0].weight.grad is None  # Parameter.__deepcopy__ leaves the gradient behind, as PyTorch's
    t = torch.ones(2, requires_grad=True)
    t.grad = torch.full((2,), 3.0)
    assert _equal(copy.deepcopy(t).grad, t.grad)  # a plain tensor's goes with it
    with torch.no_grad():
        twin[0].weight.zero_()
    assert net[0].weight.abs().sum().item() > 0
    assert _equal(twin.b, net.b)


def test_tensor_pickle_is_raw_bytes():
    import torch
    for t in (torch.arange(12.).reshape(3, 4), torch.arange(12, dtype=torch.int16).reshape(3, 4).t(),
              torch.ones(5, dtype=torch.bfloat16), torch.zeros(0, 3), torch.tensor(3.5),
              torch.arange(20.)[::3], torch.ones(2, requires_grad=True)):
        data = pickle.dumps(t)
        back = pickle.loads(data)
        assert back.dtype == t.dtype and back.shape == t.shape and _equal(back, t)
        assert back.requires_grad == t.requires_grad
    t = torch.arange(12.).reshape(3, 4).t()
    assert pickle.loads(pickle.dumps(t)).stride() == t.stride()  # a dense layout is kept
    big = torch.ones(1000, 1000)
    assert len(pickle.dumps(big, protocol=4)) < 4_100_000  # bytes, not a list of Python floats


def test_make_subclass_errors():
    import torch
    with pytest.raises(TypeError):
        torch.Tensor._make_subclass(int, torch.ones(1))
    with pytest.raises(TypeError):
        torch.Tensor._make_subclass(torch.nn.Parameter, [1.0])
    with pytest.raises(RuntimeError, match='floating point'):
        torch.nn.Parameter(torch.ones(2, dtype=torch.int64))


def test_full_backward_hook_sees_all_inputs():
    import torch

    class Two(torch.nn.Module):
        def forward(self, a, b, scale):
            return a * b * scale, a + b

    m = Two()
    seen = []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append((gi, go)))
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0])
    y, z = m(a, b, 2.0)
    (y.sum() + z.sum()).backward()
    (gi, go), = seen
    assert len(gi) == 3 and gi[1] is None and gi[2] is None
    assert gi[0].tolist() == [7.0, 9.0] and [g.tolist() for g in go] == [[1.0, 1.0], [1.0, 1.0]]
    assert a.grad.tolist() == [7.0, 9.0]


def test_module_call_overhead_is_small():
    import time
    import torch
    m = torch.nn.Identity()
    x = torch.ones(1)
    t0 = time.perf_counter()
    for _ in range(20000):
        m(x)
    assert (time.perf_counter() - t0) / 20000 < 20e-6
