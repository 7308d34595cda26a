"""torch.optim: every optimizer against hand-computed updates, and trajectories, state dicts, schedules and
errors compared with the reference PyTorch 1.13.1 (recorded in tests/data/reference/optim.json by
tools/record_reference). The fused update kernels follow PyTorch's order of operations, so trajectories
must match bit for bit (LBFGS, whose dot products are not PyTorch's, within a tolerance).

Nothing at module level imports this project's torch (the recorder loads this file by path)."""
import math

import pytest

from snippets import SnippetSuite

# Parameters and gradients from an LCG (not from torch's generator), so both sides start alike.
PRELUDE = '''
def lcg(seed, n, scale=1.0):
    out, s = [], seed
    for _ in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(((s >> 11) / float(1 << 53) * 2 - 1) * scale)
    return out

def trajectory(make, dtype=torch.float32, steps=6):
    # a 37-vector (not a multiple of any vector width) and a 3x5 matrix whose gradients are transposed
    # views (not contiguous); some gradient elements are 0 and one step's are tiny
    a = torch.tensor(lcg(1, 37), dtype=dtype).requires_grad_()
    b = torch.tensor(lcg(2, 15), dtype=dtype).reshape(3, 5).requires_grad_()
    opt = make([a, b])
    traj = []
    for k in range(steps):
        scale = 1e-3 if k == 2 else 1.0
        ga = lcg(100 + k, 37, scale)
        ga[3 * k % 37] = 0.0
        a.grad = torch.tensor(ga, dtype=dtype)
        b.grad = torch.tensor(lcg(200 + k, 15, scale), dtype=dtype).reshape(5, 3).t()
        opt.step()
        traj.append([a.detach().clone(), b.detach().clone()])
    return traj, opt
'''

OPTIMIZERS = {
    'sgd': 'torch.optim.SGD(p, lr=0.1)',
    'sgd_wd': 'torch.optim.SGD(p, lr=0.1, weight_decay=0.05)',
    'sgd_momentum': 'torch.optim.SGD(p, lr=0.1, momentum=0.9)',
    'sgd_dampening_maximize': 'torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.3, maximize=True)',
    'sgd_nesterov': 'torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)',
    'adam': 'torch.optim.Adam(p, lr=0.01)',
    'adam_amsgrad_wd': 'torch.optim.Adam(p, lr=0.01, amsgrad=True, weight_decay=0.1)',
    'adam_maximize': 'torch.optim.Adam(p, lr=0.01, betas=(0.8, 0.99), eps=1e-6, maximize=True)',
    'adamw': 'torch.optim.AdamW(p, lr=0.01)',
    'adamw_amsgrad': 'torch.optim.AdamW(p, lr=0.02, weight_decay=0.1, amsgrad=True)',
    'rmsprop': 'torch.optim.RMSprop(p, lr=0.01)',
    'rmsprop_centered_momentum': 'torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5, weight_decay=0.1)',
    'rmsprop_momentum_maximize': 'torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.9, maximize=True)',
    'adagrad': 'torch.optim.Adagrad(p, lr=0.1)',
    'adagrad_decay': 'torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.2)',
    'adadelta': 'torch.optim.Adadelta(p)',
    'adadelta_wd_maximize': 'torch.optim.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.1, maximize=True)',
    'adamax': 'torch.optim.Adamax(p, lr=0.01)',
    'adamax_wd': 'torch.optim.Adamax(p, lr=0.01, weight_decay=0.1, maximize=True)',
    'asgd': 'torch.optim.ASGD(p, lr=0.01)',
    'asgd_t0': 'torch.optim.ASGD(p, lr=0.05, t0=2, lambd=0.01, weight_decay=0.1)',
    'rprop': 'torch.optim.Rprop(p, lr=0.01)',
    'rprop_maximize': 'torch.optim.Rprop(p, lr=0.02, etas=(0.3, 1.5), step_sizes=(1e-3, 0.05), maximize=True)',
    'nadam': 'torch.optim.NAdam(p, lr=0.01)',
    'nadam_wd': 'torch.optim.NAdam(p, lr=0.01, weight_decay=0.1, momentum_decay=0.01)',
    'radam': 'torch.optim.RAdam(p, lr=0.01)',
    'radam_wd': 'torch.optim.RAdam(p, lr=0.01, betas=(0.5, 0.6), weight_decay=0.1)',
}


def _cases():
    cases = {}
    for name, make in OPTIMIZERS.items():
        for dtype in ('float32', 'float64'):
            cases['traj_%s_%s' % (name, dtype)] = PRELUDE + (
                'traj, opt = trajectory(lambda p: %s, torch.%s)\nout = [traj, opt.state_dict()]' % (make, dtype))
    # LBFGS minimises a Rosenbrock function (its dot products are sums of products here, not BLAS's)
    lbfgs = '''
x = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
opt = torch.optim.LBFGS([x], lr=1, max_iter=%d, history_size=5 %s)
def closure():
    opt.zero_grad()
    a = 1 - x[0]
    b = x[1] - x[0] * x[0]
    loss = a * a + 100 * b * b
    loss.backward()
    return loss
losses = [opt.step(closure).item() for _ in range(3)]
st = opt.state[x]
out = [x.detach(), losses, st['func_evals'], st['n_iter']]
'''
    cases['lbfgs'] = (lbfgs % (10, ''), 1e-6)
    cases['lbfgs_strong_wolfe'] = (lbfgs % (25, ", line_search_fn='strong_wolfe'"), 1e-6)
    cases.update(ERRORS)
    cases.update(STATE)
    cases.update(SCHEDULERS)
    return cases


ERRORS = {
    'err_lr': 'torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=-1)',
    'err_lr_required': 'torch.optim.SGD([torch.ones(1, requires_grad=True)])',
    'err_momentum': 'torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1, momentum=-0.5)',
    'err_nesterov': 'torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1, nesterov=True)',
    'err_betas': 'torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(1.0, 0.9))',
    'err_betas1': 'torch.optim.AdamW([torch.ones(1, requires_grad=True)], betas=(0.9, -0.1))',
    'err_eps': 'torch.optim.RMSprop([torch.ones(1, requires_grad=True)], eps=-1)',
    'err_alpha': 'torch.optim.RMSprop([torch.ones(1, requires_grad=True)], alpha=-1)',
    'err_rho': 'torch.optim.Adadelta([torch.ones(1, requires_grad=True)], rho=1.5)',
    'err_etas': 'torch.optim.Rprop([torch.ones(1, requires_grad=True)], etas=(1.5, 1.2))',
    'err_lr_decay': 'torch.optim.Adagrad([torch.ones(1, requires_grad=True)], lr_decay=-1)',
    'err_initial_acc': 'torch.optim.Adagrad([torch.ones(1, requires_grad=True)], initial_accumulator_value=-1)',
    'err_momentum_decay': 'torch.optim.NAdam([torch.ones(1, requires_grad=True)], momentum_decay=-1)',
    'err_wd': 'torch.optim.ASGD([torch.ones(1, requires_grad=True)], weight_decay=-1)',
    'err_empty': 'torch.optim.SGD([], lr=1)',
    'err_tensor': 'torch.optim.SGD(torch.ones(2, requires_grad=True), lr=1)',
    'err_not_tensor': 'torch.optim.SGD([1.0], lr=1)',
    'err_non_leaf': 'torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=1)',
    'err_set': 'torch.optim.SGD({torch.ones(2, requires_grad=True)}, lr=1)',
    'err_duplicate_groups': 'p = torch.ones(2, requires_grad=True)\n'
                            'torch.optim.SGD([{"params": [p]}, {"params": p}], lr=1)',
    'err_lbfgs_groups': 'torch.optim.LBFGS([{"params": [torch.ones(1, requires_grad=True)]}, '
                        '{"params": [torch.ones(1, requires_grad=True)]}])',
    'err_load_groups': 'p = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([p], lr=1)\n'
                       'opt.load_state_dict({"state": {}, "param_groups": []})',
    'err_load_sizes': 'p = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([p], lr=1)\n'
                      'opt.load_state_dict({"state": {}, "param_groups": [{"params": [0, 1], "lr": 1}]})',
    'warn_duplicate': 'p = torch.ones(2, requires_grad=True)\n'
                      'out = len(torch.optim.SGD([p, p], lr=1).param_groups[0]["params"])',
}

STATE = {
    'repr': 'a = torch.ones(2, requires_grad=True)\nb = torch.ones(3, requires_grad=True)\n'
            'opt = torch.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.1}], lr=0.01, amsgrad=True)\n'
            'out = repr(opt)',
    'repr_sgd': 'out = repr(torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.5, momentum=0.9))',
    'groups_defaults': 'a = torch.ones(2, requires_grad=True)\nb = torch.ones(3, requires_grad=True)\n'
                       'opt = torch.optim.RMSprop([{"params": [a]}], lr=0.01)\n'
                       'opt.add_param_group({"params": b, "alpha": 0.5})\nout = opt.state_dict()',
    'state_dict_packed': PRELUDE + '''
a = torch.ones(3, requires_grad=True); b = torch.ones(2, requires_grad=True); c = torch.ones(4, requires_grad=True)
opt = torch.optim.SGD([{"params": [a, b]}, {"params": [c], "momentum": 0.5}], lr=0.1, momentum=0.9)
for t in (a, b, c):
    t.grad = torch.tensor(lcg(7, t.numel()))
opt.step()
out = opt.state_dict()
''',
    'load_state_dict_continues': PRELUDE + '''
def run(opt_state=None, steps=3):
    p = torch.tensor(lcg(3, 9), requires_grad=True)
    opt = torch.optim.Adam([p], lr=0.05)
    if opt_state is not None:
        with torch.no_grad():
            p.copy_(opt_state[0])
        opt.load_state_dict(opt_state[1])
    for k in range(steps):
        p.grad = torch.tensor(lcg(50 + k, 9))
        opt.step()
    return p.detach().clone(), opt.state_dict()
mid = run(steps=2)
out = [run(mid, steps=2)[0], run(steps=4)[0]]
''',
    'load_state_dict_casts': '''
p = torch.ones(3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([p])
opt.load_state_dict({"state": {0: {"step": torch.tensor(2.), "exp_avg": torch.ones(3), "exp_avg_sq": torch.ones(3)}},
                     "param_groups": [{"params": [0], "lr": 0.5, "betas": (0.9, 0.999), "eps": 1e-8,
                                       "weight_decay": 0, "amsgrad": False}]})
st = opt.state[p]
out = [st["step"].dtype, st["exp_avg"].dtype, opt.param_groups[0], opt.defaults]
''',
    'zero_grad': '''
p = torch.ones(3, requires_grad=True); q = torch.ones(2, requires_grad=True)
(p.sum() * 2 + q.sum()).backward()
opt = torch.optim.SGD([p, q], lr=1)
opt.zero_grad()
g = p.grad
opt.zero_grad(set_to_none=True)
out = [g, p.grad is None, q.grad is None]
''',
    'closure': '''
p = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([p], lr=0.1)
def closure():
    opt.zero_grad()
    loss = (p * p).sum()
    loss.backward()
    return loss
out = [opt.step(closure), p.detach()]
''',
    'no_grad_params_skipped': '''
p = torch.ones(2, requires_grad=True); q = torch.ones(2, requires_grad=True)
p.grad = torch.ones(2)
opt = torch.optim.Adam([p, q])
opt.step()
out = [list(opt.state_dict()["state"].keys()), q]
''',
    'step_is_tensor': '''
p = torch.ones(2, requires_grad=True); p.grad = torch.ones(2)
opts = [torch.optim.Adam([p]), torch.optim.AdamW([p]), torch.optim.Adamax([p]), torch.optim.NAdam([p]),
        torch.optim.RAdam([p]), torch.optim.ASGD([p]), torch.optim.Adagrad([p]), torch.optim.RMSprop([p]),
        torch.optim.Rprop([p]), torch.optim.Adadelta([p]), torch.optim.SGD([p], lr=0.1)]
for o in opts:
    o.step()
out = [sorted((k, v if not isinstance(v, torch.Tensor) else v.shape) for k, v in o.state[p].items()) for o in opts]
''',
}

SCHEDULERS = {}
_SCHED = {
    'step': 'torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)',
    'multistep': 'torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5, 9], gamma=0.3)',
    'exponential': 'torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)',
    'cosine': 'torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)',
    'lambda': 'torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.95 ** e)',
    'multiplicative': 'torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.9)',
    'linear': 'torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4)',
    'constant': 'torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=3)',
    'onecycle': 'torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=14)',
    'onecycle_linear_3phase': 'torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[1.0, 0.5], epochs=2, '
                              'steps_per_epoch=7, anneal_strategy="linear", three_phase=True)',
    'sequential': 'torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, '
                  'total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)], milestones=[2])',
    'chained': 'torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, '
               'total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])',
}
for _name, _make in _SCHED.items():
    SCHEDULERS['sched_' + _name] = '''
a = torch.ones(2, requires_grad=True); b = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.2}], lr=0.1, momentum=0.9)
sched = %s
lrs = []
for _ in range(13):
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr())
moms = [g.get("momentum") for g in opt.param_groups]
out = [lrs, moms, sched.state_dict() if "%s" not in ("lambda", "multiplicative") else None]
''' % (_make, _name)
SCHEDULERS.update({
    'sched_step_before_optimizer': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
sched.step()
out = sched.get_last_lr()
''',
    'sched_get_lr_outside_step': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
out = torch.optim.lr_scheduler.ExponentialLR(opt, 0.5).get_lr()
''',
    'sched_epoch_closed_form': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
opt.step()
sched.step(7)
out = sched.get_last_lr()
''',
    'sched_plateau': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2, cooldown=1, factor=0.5, min_lr=0.1)
lrs = []
for m in [5, 4, 4, 4, 4, 4, 4, 3.9999, 4, 4, 4, 4, 4, 4, 4]:
    sched.step(m)
    lrs.append(opt.param_groups[0]["lr"])
out = [lrs, sched.state_dict()]
''',
    'sched_plateau_max_abs': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", threshold_mode="abs", threshold=0.5, patience=0)
lrs = []
for m in [1, 1.4, 2, 2.4, 3]:
    sched.step(torch.tensor(m))
    lrs.append(opt.param_groups[0]["lr"])
out = lrs
''',
    'sched_err_plateau_factor': 'torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.ones(1, '
                                'requires_grad=True)], lr=1), factor=1.0)',
    'sched_err_not_optimizer': 'torch.optim.lr_scheduler.StepLR(object(), 1)',
    'sched_err_resume': 'torch.optim.lr_scheduler.StepLR(torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1), '
                        '1, last_epoch=3)',
    'sched_err_onecycle': 'torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD([torch.ones(1, requires_grad=True)], '
                          'lr=1), max_lr=1)',
    'sched_err_onecycle_steps': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1, total_steps=2)
for _ in range(3):
    opt.step()
    sched.step()
''',
    'sched_err_sequential': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.StepLR(opt, 1)], milestones=[3])
''',
    'sched_load_state_dict': '''
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
s1 = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for _ in range(3):
    opt.step(); s1.step()
opt2 = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)
s2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=5)
s2.load_state_dict(s1.state_dict())
opt2.param_groups[0]["lr"] = opt.param_groups[0]["lr"]
for _ in range(3):
    opt2.step(); s2.step()
out = [s2.get_last_lr(), s2.last_epoch, s2.step_size]
''',
})

SUITE = SnippetSuite('optim', _cases())
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('case', SUITE.names)
def test_matches_reference(reports, case):
    SUITE.check(reports, case)


# ---- hand-computed updates (float64, one element, the textbook formulas) ----

def _step(make, p0, grads, dtype=None):
    import torch
    p = torch.tensor([p0], dtype=dtype or torch.float64, requires_grad=True)
    opt = make([p])
    values = []
    for g in grads:
        p.grad = torch.tensor([g], dtype=p.dtype)
        opt.step()
        values.append(p.item())
    return values


def test_sgd_by_hand():
    import torch
    assert _step(lambda p: torch.optim.SGD(p, lr=0.1), 1.0, [0.5, -2.0]) == pytest.approx([0.95, 1.15], rel=1e-15)
    # momentum 0.9, dampening 0.5: b1 = g1, b2 = 0.9 b1 + 0.5 g2
    b1, b2 = 0.5, 0.9 * 0.5 + 0.5 * 1.0
    got = _step(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.5), 1.0, [0.5, 1.0])
    assert got == pytest.approx([1 - 0.1 * b1, 1 - 0.1 * b1 - 0.1 * b2], rel=1e-14)
    # nesterov with weight decay: g' = g + wd p; p -= lr (g' + m b)
    g1 = 0.5 + 0.01 * 1.0
    got = _step(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01), 1.0, [0.5])
    assert got[0] == pytest.approx(1 - 0.1 * (g1 + 0.9 * g1), rel=1e-14)
    assert _step(lambda p: torch.optim.SGD(p, lr=0.1, maximize=True), 1.0, [0.5]) == pytest.approx([1.05])


def _adam_by_hand(p, grads, lr=0.01, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, decoupled=False, amsgrad=False):
    m = v = vmax = 0.0
    for t, g in enumerate(grads, 1):
        if decoupled:
            p *= 1 - lr * wd
        else:
            g += wd * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = max(vmax, v)
        denom = math.sqrt(vmax if amsgrad else v) / math.sqrt(1 - b2 ** t) + eps
        p -= lr / (1 - b1 ** t) * m / denom
    return p


def test_adam_family_by_hand():
    import torch
    grads = [0.5, -0.2, 0.8]
    assert _step(lambda p: torch.optim.Adam(p, lr=0.01), 1.0, grads)[-1] == pytest.approx(
        _adam_by_hand(1.0, grads), rel=1e-13)
    assert _step(lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=0.1, amsgrad=True), 1.0, grads)[-1] == \
        pytest.approx(_adam_by_hand(1.0, grads, wd=0.1, amsgrad=True), rel=1e-13)
    assert _step(lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.1), 1.0, grads)[-1] == pytest.approx(
        _adam_by_hand(1.0, grads, wd=0.1, decoupled=True), rel=1e-13)
    # Adamax: u = max(b2 u, |g| + eps)
    p, m, u = 1.0, 0.0, 0.0
    for t, g in enumerate(grads, 1):
        m = 0.9 * m + 0.1 * g
        u = max(0.999 * u, abs(g) + 1e-8)
        p -= 0.002 / (1 - 0.9 ** t) * m / u
    assert _step(lambda q: torch.optim.Adamax(q), 1.0, grads)[-1] == pytest.approx(p, rel=1e-13)


def test_nadam_radam_by_hand():
    import torch
    grads = [0.5, -0.2, 0.8, 0.1, 0.3, -0.7, 0.2]
    p, m, v, mu_prod = 1.0, 0.0, 0.0, 1.0
    for t, g in enumerate(grads, 1):
        mu = 0.9 * (1 - 0.5 * 0.96 ** (t * 0.004))
        mu_next = 0.9 * (1 - 0.5 * 0.96 ** ((t + 1) * 0.004))
        mu_prod *= mu
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        denom = math.sqrt(v / (1 - 0.999 ** t)) + 1e-8
        # PyTorch 1.13 multiplies mu into the next product twice (mu_product * mu * mu_next, after *= mu)
        p -= 0.002 * (1 - mu) / (1 - mu_prod) * g / denom + 0.002 * mu_next / (1 - mu_prod * mu * mu_next) * m / denom
    assert _step(lambda q: torch.optim.NAdam(q), 1.0, grads)[-1] == pytest.approx(p, rel=1e-6)  # float32 mu_product
    p, m, v = 1.0, 0.0, 0.0
    rho_inf = 2 / (1 - 0.999) - 1
    for t, g in enumerate(grads, 1):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        m_hat = m / (1 - 0.9 ** t)
        rho_t = rho_inf - 2 * t * 0.999 ** t / (1 - 0.999 ** t)
        if rho_t > 5:
            r = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            p -= 0.001 * m_hat * r * math.sqrt(1 - 0.999 ** t) / (math.sqrt(v) + 1e-8)
        else:
            p -= 0.001 * m_hat
    assert _step(lambda q: torch.optim.RAdam(q), 1.0, grads)[-1] == pytest.approx(p, rel=1e-13)


def test_adaptive_by_hand():
    import torch
    grads = [0.5, -0.2, 0.8]
    p, v = 1.0, 0.0
    for g in grads:
        v = 0.99 * v + 0.01 * g * g
        p -= 0.01 * g / (math.sqrt(v) + 1e-8)
    assert _step(lambda q: torch.optim.RMSprop(q), 1.0, grads)[-1] == pytest.approx(p, rel=1e-13)
    p, v, ga, b = 1.0, 0.0, 0.0, 0.0
    for g in grads:
        v = 0.99 * v + 0.01 * g * g
        ga = 0.99 * ga + 0.01 * g
        b = 0.5 * b + g / (math.sqrt(v - ga * ga) + 1e-8)
        p -= 0.01 * b
    assert _step(lambda q: torch.optim.RMSprop(q, centered=True, momentum=0.5), 1.0, grads)[-1] == \
        pytest.approx(p, rel=1e-12)
    p, s = 1.0, 0.0
    for t, g in enumerate(grads, 1):
        s += g * g
        p -= 0.01 / (1 + (t - 1) * 0.1) * g / (math.sqrt(s) + 1e-10)
    assert _step(lambda q: torch.optim.Adagrad(q, lr_decay=0.1), 1.0, grads)[-1] == pytest.approx(p, rel=1e-13)
    p, v, u = 1.0, 0.0, 0.0
    for g in grads:
        v = 0.9 * v + 0.1 * g * g
        d = math.sqrt(u + 1e-6) / math.sqrt(v + 1e-6) * g
        u = 0.9 * u + 0.1 * d * d
        p -= 1.0 * d
    assert _step(lambda q: torch.optim.Adadelta(q), 1.0, grads)[-1] == pytest.approx(p, rel=1e-13)


def test_asgd_rprop_by_hand():
    import torch
    grads = [0.5, -0.2, 0.8]
    p, eta = 1.0, 0.01
    for t, g in enumerate(grads, 1):
        p = p * (1 - 1e-4 * eta) - eta * g
        eta = 0.01 / (1 + 1e-4 * 0.01 * t) ** 0.75
    assert _step(lambda q: torch.optim.ASGD(q), 1.0, grads)[-1] == pytest.approx(p, rel=1e-7)  # eta is float32
    # Rprop: sizes 0.01 -> 0.012 (same sign) -> 0.006 (flip: no step, prev forgotten) -> 0.006 (no sign to compare)
    got = _step(lambda q: torch.optim.Rprop(q), 1.0, [0.5, 0.3, -0.2, -0.1])
    assert got == pytest.approx([0.99, 0.978, 0.978, 0.984], rel=1e-6)


def test_float16_and_bfloat16_follow_float32():
    import torch
    for dtype in (torch.float16, torch.bfloat16):
        for make in (lambda p: torch.optim.Adam(p, lr=0.01), lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
                     lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True)):
            lo = _step(make, 0.75, [0.5, -0.25, 0.125], dtype)
            hi = _step(make, 0.75, [0.5, -0.25, 0.125], torch.float32)
            assert lo == pytest.approx(hi, rel=1e-2, abs=1e-3)


def test_updates_run_as_one_fused_op_each():
    import torch
    p = torch.ones(4, requires_grad=True)
    p.grad = torch.ones(4)
    opt = torch.optim.Adam([p])
    version = p._version
    opt.step()
    assert p._version == version + 1  # one in-place write of the parameter


def test_update_op_errors():
    import torch
    op = torch.ops.aten._sgd_update_.default
    p = torch.ones(3)
    with pytest.raises(RuntimeError, match='grad has shape'):
        op(p, torch.ones(4), None, 0.1, 0.0, 0.0, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match='momentum_buffer is needed'):
        op(p, torch.ones(3), None, 0.1, 0.0, 0.9, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        op(torch.ones(3, dtype=torch.long), torch.ones(3), None, 0.1, 0.0, 0.0, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match='dtype'):
        op(p, torch.ones(3), torch.ones(3, dtype=torch.float64), 0.1, 0.0, 0.9, 0.0, False, False, True)
    with pytest.raises(RuntimeError, match='single memory location'):
        op(p, torch.ones(3), p, 0.1, 0.0, 0.9, 0.0, False, False, True)
    q = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match='leaf Variable'):
        op(q, torch.ones(3), None, 0.1, 0.0, 0.0, 0.0, False, False, False)
    # a gradient that is the parameter itself is read before it is written
    g = torch.tensor([1.0, 2.0, 3.0])
    op(g, g, None, 0.5, 0.0, 0.0, 0.0, False, False, False)
    assert g.tolist() == [0.5, 1.0, 1.5]
    # the meta device: shapes only
    m = torch.empty(3, device='meta')
    op(m, torch.empty(3, device='meta'), None, 0.1, 0.0, 0.0, 0.0, False, False, False)


def test_large_parameters_use_threads():
    import torch
    n = 300000
    p = torch.ones(n, requires_grad=True)
    p.grad = torch.full((n,), 0.5)
    opt = torch.optim.Adam([p], lr=0.1)
    old = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        opt.step()
    finally:
        torch.set_num_threads(old)
    assert p.min().item() == p.max().item() == pytest.approx(0.9)
