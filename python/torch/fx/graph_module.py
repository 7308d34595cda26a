"""torch.fx.graph_module: GraphModule is an nn.Module whose forward is Python source generated from a
Graph. It holds the submodules, parameters and buffers the graph's nodes name (copied by reference
from the traced root), so its state_dict keys are the root's. Each instance gets its own class, named
after the traced module, because forward is assigned on the class."""
import copy
import itertools
import linecache

import torch
from torch.fx.graph import Graph

__all__ = ['GraphModule']

_source_counter = itertools.count()


def _exec_source(src, globals_):
    """Runs generated source under a unique pseudo-filename that linecache knows, so tracebacks and
    inspect.getsource show the generated lines."""
    key = '<eval_with_key>.%d' % next(_source_counter)
    linecache.cache[key] = (len(src), None, src.splitlines(True), key)
    exec(compile(src, key, 'exec'), globals_)
    return key


def _copy_attr(from_module, to_module, target):
    """Makes to_module.<target> the same object as from_module.<target>, creating plain nn.Module
    containers for missing intermediate atoms; a tensor that is not a Parameter is registered as a buffer."""
    *prefix, field = target.split('.')
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return  # an ancestor is already installed whole
        if t is None:
            t = torch.nn.Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, torch.Tensor) and not isinstance(orig, torch.nn.Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj, to_module, target):
    """Like _copy_attr, for a value given directly (GraphModule built from a dict)."""
    *prefix, field = target.split('.')
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = torch.nn.Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, torch.Tensor) and not isinstance(from_obj, torch.nn.Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


class GraphModule(torch.nn.Module):
    """GraphModule(root, graph, class_name='GraphModule'): root is the module the graph was traced from
    (its attributes named by get_attr/call_module nodes are copied in) or a dict from those names to
    values. Editing `graph` and calling recompile() regenerates forward; `code` is its source."""

    def __new__(cls, *args, **kwargs):
        # one class per instance, so that assigning forward does not touch other GraphModules
        for t in cls.__mro__:
            c = t.__qualname__.split('.')[-1]
            if c != 'GraphModuleImpl':
                cls = t
                break

        class GraphModuleImpl(cls):
            pass
        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name='GraphModule'):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, torch.nn.Module):
            if hasattr(root, 'training'):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ('get_attr', 'call_module'):
                    if not isinstance(node.target, str):
                        raise AssertionError('node.target should be a str')
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ('get_attr', 'call_module'):
                    if node.target not in root:
                        raise RuntimeError("Node " + str(node) + " referenced target " + node.target +
                                           " but that target was not provided in ``root``!")
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError('Unsupported type ' + str(root) + ' passed for root!')
        self.graph = graph
        self._tracer_cls = None
        if graph._tracer_cls and '<locals>' not in graph._tracer_cls.__qualname__:
            self._tracer_cls = graph._tracer_cls

    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, g):
        if not isinstance(g, Graph):
            raise AssertionError('Expected a Graph, got %s' % type(g))
        self._graph = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self):
        """The Python source of the generated forward."""
        if not hasattr(self, '_code'):
            raise RuntimeError('Code has not been generated! Please report a bug to PyTorch')
        return self._code

    def recompile(self):
        """Regenerates forward from self.graph (call after editing the graph)."""
        python_code = self._graph.python_code(root_module='self')
        self._code = python_code.src
        globals_ = dict(python_code.globals)
        key = _exec_source(self._code, globals_)
        cls = type(self)
        cls.forward = globals_['forward']
        cls._source_key = key
        return python_code

    def print_readable(self, print_output=True):
        """The module as a class definition around its generated forward; printed unless told not to."""
        body = '\n'.join('    ' + line if line.strip() else line for line in self._code.strip('\n').splitlines())
        text = 'class %s(torch.nn.Module):\n%s\n' % (type(self).__name__, body)
        if print_output:
            print(text)
        return text

    def __str__(self):
        return super().__str__() + '\n\n\n' + self._code

    def _get_name(self):
        return type(self).__name__

    # ---- submodule editing ----

    def add_submodule(self, target, m):
        """Installs m at dotted path target, creating empty containers on the way; False if an atom on the
        path is not a Module."""
        *prefix, field = target.split('.')
        mod = self
        for item in prefix:
            submod = getattr(mod, item, None)
            if submod is None:
                submod = torch.nn.Module()
                setattr(mod, item, submod)
            if not isinstance(submod, torch.nn.Module):
                return False
            mod = submod
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target):
        """Removes the submodule at dotted path target; False if there is none."""
        atoms = target.split('.')
        path, target_submod = atoms[:-1], atoms[-1]
        mod = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, torch.nn.Module):
                return False
        if not hasattr(mod, target_submod) or not isinstance(getattr(mod, target_submod), torch.nn.Module):
            return False
        delattr(mod, target_submod)
        return True

    def delete_all_unused_submodules(self):
        """Removes every submodule that no call_module/get_attr node (or an ancestor of one) uses."""
        used = set()
        for node in self.graph.nodes:
            if node.op in ('call_module', 'get_attr'):
                atoms = node.target.split('.')
                for i in range(1, len(atoms) + 1):
                    used.add('.'.join(atoms[:i]))
                if node.op == 'call_module':
                    for name, _ in self.get_submodule(node.target).named_modules():
                        if name:
                            used.add(node.target + '.' + name)
        for name, _ in list(self.named_modules()):
            if name and name not in used:
                self.delete_submodule(name)

    # ---- copying and pickling ----

    def __deepcopy__(self, memo):
        fake_mod = torch.nn.Module()
        fake_mod.__dict__ = copy.deepcopy(self.__dict__, memo)
        return GraphModule(fake_mod, fake_mod.__dict__['_graph'])

    def __copy__(self):
        return GraphModule(self, self.graph)

    def __reduce__(self):
        state = dict(self.__dict__)
        state.pop('_graph', None)
        code = self._graph.python_code(root_module='self')
        extra = {k: v for k, v in code.globals.items() if k not in _DEFAULT_GLOBALS}
        return (_rebuild_graph_module, (state, code.src, type(self).__name__, extra))


_DEFAULT_GLOBALS = ('torch', 'inf', 'nan', 'device', 'NoneType')


def _rebuild_graph_module(state, code, class_name, extra_globals=None):
    """Unpickles a GraphModule: its generated forward is re-traced over the restored attributes."""
    from torch.fx._symbolic_trace import Tracer

    class CodeOnlyModule(torch.nn.Module):
        def __init__(self, body):
            super().__init__()
            self.__dict__ = body

    body = dict(state)
    globals_ = {'torch': torch, 'inf': float('inf'), 'nan': float('nan'), 'device': torch.device,
                'NoneType': type(None)}
    globals_.update(extra_globals or {})
    _exec_source(code, globals_)
    CodeOnlyModule.forward = globals_['forward']
    com = CodeOnlyModule(body)

    class KeepModules(Tracer):
        def is_leaf_module(self, m, qualname):
            return True

    graph = KeepModules().trace(com)
    gm = GraphModule(com, graph, class_name=class_name)
    for k, v in body.items():
        if k not in gm.__dict__:
            setattr(gm, k, v)
    return gm
