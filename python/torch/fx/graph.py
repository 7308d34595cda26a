"""torch.fx.graph: a Graph is the ordered list of Nodes of one traced function, with the methods that
build and edit it, and the code generator that turns it back into Python source (GraphModule runs that
source as its forward)."""
import builtins
import inspect
import keyword
import math
import operator
import re

import torch
from torch.fx.node import Node, map_arg, _qualified_name

__all__ = ['Graph', 'PythonCode']

_MAGIC_BINARY = {'add': '{} + {}', 'sub': '{} - {}', 'mul': '{} * {}', 'floordiv': '{} // {}',
                 'truediv': '{} / {}', 'div': '{} / {}', 'mod': '{} % {}', 'pow': '{} ** {}',
                 'lshift': '{} << {}', 'rshift': '{} >> {}', 'and_': '{} & {}', 'or_': '{} | {}',
                 'xor': '{} ^ {}', 'getitem': '{}[{}]', 'matmul': '{} @ {}', 'eq': '{} == {}', 'ne': '{} != {}',
                 'lt': '{} < {}', 'gt': '{} > {}', 'le': '{} <= {}', 'ge': '{} >= {}'}
_MAGIC_UNARY = {'neg': '-{}', 'pos': '+{}', 'invert': '~{}'}


def _snake_case(s):
    """'AdaptiveAvgPool2d' -> 'adaptive_avg_pool2d', 'getattr' -> 'getattr'."""
    out = []
    for i, c in enumerate(s):
        if c.isupper() and i > 0 and s[i - 1].islower():
            out.append('_')
        out.append(c.lower())
    return ''.join(out)


class _Namespace:
    """Hands out unique Python identifiers: 'add', 'add_1', 'add_2'..., never a keyword or a builtin's
    name (so `getattr` nodes become `getattr_1`)."""
    _illegal_char = re.compile('[^0-9a-zA-Z_]+')
    _suffix = re.compile(r'(.*)_(\d+)$')

    def __init__(self):
        self._used = set()
        self._next_suffix = {}
        self._obj_to_name = {}

    def create_name(self, candidate, obj):
        if obj is not None and id(obj) in self._obj_to_name:
            return self._obj_to_name[id(obj)][0]
        candidate = self._illegal_char.sub('_', candidate) or '_'
        if candidate[0].isdigit():
            candidate = '_' + candidate
        match = self._suffix.match(candidate)
        base, num = (candidate, None) if match is None else (match.group(1), int(match.group(2)))
        name = candidate
        if num is None:
            num = self._next_suffix.get(base, 0)
            if num:
                name = '%s_%d' % (base, num)
        while name in self._used or self._illegal(name, obj):
            num += 1
            name = '%s_%d' % (base, num)
        self._used.add(name)
        if match is None:
            self._next_suffix[base] = num
        if obj is not None:
            self._obj_to_name[id(obj)] = (name, obj)
        return name

    def associate_name_with_obj(self, name, obj):
        self._obj_to_name[id(obj)] = (name, obj)

    @staticmethod
    def _illegal(name, obj):
        if keyword.iskeyword(name):
            return True
        if name in builtins.__dict__:
            return obj is not builtins.__dict__[name]
        return name in ('inf', 'nan', 'NoneType', 'torch', 'device')


class PythonCode:
    """Source of a generated forward (`src`) and the globals it runs with (`globals`)."""

    def __init__(self, src, globals):
        self.src = src
        self.globals = globals


class _NodeList:
    """A live view of a graph's nodes in order (reversed with reversed())."""

    def __init__(self, graph, direction='_next'):
        self._graph = graph
        self._direction = direction

    def __len__(self):
        return self._graph._len

    def __iter__(self):
        root = self._graph._root
        cur = getattr(root, self._direction)
        while cur is not root:
            nxt = getattr(cur, self._direction)
            if not cur._erased:
                yield cur
            cur = nxt

    def __reversed__(self):
        return _NodeList(self._graph, '_prev' if self._direction == '_next' else '_next')


class _InsertPoint:
    def __init__(self, graph, new_insert):
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self):
        pass

    def __exit__(self, *args):
        self.graph._insert = self.orig_insert


class Graph:
    """The nodes of one function, in execution order. Build one with placeholder(), get_attr(),
    call_module(), call_function(), call_method() and output(), or with torch.fx.symbolic_trace."""

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, '', 'root', '', (), {})
        self._used_names = {}
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = _Namespace()
        self._owners = 0
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras

    @property
    def owning_module(self):
        return self._owning_module

    @owning_module.setter
    def owning_module(self, mod):
        self._owning_module = mod

    @property
    def nodes(self):
        return _NodeList(self)

    # ---- building ----

    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        """Inserts a new Node at the insertion point (the end, unless inserting_before/after says otherwise)
        and returns it; its name is `name` or one derived from target, made unique."""
        if op not in ('call_function', 'call_method', 'get_attr', 'call_module', 'placeholder', 'output'):
            raise AssertionError('unknown op %r' % (op,))
        args = () if args is None else args
        kwargs = {} if kwargs is None else kwargs
        if not isinstance(args, tuple):
            raise AssertionError('args must be a tuple')
        if not isinstance(kwargs, dict):
            raise AssertionError('kwargs must be a dict')
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace.associate_name_with_obj(name, n)
        self._insert(n)
        self._len += 1
        return n

    @staticmethod
    def _target_to_str(target):
        if callable(target):
            op = target.__name__
        else:
            op = target
            if op.startswith('__') and op.endswith('__'):
                op = op[2:-2]
        return _snake_case(op)

    def placeholder(self, name, type_expr=None, default_value=inspect.Signature.empty):
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node('placeholder', name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node('get_attr', qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        return self.create_node('call_module', module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node('call_method', method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None):
        return self.create_node('call_function', the_function, args, kwargs, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node('output', 'output', (result,), type_expr=type_expr)

    def node_copy(self, node, arg_transform=lambda x: x):
        """Adds a copy of node (from any graph) here, its Node arguments mapped through arg_transform."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = dict(node.meta)
        return result

    def graph_copy(self, g, val_map, return_output_node=False):
        """Copies every node of g except its output into this graph; val_map maps g's nodes to the copies
        (seed it to substitute inputs). Returns the value g outputs, mapped."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == 'output':
                rv = map_arg(node.args[0], lambda n: val_map[n])
                return (rv, node) if return_output_node else rv
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None):
        memo = {} if memo is None else memo
        g = Graph(tracer_cls=self._tracer_cls)
        output_vals = g.graph_copy(self, val_map=memo, return_output_node=True)
        if output_vals is not None:
            rv, old_out = output_vals
            g.output(rv, type_expr=old_out.type)
        return g

    def inserting_before(self, n=None):
        """Context manager: nodes created inside go just before n (before everything when n is None)."""
        if n is None:
            return self.inserting_after(self._root)
        if n.graph is not self:
            raise AssertionError('Node to insert before is not in graph.')
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n=None):
        """Context manager: nodes created inside go just after n (at the start when n is None)."""
        if n is None:
            return self.inserting_before(self._root)
        if n.graph is not self:
            raise AssertionError('Node to insert after is not in graph.')
        return _InsertPoint(self, n.append)

    # ---- editing ----

    def erase_node(self, to_erase):
        """Removes a node that nothing uses any more (RuntimeError otherwise)."""
        if len(to_erase.users) > 0:
            raise RuntimeError('Tried to erase Node %s but it still had %d users in the graph: %s!'
                               % (to_erase, len(to_erase.users), to_erase.users))
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase.args = ()
        to_erase.kwargs = {}

    def eliminate_dead_code(self):
        """Erases every pure node whose value nothing uses; returns whether the graph changed."""
        self.lint()
        changed = False
        for node in reversed(self.nodes):
            if not node.is_impure() and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    def lint(self):
        """Checks the graph's invariants: nodes belong to it, arguments are defined before use, targets of
        get_attr/call_module exist on the owning module."""
        seen = set()
        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError('Node %s does not belong to this Graph!' % node)
            for arg in node._input_nodes:
                if arg.graph is not self:
                    raise RuntimeError("Argument '%s' of Node '%s' does not belong to this Graph, but was used as "
                                       "an argument! If you are copying nodes from another graph, make sure to use "
                                       "``arg_transform`` on node_copy() to remap values" % (arg, node))
                if arg not in seen:
                    raise RuntimeError("Argument '%s' of Node '%s' was used before it has been defined! Please "
                                       "check that Nodes in the graph are topologically ordered" % (arg, node))
            seen.add(node)
        if self.owning_module is not None:
            for node in self.nodes:
                if node.op in ('get_attr', 'call_module'):
                    obj = self.owning_module
                    for i, atom in enumerate(node.target.split('.')):
                        if not hasattr(obj, atom):
                            raise RuntimeError("Node %s target %s references nonexistent attribute %s of %s"
                                               % (node, node.target, atom, '.'.join(node.target.split('.')[:i]) or
                                                  'root'))
                        obj = getattr(obj, atom)

    # ---- printing and code generation ----

    def __str__(self):
        return_type = ['']
        lines = [n.format_node(None, return_type) for n in self.nodes]
        return 'graph()%s:\n%s' % (return_type[0], '\n'.join('    ' + line for line in lines))

    def print_tabular(self):
        """Prints the nodes as a table (needs the `tabulate` package, as PyTorch's does)."""
        try:
            from tabulate import tabulate
        except ImportError:
            print('`print_tabular` relies on the library `tabulate`, which could not be found on this machine. '
                  'Run `pip install tabulate` to install the library.')
            return
        rows = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(tabulate(rows, headers=['opcode', 'name', 'target', 'args', 'kwargs']))

    def python_code(self, root_module):
        """The source of a `def forward(<root_module>, ...)` that runs this graph, and its globals."""
        return _CodeGen(self, root_module).generate()


class _CodeGen:
    """Writes one line per node; a value no later node reads is released (`x = None`) right after its
    last use, as PyTorch's generated code does, so activations can be freed early."""

    def __init__(self, graph, root_module):
        self.graph = graph
        self.root = root_module
        self.globals = {'torch': torch, 'inf': math.inf, 'nan': math.nan, 'NoneType': type(None),
                        'device': torch.device}
        self.namespace = _Namespace()
        for name in self.globals:
            self.namespace._used.add(name)

    def add_global(self, obj, hint):
        for name, value in self.globals.items():
            if value is obj:
                return name
        if hint in builtins.__dict__ and builtins.__dict__[hint] is obj:
            return hint
        name = self.namespace.create_name(hint, obj)
        self.globals[name] = obj
        return name

    def fmt(self, a):
        if isinstance(a, Node):
            return a.name
        if isinstance(a, tuple):
            if hasattr(a, '_fields'):
                return '%s(%s)' % (self.add_global(type(a), type(a).__name__), ', '.join(self.fmt(x) for x in a))
            inner = ', '.join(self.fmt(x) for x in a)
            return '(%s,)' % inner if len(a) == 1 else '(%s)' % inner
        if isinstance(a, list):
            return '[%s]' % ', '.join(self.fmt(x) for x in a)
        if isinstance(a, dict):
            return '{%s}' % ', '.join('%r: %s' % (k, self.fmt(v)) for k, v in a.items())
        if isinstance(a, slice):
            return 'slice(%s, %s, %s)' % (self.fmt(a.start), self.fmt(a.stop), self.fmt(a.step))
        if isinstance(a, float) and (math.isinf(a) or math.isnan(a)):
            return repr(a) if math.isnan(a) else ('inf' if a > 0 else '-inf')
        if a is None or isinstance(a, (bool, int, float, complex, str, bytes)) or a is Ellipsis:
            return repr(a)
        if isinstance(a, (torch.dtype, torch.memory_format, torch.layout)):
            return repr(a)
        if isinstance(a, torch.device):
            return "device(%r)" % str(a)
        hint = getattr(a, '__name__', None) or _snake_case(type(a).__name__)
        return self.add_global(a, hint)

    def call_args(self, args, kwargs):
        parts = [self.fmt(a) for a in args] + ['%s = %s' % (k, self.fmt(v)) for k, v in kwargs.items()]
        return ', '.join(parts)

    def function_name(self, fn):
        qualified = _qualified_name(fn)
        if qualified.startswith('builtins.'):
            return self.add_global(fn, fn.__name__)
        if qualified.startswith('torch.') and _resolve(qualified) is fn:
            return qualified
        return self.add_global(fn, qualified.replace('.', '_'))

    def line(self, node):
        op, target, args, kwargs = node.op, node.target, node.args, node.kwargs
        if op == 'get_attr':
            return '%s = %s' % (node.name, _attr_path(self.root, target))
        if op == 'call_module':
            return '%s = %s(%s)' % (node.name, _attr_path(self.root, target), self.call_args(args, kwargs))
        if op == 'call_method':
            return '%s = %s.%s(%s)' % (node.name, self.fmt(args[0]), target, self.call_args(args[1:], kwargs))
        if op == 'call_function':
            name = getattr(target, '__name__', None)
            if getattr(operator, name or '', None) is target and not kwargs:
                if name in _MAGIC_BINARY and len(args) == 2:
                    return '%s = %s' % (node.name, _MAGIC_BINARY[name].format(self.fmt(args[0]), self.fmt(args[1])))
                if name in _MAGIC_UNARY and len(args) == 1:
                    return '%s = %s' % (node.name, _MAGIC_UNARY[name].format(self.fmt(args[0])))
            if target is getattr and len(args) == 2 and not kwargs and isinstance(args[1], str) \
                    and args[1].isidentifier():
                return '%s = %s.%s' % (node.name, self.fmt(args[0]), args[1])
            return '%s = %s(%s)' % (node.name, self.function_name(target), self.call_args(args, kwargs))
        if op == 'output':
            return 'return %s' % self.fmt(args[0])
        raise NotImplementedError('node %s: unknown op %s' % (node, op))

    def generate(self):
        nodes = list(self.graph.nodes)
        last_use = {}
        for node in reversed(nodes):
            for used in node._input_nodes:
                if used not in last_use:
                    last_use[used] = node
        free_after = {}
        for used, user in last_use.items():
            free_after.setdefault(user, []).append(used)
        params, body = [self.root], []
        for node in nodes:
            if node.op == 'placeholder':
                name = node.target
                if name.startswith('*'):
                    params.append(name)
                else:
                    params.append(name if not node.args else '%s = %s' % (name, self.fmt(node.args[0])))
                if name.lstrip('*') != node.name:
                    body.append('%s = %s' % (node.name, name.lstrip('*')))
                continue
            text = self.line(node)
            freed = [n.name for n in free_after.get(node, []) if node.op != 'output']
            if node.op != 'output' and not node.users:
                freed.append(node.name)
            if freed:
                text += ';  %s = None' % ' = '.join(freed)
            body.append(text)
        if not any(n.op == 'output' for n in nodes):
            body.append('pass')
        src = '\n\n\ndef forward(%s):\n%s\n    ' % (', '.join(params), '\n'.join('    ' + b for b in body))
        return PythonCode(src, self.globals)


def _resolve(qualified):
    obj = torch
    for atom in qualified.split('.')[1:]:
        obj = getattr(obj, atom, None)
        if obj is None:
            return None
    return obj


def _attr_path(root, target):
    """`self.layer1.conv1` access for a dotted target; atoms that are not identifiers (Sequential's '0')
    go through getattr: `getattr(self.layer1, "0").conv1`."""
    out = root
    for atom in target.split('.'):
        out = '%s.%s' % (out, atom) if atom.isidentifier() and not keyword.iskeyword(atom) \
            else 'getattr(%s, %r)' % (out, atom)
    return out
