"""torch.fx.subgraph_rewriter: replace_pattern(gm, pattern, replacement) finds every occurrence of
pattern's graph in gm's graph and splices replacement's graph in its place."""
from typing import Dict, NamedTuple

from torch.fx._symbolic_trace import symbolic_trace
from torch.fx.graph_module import GraphModule, _copy_attr
from torch.fx.node import Node

__all__ = ['Match', 'replace_pattern']


class Match(NamedTuple):
    anchor: Node            # the node of gm matched by the pattern's returned node
    nodes_map: Dict[Node, Node]  # pattern node -> gm node


class _Matcher:
    """Structural matching of a single-output pattern graph, anchored at its returned node: ops and
    targets must agree, placeholders match any value (the same one each time), and no node inside the
    match other than the anchor may be read from outside it."""

    def __init__(self, pattern_graph):
        self.pattern = pattern_graph
        outputs = [n for n in pattern_graph.nodes if n.op == 'output']
        if len(outputs) != 1 or not isinstance(outputs[0].args[0], Node):
            raise AssertionError('subgraph_rewriter: the pattern must return exactly one value')
        self.pattern_anchor = outputs[0].args[0]

    def matches(self, anchor):
        self.nodes_map = {}
        if not self._match(self.pattern_anchor, anchor):
            return False
        inner = {gn for pn, gn in self.nodes_map.items() if pn.op != 'placeholder'}
        for gn in inner:
            if gn is not anchor and any(user not in inner for user in gn.users):
                return False
        return True

    def _match(self, pn, gn):
        if pn in self.nodes_map:
            return self.nodes_map[pn] is gn
        if pn.op == 'placeholder':
            if gn in self.nodes_map.values():
                return False
            self.nodes_map[pn] = gn
            return True
        if not isinstance(gn, Node) or pn.op != gn.op or pn.target != gn.target:
            return False
        if len(pn.args) != len(gn.args) or set(pn.kwargs) != set(gn.kwargs):
            return False
        self.nodes_map[pn] = gn
        pairs = list(zip(pn.args, gn.args)) + [(pn.kwargs[k], gn.kwargs[k]) for k in pn.kwargs]
        if all(self._match_arg(a, b) for a, b in pairs):
            return True
        del self.nodes_map[pn]
        return False

    def _match_arg(self, pa, ga):
        if isinstance(pa, Node):
            return self._match(pa, ga)
        if isinstance(pa, (tuple, list)) and isinstance(ga, (tuple, list)):
            return len(pa) == len(ga) and all(self._match_arg(a, b) for a, b in zip(pa, ga))
        return type(pa) == type(ga) and pa == ga


def replace_pattern(gm, pattern, replacement):
    """Replaces each non-overlapping match of pattern (a function or Module, traced) in gm by replacement
    (same signature); returns the list of Match found. gm is edited in place and recompiled."""
    pattern_graph = symbolic_trace(pattern).graph if not isinstance(pattern, GraphModule) else pattern.graph
    replacement_gm = replacement if isinstance(replacement, GraphModule) else symbolic_trace(replacement)
    replacement_graph = replacement_gm.graph
    matcher = _Matcher(pattern_graph)
    pattern_placeholders = [n for n in pattern_graph.nodes if n.op == 'placeholder']
    matches, claimed = [], set()
    for node in reversed(list(gm.graph.nodes)):
        if node in claimed or not matcher.matches(node):
            continue
        inner = {gn for pn, gn in matcher.nodes_map.items() if pn.op != 'placeholder'}
        if inner & claimed:
            continue
        claimed |= inner
        matches.append(Match(anchor=node, nodes_map=dict(matcher.nodes_map)))
    for match in matches:
        inputs = [match.nodes_map[p] for p in pattern_placeholders]
        replacement_placeholders = [n for n in replacement_graph.nodes if n.op == 'placeholder']
        if len(replacement_placeholders) != len(inputs):
            raise AssertionError('subgraph_rewriter: pattern and replacement take different numbers of inputs')
        val_map = dict(zip(replacement_placeholders, inputs))
        with gm.graph.inserting_before(match.anchor):
            copied = gm.graph.graph_copy(replacement_graph, val_map)
        for n in replacement_graph.nodes:
            if n.op in ('get_attr', 'call_module') and not _has_attr(gm, n.target):
                _copy_attr(replacement_gm, gm, n.target)
        new_value = copied if isinstance(copied, Node) else copied[0]
        match.anchor.replace_all_uses_with(new_value)
        for pn in reversed(list(pattern_graph.nodes)):
            gn = match.nodes_map.get(pn)
            if pn.op not in ('placeholder', 'output') and gn is not None and not gn.users:
                gm.graph.erase_node(gn)
    gm.recompile()
    return matches


def _has_attr(mod, target):
    for atom in target.split('.'):
        if not hasattr(mod, atom):
            return False
        mod = getattr(mod, atom)
    return True

