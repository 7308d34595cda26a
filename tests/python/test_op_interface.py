"""The op interface from Python: schemas (the generator's checks and the run-time parser), the one
binding for every op, out= and in-place variants, the meta device, ops added at run time (from
Python and from plugins), a plugin built against ABI 1.0 running in today's core, kernel slots that
are never silently replaced, and storages that free through the allocator that made them."""
import json
import os
import subprocess
import sys
import textwrap

import pytest
import torch

from conftest import TEST_PLUGIN_DIR

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, 'tools', 'gen_ops.py')


def case_dir(name):
    path = os.path.join(TEST_PLUGIN_DIR, name)
    if not os.path.isdir(path):
        pytest.fail('test plugin %s was not built (run scons test)' % path)
    return path


def run_python(code, plugin_path=None):
    """Runs code in a fresh interpreter (plugins load once per process); returns its last JSON line."""
    env = dict(os.environ)
    if plugin_path is not None:
        env['TORCH_PLUGIN_PATH'] = plugin_path
    out = subprocess.run([sys.executable, '-c', textwrap.dedent(code)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---- schemas -------------------------------------------------------------------------------------

def generate(tmp_path, table):
    path = tmp_path / 'ops.table'
    path.write_text(table)
    return subprocess.run([sys.executable, GEN, str(path), str(tmp_path / 'out')], capture_output=True, text=True)


@pytest.mark.parametrize('line, message', [
    ('f(Dimname d) -> Tensor | impl', 'unsupported type'),
    ('f(Tensor x, int y=None) -> Tensor | impl', 'default None for a non-optional'),
    ('f(Tensor x) -> Tensor(a) | impl', 'names no argument'),
    ('f(Tensor x, Tensor x) -> Tensor | impl', 'appears twice'),
    ('f(Tensor x) -> Tensor | structured', 'needs meta='),
    ('f(Tensor x) -> (Tensor a, Tensor b, Tensor c, Tensor d, Tensor e, Tensor f, Tensor g, Tensor h, Tensor i) | impl',
     'more than 8 returns'),
    ('f(Tensor x) -> Tensor | impl bogus', 'unknown attribute bogus'),
    ('f(int[2] x=[1, y]) -> Tensor | impl', 'bad list default'),
    ('f(Tensor x) -> Tensor', 'expected "schema | attributes"'),
    ('f(Tensor self) -> Tensor | impl composite variants=out inplace=Scalar', 'names a variant the op does not declare'),
    ('f(Tensor self) -> Tensor | impl composite variants=out out=a.b', 'bad overload name'),
])
def test_generator_rejects_what_it_cannot_represent(tmp_path, line, message):
    out = generate(tmp_path, '# a comment\n\n' + line + '\n')
    assert out.returncode != 0
    assert 'ops.table:3:' in out.stderr and message in out.stderr, out.stderr


def test_generator_takes_the_whole_schema_language(tmp_path):
    table = (
        'every(Tensor t, Tensor? ot, Tensor[] tl, Tensor?[] otl, Scalar s, Scalar? os, int i, int? oi, int[] il, '
        'int[2] i2=1, int[]? oil, float f, float? of, float[]? ofl, bool b, bool[3] b3=[True, False, True], str st, '
        'str? ost=None, ScalarType? dt, Layout? lay, Device? dev, Generator? gen, MemoryFormat? mf, *, '
        'int k=-1, str reduce="mean", int reduction=Mean, ScalarType dtl=long) -> (Tensor values, Tensor indices)'
        ' | impl composite\n'
        'write_(Tensor(a!) self) -> Tensor(a!) | impl\n'
        'twice(Tensor self) -> Tensor | impl composite variants=inplace,out\n')
    out = generate(tmp_path, table)
    assert out.returncode == 0, out.stderr
    header = (tmp_path / 'out' / 'torch_core' / 'tc_ops.h').read_text()
    for entry in ('tc_every(', 'tc_write_(', 'tc_twice(', 'tc_twice_(', 'tc_twice_out('):
        assert entry in header


def test_run_time_parser_reads_every_builtin_schema_as_the_generator():
    for op in range(torch._C._op_count()):
        info = torch._C._schema_info(op)
        text = torch._C._op_schema(op)
        parsed = torch._C._schema_info(text)
        del info['flags'], parsed['flags']  # where Python exposes an op is the table's, not the schema's
        assert parsed == info, text


def test_run_time_parser_errors_are_value_errors():
    with pytest.raises(ValueError, match='unsupported type'):
        torch._C._schema_info('f(Dimname d) -> Tensor')
    with pytest.raises(ValueError, match='expected name'):
        torch._C._schema_info('not a schema')


# ---- one binding for every op ----------------------------------------------------------------------

def test_functions_methods_operators_and_torch_ops_agree():
    a, b = torch.tensor([1., 2.]), torch.tensor([10., 20.])
    expect = [21., 42.]
    assert torch.add(a, b, alpha=2).tolist() == expect
    assert a.add(b, alpha=2).tolist() == expect
    assert torch.ops.aten.add(a, b, alpha=2).tolist() == expect
    assert torch.ops.aten.add.Tensor(a, b, alpha=2).tolist() == expect
    assert (a + 2 * b).tolist() == expect


def test_out_variants():
    a = torch.tensor([1., 2.])
    out = torch.empty(2)
    assert torch.add(a, a, out=out) is out and out.tolist() == [2., 4.]
    with pytest.warns(UserWarning, match='was resized since it had shape \\[3\\]'):
        torch.mul(a, a, out=torch.empty(3))
    grown = torch.empty(0)
    torch.matmul(torch.ones(2, 3), torch.ones(3, 4), out=grown)  # resized from 1 to 2 dims
    assert grown.shape == (2, 4) and grown.sum().item() == 24
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.add(a, a, out=torch.empty(2, dtype=torch.int64))
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.int64)
    r = torch.max(torch.tensor([[1., 5.], [7., 2.]]), 1, out=(values, indices))
    assert r.values is values and r.indices is indices and values.tolist() == [5., 7.]
    with pytest.raises(TypeError, match="add\\(\\) got an unexpected keyword argument 'out'"):
        a.add(a, out=out)  # methods have no out=, as in PyTorch
    mean_out = torch.empty(())
    assert torch.mean(torch.ones(2, 2), 0, out=mean_out) is mean_out  # composite ops have out= too


def test_inplace_returns_the_same_object():
    x = torch.ones(3)
    assert x.add_(1) is x and x.mul_(x) is x and x.zero_() is x and x.fill_(2) is x
    assert x.to(torch.float32) is x and x.contiguous() is x
    assert torch.relu_(x) is x


def test_named_results():
    r = torch.ones(2, 3).max(1)
    assert type(r).__name__ == 'max' and r._fields if hasattr(r, '_fields') else True
    assert r.values.tolist() == [1., 1.] and r.indices.tolist() == [0, 0]
    assert repr(r).startswith('torch.return_types.max(\nvalues=')


def test_arguments_are_never_silently_ignored():
    with pytest.raises(RuntimeError, match='Pinned memory requires CUDA'):
        torch.zeros(2, pin_memory=True)
    with pytest.raises(RuntimeError, match='Pinned memory requires CUDA'):
        torch.tensor([1.], pin_memory=True)
    with pytest.raises(NotImplementedError, match='layout torch.sparse_coo'):
        torch.empty(2, layout=torch.sparse_coo)
    with pytest.raises(TypeError, match="argument 'layout' must be torch.layout, not int"):
        torch.empty(2, layout=1)
    with pytest.raises(TypeError, match='copy_\\(\\) received an invalid combination'):
        torch.ones(2).copy_(torch.ones(2), True, 5)
    with pytest.raises(TypeError, match='takes no keyword arguments'):
        torch.Size([1, 2], foo=3)
    assert torch.zeros(2, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match='only Tensors of floating point'):
        torch.zeros(2, dtype=torch.int64, requires_grad=True)
    assert torch.empty(2, layout=torch.strided, device='cpu', pin_memory=False).shape == (2,)


def test_python_scalar_types_as_dtypes():
    assert torch.ones(2).to(float).dtype == torch.float64
    assert torch.zeros(2, dtype=int).dtype == torch.int64
    assert torch.zeros(2, dtype=bool).dtype == torch.bool


# ---- the meta device ----------------------------------------------------------------------------------

def test_meta_device_runs_every_op_with_a_meta_function():
    a, b = torch.empty(2, 3, device='meta'), torch.empty(3, 4, device='meta')
    assert (a @ b).shape == (2, 4) and (a @ b).device.type == 'meta'
    assert (a + 1).shape == (2, 3) and (a * a).dtype == torch.float32
    assert a.sum().shape == () and a.sum(1, keepdim=True).shape == (2, 1) and a.mean(0).shape == (3,)
    values, indices = a.max(1)
    assert values.shape == (2,) and indices.dtype == torch.int64
    assert a.argmax().shape == () and torch.arange(10, device='meta').shape == (10,)
    assert torch.zeros(2, 2, device='meta').t().shape == (2, 2)
    assert torch.ones(2, 3).to('meta').device == torch.device('meta')
    assert torch.empty(2, 3, 4, device='meta').bmm(torch.empty(2, 4, 5, device='meta')).shape == (2, 3, 5)
    assert (a < 2).dtype == torch.bool and a.to(torch.float16).dtype == torch.float16
    assert str(a.device) == 'meta'


def test_meta_device_refuses_what_needs_data():
    a = torch.empty(2, device='meta')
    with pytest.raises(NotImplementedError, match='Cannot copy out of meta tensor; no data!'):
        a.to('cpu')
    with pytest.raises(NotImplementedError, match='item\\(\\) cannot be called on meta tensors'):
        torch.empty((), device='meta').item()
    with pytest.raises(RuntimeError, match='Expected all tensors to be on the same device'):
        a + torch.ones(2)
    assert (a + torch.tensor(1.)).device.type == 'meta'  # a CPU 0-dim tensor may sit beside it


# ---- ops added at run time ------------------------------------------------------------------------------

def test_torch_library_define_and_impl():
    lib = torch.library.Library('pytest_ns', 'DEF')
    lib.define('scaled(Tensor x, float factor=2.0, *, bool negate=False) -> Tensor')
    lib.impl('scaled', lambda x, factor, negate: x * (-factor if negate else factor), 'CPU')
    x = torch.tensor([1., 2.])
    assert torch.ops.pytest_ns.scaled(x).tolist() == [2., 4.]
    assert torch.ops.pytest_ns.scaled(x, 3, negate=True).tolist() == [-3., -6.]
    assert torch.ops.pytest_ns.scaled.default(x, factor=0.5).tolist() == [0.5, 1.]
    with pytest.raises(RuntimeError, match='already defined'):
        lib.define('scaled(Tensor x) -> Tensor')
    with pytest.raises(TypeError, match=r"argument 'factor' \(position 2\) must be float, not str"):
        torch.ops.pytest_ns.scaled(x, 'a')
    with pytest.raises(RuntimeError, match='already has an implementation for cpu'):
        lib.impl('scaled', lambda x, factor, negate: x, 'CPU')
    with pytest.raises(AttributeError, match='No such operator pytest_ns::missing'):
        torch.ops.pytest_ns.missing


def test_torch_library_multiple_results_errors_and_meta():
    lib = torch.library.Library('pytest_ns2', 'DEF')
    lib.define('split2(Tensor x) -> (Tensor first, Tensor second)')
    lib.impl('split2', lambda x: (x[:1], x[1:]), 'CPU')
    first, second = torch.ops.pytest_ns2.split2(torch.tensor([1., 2., 3.]))
    assert first.tolist() == [1.] and second.tolist() == [2., 3.]
    lib.define('fails(Tensor x) -> Tensor')
    lib.impl('fails', lambda x: (_ for _ in ()).throw(ValueError('bad value from Python')), 'CPU')
    with pytest.raises(ValueError, match='bad value from Python'):
        torch.ops.pytest_ns2.fails(torch.ones(1))
    lib.define('wrong(Tensor x) -> Tensor')
    lib.impl('wrong', lambda x: 3, 'CPU')
    with pytest.raises(TypeError, match='returned int where the schema promises'):
        torch.ops.pytest_ns2.wrong(torch.ones(1))
    lib.define('on_meta(Tensor x) -> Tensor')
    lib.impl('on_meta', lambda x: torch.empty(2 * x.shape[0], device='meta'), 'Meta')
    assert torch.ops.pytest_ns2.on_meta(torch.empty(3, device='meta')).shape == (6,)


def test_ops_from_a_plugin_with_kernels_on_two_devices():
    report = run_python('''
        import json, torch
        x = torch.tensor([1., 2., 3.])
        cpu = torch.ops.tdev_ext.scale(x, 2.5)
        t = x.to('tdev')
        on_tdev = torch.ops.tdev_ext.scale(t, 2.0)
        added = torch.add(t, t, alpha=3)
        print(json.dumps({"cpu": cpu.tolist(), "tdev": on_tdev.to('cpu').tolist(), "device": str(on_tdev.device),
                          "added": added.cpu().tolist(), "layout": torch._C._layout_names()}))
    ''', case_dir('test_device'))
    assert report['cpu'] == [2.5, 5.0, 7.5]
    assert report['tdev'] == [2.0, 4.0, 6.0] and report['device'] == 'tdev:0'
    assert report['added'] == [4.0, 8.0, 12.0]  # alpha read from the op's arguments by the kernel
    assert 'tdev_blocked' in report['layout']


def test_plugin_built_against_abi_1_0_runs_in_this_core():
    report = run_python('''
        import json, torch
        a = torch.tensor([1., 2., 3.]).to('v1dev')
        b = torch.tensor([10., 20., 30.]).to('v1dev')
        c = torch.add(a, b, alpha=2)
        d = (a + b)[1:]
        state = [p for p in torch.backends.plugins() if p['name'] == 'test-abi-v1-0'][0]['state']
        print(json.dumps({"c": c.to('cpu').tolist(), "d": d.cpu().tolist(), "state": state}))
    ''', case_dir('abi_v1_0'))
    assert report == {'c': [21.0, 42.0, 63.0], 'd': [22.0, 33.0], 'state': 'loaded'}


def test_second_kernel_for_a_slot_is_refused_naming_both_plugins():
    report = run_python('''
        import json, torch
        p = [p for p in torch.backends.plugins() if p['name'] == 'test-duplicate-kernel'][0]
        print(json.dumps({"state": p['state'], "reason": p['reason'], "sum": (torch.ones(2) + 1).tolist()}))
    ''', case_dir('duplicate_kernel'))
    assert report['state'] == 'failed'
    assert "kernel 'add' for cpu/float32 is already registered by plugin 'cpu'" in report['reason']
    assert "plugin 'test-duplicate-kernel' cannot register it again" in report['reason']
    assert report['sum'] == [2.0, 2.0]


def test_storages_free_through_the_allocator_that_made_them():
    late = os.path.join(case_dir('late_allocator'), 'libtest_late_allocator.so')
    report = run_python('''
        import json, sys, torch
        stats = lambda: torch._C._allocator_stats('tdev')
        before = torch.ones(1000).to('tdev')              # from test_device's allocator
        live_first = stats()['allocated_bytes']
        torch.ops.load_library(%r)                        # replaces tdev's allocator
        after = torch.ones(1000).to('tdev')
        live_second = stats()['allocated_bytes']          # the new allocator's own count
        del before                                        # must go back to the first allocator
        live_after_del = stats()['allocated_bytes']
        del after
        print(json.dumps({"first": live_first, "second": live_second, "after_del": live_after_del,
                          "end": stats()['allocated_bytes'], "loaded": %r in torch.ops.loaded_libraries}))
    ''' % (late, late), case_dir('test_device'))
    assert report['first'] == 4000 and report['second'] == 4000
    assert report['after_del'] == 4000  # freeing `before` did not touch the new allocator's count
    assert report['end'] == 0 and report['loaded']


def test_load_library_errors():
    with pytest.raises(OSError, match='could not load library'):  # PyTorch's ctypes.CDLL raises OSError
        torch.ops.load_library('/nonexistent/libnothing.so')
    bad = os.path.join(case_dir('bad_abi'), 'libtest_bad_abi.so')
    with pytest.raises(OSError, match='built for plugin ABI 99'):
        torch.ops.load_library(bad)


def test_a_plugin_op_with_a_registered_backward():
    report = run_python('''
        import json, torch
        from torch.autograd import gradcheck, gradgradcheck
        x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
        y = torch.ops.tdev_ext.scale(x, 2.5)
        y.sum().backward()
        ok = gradcheck(lambda t: torch.ops.tdev_ext.scale(t, 1.5), (x,))
        ok2 = gradgradcheck(lambda t: torch.ops.tdev_ext.scale(t, 1.5) * t, (x,))
        print(json.dumps({"grad": x.grad.tolist(), "name": y.grad_fn.name(), "ok": [ok, ok2]}))
    ''', case_dir('test_device'))
    assert report == {'grad': [2.5, 2.5], 'name': 'ScaleBackward0', 'ok': [True, True]}


def test_a_runtime_op_without_backward_raises_when_differentiated():
    lib = torch.library.Library('pytest_nograd', 'DEF')
    lib.define('twice(Tensor x) -> Tensor')
    lib.impl('twice', lambda x: x * 2, 'CPU')
    x = torch.ones(2, requires_grad=True)
    y = torch.ops.pytest_nograd.twice(x)
    assert y.requires_grad and y.grad_fn.name() == 'NotImplemented'
    with pytest.raises(RuntimeError, match='derivative for pytest_nograd::twice is not implemented'):
        y.sum().backward()
