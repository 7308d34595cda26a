"""Grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode (context managers and
decorators). The mode is the core's, per thread: with grad mode off no op records."""
import functools
import inspect

from torch import _C


class _DecoratorContextManager:
    """A context manager that also decorates functions (and generators: the mode holds while the
    generator runs, not while its consumer does)."""

    def __call__(self, func):
        if inspect.isclass(func):
            raise RuntimeError('Cannot decorate classes; it is ambiguous')
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return decorated

    def _wrap_generator(self, func):
        @functools.wraps(func)
        def generator(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException:
                        with self.clone():
                            response = gen.throw(*__import__('sys').exc_info())
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as e:
                return e.value
        return generator

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    """Disables gradient recording: results of ops inside do not require grad."""

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)


class enable_grad(_DecoratorContextManager):
    """Enables gradient recording (inside no_grad, say)."""

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(True)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Sets grad mode to `mode` now (as a function) or for a block (as a context manager)."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError('set_grad_enabled(): argument \'mode\' must be bool, not %s' % type(mode).__name__)
        self.prev = _C.is_grad_enabled()
        self.mode = mode
        _C._set_grad_enabled(mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Grad mode off, and tensors made inside are inference tensors (cheaper: autograd refuses to
    save them, and they may not be written in place outside inference mode)."""

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self.prev = (_C.is_grad_enabled(), _C.is_inference_mode_enabled())
        if self.mode:
            _C._set_grad_enabled(False)
            _C._set_inference_mode(True)
        else:
            _C._set_inference_mode(False)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev[0])
        _C._set_inference_mode(self.prev[1])

    def clone(self):
        return self.__class__(self.mode)
