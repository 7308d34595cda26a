"""The cases of test_nn_extra_reference.py: run under the reference to record, and under this project's
torch to compare. Prints {case: ["ok", [result, gradients...]] or ["err", class, message]} as JSON."""
import json, sys, warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
warnings.simplefilter('ignore')

def plain(v):
    if isinstance(v, torch.Tensor):
        return plain(v.detach().double().tolist())
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, float) and v != v:
        return 'nan'
    if isinstance(v, float) and v in (float('inf'), float('-inf')):
        return str(v)
    return v

def det(seed, *shape):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g, dtype=torch.float64) * 2 - 1

res = {}

def rec(name, fn, *inputs):
    """name: the result and the gradients of a function of float64 inputs, or the error it raises."""
    ins = [i.clone().requires_grad_(True) if isinstance(i, torch.Tensor) and i.is_floating_point() else i
           for i in inputs]
    try:
        out = fn(*ins)
        if isinstance(out, (list, tuple)):
            res[name] = ['ok', plain(out)]
            return
        grads = []
        wanted = [i for i in ins if isinstance(i, torch.Tensor) and i.requires_grad]
        if out.requires_grad and wanted:
            grads = torch.autograd.grad(out.sum(), wanted, allow_unused=True)
        res[name] = ['ok', plain([out] + [g if g is not None else 'none' for g in grads])]
    except Exception as e:
        res[name] = ['err', type(e).__name__, str(e)]

# ---- torch.nn.functional ----
x = det(1, 4, 5); y = det(2, 4, 5)
for p in (2, 1, 3, float('inf')):
    rec('normalize p%s' % p, lambda a: F.normalize(a, p=p), x)
rec('normalize dim0', lambda a: F.normalize(a, dim=0), x)
rec('cos dim1', lambda a, b: F.cosine_similarity(a, b), x, y)
rec('cos dim0', lambda a, b: F.cosine_similarity(a, b, dim=0), x, y)
rec('cos bcast', lambda a, b: F.cosine_similarity(a, b[:1], dim=-1), x, y)
rec('cos baddim', lambda a, b: F.cosine_similarity(a, b, dim=5), x, y)
for p in (2, 1, 0, 3.5, float('inf')):
    rec('pdist %s' % p, lambda a: F.pdist(a, p), x)
rec('pdist 3d', lambda a: F.pdist(a[None]), x)
th = det(3, 2, 2, 3)
for ac in (False, True):
    rec('affine_grid %s' % ac, lambda t: F.affine_grid(t, (2, 3, 4, 5), align_corners=ac), th)
    rec('affine_grid3d %s' % ac, lambda t: F.affine_grid(t, (2, 3, 3, 4, 5), align_corners=ac), det(4, 2, 3, 4))
img = det(5, 2, 3, 6, 7); grid = det(6, 2, 4, 5, 2) * 1.3
vol = det(7, 2, 2, 4, 5, 3); grid3 = det(8, 2, 3, 2, 4, 3) * 1.2
for mode in ('bilinear', 'nearest', 'bicubic'):
    for pad in ('zeros', 'border', 'reflection'):
        for ac in (False, True):
            rec('grid_sample %s %s %s' % (mode, pad, ac), lambda i, g: F.grid_sample(i, g, mode=mode, padding_mode=pad, align_corners=ac), img, grid)
            if mode != 'bicubic':
                rec('grid_sample3d %s %s %s' % (mode, pad, ac), lambda i, g: F.grid_sample(i, g, mode=mode, padding_mode=pad, align_corners=ac), vol, grid3)
rec('grid_sample badmode', lambda i, g: F.grid_sample(i, g, mode='foo'), img, grid)
rec('channel_shuffle', lambda a: F.channel_shuffle(a, 3), det(9, 2, 6, 2, 2))
t = (det(10, 4, 5) > 0).double() * 2 - 1
rec('soft_margin', lambda a: F.soft_margin_loss(a, t), x)
rec('soft_margin none', lambda a: F.soft_margin_loss(a, t, reduction='none'), x)
t01 = (det(11, 4, 5) > 0).double()
rec('mlsm', lambda a: F.multilabel_soft_margin_loss(a, t01), x)
rec('mlsm w none', lambda a: F.multilabel_soft_margin_loss(a, t01, weight=torch.arange(1., 6).double(), reduction='none'), x)
tc = torch.tensor([0, 4, 2, 1])
for p in (1, 2):
    rec('mm p%d' % p, lambda a: F.multi_margin_loss(a, tc, p=p, margin=0.7), x)
    rec('mm p%d none w' % p, lambda a: F.multi_margin_loss(a, tc, p=p, weight=torch.arange(1., 6).double(), reduction='none'), x)
rec('mm 1d', lambda a: F.multi_margin_loss(a[0], tc[:1]), x)
rec('mm bad target', lambda a: F.multi_margin_loss(a, torch.tensor([0, 5, 2, 1])), x)
tl = torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [-1, 1, 2, 3, 4], [4, 4, -1, 0, 0]])
rec('mlm', lambda a: F.multilabel_margin_loss(a, tl), x)
rec('mlm none', lambda a: F.multilabel_margin_loss(a, tl, reduction='none'), x)
rec('mlm sum 1d', lambda a: F.multilabel_margin_loss(a[0], tl[0], reduction='sum'), x)
var = det(12, 4, 5).abs() + 0.1
rec('gnll', lambda a, v: F.gaussian_nll_loss(a, y, v), x, var)
rec('gnll full none', lambda a, v: F.gaussian_nll_loss(a, y, v[:, 0], full=True, reduction='none'), x, var)
rec('gnll neg', lambda a, v: F.gaussian_nll_loss(a, y, -v), x, var)
rec('tmwd', lambda a, b: F.triplet_margin_with_distance_loss(a, b, y.flip(0)), x, y)
rec('tmwd swap cos', lambda a, b: F.triplet_margin_with_distance_loss(a, b, y.flip(0), distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), swap=True, margin=0.5, reduction='sum'), x, y)

# ---- 3-D pooling, unpooling, power-average pooling ----
vol = det(20, 2, 3, 5, 6, 7)
for args, kw in [((2,), {}), ((3, 2, 1), {}), ((3, 2, 1), {'ceil_mode': True}), (((2, 3, 2), (1, 2, 2)), {}),
                 ((2, 1, 0, 2), {}), ((3, (2, 1, 2), (1, 0, 1)), {'ceil_mode': True})]:
    rec('max_pool3d %s %s' % (args, kw), lambda v, a=args, k=kw: F.max_pool3d(v, *a, **k), vol)
    rec('max_pool3d idx %s %s' % (args, kw),
        lambda v, a=args, k=kw: F.max_pool3d(v, *a, return_indices=True, **k)[1].double(), vol)
for args, kw in [((2,), {}), ((3, 2, 1), {}), ((3, 2, 1), {'ceil_mode': True}),
                 ((3, 2, 1), {'ceil_mode': True, 'count_include_pad': False}), ((2, 2, 1), {'divisor_override': 3}),
                 (((2, 3, 1), (2, 1, 1), (1, 1, 0)), {'count_include_pad': False})]:
    rec('avg_pool3d %s %s' % (args, kw), lambda v, a=args, k=kw: F.avg_pool3d(v, *a, **k), vol)
rec('max_pool3d unbatched', lambda v: F.max_pool3d(v[0], 2), vol)
rec('max_pool3d bad pad', lambda v: F.max_pool3d(v, 3, 2, 2), vol)
rec('max_pool3d 3d input', lambda v: F.max_pool3d(v[0, 0], 2), vol)
rec('avg_pool3d too small', lambda v: F.avg_pool3d(v, 7), vol)
for size in [(2, 3, 4), (None, 2, 5), 3, (1, 1, 1)]:
    rec('adaptive_avg_pool3d %s' % (size,), lambda v, o=size: F.adaptive_avg_pool3d(v, o), vol)
    rec('adaptive_max_pool3d %s' % (size,), lambda v, o=size: F.adaptive_max_pool3d(v, o), vol)
    rec('adaptive_max_pool3d idx %s' % (size,), lambda v, o=size: F.adaptive_max_pool3d(v, o, True)[1].double(), vol)
plane = det(21, 2, 3, 6, 7)
for dims, pool, unpool, x_ in [(1, F.max_pool1d, F.max_unpool1d, det(22, 2, 3, 9)), (2, F.max_pool2d, F.max_unpool2d, plane),
                               (3, F.max_pool3d, F.max_unpool3d, vol)]:
    def unpooled(v, pool=pool, unpool=unpool):
        values, indices = pool(v, 2, return_indices=True)
        return unpool(values, indices, 2)
    rec('max_unpool%dd' % dims, unpooled, x_)
    def unpooled_size(v, pool=pool, unpool=unpool, dims=dims):
        values, indices = pool(v, 2, 2, return_indices=True)
        return unpool(values, indices, 2, output_size=list(v.shape[-dims:]))
    rec('max_unpool%dd output_size' % dims, unpooled_size, x_)
rec('max_unpool2d bad index', lambda v: F.max_unpool2d(v[:, :, :2, :2], torch.full((2, 3, 2, 2), 99), 2), plane)
rec('max_unpool2d bad size', lambda v: F.max_unpool2d(v[:, :, :2, :2], torch.zeros(2, 3, 2, 2, dtype=torch.int64), 2,
                                                      output_size=(9, 5)), plane)
rec('lp_pool1d', lambda v: F.lp_pool1d(v.abs() + 0.1, 2.0, 3, 2), det(23, 2, 3, 9))
rec('lp_pool2d', lambda v: F.lp_pool2d(v.abs() + 0.1, 3.0, (2, 3)), plane)
rec('lp_pool2d ceil', lambda v: F.lp_pool2d(v.abs() + 0.1, 1.5, 2, 3, ceil_mode=True), plane)

# ---- torch.nn.utils ----
def rec_plain(name, fn):
    try:
        res[name] = ['ok', plain(fn())]
    except Exception as e:
        res[name] = ['err', type(e).__name__, str(e)]

import torch.nn.utils.prune as prune
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations as PZ
from torch.nn.utils.stateless import functional_call
x = torch.linspace(-1, 1, 15).reshape(3, 5)
def wn():
    torch.manual_seed(0); m = nn.Linear(5, 4); nn.utils.weight_norm(m)
    y = m(x); y.sum().backward()
    keys = sorted(m.state_dict().keys())
    out = [y, m.weight_g.grad, m.weight_v.grad, keys]
    nn.utils.remove_weight_norm(m); out += [m.weight, sorted(m.state_dict().keys())]
    return out
rec_plain('weight_norm', wn)
def wn_dim():
    torch.manual_seed(0); m = nn.Conv2d(2, 3, 3); nn.utils.weight_norm(m, dim=None)
    return [m.weight_g, m(torch.ones(1, 2, 4, 4))]
rec_plain('weight_norm dimNone', wn_dim)
def sn(mod_fn, xin, use_param):
    def f():
        torch.manual_seed(0); m = mod_fn()
        (PZ.spectral_norm if use_param else nn.utils.spectral_norm)(m)
        outs = []
        for _ in range(3): outs.append(m(xin))
        m.eval(); outs.append(m(xin)); outs.append(sorted(m.state_dict().keys()))
        outs.append(m.weight)
        return outs
    return f
for use_param in (False, True):
    rec_plain('sn linear %s' % use_param, sn(lambda: nn.Linear(5, 4), x, use_param))
    rec_plain('sn conv %s' % use_param, sn(lambda: nn.Conv2d(2, 3, 3), torch.ones(1, 2, 5, 5), use_param))
    rec_plain('sn convT %s' % use_param, sn(lambda: nn.ConvTranspose2d(2, 3, 3), torch.ones(1, 2, 5, 5), use_param))
def sn_remove():
    torch.manual_seed(0); m = nn.Linear(5, 4); nn.utils.spectral_norm(m); m(x); nn.utils.remove_spectral_norm(m)
    return [m.weight, sorted(m.state_dict().keys())]
rec_plain('sn remove', sn_remove)
for shape in ((5, 5), (5, 3), (3, 5)):
    for omap in (None, 'matrix_exp', 'cayley', 'householder'):
        for triv in (True, False):
            def orth(shape=shape, omap=omap, triv=triv):
                torch.manual_seed(0); m = nn.Linear(shape[1], shape[0])
                PZ.orthogonal(m, orthogonal_map=omap, use_trivialization=triv)
                w = m.weight
                y = m(torch.ones(2, shape[1])); y.sum().backward()
                g = m.parametrizations.weight.original.grad
                return [w, g, sorted(m.state_dict().keys())]
            rec_plain('orth %s %s %s' % (shape, omap, triv), orth)
class Sym(nn.Module):
    def forward(self, X): return X.triu() + X.triu(1).transpose(-1, -2)
def param():
    torch.manual_seed(0); m = nn.Linear(4, 4); P.register_parametrization(m, 'weight', Sym())
    out = [m.weight, sorted(m.state_dict().keys()), type(m).__name__, P.is_parametrized(m), P.is_parametrized(m, 'bias')]
    with P.cached(): a = m.weight; b = m.weight; out.append(a is b)
    y = m(torch.ones(1, 4)); y.sum().backward(); out.append(m.parametrizations.weight.original.grad)
    P.remove_parametrizations(m, 'weight'); out += [m.weight, type(m).__name__, sorted(m.state_dict().keys())]
    return out
rec_plain('parametrize', param)
def param_assign():  # assigning runs right_inverse, which Sym lacks
    m = nn.Linear(4, 4); P.register_parametrization(m, 'weight', Sym()); m.weight = torch.eye(4)
rec_plain('parametrize assign', param_assign)
def param_err():
    m = nn.Linear(4, 4); P.register_parametrization(m, 'foo', Sym())
rec_plain('parametrize missing', param_err)
def prune_l1():
    torch.manual_seed(0); m = nn.Linear(5, 4)
    prune.l1_unstructured(m, 'weight', amount=0.3)
    out = [m.weight, m.weight_mask, sorted(dict(m.named_buffers()).keys()), sorted(dict(m.named_parameters()).keys())]
    prune.random_unstructured(m, 'weight', amount=3)
    out += [m.weight_mask, prune.is_pruned(m)]
    prune.ln_structured(m, 'weight', amount=1, n=2, dim=0)
    out += [m.weight_mask]
    prune.remove(m, 'weight'); out += [m.weight, sorted(dict(m.named_parameters()).keys()), prune.is_pruned(m)]
    return out
rec_plain('prune chain', prune_l1)
def prune_struct():
    torch.manual_seed(0); m = nn.Conv2d(3, 6, 2)
    prune.random_structured(m, 'weight', amount=0.5, dim=0)
    out = [m.weight_mask]
    prune.ln_structured(m, 'bias', amount=2, n=1, dim=0)
    return out + [m.bias_mask]
rec_plain('prune structured', prune_struct)
def prune_global():
    torch.manual_seed(0); a = nn.Linear(4, 3); b = nn.Linear(3, 2)
    prune.global_unstructured([(a, 'weight'), (b, 'weight')], pruning_method=prune.L1Unstructured, amount=0.4)
    return [a.weight_mask, b.weight_mask]
rec_plain('prune global', prune_global)
rec_plain('prune bad amount', lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount=1.5))
def fcall():
    torch.manual_seed(0); m = nn.Linear(5, 4)
    w = torch.ones(4, 5)
    return [functional_call(m, {'weight': w}, (x,)), m.weight]
rec_plain('functional_call', fcall)
def fuse():
    torch.manual_seed(0); c = nn.Conv2d(2, 3, 3); bn = nn.BatchNorm2d(3)
    bn.running_mean.uniform_(); bn.running_var.uniform_(0.5, 2); bn.weight.data.uniform_(); bn.bias.data.uniform_()
    c.eval(); bn.eval()
    f = nn.utils.fusion.fuse_conv_bn_eval(c, bn)
    inp = torch.linspace(-1, 1, 50).reshape(1, 2, 5, 5)
    l = nn.Linear(4, 3); b1 = nn.BatchNorm1d(3); b1.running_mean.uniform_(); l.eval(); b1.eval()
    fl = nn.utils.fusion.fuse_linear_bn_eval(l, b1)
    return [f(inp), bn(c(inp)), fl(torch.ones(2, 4)), b1(l(torch.ones(2, 4)))]
rec_plain('fusion', fuse)

# ---- lazy modules, adaptive softmax ----
def lazy_stack():
    torch.manual_seed(0)
    m = nn.Sequential(nn.LazyConv2d(4, 3), nn.LazyBatchNorm2d(), nn.ReLU(), nn.Flatten(), nn.LazyLinear(5))
    before = [type(m[0]).__name__, m[0].has_uninitialized_params()]
    x = torch.randn(2, 3, 8, 8)
    y = m(x)
    n = nn.Sequential(nn.LazyConv2d(4, 3), nn.LazyBatchNorm2d(), nn.ReLU(), nn.Flatten(), nn.LazyLinear(5))
    n.load_state_dict(m.state_dict())
    return before + [type(m[0]).__name__, type(m[1]).__name__, type(m[4]).__name__, list(m[0].weight.shape),
                     list(m[4].weight.shape), y, m[0].weight, m[4].bias, sorted(m.state_dict().keys()),
                     type(n[4]).__name__, n(x)]
rec_plain('lazy stack', lazy_stack)
def lazy_others():
    torch.manual_seed(0)
    t = nn.LazyConvTranspose2d(6, 2, groups=3)
    i = nn.LazyInstanceNorm1d(affine=True)
    c = nn.LazyConv1d(2, 3, padding=1)
    l = nn.LazyLinear(3).double()
    return [t(torch.randn(1, 3, 4, 4)), list(t.weight.shape), i(torch.randn(2, 4, 7)), i.num_features,
            c(torch.randn(5, 9)), str(l(torch.randn(2, 4, dtype=torch.float64)).dtype)]
rec_plain('lazy others', lazy_others)
rec_plain('lazy uninitialized shape', lambda: nn.LazyLinear(3).weight.shape)
rec_plain('lazy conv groups', lambda: nn.LazyConv2d(4, 3, groups=2)(torch.randn(1, 3, 5, 5)))
def adaptive_softmax():
    torch.manual_seed(1)
    a = nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10], div_value=2.0)
    inp = torch.randn(6, 16)
    tgt = torch.tensor([0, 3, 5, 9, 12, 19])
    out = a(inp, tgt)
    out.loss.backward()
    return [out.output, out.loss, a.predict(inp), a.log_prob(inp), a(inp[0], tgt[0]).output,
            a.head.weight.grad, a.tail[1][0].weight.grad]
rec_plain('adaptive softmax', adaptive_softmax)
rec_plain('adaptive softmax bad target', lambda: nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10])(
    torch.randn(2, 16), torch.tensor([0, 20])))
rec_plain('adaptive softmax bad cutoffs', lambda: nn.AdaptiveLogSoftmaxWithLoss(16, 20, [10, 4]))

json.dump(res, sys.stdout)
