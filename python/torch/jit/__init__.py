"""torch.jit in eager mode: the decorators and annotations that models carry for TorchScript, with
PyTorch's behaviour outside scripting (they return what they decorate; is_scripting() and is_tracing()
answer False; annotate returns its value). Compiling (script, trace) is not implemented: those names
raise NotImplementedError, and ScriptModule/ScriptFunction exist for isinstance checks only."""
import functools
import inspect
import typing
import warnings

from torch.jit import annotations  # noqa: F401

Final = typing.Final

__all__ = ['Attribute', 'Final', 'ScriptFunction', 'ScriptModule', 'annotate', 'export', 'ignore', 'interface',
           'is_scripting', 'is_tracing', 'script', 'script_if_tracing', 'trace', 'unused']


class Attribute(typing.NamedTuple):
    """Declares a module attribute's type for TorchScript; in eager mode the pair itself."""
    value: typing.Any
    type: typing.Any


def annotate(the_type, the_value):
    """Gives TorchScript the type of the_value; returns the_value."""
    return the_value


def is_scripting():
    """True inside a TorchScript-compiled function: never, as nothing is compiled here."""
    return False


def is_tracing():
    """True while torch.jit.trace records a function: never, as trace is not implemented here."""
    return False


def _mark(fn, modifier):
    fn._torchscript_modifier = modifier
    return fn


def export(fn):
    """Marks a method to be compiled although forward does not call it."""
    return _mark(fn, 'export')


def unused(fn):
    """Marks a function or property that compilation replaces by a raise; eager calls run it."""
    if isinstance(fn, property):
        _mark(fn.fget, 'unused')
        if fn.fset:
            _mark(fn.fset, 'unused')
        return fn
    return _mark(fn, 'unused')


def ignore(drop=False, **kwargs):
    """`@ignore` or `@ignore(drop=...)`: compilation leaves the function a Python call."""
    if callable(drop):
        return _mark(drop, 'ignore')
    if not isinstance(drop, bool):
        raise RuntimeError('Argument to @torch.jit.ignore must be a bool or a function but got %s' % drop)
    drop = kwargs.pop('drop_on_export', drop)
    if drop:
        warnings.warn('ignore(True) has been deprecated. TorchScript will now drop the function call on '
                      'compilation. Use torch.jit.unused now. %s' % kwargs, category=FutureWarning)
    return lambda fn: _mark(fn, 'unused' if drop else 'ignore')


def _overload(fn):
    """Declares one signature of an overloaded function; the undecorated definition is what runs."""
    return fn


def _overload_method(fn):
    return fn


def interface(obj):
    """Declares a class as a TorchScript interface type; in eager mode the class itself."""
    if not inspect.isclass(obj):
        raise RuntimeError('interface must be applied to a class')
    obj.__torch_script_interface__ = True
    return obj


def script_if_tracing(fn):
    """Compiles fn when called during tracing; eager calls (all calls here) run it as it is."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    wrapper.__original_fn = fn
    wrapper.__script_if_tracing_wrapper = True
    return wrapper


_script_if_tracing = script_if_tracing


def _not_implemented(what):
    raise NotImplementedError('torch.jit.%s: TorchScript compilation is not implemented in this build; '
                              'run the module or function eagerly instead' % what)


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    _not_implemented('script')


def trace(func, example_inputs=None, *args, **kwargs):
    _not_implemented('trace')


class ScriptModule:
    """The type of compiled modules, for isinstance checks: no instance can exist here."""

    def __init__(self, *args, **kwargs):
        _not_implemented('ScriptModule')


class ScriptFunction:
    """The type of compiled functions, for isinstance checks: no instance can exist here."""

    def __init__(self, *args, **kwargs):
        _not_implemented('ScriptFunction')
