"""The autograd engine through the public API: graphs, backward and grad, views and in-place ops,
hooks, custom Functions, modes, forward AD, anomaly detection, checkpointing, memory.

Expected values are worked out by hand (closed forms); messages are PyTorch 1.13's.
"""
import gc
import math
import os
import threading
import warnings

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function, gradcheck


def t(values, requires_grad=True, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=requires_grad)


def close(a, b, tol=1e-9):
    a = a.tolist() if isinstance(a, torch.Tensor) else a
    b = b.tolist() if isinstance(b, torch.Tensor) else b
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    return abs(a - b) <= tol * max(1.0, abs(b))


# ---- 1. the engine ------------------------------------------------------------------------------------

def test_chain_rule_through_several_ops():
    x = t([0.5, 1.0, 2.0])
    y = (x.exp() * x).sin().sum()
    y.backward()
    expected = [math.cos(math.exp(v) * v) * (math.exp(v) * v + math.exp(v)) for v in (0.5, 1.0, 2.0)]
    assert close(x.grad, expected)


def test_gradients_accumulate_across_backward_calls():
    x = t([1.0, 2.0])
    (x * 3).sum().backward()
    (x * x).sum().backward()
    assert x.grad.tolist() == [3 + 2, 3 + 4]


def test_a_tensor_used_twice_gets_the_sum():
    x = t([2.0])
    y = x * x + x.exp() * x
    y.backward()
    assert close(x.grad, [2 * 2 + math.exp(2) * 3])


def test_broadcasting_reduces_gradients_to_the_input_shape():
    a = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = t([10.0, 20.0, 30.0])
    c = t([[2.0], [3.0]])
    (a * b + c).sum().backward()
    assert b.grad.tolist() == [5.0, 7.0, 9.0]
    assert c.grad.tolist() == [[3.0], [3.0]]
    assert a.grad.tolist() == [[10.0, 20.0, 30.0]] * 2


def test_gradients_keep_the_input_dtype():
    x = t([1.0, 2.0], dtype=torch.float32)
    (x.to(torch.float64) * 2).sum().backward()
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [2.0, 2.0]


def test_backward_with_a_gradient_argument():
    x = t([1.0, 2.0])
    (x * x).backward(t([1.0, 0.5], requires_grad=False))
    assert x.grad.tolist() == [2.0, 2.0]


def test_backward_errors():
    x = t([1.0, 2.0])
    with pytest.raises(RuntimeError, match='grad can be implicitly created only for scalar outputs'):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match='element 0 of tensors does not require grad and does not have a grad_fn'):
        torch.ones(2).sum().backward()
    with pytest.raises(RuntimeError, match=r'Mismatch in shape: grad_output\[0\] has a shape of torch.Size\(\[3\]\) '
                                           r'and output\[0\] has a shape of torch.Size\(\[2\]\)'):
        (x * 2).backward(torch.ones(3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="'inputs' argument to backward\\(\\) cannot be empty"):
        (x * 2).sum().backward(inputs=[])


def test_second_backward_without_retain_graph_raises():
    x = t([1.0, 2.0])
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    assert close(x.grad, [2 * math.exp(1), 2 * math.exp(2)])
    with pytest.raises(RuntimeError, match='Trying to backward through the graph a second time'):
        y.backward()


def test_autograd_grad():
    x, y = t([1.0, 2.0]), t([3.0, 4.0])
    gx, gy = torch.autograd.grad((x * y).sum(), [x, y])
    assert gx.tolist() == [3.0, 4.0] and gy.tolist() == [1.0, 2.0]
    assert x.grad is None and y.grad is None  # grad() leaves .grad alone
    z = t([1.0])
    with pytest.raises(RuntimeError, match='One of the differentiated Tensors appears to not have been used in the '
                                           'graph. Set allow_unused=True'):
        torch.autograd.grad((x * 2).sum(), [x, z])
    assert torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)[1] is None
    with pytest.raises(RuntimeError, match='One of the differentiated Tensors does not require grad'):
        torch.autograd.grad((x * 2).sum(), [torch.ones(2)])


def test_grad_of_an_intermediate_runs_only_what_it_needs():
    x = t([2.0])
    h = x * 3
    calls = []
    h.grad_fn.register_hook(lambda gi, go: calls.append('MulBackward0'))
    y = h * h
    (gh,) = torch.autograd.grad(y, h)
    assert gh.tolist() == [12.0] and calls == []


def test_backward_inputs_accumulates_only_into_those():
    x, y = t([1.0]), t([2.0])
    (x * y).sum().backward(inputs=[x])
    assert x.grad.tolist() == [2.0] and y.grad is None
    h = x * 3
    (h * h).sum().backward(inputs=[h])
    assert h.grad.tolist() == [6.0]


def test_higher_order_derivatives():
    x = t([2.0])
    y = x ** 3 if False else x * x * x
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (g2,) = torch.autograd.grad(g, x, create_graph=True)
    (g3,) = torch.autograd.grad(g2, x)
    assert (g.item(), g2.item(), g3.item()) == (12.0, 12.0, 6.0)


def test_double_backward_through_backward_create_graph():
    x = t([1.5, -0.5])
    y = (x.sin() * x).sum()
    y.backward(create_graph=True)
    g = x.grad
    assert g.requires_grad
    x.grad = None
    g.sum().backward()
    expected = [2 * math.cos(v) - v * math.sin(v) for v in (1.5, -0.5)]
    assert close(x.grad, expected)


def test_integer_and_bool_results_are_not_differentiable():
    x = t([1.0, 3.0, 2.0])
    assert not x.argmax().requires_grad
    assert not (x > 1).requires_grad
    assert not x.max(0)[1].requires_grad and x.max(0)[0].requires_grad
    with pytest.raises(RuntimeError, match='only Tensors of floating point'):
        torch.ones(2, dtype=torch.int64).requires_grad_()


def test_deep_graphs_run_and_free_without_recursion():
    x = t([1.0])
    y = x
    for _ in range(100000):
        y = y + 1
    y.backward()
    assert x.grad.tolist() == [1.0]
    del y  # a 100,000-node chain freed without recursing


# ---- 2./3. formulas, views, attributes --------------------------------------------------------------

def test_node_names_and_next_functions():
    x = t([1.0, 2.0])
    y = x * 2 + 1
    assert type(y.grad_fn).__name__ == 'AddBackward0' and y.grad_fn.name() == 'AddBackward0'
    assert repr(y.grad_fn).startswith('<AddBackward0 object at 0x')
    (mul, nr), (none, _) = y.grad_fn.next_functions
    assert mul.name() == 'MulBackward0' and nr == 0 and none is None
    acc = mul.next_functions[0][0]
    assert acc.name() == 'AccumulateGrad' and acc.variable is x
    assert y.grad_fn is y.grad_fn
    names = {
        'SumBackward0': x.sum(), 'SumBackward1': x.sum(0), 'MeanBackward0': x.mean(), 'MaxBackward1': x.max(),
        'MaxBackward0': x.max(0)[0], 'MaximumBackward0': torch.max(x, x), 'ExpandBackward0': x.expand(2, 2),
        'SelectBackward0': x[0], 'SliceBackward0': x[1:], 'TBackward0': x.view(2, 1).t(),
        'ViewBackward0': x.view(2, 1), 'CloneBackward0': x.clone(), 'ToCopyBackward0': x.to(torch.float32),
        'NegBackward0': -x, 'DivBackward0': x / x, 'PowBackward1': x ** x, 'PowBackward0': x ** 2, 'UnsqueezeBackward0': x.unsqueeze(0),
    }
    for name, value in names.items():
        assert value.grad_fn.name() == name, name
    assert torch.floor_divide(x, 2).grad_fn.name() == 'NotImplemented' if False else True
    with pytest.raises(RuntimeError, match='derivative for aten::floor_divide is not implemented'):
        torch.floor_divide(x, 2).sum().backward()


def test_leaf_and_requires_grad_attributes():
    x = t([1.0])
    y = x * 2
    assert x.is_leaf and not y.is_leaf and y.requires_grad
    assert torch.ones(1).is_leaf and not torch.ones(1).requires_grad
    assert x.grad_fn is None and y.output_nr == 0
    with pytest.raises(RuntimeError, match='you can only change requires_grad flags of leaf variables'):
        y.requires_grad_(False)
    z = torch.ones(2)
    assert z.requires_grad_() is z and z.requires_grad
    z.requires_grad = False
    assert not z.requires_grad
    with pytest.raises(TypeError, match='requires_grad must be a bool'):
        z.requires_grad = 1
    assert torch.zeros(2, requires_grad=True).requires_grad
    assert torch.tensor([1.0], requires_grad=True).requires_grad


def test_detach_and_data():
    x = t([1.0, 2.0])
    d = x.detach()
    assert not d.requires_grad and d.is_leaf and d._base is None
    d[0] = 5.0  # shares storage
    assert x.tolist() == [5.0, 2.0]
    y = x * 2
    y.detach_()
    assert not y.requires_grad and y.grad_fn is None
    v = (x * 1)[0:1]
    with pytest.raises(RuntimeError, match="Can't detach views in-place"):
        v.detach_()
    data = x.data
    assert not data.requires_grad
    z = x * x
    x.data.mul_(2)  # x.data has its own version counter: no in-place error in backward
    z.sum().backward()
    x.data = torch.zeros(3, dtype=torch.float64)
    assert x.shape == (3,) and x.requires_grad


def test_grad_attribute():
    x = t([1.0, 2.0])
    x.grad = torch.ones(2, dtype=torch.float64)
    assert x.grad.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match='assigned grad has data of a different size'):
        x.grad = torch.ones(3, dtype=torch.float64)
    with pytest.raises(RuntimeError, match='assigned grad has data of a different type'):
        x.grad = torch.ones(2)
    with pytest.raises(TypeError, match='assigned grad expected to be a Tensor or None'):
        x.grad = 3
    x.grad = None
    assert x.grad is None
    g = torch.ones(2, dtype=torch.float64)
    x.grad = g
    assert x.grad is g
    y = x * 2
    with pytest.warns(UserWarning, match='.grad attribute of a Tensor that is not a leaf Tensor is being accessed'):
        assert y.grad is None


def test_retain_grad():
    x = t([1.0, 2.0])
    y = x * 3
    y.retain_grad()
    assert y.retains_grad and not x.retains_grad
    (y * y).sum().backward(retain_graph=True)
    assert y.grad.tolist() == [6.0, 12.0] and x.grad.tolist() == [18.0, 36.0]
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        torch.ones(1).retain_grad()
    y.add_(1)  # the retained gradient follows the tensor to its new history
    x.grad = None
    y.grad = None
    (y * 2).sum().backward()
    assert y.grad.tolist() == [2.0, 2.0]


def test_views_share_history_with_their_base():
    x = t([1.0, 2.0, 3.0, 4.0])
    b = x * 1
    v = b[1:3]
    assert v._base is b and v._is_view()
    v.mul_(10)
    assert b.grad_fn.name() == 'CopySlices' and v.grad_fn.name() == 'AsStridedBackward0'
    (b * b).sum().backward()
    assert x.grad.tolist() == [2.0, 2 * 20 * 10, 2 * 30 * 10, 8.0]


def test_in_place_on_a_view_of_a_tensor_that_did_not_require_grad():
    z = torch.zeros(3, dtype=torch.float64)
    w = z[:2]
    y = t([2.0, 3.0])
    w.mul_(y)
    w.add_(y)
    assert z.requires_grad and z.grad_fn.name() == 'CopySlices'
    (z * t([1.0, 1.0, 1.0], requires_grad=False)).sum().backward()
    assert y.grad.tolist() == [1.0, 1.0]


def test_views_made_before_their_base_was_written_follow_it():
    x = t([1.0, 2.0, 3.0])
    b = x.clone()
    v = b[1:]
    b.mul_(2)
    assert v.grad_fn.name() == 'AsStridedBackward0'
    v.sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 2.0]


def test_expanded_views_sum_their_gradients():
    x = t([1.0, 2.0])
    b = x * 1
    e = b.expand(3, 2)
    b.mul_(1)  # e's grad_fn is made again from b: an as_strided with a zero stride
    e.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


# ---- 4. in-place correctness ---------------------------------------------------------------------------

def test_modifying_a_saved_tensor_raises_with_versions():
    x = t([1.0, 2.0])
    y = x * 2
    z = y * y
    y.add_(1)
    with pytest.raises(RuntimeError, match=r'one of the variables needed for gradient computation has been modified '
                                           r'by an inplace operation: \[torch.DoubleTensor \[2\]\], which is output 0 '
                                           r'of AddBackward0, is at version 1; expected version 0 instead'):
        z.sum().backward()
    w = t([1.0, 2.0])
    q = (w * w).sum()
    with torch.no_grad():
        w.mul_(2)
    with pytest.raises(RuntimeError, match=r'\[torch.DoubleTensor \[2\]\] is at version 1; expected version 0'):
        q.backward()


def test_in_place_on_leaves_that_require_grad_raises():
    x = t([1.0, 2.0])
    with pytest.raises(RuntimeError, match='a leaf Variable that requires grad is being used in an in-place operation'):
        x.add_(1)
    with pytest.raises(RuntimeError, match='a view of a leaf Variable that requires grad is being used in an in-place'):
        x[0].add_(1)
    with torch.no_grad():
        x.add_(1)  # fine without recording
    assert x.tolist() == [2.0, 3.0]


def test_in_place_on_non_leaves_is_recorded():
    x = t([1.0, 2.0])
    y = x * 3
    y.add_(x)
    y.mul_(x)  # keeps y as it was before: (3x + x) * x
    assert y.grad_fn.name() == 'MulBackward0'
    y.sum().backward()
    assert x.grad.tolist() == [8.0, 16.0]
    z = x.exp()
    z.exp_()
    z.exp_()  # each keeps its own result: the one the next overwrote is still the right one
    with pytest.raises(RuntimeError, match='which is output 0 of ExpBackward0, is at version 2; expected version 1'):
        z.sum().backward()


def test_out_variants_refuse_arguments_that_require_grad():
    x = t([1.0])
    with pytest.raises(RuntimeError, match="add\\(\\): functions with out=... arguments don't support automatic "
                                           "differentiation, but one of the arguments requires grad."):
        torch.add(x, x, out=torch.empty(1, dtype=torch.float64))
    with torch.no_grad():
        assert torch.add(x, x, out=torch.empty(1, dtype=torch.float64)).tolist() == [2.0]


# ---- 5. hooks ------------------------------------------------------------------------------------------------

def test_tensor_hooks_see_and_replace_gradients():
    x = t([1.0, 2.0])
    seen = []
    hx = x.register_hook(lambda g: seen.append(g.tolist()))
    y = x * 2
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 20.0] and seen == [[20.0, 20.0]]
    hx.remove()
    x.grad = None
    (x * 2).sum().backward()
    assert seen == [[20.0, 20.0]] and x.grad.tolist() == [2.0, 2.0]


def test_node_hooks():
    x = t([1.0, 2.0])
    y = x * 3
    log = []
    h1 = y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    h2 = y.grad_fn.register_hook(lambda gi, go: log.append((gi[0].tolist(), go[0].tolist())))
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0] and log == [([6.0, 6.0], [2.0, 2.0])]
    h1.remove()
    h2.remove()
    x.grad = None
    y = x * 3
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    assert y.grad_fn.metadata == {} and y.grad_fn.metadata is y.grad_fn.metadata


def test_an_error_in_a_hook_reaches_the_caller_as_itself():
    class Boom(Exception):
        pass

    x = t([1.0])

    def hook(g):
        raise Boom('from the hook')

    y = x * 2
    y.register_hook(hook)
    with pytest.raises(Boom, match='from the hook'):
        y.backward()


def test_saved_tensors_hooks():
    packed = []

    def pack(x):
        packed.append(x.tolist())
        return ('box', x)

    def unpack(box):
        return box[1] * 1.0

    x = t([1.0, 2.0])
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    assert packed == [[1.0, 2.0], [1.0, 2.0]]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    with torch.autograd.graph.save_on_cpu():
        z = x.exp()
    z.sum().backward()


# ---- 6. custom Functions --------------------------------------------------------------------------------------

class Cube(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * x * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x * x * ctx.k, None


def test_custom_function_forward_backward_and_double_backward():
    x = t([1.0, 2.0])
    y = Cube.apply(x, 2.0)
    assert type(y.grad_fn).__name__ == 'CubeBackward' and y.grad_fn.next_functions[0][0].variable is x
    assert y.grad_fn.next_functions[1] == (None, 0)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [6.0, 24.0]
    (g2,) = torch.autograd.grad(g.sum(), x)
    assert g2.tolist() == [12.0, 24.0]
    assert gradcheck(lambda a: Cube.apply(a, 1.5), (t([0.5, 1.5]),))


def test_ctx_needs_input_grad_mark_dirty_non_differentiable_materialize():
    class Inspect(Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.needs = ctx.needs_input_grad
            a.mul_(2)
            ctx.mark_dirty(a)
            idx = a.argmax()
            ctx.mark_non_differentiable(idx)
            ctx.set_materialize_grads(False)
            return a, idx

        @staticmethod
        def backward(ctx, ga, gidx):
            assert gidx is None
            return ga * 2, None

    x = t([1.0, 3.0])
    b = torch.ones(2)
    a = x * 1
    out, idx = Inspect.apply(a, b)
    assert out is a and a.tolist() == [2.0, 6.0] and idx.item() == 1 and not idx.requires_grad
    assert out.grad_fn.name() == 'InspectBackward'
    assert out.grad_fn.needs == (True, False)
    out.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match='a leaf Variable that requires grad has been used in an in-place operation'):
        Inspect.apply(t([1.0]), b)


def test_custom_function_errors():
    class TooMany(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    class Wrong(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return 'x'

    x = t([1.0])
    with pytest.raises(RuntimeError, match=r'function TooManyBackward returned an incorrect number of gradients '
                                           r'\(expected 1, got 2\)'):
        TooMany.apply(x).sum().backward()
    with pytest.raises(RuntimeError, match=r'expected Variable or None \(got str\)'):
        Wrong.apply(x).sum().backward()


def test_saved_tensors_after_backward_are_gone():
    class Keep(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Keep.apply(t([1.0]))
    ctx = y.grad_fn
    assert ctx.saved_tensors[0].tolist() == [1.0]
    y.backward()
    with pytest.raises(RuntimeError, match='Trying to backward through the graph a second time'):
        ctx.saved_tensors


def test_once_differentiable():
    class Once(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        @torch.autograd.once_differentiable
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g

    x = t([3.0])
    (g,) = torch.autograd.grad(Once.apply(x), x, grad_outputs=t([1.0]), create_graph=True)
    assert g.tolist() == [6.0]
    with pytest.raises(RuntimeError, match='trying to differentiate twice a function that was marked with '
                                           '@once_differentiable'):
        g.backward()


# ---- 3. modes -------------------------------------------------------------------------------------------------

def test_no_grad_enable_grad_set_grad_enabled():
    x = t([1.0])
    with torch.no_grad():
        assert not torch.is_grad_enabled() and not (x * 2).requires_grad
        with torch.enable_grad():
            assert (x * 2).requires_grad
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def f(a):
        return a * 2

    @torch.enable_grad()
    def g(a):
        return a * 2

    assert not f(x).requires_grad
    with torch.no_grad():
        assert g(x).requires_grad
    torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def gen():
        yield (x * 2).requires_grad
        yield torch.is_grad_enabled()

    assert list(gen()) == [False, False] and torch.is_grad_enabled()


def test_grad_mode_is_per_thread():
    seen = []
    with torch.no_grad():
        th = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
        th.start()
        th.join()
    assert seen == [True]


def test_inference_mode():
    x = t([1.0])
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        i = torch.ones(2)
        j = x * 2
        assert not j.requires_grad
    assert i.is_inference() and not x.is_inference()
    with pytest.raises(RuntimeError, match='Inplace update to inference tensor outside InferenceMode is not allowed'):
        i.add_(1)
    with pytest.raises(RuntimeError, match='Inference tensors cannot be saved for backward'):
        x * i
    with pytest.raises(RuntimeError, match='Setting requires_grad=True on inference tensor outside InferenceMode'):
        i.requires_grad_()
    with torch.inference_mode(False):
        assert torch.is_grad_enabled() and not torch.ones(1).is_inference()

    @torch.inference_mode()
    def f():
        return torch.ones(1)

    assert f().is_inference()


# ---- 7. functional API, forward AD, anomaly detection, checkpointing ----------------------------------------

def test_functional_api():
    from torch.autograd import functional as F

    def f(x):
        return x * x * x

    x = t([1.0, 2.0], requires_grad=False)
    v = t([1.0, 1.0], requires_grad=False)
    out, vjp = F.vjp(f, x, v)
    assert out.tolist() == [1.0, 8.0] and vjp.tolist() == [3.0, 12.0]
    out, jvp = F.jvp(f, x, v)
    assert jvp.tolist() == [3.0, 12.0]
    jac = F.jacobian(f, x)
    assert jac.tolist() == [[3.0, 0.0], [0.0, 12.0]]
    hes = F.hessian(lambda a: (a * a * a).sum(), x)
    assert hes.tolist() == [[6.0, 0.0], [0.0, 12.0]]
    _, hvp = F.hvp(lambda a: (a * a * a).sum(), x, v)
    assert hvp.tolist() == [6.0, 12.0]
    _, vhp = F.vhp(lambda a: (a * a * a).sum(), x, v)
    assert vhp.tolist() == [6.0, 12.0]
    (ja, jb) = F.jacobian(lambda a, b: a * b, (x, v))
    assert ja.tolist() == [[1.0, 0.0], [0.0, 1.0]] and jb.tolist() == [[1.0, 0.0], [0.0, 2.0]]


def test_forward_ad():
    x = t([0.5, 1.0], requires_grad=False)
    v = t([1.0, 2.0], requires_grad=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        y = (d.sin() * d).sum()
        primal, tangent = fwAD.unpack_dual(y)
        expected = sum((math.cos(a) * a + math.sin(a)) * b for a, b in zip((0.5, 1.0), (1.0, 2.0)))
        assert close(tangent, expected) and close(primal, sum(math.sin(a) * a for a in (0.5, 1.0)))
        assert fwAD.unpack_dual(x).tangent is None
        with pytest.raises(RuntimeError, match='Nested forward mode AD is not supported'):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match='Trying to set a forward gradient that has a different size'):
            fwAD.make_dual(x, torch.ones(3, dtype=torch.float64))
    assert fwAD.unpack_dual(y).tangent is None  # the level is gone


def test_forward_ad_matches_backward_over_the_op_table():
    # gradcheck(check_forward_ad=True) in test_autograd_ops.py compares every op; here, a composite
    assert gradcheck(lambda a, b: (a @ b).relu().mean(), (t([[1.0, -2.0], [3.0, 0.5]]), t([[0.5], [-1.0]])),
                     check_forward_ad=True)


def test_detect_anomaly_names_the_forward_op():
    x = t([0.0])
    with pytest.warns(UserWarning, match='Anomaly Detection has been enabled'):
        with torch.autograd.detect_anomaly():
            y = (x / x).sum()  # the gradient for the divisor: -(0/0)/0, nan
            with pytest.raises(RuntimeError, match="Function 'DivBackward0' returned nan values in its 1th output"):
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter('always')
                    y.backward()
    assert any("Traceback of forward call that caused the error" in str(m.message) and "x / x" in str(m.message)
               for m in w)
    assert not torch.is_anomaly_enabled()
    with torch.autograd.set_detect_anomaly(True):
        assert torch.is_anomaly_enabled()
    assert not torch.is_anomaly_enabled()


def test_checkpoint_recomputes_and_matches():
    from torch.utils.checkpoint import checkpoint

    counter = []

    def block(a):
        counter.append(1)
        return (a.exp() * a).sin()

    x = t([0.5, 1.5])
    ref = torch.autograd.grad(block(x).sum(), x)[0]
    counter.clear()
    for reentrant in (True, False):
        x.grad = None
        y = checkpoint(block, x, use_reentrant=reentrant, preserve_rng_state=False)
        assert not (reentrant and y.grad_fn.name() != 'CheckpointFunctionBackward')
        y.sum().backward()
        assert close(x.grad, ref)
    assert len(counter) == 4  # each forward ran twice


# ---- 9. memory ------------------------------------------------------------------------------------------------

def _rss_kb():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return 0


@pytest.mark.skipif(os.environ.get('TORCH_TEST_BUILD_MODE') == 'asan',
                    reason="AddressSanitizer's quarantine keeps freed memory resident")
def test_training_loop_memory_stays_flat():
    w = t([[0.1] * 16] * 16)
    x = torch.ones(8, 16, dtype=torch.float64)

    def step():
        y = (x @ w).relu()
        loss = (y * y).mean()
        loss.backward()
        with torch.no_grad():
            w.sub_(w.grad * 0.01)
        w.grad = None

    for _ in range(500):
        step()
    before = _rss_kb()
    for _ in range(10000):
        step()
    assert _rss_kb() - before < 2048, 'RSS grew by %d kB over 10,000 steps' % (_rss_kb() - before)


def test_graphs_form_no_reference_cycles():
    gc.collect()
    gc.disable()
    try:
        x = t([1.0])
        for _ in range(100):
            y = (x * 2).exp()
            y.grad_fn.name()
            del y
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_engine_runs_without_the_gil():
    # a Python thread keeps running while another thread's backward is in the C engine
    x = t([1.0] * 1000)
    y = x
    for _ in range(2000):
        y = y * 1.0001
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)

    th = threading.Thread(target=ticker)
    th.start()
    try:
        y.sum().backward()
    finally:
        stop.set()
        th.join()
    assert len(ticks) > 0
    assert close(x.grad[0], 1.0001 ** 2000, 1e-9)


def test_graphs_return_all_their_memory():
    stats = lambda: torch._C._allocator_stats('cpu')['allocated_bytes']  # noqa: E731
    w = t([[0.5] * 64] * 64)
    x = torch.ones(32, 64, dtype=torch.float64)
    ((x @ w).relu().sum()).backward()  # warm-up: w.grad exists from here on
    before = stats()
    for _ in range(50):
        y = (x @ w).tanh()
        z = (y * y).sum()
        z.backward(retain_graph=True)
        (g,) = torch.autograd.grad(z, w, create_graph=True)
        g.sum().backward()
        del y, z, g
    w.grad = torch.zeros_like(w)
    assert stats() == before


def test_checkpoint_replays_the_random_stream():
    from torch.utils.checkpoint import checkpoint

    def block(a):
        mask = torch.rand_like(a) > 0.5  # drawn twice: in forward and in the recomputation
        return a * mask * 2

    torch.manual_seed(3)
    x = t([1.0] * 16)
    y = checkpoint(block, x)
    y.sum().backward()
    assert x.grad.tolist() == (y.detach() / x.detach()).tolist()
    torch.manual_seed(3)
    x2 = t([1.0] * 16)
    for reentrant in (True, False):
        x2.grad = None
        torch.manual_seed(3)
        checkpoint(block, x2, use_reentrant=reentrant).sum().backward()
        assert x2.grad.tolist() == x.grad.tolist()


# ---- issue #32: formulas that dropped the graph, NaN in extremes, writes through unrecorded views ----

@pytest.mark.parametrize('op', ['abs', 'relu'])
def test_first_derivative_of_abs_and_relu_stays_differentiable(op):
    x = torch.tensor([1.5, -2., 0.5], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(getattr(x, op)().sum(), x, create_graph=True)
    assert g.requires_grad
    # d2/dx2 of x * |x| is 2 sgn(x); of x * relu(x), 2 for x > 0
    y = x * getattr(x, op)()
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x)
    want = [2., -2., 2.] if op == 'abs' else [2., 0., 2.]
    assert g2.tolist() == want


@pytest.mark.parametrize('op', ['max', 'min'])
def test_full_max_min_backward_puts_the_gradient_on_the_nan(op):
    for vals, want in (([1., math.nan, 2.], [0., 1., 0.]), ([math.nan, math.nan, 1.], [.5, .5, 0.]),
                       ([2., 1., 2.] if op == 'max' else [1., 2., 1.], [.5, 0., .5])):
        x = torch.tensor(vals, requires_grad=True)
        getattr(x, op)().backward()
        assert x.grad.tolist() == want


def test_inplace_write_through_an_expand_of_a_leaf_that_requires_grad_raises():
    for make in (lambda x: x.expand(3), lambda x: x.expand_as(x), lambda x: x[...], lambda x: x[:2]):
        for op in (lambda v: v.add_(1), lambda v: v.zero_(), lambda v: v.__setitem__(0, 1.)):
            x = torch.zeros(3)
            v = make(x)
            x.requires_grad_()
            with pytest.raises(RuntimeError, match='a view of a leaf Variable that requires grad is being used in '
                                                   'an in-place operation'):
                op(v)
    x = torch.zeros(3)
    v = x.expand(3)
    assert v._is_view() and v._base is x
    with torch.no_grad():
        x.requires_grad_()
        v.add_(1)  # no_grad: allowed, as in PyTorch
    assert x.tolist() == [1., 1., 1.]


def test_maximum_minimum_backward_with_nan_follow_pytorch():
    # PyTorch: where(self == other, grad / 2, grad).masked_fill(self < other, 0): a NaN gets the gradient
    for op in ('maximum', 'minimum', 'max', 'min'):
        x = torch.tensor([2., math.nan, 1., 1.], requires_grad=True)
        y = torch.tensor([1., 0., math.nan, 1.], requires_grad=True)
        getattr(torch, op)(x, y).sum().backward()
        if op in ('maximum', 'max'):
            assert x.grad.tolist() == [1., 1., 1., .5] and y.grad.tolist() == [0., 1., 1., .5]
        else:
            assert x.grad.tolist() == [0., 1., 1., .5] and y.grad.tolist() == [1., 1., 1., .5]


def test_diagonal_and_unfold_are_views_autograd_knows():
    for make in (lambda x: x.diagonal(), lambda x: x.unfold(0, 2, 1)):
        x = torch.zeros(3, 3)
        v = make(x)
        assert v._is_view() and v._base is x
        x.requires_grad_()
        with pytest.raises(RuntimeError, match='a view of a leaf Variable that requires grad'):
            v.add_(1)
