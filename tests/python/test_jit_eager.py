"""torch.jit's eager-mode surface: the decorators and annotations models (and torchvision) carry."""
import typing

import pytest

import torch
import torch.jit
from torch.jit.annotations import BroadcastingList1, BroadcastingList2, BroadcastingList3


def f(x):
    return x + 1


def test_queries_answer_false_and_annotate_returns_the_value():
    assert torch.jit.is_scripting() is False and torch.jit.is_tracing() is False
    v = [1, 2]
    assert torch.jit.annotate(typing.List[int], v) is v


def test_decorators_return_what_they_decorate():
    for deco in (torch.jit.unused, torch.jit.ignore, torch.jit.export, torch.jit._overload,
                 torch.jit._overload_method):
        assert deco(f) is f and f(1) == 2
    assert torch.jit.ignore(drop=False)(f) is f
    with pytest.warns(FutureWarning, match='ignore\\(True\\) has been deprecated'):
        assert torch.jit.ignore(True)(f) is f
    with pytest.raises(RuntimeError, match='must be a bool or a function but got 1'):
        torch.jit.ignore(1)


def test_unused_on_a_property_and_in_a_module():
    class M(torch.nn.Module):
        @property
        @torch.jit.unused
        def size(self):
            return 3

        @torch.jit.unused
        def helper(self, x):
            return x * 2

        def forward(self, x):
            if torch.jit.is_scripting():
                return x
            return self.helper(x) + self.size

    assert M()(torch.ones(2)).tolist() == [5.0, 5.0]
    p = torch.jit.unused(property(lambda self: 1))
    assert isinstance(p, property)


def test_script_if_tracing_calls_through():
    g = torch.jit._script_if_tracing(f)
    assert g(1) == 2 and g.__name__ == 'f' and torch.jit.script_if_tracing(f)(2) == 3


def test_interface_final_attribute():
    @torch.jit.interface
    class I(torch.nn.Module):
        def forward(self, x):
            pass
    assert issubclass(I, torch.nn.Module)
    with pytest.raises(RuntimeError, match='interface must be applied to a class'):
        torch.jit.interface(f)
    assert torch.jit.Final is typing.Final and torch.jit.Final[int] == typing.Final[int]
    a = torch.jit.Attribute(1, int)
    assert a.value == 1 and a.type is int and a == (1, int)


def test_broadcasting_lists():
    assert BroadcastingList2[int] is None and BroadcastingList1[float] is None and BroadcastingList3[int] is None

    def pool(x, kernel_size: BroadcastingList2[int]):
        return kernel_size
    assert pool(None, 3) == 3


def test_compilation_is_not_pretended():
    with pytest.raises(NotImplementedError, match='TorchScript compilation is not implemented'):
        torch.jit.script(torch.nn.Linear(2, 2))
    with pytest.raises(NotImplementedError):
        torch.jit.trace(f, (torch.ones(1),))
    assert not isinstance(torch.nn.Linear(1, 1), torch.jit.ScriptModule)
    with pytest.raises(NotImplementedError):
        torch.jit.ScriptModule()


def test_torch_jit_is_an_attribute_of_torch():
    import subprocess
    import sys
    code = 'import torch; print(torch.jit.is_scripting(), torch.testing.assert_close is not None)'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['False', 'True']
