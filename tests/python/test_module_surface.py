"""The module surface programs and torchvision import: torch.backends.*, torch.cuda without a device,
torch.version and torch.__version__, the distribution metadata, torch._assert, torch._six,
torch._C._log_api_usage_once, torch.ops.load_library's errors, autocast and GradScaler."""
import importlib.metadata
import os
import subprocess
import sys
import warnings

import pytest

import torch

NO_CUDA = not torch.cuda.is_available()


# ---- torch.backends ----

def test_backend_modules_import_and_answer_for_this_project():
    import torch.backends.cudnn
    import torch.backends.mps
    import torch.backends.mkl
    import torch.backends.mkldnn
    import torch.backends.openmp
    import torch.backends.cuda
    assert torch.backends.cudnn.is_available() is False  # no plugin links cuDNN
    assert torch.backends.cudnn.version() is None
    assert torch.backends.mps.is_available() is False and torch.backends.mps.is_built() is False
    assert torch.backends.mkl.is_available() is False
    assert torch.backends.mkldnn.is_available() is False
    assert torch.backends.openmp.is_available() is False
    built = any(p['name'] == 'cuda' for p in torch.backends.plugins())
    assert torch.backends.cuda.is_built() is built


def test_backend_attribute_access_without_import():
    code = 'import torch; print(torch.backends.cudnn.enabled, torch.backends.cuda.matmul.allow_tf32)'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['True', 'False']


def test_cudnn_flags_defaults_setting_and_type_checks():
    c = torch.backends.cudnn
    assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == (True, False, False, True)
    try:
        c.benchmark = True
        c.deterministic = True
        assert c.benchmark and c.deterministic
        with pytest.raises(RuntimeError, match='expects a bool, but got int'):
            c.benchmark = 1
        with pytest.raises(RuntimeError, match='expects a bool'):
            c.enabled = 'yes'
        assert c.benchmark is True
    finally:
        c.benchmark = False
        c.deterministic = False


def test_cudnn_flags_context_manager_restores():
    c = torch.backends.cudnn
    with c.flags(enabled=False, benchmark=True):
        assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == (False, True, False, True)
    assert (c.enabled, c.benchmark) == (True, False)
    with pytest.raises(ValueError):
        with c.flags(deterministic=True):
            assert c.deterministic
            raise ValueError
    assert c.deterministic is False
    assert len(c.set_flags()) == 5  # enabled, benchmark, benchmark_limit, deterministic, allow_tf32
    assert c.is_acceptable(torch.ones(2)) is False


def test_cuda_matmul_flags():
    m = torch.backends.cuda.matmul
    assert m.allow_tf32 is False and m.allow_fp16_reduced_precision_reduction is True
    m.allow_tf32 = True
    try:
        assert torch.backends.cuda.matmul.allow_tf32 is True
        with pytest.raises(RuntimeError, match='expects a bool'):
            m.allow_tf32 = 1
    finally:
        m.allow_tf32 = False
    with pytest.raises(AssertionError, match='Unknown attribute foo'):
        m.foo
    with pytest.raises(AssertionError, match='Unknown attribute foo'):
        m.foo = True


def test_mkldnn_flags():
    m = torch.backends.mkldnn
    assert m.enabled is True
    with m.flags(enabled=False):
        assert m.enabled is False
    assert m.enabled is True
    with pytest.raises(RuntimeError, match='set_enabled_mkldnn expects a bool'):
        m.enabled = 0


# ---- torch.cuda without a usable device ----

@pytest.mark.skipif(not NO_CUDA, reason='a GPU is present')
def test_cuda_seeding_is_lazy_without_cuda():
    for f in (lambda: torch.cuda.manual_seed(1), lambda: torch.cuda.manual_seed_all(1), torch.cuda.seed,
              torch.cuda.seed_all, lambda: torch.cuda.set_rng_state(torch.ByteTensor(16)),
              lambda: torch.cuda.set_rng_state_all([])):
        assert f() is None
    assert torch.cuda.get_rng_state_all() == []
    expected = AssertionError if torch.backends.cuda.is_built() is False else RuntimeError
    for f in (torch.cuda.initial_seed, torch.cuda.get_rng_state, torch.cuda.current_device,
              torch.cuda.get_device_name, torch.cuda.synchronize, lambda: torch.cuda.set_device(0),
              lambda: torch.cuda.Stream(), lambda: torch.cuda.Event()):
        with pytest.raises(expected):
            f()


@pytest.mark.skipif(not NO_CUDA, reason='a GPU is present')
def test_cuda_queries_without_cuda():
    assert torch.cuda.is_available() is False and torch.cuda.device_count() == 0
    assert torch.cuda.memory_allocated() == 0 and torch.cuda.max_memory_allocated() == 0
    assert torch.cuda.empty_cache() is None
    assert torch.cuda.is_initialized() is False
    torch.cuda.set_device(-1)  # a negative index is a no-op, as in PyTorch
    with torch.cuda.device(None):
        pass
    with torch.cuda.stream(None):
        pass
    with pytest.raises((AssertionError, RuntimeError)):
        with torch.cuda.device(0):
            pass


def test_cuda_without_plugin_raises_assertion_error(tmp_path):
    # PyTorch's CPU-only build raises AssertionError('Torch not compiled with CUDA enabled'); here that is
    # a package without the cuda plugin
    code = ('import torch\ntry:\n    torch.cuda.current_device()\nexcept AssertionError as e:\n    print(e)\n'
            'print(torch.cuda.manual_seed(3), torch.backends.cuda.is_built())')
    env = dict(os.environ, TORCH_PLUGIN_PATH='')
    env.pop('TORCH_PLUGIN_PATH')
    pkg = os.path.dirname(torch.__file__)
    import shutil
    shutil.copytree(pkg, tmp_path / 'torch', symlinks=True, ignore=shutil.ignore_patterns('libtorch_cuda.so'))
    env['PYTHONPATH'] = str(tmp_path)
    out = subprocess.run([sys.executable, '-c', code], cwd='/', env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ['Torch not compiled with CUDA enabled', 'None False']


# ---- autocast and GradScaler ----

@pytest.mark.skipif(not NO_CUDA, reason='a GPU is present')
def test_cuda_autocast_warns_and_disables_without_cuda():
    with pytest.warns(UserWarning, match="device_type of 'cuda', but CUDA is not available. Disabling"):
        ac = torch.cuda.amp.autocast()
    with ac:
        assert torch.is_autocast_enabled() is False
        assert (torch.ones(2, 2) @ torch.ones(2, 2)).dtype == torch.float32
    assert ac.fast_dtype == torch.float16


def test_autocast_arguments_as_pytorch():
    with pytest.raises(RuntimeError, match="must be 'cuda' or 'cpu'"):
        torch.autocast('xla')
    with pytest.warns(UserWarning, match='CPU Autocast only supports dtype of torch.bfloat16'):
        torch.autocast('cpu', dtype=torch.float16)
    assert torch.cpu.amp.autocast(enabled=False).fast_dtype == torch.bfloat16
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with torch.autocast('cpu', enabled=False):  # a disabled region says nothing
            pass
    # an enabled CPU region would need mixed-precision dispatch, which this build lacks: it says so
    with pytest.warns(UserWarning, match='no mixed-precision dispatch'):
        region = torch.autocast('cpu')
    assert torch.get_autocast_cpu_dtype() == torch.bfloat16 and torch.get_autocast_gpu_dtype() == torch.float16

    @region
    def f(x):
        return x * 2
    assert f(torch.ones(2)).dtype == torch.float32 and torch.is_autocast_cpu_enabled() is False


@pytest.mark.skipif(not NO_CUDA, reason='a GPU is present')
def test_grad_scaler_disables_itself_without_cuda():
    with pytest.warns(UserWarning, match='GradScaler is enabled, but CUDA is not available.  Disabling.'):
        s = torch.cuda.amp.GradScaler()
    assert not s.is_enabled() and s.get_scale() == 1.0 and s.state_dict() == {}
    x = torch.ones(2)
    assert s.scale(x) is x
    p = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([p], lr=1.0)
    p.grad = torch.ones(2)
    s.step(opt)
    s.update()
    assert p.tolist() == [0.0, 0.0]


def test_grad_scaler_algorithm(monkeypatch):
    # the enabled scaler's arithmetic is device-independent: run it on the CPU by claiming CUDA
    monkeypatch.setattr(torch.cuda, 'is_available', lambda: True)
    s = torch.cuda.amp.GradScaler(init_scale=8.0, growth_interval=2)
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.SGD([p], lr=0.5)
    loss = s.scale((p * p).sum())
    assert loss.item() == 40.0
    loss.backward()
    s.step(opt)  # unscales: grad 2p
    assert p.grad.tolist() == [2.0, 4.0] and p.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match='step\\(\\) has already been called'):
        s.step(opt)
    s.update()
    assert s.get_scale() == 8.0
    p.grad = torch.tensor([float('inf'), 1.0])
    s.scale(torch.ones(1))
    s.step(opt)  # skipped
    assert p.tolist() == [0.0, 0.0]
    s.update()
    assert s.get_scale() == 4.0
    for _ in range(2):
        p.grad = torch.ones(2)
        s.step(opt)
        s.update()
    assert s.get_scale() == 8.0
    sd = s.state_dict()
    assert sd == {'scale': 8.0, 'growth_factor': 2.0, 'backoff_factor': 0.5, 'growth_interval': 2,
                  '_growth_tracker': 0}
    with pytest.raises(RuntimeError, match='source state dict is empty'):
        s.load_state_dict({})
    with pytest.raises(RuntimeError, match='Closure use is not currently supported'):
        s.step(opt, closure=lambda: 0)


def test_custom_fwd_bwd_outside_autocast():
    @torch.cuda.amp.custom_fwd(cast_inputs=torch.float16)
    def fwd(x):
        return x * 2

    @torch.cuda.amp.custom_bwd
    def bwd(x):
        return x + 1
    assert fwd(torch.ones(2)).dtype == torch.float32 and bwd(1) == 2


# ---- version and metadata ----

def test_version_module():
    import torch.version
    assert torch.version.__version__ == torch.__version__ == '1.13.1+tc.0.3.0'
    assert torch.version.hip is None and torch.version.debug in (True, False)
    assert isinstance(torch.version.git_version, str)
    assert torch.version.cuda is None or isinstance(torch.version.cuda, str)
    if not torch.backends.cuda.is_built():
        assert torch.version.cuda is None


def test_torch_version_compares_as_a_version():
    from torch.torch_version import TorchVersion
    v = torch.__version__
    assert isinstance(v, str) and isinstance(v, TorchVersion)
    assert v >= '1.10' and v >= (1, 12) and v < (1, 14) and v > '1.13.1' and v < '1.13.2' and v >= [1, 13]
    assert not v >= '2.0' and v != '1.13.1' and not v == '1.13.1' and v == '1.13.1+tc.0.3.0'
    assert not v == (1, 13, 1) and not v == 1
    assert v >= '1.10.0a0' and hash(v) == hash('1.13.1+tc.0.3.0')
    assert v.split('+')[0] == '1.13.1'
    assert not v >= 'abc'  # not a version: compared as a str
    with pytest.raises(TypeError):
        v >= 1.10
    assert TorchVersion('1.13.0a0') < '1.13' and TorchVersion('1.0.dev0') < '1.0a0'
    assert TorchVersion('1.0.post1') > '1.0' and TorchVersion('1.0') == (1, 0, 0)
    assert TorchVersion('1.0+abc') < '1.0+5'


def test_distribution_metadata_in_the_build_folder():
    assert importlib.metadata.version('torch') == torch.__version__
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        import pkg_resources
    assert pkg_resources.get_distribution('torch').version == torch.__version__
    files = importlib.metadata.distribution('torch').read_text('top_level.txt')
    assert files.split() == ['torch']


@pytest.mark.skipif(os.environ.get('TORCH_TEST_BUILD_MODE') is not None,
                    reason='run by `scons test`: the outer scons saves its signatures only when it exits, so an '
                           'inner `scons install` would rebuild the whole tree under the running tests (run this '
                           'file with pytest directly to check scons install)')
def test_distribution_metadata_after_scons_install(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.path.dirname(os.path.dirname(torch.__file__))
    mode = os.path.basename(build)
    out = subprocess.run(['scons', '-Q', 'install', 'PREFIX=%s' % tmp_path, 'MODE=%s' % mode], cwd=root,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert sorted(os.listdir(tmp_path)) == ['torch', 'torch-%s.dist-info' % torch.__version__]
    code = ('import importlib.metadata, warnings, torch; warnings.simplefilter("ignore"); import pkg_resources; '
            'print(torch.__file__); print(importlib.metadata.version("torch")); '
            'print(pkg_resources.get_distribution("torch").version)')
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    out = subprocess.run([sys.executable, '-c', code], cwd='/', env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    path, v1, v2 = out.stdout.split()
    assert path.startswith(str(tmp_path)) and v1 == v2 == torch.__version__


# ---- small names ----

def test_assert():
    torch._assert(True, 'fine')
    torch._assert(torch.tensor(True), 'fine')
    with pytest.raises(AssertionError, match='^the message$'):
        torch._assert(False, 'the message')
    with pytest.raises(AssertionError, match='m'):
        torch._assert(torch.tensor(False), 'm')
    with pytest.raises(RuntimeError, match='ambiguous'):
        torch._assert(torch.tensor([1, 1]), 'm')


def test_six():
    import torch._six
    assert torch._six.string_classes == (str, bytes)
    assert torch._six.inf == float('inf') and torch._six.nan != torch._six.nan

    class Meta(type):
        pass

    class A(torch._six.with_metaclass(Meta, object)):
        pass
    assert type(A) is Meta and A.__mro__ == (A, object)


def test_log_api_usage_once():
    assert torch._C._log_api_usage_once('python.my_event') is None
    with pytest.raises(TypeError):
        torch._C._log_api_usage_once(1)


def test_load_library_raises_oserror(tmp_path):
    with pytest.raises(OSError, match='no such file'):
        torch.ops.load_library(str(tmp_path / 'missing.so'))
    text = tmp_path / 'not_elf.so'
    text.write_text('hello')
    with pytest.raises(OSError, match='ELF'):
        torch.ops.load_library(str(text))
    assert str(text) not in torch.ops.loaded_libraries
