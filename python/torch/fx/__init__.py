"""torch.fx: capture a module's forward as a Graph of Nodes (symbolic_trace), edit it, and run it again as
Python (GraphModule) or node by node (Interpreter, Transformer)."""
from torch.fx import immutable_collections  # noqa: F401
from torch.fx.node import Node, map_arg  # noqa: F401
from torch.fx.graph import Graph  # noqa: F401
from torch.fx.graph_module import GraphModule  # noqa: F401
from torch.fx.proxy import Proxy  # noqa: F401
from torch.fx._symbolic_trace import PH, ProxyableClassMeta, Tracer, symbolic_trace, wrap  # noqa: F401
from torch.fx.interpreter import Interpreter, Transformer  # noqa: F401
from torch.fx.subgraph_rewriter import replace_pattern  # noqa: F401
from torch.fx import subgraph_rewriter  # noqa: F401
