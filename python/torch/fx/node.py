"""torch.fx.node: a Node is one operation of a Graph (placeholder, get_attr, call_function, call_method,
call_module or output) with its arguments. Nodes form a doubly linked list owned by their graph, and each
node knows its users (the nodes whose arguments name it), which args/kwargs assignment keeps current."""
import builtins
import operator

import torch
from torch.fx.immutable_collections import immutable_dict, immutable_list

__all__ = ['Node', 'map_arg', 'map_aggregate', 'Target', 'Argument']

Target = object    # a callable, or the str of a method, module path or attribute path
Argument = object  # a Node, a primitive, or a tuple/list/dict/slice of Arguments

# Calls with side effects: dead-code elimination keeps them although nothing uses their value.
_side_effectful_functions = {torch._assert}


def map_aggregate(a, fn):
    """Applies fn to every leaf of a nested tuple/list/dict/slice structure, keeping the structure (lists
    and dicts come back immutable, as Node arguments are)."""
    if isinstance(a, tuple):
        mapped = tuple(map_aggregate(x, fn) for x in a)
        return type(a)(*mapped) if hasattr(a, '_fields') else mapped
    if isinstance(a, list):
        return immutable_list(map_aggregate(x, fn) for x in a)
    if isinstance(a, dict):
        return immutable_dict((k, map_aggregate(v, fn)) for k, v in a.items())
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a, fn):
    """Applies fn to every Node inside an argument structure; other leaves are kept."""
    if not callable(fn):
        raise AssertionError('torch.fx.map_arg(a, fn): fn must be a callable')
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def _qualified_name(fn):
    """'operator.add', 'torch.relu', 'torch.nn.functional.relu', 'builtins.getattr': how graphs print and
    generated code names a function target."""
    name = fn.__name__
    if getattr(builtins, name, None) is fn:
        return 'builtins.' + name
    if getattr(operator, name, None) is fn:
        return 'operator.' + name
    if getattr(torch, name, None) is fn:
        return 'torch.' + name
    if getattr(torch.nn.functional, name, None) is fn:
        return 'torch.nn.functional.' + name
    module = getattr(fn, '__module__', None) or 'torch'
    if module == 'torch._C':
        module = 'torch'
    return '%s.%s' % (module, getattr(fn, '__qualname__', name))


def _format_arg(a, max_list_len=float('inf')):
    if isinstance(a, Node):
        return '%' + a.name
    if isinstance(a, (tuple, list)):
        items = ', '.join(_format_arg(x) for x in a[:int(min(len(a), max_list_len))])
        more = '' if len(a) <= max_list_len else ', ...[total_len=%d]' % len(a)
        body = items + more
        return '(%s,)' % body if isinstance(a, tuple) and len(a) == 1 else \
            ('(%s)' % body if isinstance(a, tuple) else '[%s]' % body)
    if isinstance(a, dict):
        return '{%s}' % ', '.join('%s: %s' % (k, _format_arg(v)) for k, v in a.items())
    return str(a)


class Node:
    """One operation of a Graph. `op` says which kind; `target` is what it calls or names; `args` and
    `kwargs` hold its inputs (other Nodes among them); `users` maps each node reading this one to None;
    `meta` is free for passes (ShapeProp stores 'tensor_meta' there)."""

    def __init__(self, graph, name, op, target, args, kwargs, return_type=None):
        if op not in ('placeholder', 'call_method', 'call_module', 'call_function', 'get_attr', 'output', 'root'):
            raise AssertionError('unknown Node op %r' % op)
        if op == 'call_function' and not callable(target):
            raise ValueError("Node [graph = %s, name = '%s'] target %s has type %s but a Callable is expected"
                             % (graph, name, target, type(target)))
        if op in ('placeholder', 'call_method', 'call_module', 'get_attr') and not isinstance(target, str):
            raise ValueError("Node [graph = %s, name = '%s'] target %s has type %s but a str is expected"
                             % (graph, name, target, type(target)))
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes = {}
        self._args = ()
        self._kwargs = {}
        self.__update_args_kwargs(map_arg(args, lambda x: x), map_arg(kwargs, lambda x: x))
        self.users = {}
        self.type = return_type
        self._prev = self
        self._next = self
        self._erased = False
        self.meta = {}

    # ---- position in the graph's list ----

    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    def prepend(self, x):
        """Moves node x (of the same graph) to just before this one."""
        if self.graph is not x.graph:
            raise AssertionError('Attempting to move a Node into a different Graph')
        if self is x:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        """Moves node x (of the same graph) to just after this one."""
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    # ---- arguments and users ----

    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, a):
        self.__update_args_kwargs(map_arg(a, lambda x: x), self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k):
        self.__update_args_kwargs(self._args, map_arg(k, lambda x: x))

    @property
    def all_input_nodes(self):
        """The distinct Nodes this one reads, in first-use order."""
        return list(self._input_nodes.keys())

    def update_arg(self, idx, arg):
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key, arg):
        kwargs = dict(self.kwargs)
        kwargs[key] = arg
        self.kwargs = kwargs

    def __update_args_kwargs(self, new_args, new_kwargs):
        self._args = new_args
        self._kwargs = new_kwargs
        for old_use in self._input_nodes.keys():
            old_use.users.pop(self)
        self._input_nodes = {}
        map_arg(self._args, lambda n: self._input_nodes.setdefault(n))
        map_arg(self._kwargs, lambda n: self._input_nodes.setdefault(n))
        for new_use in self._input_nodes.keys():
            new_use.users.setdefault(self)

    def replace_all_uses_with(self, replace_with, delete_user_cb=lambda user: True):
        """Makes every user (for which delete_user_cb answers True) read replace_with instead of this node;
        returns the users changed."""
        to_process = [u for u in self.users if delete_user_cb(u)]
        for user in to_process:
            user.replace_input_with(self, replace_with)
        return to_process

    def replace_input_with(self, old_input, new_input):
        swap = lambda n: new_input if n is old_input else n  # noqa: E731
        self.__update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def is_impure(self):
        """True for nodes that dead-code elimination must keep: inputs, output, side-effectful calls."""
        if self.op in ('placeholder', 'output'):
            return True
        if self.op == 'call_function':
            return self.target in _side_effectful_functions
        if self.op == 'call_module' and self.graph.owning_module is not None:
            return getattr(self.graph.owning_module.get_submodule(self.target), '_is_impure', False)
        return False

    @property
    def stack_trace(self):
        return self.meta.get('stack_trace')

    @stack_trace.setter
    def stack_trace(self, trace):
        self.meta['stack_trace'] = trace

    # ---- printing ----

    def _pretty_target(self):
        if self.op in ('call_function',):
            return _qualified_name(self.target) if hasattr(self.target, '__name__') else str(self.target)
        return self.target

    def format_node(self, placeholder_names=None, maybe_return_typename=None):
        """The node's line in str(graph), e.g. `%add : [#users=1] = call_function[target=operator.add](...)`."""
        if self.op == 'placeholder':
            if placeholder_names is not None:
                placeholder_names.append(self.target)
            default = '(default=%s)' % (self.args[0],) if self.args else ''
            typ = '[#users=%d]' % len(self.users)
            return '%%%s : %s = placeholder[target=%s]%s' % (self.name, typ, self.target, default)
        if self.op == 'get_attr':
            return '%%%s : [#users=%d] = get_attr[target=%s]' % (self.name, len(self.users), self.target)
        if self.op == 'output':
            if self.type and maybe_return_typename is not None:
                maybe_return_typename[0] = ' -> ' + getattr(self.type, '__name__', str(self.type))
            return 'return %s' % (self.args[0],)
        return '%%%s : [#users=%d] = %s[target=%s](args = %s, kwargs = %s)' % (
            self.name, len(self.users), self.op, self._pretty_target(), _format_arg(self.args, 10),
            _format_arg(self.kwargs, 10))

    def __repr__(self):
        return self.name


