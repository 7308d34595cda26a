"""torch.fx.interpreter: Interpreter runs a GraphModule node by node (one method per op kind, for
subclasses to override); Transformer is an Interpreter that records a new graph instead of computing."""
import inspect

import torch
from torch.fx.graph import Graph
from torch.fx.graph_module import GraphModule
from torch.fx.node import map_aggregate, map_arg
from torch.fx.proxy import Proxy, TracerBase

__all__ = ['Interpreter', 'Transformer']


class Interpreter:
    """Interpreter(module, garbage_collect_values=True).run(*args) evaluates module.graph with real values.
    Each node goes through run_node, which calls placeholder/get_attr/call_function/call_method/
    call_module/output(target, args, kwargs); values are dropped after their last use unless
    garbage_collect_values is False."""

    def __init__(self, module, garbage_collect_values=True):
        if not isinstance(module, GraphModule):
            raise AssertionError('Interpreter needs a GraphModule')
        self.module = module
        self.submodules = dict(self.module.named_modules())
        self.env = {}
        self.garbage_collect_values = garbage_collect_values
        if garbage_collect_values:
            # the last node to read each value frees it
            node_to_last_use = {}
            self.user_to_last_uses = {}
            for node in reversed(list(self.module.graph.nodes)):
                for n in node._input_nodes:
                    if n not in node_to_last_use:
                        node_to_last_use[n] = node
                        self.user_to_last_uses.setdefault(node, []).append(n)

    def run(self, *args, initial_env=None, enable_io_processing=True):
        """Evaluates the graph on args; initial_env maps nodes to values known in advance."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.module.graph.nodes:
            if node in self.env:
                continue
            self.env[node] = self.run_node(node)
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == 'output':
                return self.env[node]
        return None

    def run_node(self, n):
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        if not isinstance(args, tuple) or not isinstance(kwargs, dict):
            raise AssertionError('bad node arguments')
        return getattr(self, n.op)(n.target, args, kwargs)

    # ---- one method per op kind ----

    def placeholder(self, target, args, kwargs):
        if target.startswith('*'):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as si:
            if len(args) > 0:
                return args[0]
            raise RuntimeError('Expected positional argument for parameter %s, but one was not passed in!'
                               % target) from si

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    # ---- helpers ----

    def fetch_attr(self, target):
        target_atoms = target.split('.')
        attr_itr = self.module
        for i, atom in enumerate(target_atoms):
            if not hasattr(attr_itr, atom):
                raise RuntimeError('Node referenced nonexistent target ' + '.'.join(target_atoms[:i + 1]))
            attr_itr = getattr(attr_itr, atom)
        return attr_itr

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load_arg(n_arg):
            if n_arg not in self.env:
                raise RuntimeError('Node %s referenced nonexistent value %s! Run Graph.lint() to diagnose such '
                                   'issues' % (n, n_arg))
            return self.env[n_arg]
        return map_arg(args, load_arg)


class _TransformerTracer(TracerBase):
    def __init__(self, graph):
        super().__init__()
        self.graph = graph

    def is_leaf_module(self, _, __):
        return True


class Transformer(Interpreter):
    """Transformer(module).transform() returns a new GraphModule: each node is re-recorded through the
    overridable methods, which receive Proxies and may emit something different."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = Graph()
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target, args, kwargs):
        default = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target, args, kwargs):
        return self.tracer.create_proxy('get_attr', target, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy('call_function', target, args, kwargs)

    def call_method(self, target, args, kwargs):
        return self.tracer.create_proxy('call_method', target, args, kwargs)

    def call_module(self, target, args, kwargs):
        return self.tracer.create_proxy('call_module', target, args, kwargs)

    def transform(self):
        result = super().run(enable_io_processing=False)
        if result is not None:
            def strip_proxy(a):
                return a.node if isinstance(a, Proxy) else a
            self.new_graph.output(map_aggregate(result, strip_proxy))
        return GraphModule(self.module, self.new_graph)
