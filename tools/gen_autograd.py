"""Derivative formulas of core/ops.table -> C (build/gen/tc_autograd_gen.c). Used by gen_ops.py.

An op's formulas are the indented lines under it:

    mul.Tensor(Tensor self, Tensor other) -> Tensor | structured ...
        self: grad * other
        other: grad * self

`ARG: EXPR` gives the gradient of a Tensor argument. EXPR is a Python expression over:
  grad                 the gradient of the (first) result; grad_NAME for a named result
  argument names       Tensor arguments (kept by the node only when a formula that will run reads
                       them), Scalars, ints, lists, ...
  result, NAME         the op's result(s)
  x.sizes x.dim x.numel x.dtype x.device   (of an argument: only these are kept, not the tensor)
  x.strides x.storage_offset
  op calls             f(a, b, kw=c) or a.f(b): ops of the table, overloads tried in table order by the
                       types of the arguments, as Python's binding does
  grads[i], resultI    the gradient of result i and result i, by position (ops with several results)
  + - * / ** unary -, comparisons, `a if c else b`, [int, ...], list[i]
  intrinsics           maybe_multiply(t, s), value_or(int? or bool?, default), reduced_numel(sizes, dim),
                       invert_permutation(dims), is_complex(x) (of a Tensor argument: its dtype only),
                       s.conj() of a Scalar
  complex constants    1j (a wrapped complex number)
  'text'               a str constant, compared with == and != to str arguments
  grads[i], resultN    the gradient of / result N of an op with several (unnamed) results; grads[i]
                       is None where result i got no gradient (an undefined output)
  [True, False]        bool lists; f(...)[i] picks result i of an op with several results
A line may give several arguments' gradients at once, as PyTorch's derivatives.yaml does:
`input, weight, bias: convolution_backward(..., grad_input_mask)` where the op returns one result
per target (None where no gradient) and `grad_input_mask` is the bool list of which targets need one.
A number beside a tensor becomes a wrapped-number tensor (PyTorch's promotion rules for Python
numbers). Other lines: `name: XBackward0` (the node's name when the default, CamelCase of the op name
+ Backward + the overload's rank among same-named ops with formulas, is not PyTorch's),
`output_differentiability: [True, False]`, and `ARG: not_implemented` (the derivative raises).

`A, B, C: f(...)` gives the gradients of several arguments at once from an op with as many Tensor
results (a backward op computing them together, as PyTorch's `input, weight, bias: ..._backward`);
inside it `grad_input_mask` is the bool list of which of A, B, C need a gradient.

Formulas are written in terms of ops, so backward recorded with create_graph is differentiable again.
"""
import ast
import re


class FormulaError(Exception):
    pass


INT64_MAX = 9223372036854775807


class Val:
    """A compiled expression: its formula type and a C expression."""

    def __init__(self, ty, c):
        self.ty, self.c = ty, c

    def __repr__(self):
        return 'Val(%s, %s)' % (self.ty, self.c)


def camel(name):
    return ''.join(p[:1].upper() + p[1:] for p in name.strip('_').split('_') if p)


def param_type(a):
    """The formula type a schema argument takes."""
    ty = a.ty
    base = ty['base']
    if ty['list']:
        t = {'Tensor': 'Tensor[]', 'int': 'int[]', 'SymInt': 'int[]', 'float': 'float[]', 'bool': 'bool[]'}[base]
        if ty.get('optional_items'):
            t = 'Tensor?[]' 
    else:
        t = {'Tensor': 'Tensor', 'Scalar': 'Scalar', 'int': 'int', 'SymInt': 'int', 'float': 'float', 'bool': 'bool',
             'str': 'str', 'ScalarType': 'ScalarType', 'Layout': 'Layout', 'MemoryFormat': 'MemoryFormat',
             'Device': 'Device', 'Generator': 'Generator'}[base]
    return t + ('?' if ty['optional'] else '')


class Compiler:
    """Compiles the formulas of one functional op into one C function."""

    def __init__(self, op, ops_by_name, entry_name):
        self.op = op
        self.ops_by_name = ops_by_name
        self.entry_name = entry_name
        self.n_args = len(op.args)
        self.arg_index = {a.name: i for i, a in enumerate(op.args)}
        self.result_slot = {}
        if len(op.returns) == 1 and not op.returns[0].name:
            self.result_slot['result'] = 0
        for j, r in enumerate(op.returns):
            if r.name:
                self.result_slot[r.name] = j
            if len(op.returns) > 1:  # results of a tuple are result0, result1, ... too, as in PyTorch
                self.result_slot['result%d' % j] = j
        self.targets = ()  # the arguments the formula being compiled gives gradients of
        self.grad_index = {'grad': 0}
        for j, r in enumerate(op.returns):
            if r.name:
                self.grad_index['grad_' + r.name] = j
        self.temps = 0
        self.lists = 0
        self.vecs = 0            # Tensor[] results of op calls (tc_tensor_vec temps)
        self.list_args = set()   # Tensor[] arguments unpacked at the top
        self.uses_arena = False
        self.list_result = len(op.returns) == 1 and op.returns[0].ty['base'] == 'Tensor' and op.returns[0].ty['list']
        self.saved_used = set()  # slots read as tensors (this formula)
        self.meta_used = set()   # args read through their sizes/dtype (this formula)
        self.body = []

    # ---- emission helpers ----

    def temp(self):
        self.temps += 1
        return 'tmp%d' % (self.temps - 1)

    def emit(self, line):
        self.body.append('        ' + line)

    def call_tensor(self, cexpr):
        t = self.temp()
        self.emit('if (!(%s = %s)) goto done;' % (t, cexpr))
        return Val('Tensor', t)

    # ---- names ----

    def saved_tensor(self, slot):
        self.saved_used.add(slot)
        return 's%d' % slot

    def name(self, n):
        if n == 'grads':
            if not self.list_result:
                raise FormulaError('`grads` is for ops returning Tensor[] (use grad / grad_NAME)')
            return Val('Tensor?[]', '((tc_tensor_list){grads, tc_node_num_inputs(node)})')
        if self.list_result and n == 'grad':
            raise FormulaError('an op returning Tensor[] receives `grads`')
        if n in self.grad_index:
            return Val('Tensor', 'grads[%d]' % self.grad_index[n])
        if n in self.result_slot:
            return Val('Tensor', self.saved_tensor(self.n_args + self.result_slot[n]))
        if n in self.arg_index:
            i = self.arg_index[n]
            a = self.op.args[i]
            ty = param_type(a)
            v = 'o->args[%d]' % i
            if ty in ('Tensor', 'Tensor?'):
                return Val(ty, self.saved_tensor(i))
            if ty in ('Tensor[]', 'Tensor?[]'):
                self.saved_used.add(i)
                self.list_args.add(i)
                return Val(ty, '((tc_tensor_list){(tc_tensor *const *)L%d.items, L%d.len})' % (i, i))
            if ty == 'Scalar':
                return Val('Scalar', v + '.v.scalar')
            if ty in ('int', 'bool', 'float', 'str'):
                return Val(ty, v + '.v.' + {'int': 'i', 'bool': 'b', 'float': 'f', 'str': 's'}[ty])
            if ty == 'int?':
                return Val('int?', '(%s.tag == TC_VALUE_NONE ? NULL : &%s.v.i)' % (v, v))
            if ty == 'int[]':
                return Val('int[]', '((tc_int_list){%s.v.ints.items, %s.v.ints.len})' % (v, v))
            if ty == 'int[]?':
                lst = self.list_local('(%s.tag == TC_VALUE_NONE ? (tc_int_list){NULL, 0} : '
                                      '(tc_int_list){%s.v.ints.items, %s.v.ints.len})' % (v, v, v))
                return Val('int[]?', '(%s.tag == TC_VALUE_NONE ? NULL : &%s)' % (v, lst))
            if ty in ('ScalarType?', 'Layout?', 'MemoryFormat?'):
                return Val(ty, '(%s.tag == TC_VALUE_NONE ? -1 : (int32_t)%s.v.i)' % (v, v))
            if ty in ('ScalarType', 'Layout', 'MemoryFormat'):
                return Val(ty, '((int32_t)%s.v.i)' % v)
            if ty == 'bool?':
                return Val('bool?', '(%s.tag == TC_VALUE_NONE ? NULL : &%s.v.b)' % (v, v))
            if ty == 'float?':
                return Val('float?', '(%s.tag == TC_VALUE_NONE ? NULL : &%s.v.f)' % (v, v))
            if ty == 'float[]?':
                lst = self.list_local('(%s.tag == TC_VALUE_NONE ? (tc_float_list){NULL, 0} : '
                                      '(tc_float_list){%s.v.floats.items, %s.v.floats.len})' % (v, v, v),
                                      'tc_float_list')
                return Val('float[]?', '(%s.tag == TC_VALUE_NONE ? NULL : &%s)' % (v, lst))
            raise FormulaError('formulas cannot read argument %s of type %s' % (n, ty))
        if n in ('True', 'False'):
            return Val('bool', 'true' if n == 'True' else 'false')
        if n == 'grad_input_mask':
            if not self.targets:
                raise FormulaError('grad_input_mask is for lines with several targets')
            needs = ['(o->edge_of_arg[%d] >= 0 && tc_node_needs_input_grad(node, o->edge_of_arg[%d]))'
                     % (self.arg_index[t], self.arg_index[t]) for t in self.targets]
            return Val('bool[]', '((tc_bool_list){(const bool[]){%s}, %d})' % (', '.join(needs), len(needs)))
        raise FormulaError('unknown name %r' % n)

    def list_local(self, cexpr, ctype='tc_int_list'):
        self.lists += 1
        name = 'list%d' % (self.lists - 1)
        self.emit('%s %s = %s;' % (ctype, name, cexpr))
        return name

    # ---- attributes ----

    def attribute(self, node):
        attr = node.attr
        base = node.value
        # an argument read only through its metadata keeps just that
        if isinstance(base, ast.Name) and base.id in self.arg_index and attr in ('sizes', 'dim', 'numel', 'dtype',
                                                                                   'device', 'strides',
                                                                                   'storage_offset'):
            i = self.arg_index[base.id]
            if param_type(self.op.args[i]) not in ('Tensor', 'Tensor?') or \
                    (param_type(self.op.args[i]) == 'Tensor?' and attr != 'sizes'):
                raise FormulaError('%s.%s: not a Tensor argument' % (base.id, attr))
            self.meta_used.add(i)
            sizes = 'tc_ag_op_sizes(o, %d)' % i
            if attr == 'sizes':
                return Val('int[]', sizes)
            if attr == 'strides':
                return Val('int[]', 'tc_ag_op_strides(o, %d)' % i)
            if attr == 'storage_offset':
                return Val('int', 'o->metas[%d].offset' % i)
            if attr == 'dim':
                return Val('int', '((int64_t)%s.len)' % sizes)
            if attr == 'numel':
                return Val('int', 'tc_ag_list_numel(%s)' % sizes)
            if attr == 'dtype':
                return Val('ScalarType', 'o->metas[%d].m.dtype' % i)
            return Val('Device', '(&o->metas[%d].m.device)' % i)
        v = self.expr(base)
        if v.ty != 'Tensor':
            raise FormulaError('.%s of a %s' % (attr, v.ty))
        if attr == 'sizes':
            return Val('int[]', '((tc_int_list){(%s)->sizes, (%s)->ndim})' % (v.c, v.c))
        if attr == 'strides':
            return Val('int[]', '((tc_int_list){(%s)->strides, (%s)->ndim})' % (v.c, v.c))
        if attr == 'dim':
            return Val('int', '((int64_t)(%s)->ndim)' % v.c)
        if attr == 'numel':
            return Val('int', 'tc_tensor_numel(%s)' % v.c)
        if attr == 'dtype':
            return Val('ScalarType', '(%s)->dtype' % v.c)
        if attr == 'device':
            return Val('Device', '(&(%s)->device)' % v.c)
        if attr == 'storage_offset':
            return Val('int', '(%s)->offset' % v.c)
        raise FormulaError('unknown attribute .%s' % attr)

    # ---- conversions to a parameter's C type ----

    def accepts(self, pty, v):
        t = v.ty
        opt = pty.endswith('?')
        base = pty.rstrip('?')
        if t == 'None':
            return opt
        if base == 'Tensor':
            return t == 'Tensor' or (opt and t == 'Tensor?')
        if pty == 'Tensor[]':
            return t == 'Tensor[]'
        if pty == 'Tensor?[]':
            return t in ('Tensor[]', 'Tensor?[]')
        if base == 'Scalar':
            return t in ('Scalar', 'int', 'float', 'bool', 'complex')
        if base == 'int':
            return t in ('int', 'bool') or (opt and t == 'int?')
        if base == 'int[]':
            return t == 'int[]' or (opt and t == 'int[]?') or t == 'int'
        if base == 'float':
            return t in ('float', 'int') or (opt and t == 'float?')
        if base == 'bool':
            return t == 'bool' or (opt and t == 'bool?')
        if base == 'bool[]':
            return t == 'bool[]'
        if base == 'float[]':
            return t == 'float[]' or (opt and t == 'float[]?')
        if base in ('ScalarType', 'Layout', 'MemoryFormat', 'Device', 'str'):
            return t == base or (opt and t == pty)
        return False

    def convert(self, pty, v):
        t = v.ty
        opt = pty.endswith('?')
        base = pty.rstrip('?')
        if t == 'None':
            return '-1' if base in ('ScalarType', 'Layout', 'MemoryFormat') else 'NULL'
        if base == 'Tensor' or pty in ('Tensor[]', 'Tensor?[]'):
            return v.c
        if base == 'Scalar':
            c = self.scalar_of(v)
            return '(&(tc_scalar)%s)' % c if opt else c
        if base == 'int':
            if t == 'int?':
                return v.c
            return 'TC_SOME_INT(%s)' % v.c if opt else v.c
        if base == 'int[]':
            if t == 'int[]?':
                return v.c
            lst = v.c if t == 'int[]' else '((tc_int_list){(const int64_t[]){%s}, 1})' % v.c
            if opt:
                return '&' + self.list_local(lst)
            return lst
        if base == 'float':
            if t == 'float?':
                return v.c
            return 'TC_SOME_FLOAT(%s)' % v.c if opt else '(double)(%s)' % v.c
        if base == 'bool':
            if t == 'bool?':
                return v.c
            return 'TC_SOME_BOOL(%s)' % v.c if opt else v.c
        if base == 'Device':
            return v.c if opt else '(*%s)' % v.c
        return v.c

    def scalar_of(self, v):
        if v.ty == 'Scalar':
            return v.c
        if v.ty in ('int', 'bool'):
            return 'TC_SCALAR_OF_INT(%s)' % v.c
        if v.ty == 'float':
            return 'TC_SCALAR_OF_FLOAT(%s)' % v.c
        if v.ty == 'complex':
            return v.c
        raise FormulaError('%s is not a number' % v.ty)

    def c_default(self, a):
        pty = param_type(a)
        base = pty.rstrip('?')
        d = a.default
        if d is None:
            return '-1' if base in ('ScalarType', 'Layout', 'MemoryFormat') else 'NULL'
        if base == 'Scalar':
            kind, val = d
            c = 'TC_SCALAR_OF_INT(%d)' % val if kind == 'int' else 'TC_SCALAR_OF_FLOAT(%r)' % val
            return '(&(tc_scalar)%s)' % c if pty.endswith('?') else c
        if base == 'int[]':
            lst = '((tc_int_list){(const int64_t[]){%s}, %d})' % (', '.join(str(x) for x in d), len(d)) if d \
                else '((tc_int_list){NULL, 0})'
            return '&' + self.list_local(lst) if pty.endswith('?') else lst
        if base == 'bool':
            c = 'true' if d else 'false'
            return 'TC_SOME_BOOL(%s)' % c if pty.endswith('?') else c
        if base == 'int':
            return 'TC_SOME_INT(%d)' % d if pty.endswith('?') else str(d)
        if base == 'float':
            return 'TC_SOME_FLOAT(%r)' % d if pty.endswith('?') else repr(float(d))
        if base in ('ScalarType', 'Layout', 'MemoryFormat'):
            return str(d)
        if base == 'str':
            return '"%s"' % d
        raise FormulaError('no default for %s' % a.name)

    # ---- op calls ----

    def call_op(self, name, pos, kw):
        cands = [o for o in self.ops_by_name.get(name, []) if o.variant == 'functional']
        if not cands:
            raise FormulaError('no op named %s' % name)
        for cand in cands:
            # one Tensor, one Tensor[] (split), or several Tensors (convolution_backward)
            if not cand.returns or any(r.ty['base'] != 'Tensor' or (r.ty['list'] and len(cand.returns) > 1)
                                       for r in cand.returns):
                continue
            returns_list = cand.returns[0].ty['list']
            params = cand.args
            positional = [a for a in params if not a.kwonly]
            if len(pos) > len(positional):
                continue
            bound = {}
            ok = True
            for a, v in zip(positional, pos):
                if not self.accepts(param_type(a), v):
                    ok = False
                    break
                bound[a.name] = v
            if not ok:
                continue
            for k, v in kw.items():
                a = next((p for p in params if p.name == k), None)
                if a is None or k in bound or not self.accepts(param_type(a), v):
                    ok = False
                    break
                bound[k] = v
            if not ok or any(a.name not in bound and not a.has_default for a in params):
                continue
            cargs = [self.convert(param_type(a), bound[a.name]) if a.name in bound else self.c_default(a)
                     for a in params]
            if returns_list:
                vec = 'V%d' % self.vecs
                self.vecs += 1
                self.emit('if (%s(%s)) goto done;' % (self.entry_name(cand), ', '.join(cargs + ['&' + vec])))
                return Val('Tensor[]', '((tc_tensor_list){(tc_tensor *const *)%s.items, %s.len})' % (vec, vec))
            if len(cand.returns) == 1:
                return self.call_tensor('%s(%s)' % (self.entry_name(cand), ', '.join(cargs)))
            # several results: each lands in a temp (NULL where the op leaves it undefined)
            temps = [self.temp() for _ in cand.returns]
            self.emit('if (%s(%s)) goto done;' % (self.entry_name(cand), ', '.join(cargs + ['&' + t for t in temps])))
            return Val('Tuple', temps)
        raise FormulaError('no overload of %s takes (%s%s)' % (
            name, ', '.join(v.ty for v in pos), ''.join(', %s=%s' % (k, v.ty) for k, v in kw.items())))

    def wrap(self, v):
        """A number as a wrapped-number tensor."""
        return self.call_tensor('tc_ag_wrap(%s)' % self.scalar_of(v))

    # ---- expressions ----

    def expr(self, node):
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Constant):
            if node.value is None:
                return Val('None', 'NULL')
            if isinstance(node.value, bool):
                return Val('bool', 'true' if node.value else 'false')
            if isinstance(node.value, int):
                return Val('int', '((int64_t)%dLL)' % node.value)
            if isinstance(node.value, float):
                return Val('float', repr(node.value))
            if isinstance(node.value, complex):
                return Val('complex', 'TC_SCALAR_OF_COMPLEX(%r, %r)' % (node.value.real, node.value.imag))
            if isinstance(node.value, str) and all(ch.isalnum() or ch in '_-. ' for ch in node.value):
                return Val('str', '"%s"' % node.value)
            raise FormulaError('unsupported constant %r' % node.value)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.List):
            items = [self.expr(e) for e in node.elts]
            if items and all(i.ty == 'bool' for i in items):
                return Val('bool[]', '((tc_bool_list){(const bool[]){%s}, %d})' % (
                    ', '.join(i.c for i in items), len(items)))
            if any(i.ty != 'int' for i in items):
                raise FormulaError('only lists of ints')
            if not items:
                return Val('int[]', '((tc_int_list){NULL, 0})')
            return Val('int[]', '((tc_int_list){(const int64_t[]){%s}, %d})' % (
                ', '.join(i.c for i in items), len(items)))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == 'grads':
            if not isinstance(node.slice, ast.Constant) or not isinstance(node.slice.value, int) or \
                    not 0 <= node.slice.value < len(self.op.returns):
                raise FormulaError('grads[i] needs a result number')
            return Val('Tensor', 'grads[%d]' % node.slice.value)
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name) and node.value.id == 'grads':
                if not isinstance(node.slice, ast.Constant) or not isinstance(node.slice.value, int) or \
                        not 0 <= node.slice.value < len(self.op.returns):
                    raise FormulaError('grads[i] needs a result number')
                return Val('Tensor?', 'grads[%d]' % node.slice.value)
            lst = self.expr(node.value)
            if lst.ty == 'Tuple':
                if not isinstance(node.slice, ast.Constant) or not 0 <= node.slice.value < len(lst.c):
                    raise FormulaError('a result of a call is picked by a constant index')
                return Val('Tensor', lst.c[node.slice.value])
            idx = self.expr(node.slice)
            if lst.ty != 'int[]' or idx.ty != 'int':
                raise FormulaError('only int lists can be indexed')
            return Val('int', 'tc_ag_list_at(%s, %s)' % (lst.c, idx.c))
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand)
            if isinstance(node.op, ast.USub):
                if v.ty == 'Tensor':
                    return self.call_op('neg', [v], {})
                if v.ty in ('int', 'float'):
                    return Val(v.ty, '(-(%s))' % v.c)
            if isinstance(node.op, ast.Not) and v.ty == 'bool':
                return Val('bool', '(!(%s))' % v.c)
            raise FormulaError('unsupported unary operation on %s' % v.ty)
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise FormulaError('chained comparisons are not supported')
            return self.compare(node.ops[0], self.expr(node.left), self.expr(node.comparators[0]))
        if isinstance(node, ast.BoolOp):
            vals = [self.expr(v) for v in node.values]
            if any(v.ty != 'bool' for v in vals):
                raise FormulaError('and/or need bools')
            sep = ' && ' if isinstance(node.op, ast.And) else ' || '
            return Val('bool', '(%s)' % sep.join(v.c for v in vals))
        if isinstance(node, ast.IfExp):
            return self.ifexp(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise FormulaError('unsupported expression %s' % ast.dump(node))

    ARITH = {ast.Add: ('add', '+'), ast.Sub: ('sub', '-'), ast.Mult: ('mul', '*'), ast.Div: ('div', '/'),
             ast.Pow: ('pow', None)}

    def binop(self, node):
        kind = type(node.op)
        if kind not in self.ARITH:
            raise FormulaError('unsupported operator %s' % kind.__name__)
        opname, cop = self.ARITH[kind]
        a, b = self.expr(node.left), self.expr(node.right)
        numeric = ('int', 'float', 'Scalar', 'bool', 'complex')
        if 'Scalar' in (a.ty, b.ty) and a.ty in numeric and b.ty in numeric:
            if cop is None:
                raise FormulaError('** of Scalars')
            return Val('Scalar', 'tc_ag_scalar_arith(\'%s\', %s, %s)' % (cop, self.scalar_of(a), self.scalar_of(b)))
        if a.ty in ('int', 'float') and b.ty in ('int', 'float'):
            if cop is None:
                raise FormulaError('** of numbers')
            ty = 'float' if 'float' in (a.ty, b.ty) or kind is ast.Div else 'int'
            if kind is ast.Div:
                return Val('float', '((double)(%s) / (double)(%s))' % (a.c, b.c))
            return Val(ty, '((%s) %s (%s))' % (a.c, cop, b.c))
        if a.ty == 'Tensor' and b.ty in numeric:
            b = self.wrap(b)
        elif b.ty == 'Tensor' and a.ty in numeric:
            a = self.wrap(a)
        if a.ty != 'Tensor' or b.ty != 'Tensor':
            raise FormulaError('operator on %s and %s' % (a.ty, b.ty))
        return self.call_op(opname, [a, b], {})

    def compare(self, op, a, b):
        names = {ast.Eq: ('eq', '=='), ast.NotEq: ('ne', '!='), ast.Lt: ('lt', '<'), ast.LtE: ('le', '<='),
                 ast.Gt: ('gt', '>'), ast.GtE: ('ge', '>=')}
        if type(op) not in names:
            raise FormulaError('unsupported comparison')
        opname, cop = names[type(op)]
        if a.ty in ('int', 'float', 'bool') and b.ty in ('int', 'float', 'bool'):
            return Val('bool', '((%s) %s (%s))' % (a.c, cop, b.c))
        if a.ty == 'ScalarType' and b.ty == 'ScalarType':
            return Val('bool', '((%s) %s (%s))' % (a.c, cop, b.c))
        if a.ty == 'str' and b.ty == 'str' and cop in ('==', '!='):
            return Val('bool', '(strcmp(%s, %s) %s 0)' % (a.c, b.c, cop))
        if a.ty == 'Tensor' and b.ty != 'Tensor':
            b = self.wrap(b)
        elif b.ty == 'Tensor' and a.ty != 'Tensor':
            a = self.wrap(a)
        return self.call_op(opname, [a, b], {})

    def ifexp(self, node):
        cond = self.expr(node.test)
        if cond.ty != 'bool':
            raise FormulaError('condition must be a bool')
        # both branches are compiled into their own blocks; the result goes to a temp
        saved_body = self.body
        self.body = []
        a = self.expr(node.body)
        a_body = self.body
        self.body = []
        b = self.expr(node.orelse)
        b_body = self.body
        self.body = saved_body
        if a.ty != b.ty:
            raise FormulaError('branches of different types (%s, %s)' % (a.ty, b.ty))
        if a.ty == 'Tensor':
            t = self.temp()
            self.emit('if (%s) {' % cond.c)
            self.body += ['    ' + line for line in a_body]
            self.emit('    tc_tensor_retain(%s); %s = %s;' % (a.c, t, a.c))
            self.emit('} else {')
            self.body += ['    ' + line for line in b_body]
            self.emit('    tc_tensor_retain(%s); %s = %s;' % (b.c, t, b.c))
            self.emit('}')
            return Val('Tensor', t)
        if a_body or b_body:
            raise FormulaError('conditional values other than tensors must be simple')
        return Val(a.ty, '((%s) ? (%s) : (%s))' % (cond.c, a.c, b.c))

    def call(self, node):
        kw = {k.arg: self.expr(k.value) for k in node.keywords}
        if isinstance(node.func, ast.Attribute):  # method: x.f(...)
            recv = self.expr(node.func.value)
            if recv.ty == 'Scalar' and node.func.attr == 'conj' and not node.args and not kw:
                return Val('Scalar', 'tc_ag_scalar_conj(%s)' % recv.c)
            pos = [recv] + [self.expr(a) for a in node.args]
            return self.call_op(node.func.attr, pos, kw)
        if not isinstance(node.func, ast.Name):
            raise FormulaError('unsupported call')
        fname = node.func.id
        if fname == 'is_complex':
            if len(node.args) != 1:
                raise FormulaError('is_complex(Tensor)')
            arg = node.args[0]
            if isinstance(arg, ast.Name) and arg.id in self.arg_index:  # an argument: its dtype only
                dtype = self.attribute(ast.Attribute(value=arg, attr='dtype'))
                return Val('bool', 'tc_dtype_is_complex(%s)' % dtype.c)
            v = self.expr(arg)
            if v.ty != 'Tensor':
                raise FormulaError('is_complex(Tensor)')
            return Val('bool', 'tc_dtype_is_complex((%s)->dtype)' % v.c)
        pos = [self.expr(a) for a in node.args]
        if fname == 'maybe_multiply':
            if len(pos) != 2 or pos[0].ty != 'Tensor':
                raise FormulaError('maybe_multiply(Tensor, Scalar)')
            return self.call_tensor('tc_ag_maybe_multiply(%s, %s)' % (pos[0].c, self.scalar_of(pos[1])))
        if fname == 'value_or' and len(pos) == 2 and pos[0].ty == 'bool?' and pos[1].ty == 'bool':
            opt = 'opt%d' % self.lists
            self.lists += 1
            self.emit('const bool *%s = %s;' % (opt, pos[0].c))
            return Val('bool', '(%s ? *%s : %s)' % (opt, opt, pos[1].c))
        if fname == 'value_or':
            if len(pos) != 2 or pos[0].ty != 'int?' or pos[1].ty != 'int':
                raise FormulaError('value_or(int?, int)')
            return Val('int', 'tc_ag_value_or(%s, %s)' % (pos[0].c, pos[1].c))
        if fname == 'reduced_numel':
            if len(pos) != 2 or pos[0].ty != 'int[]' or pos[1].ty not in ('int[]', 'int[]?', 'None'):
                raise FormulaError('reduced_numel(sizes, dims)')
            dims = pos[1].c if pos[1].ty != 'int[]' else '&' + self.list_local(pos[1].c)
            return Val('int', 'tc_ag_reduced_numel(%s, %s)' % (pos[0].c, dims))
        if fname == 'list_sizes_at':
            if len(pos) != 2 or not isinstance(node.args[0], ast.Name) or node.args[0].id not in self.arg_index \
                    or pos[1].ty != 'int':
                raise FormulaError('list_sizes_at(TENSOR_LIST_ARGUMENT, int)')
            i = self.arg_index[node.args[0].id]
            if param_type(self.op.args[i]) not in ('Tensor[]', 'Tensor?[]'):
                raise FormulaError('list_sizes_at takes a Tensor[] argument')
            # only the items' sizes are kept, not the items
            self.saved_used.discard(i)
            self.list_args.discard(i)
            self.meta_used.add(i)
            self.uses_arena = True
            lst = 'LS%d' % self.lists
            self.lists += 1
            self.emit('tc_int_list %s;' % lst)
            self.emit('if (tc_ag_op_list_sizes_at(o, %d, %s, &arena, &%s)) goto done;' % (i, pos[1].c, lst))
            return Val('int[]', lst)
        if fname == 'invert_permutation':
            if len(pos) != 1 or pos[0].ty != 'int[]':
                raise FormulaError('invert_permutation(int[])')
            buf = 'perm%d' % self.lists
            self.lists += 1
            self.emit('int64_t %s[TC_MAX_DIMS];' % buf)
            return Val('int[]', 'tc_ag_invert_permutation(%s, %s)' % (pos[0].c, buf))
        return self.call_op(fname, pos, kw)

    def compile_formula(self, target, text):
        """target: an argument name, or a tuple of them (a line giving several gradients)."""
        try:
            tree = ast.parse(text.strip(), mode='eval')
        except SyntaxError as e:
            raise FormulaError('cannot parse formula: %s' % e.msg)
        self.saved_used = set()
        self.meta_used = set()
        self.body = []
        self.targets = target if isinstance(target, tuple) else ()
        v = self.expr(tree.body)
        if self.targets:
            if v.ty != 'Tuple' or len(v.c) != len(self.targets):
                raise FormulaError('a line for %d arguments must give %d results' % (len(self.targets),
                                                                                    len(self.targets)))
        else:
            target_ty = param_type(next(a for a in self.op.args if a.name == target))
            want = 'Tensor[]' if target_ty in ('Tensor[]', 'Tensor?[]') else 'Tensor'
            if (want == 'Tensor[]' and v.ty not in ('Tensor[]', 'Tensor?[]')) or (want == 'Tensor' and v.ty != 'Tensor'):
                raise FormulaError('the formula for %s must give a %s, not %s' % (target, want, v.ty))
        self.targets = ()
        return v, self.body, self.saved_used, self.meta_used


def parse_formula_lines(op, lines):
    """lines: [(lineno, text)] -> op.formulas {arg or (arg, ...): (lineno, text)}, op.grad_name,
    op.output_diff."""
    op.formulas = {}
    op.grad_name = None
    op.output_diff = None
    op.not_implemented = set()
    for lineno, text in lines:
        target, colon, expr = text.partition(':')
        target, expr = target.strip(), expr.strip()
        if not colon or not expr:
            raise FormulaError('line %d: expected "ARG: FORMULA"' % lineno)
        if target == 'name':
            op.grad_name = expr
            continue
        if target == 'output_differentiability':
            vals = [v.strip() for v in expr.strip('[]').split(',')]
            if len(vals) != len(op.returns) or any(v not in ('True', 'False') for v in vals):
                raise FormulaError('line %d: output_differentiability needs one True/False per result' % lineno)
            op.output_diff = [v == 'True' for v in vals]
            continue
        names = [t.strip() for t in target.split(',')]
        for name in names:
            arg = next((a for a in op.args if a.name == name), None)
            if arg is None:
                raise FormulaError('line %d: %s is not an argument of %s' % (lineno, name, op.name))
            if arg.ty['base'] != 'Tensor':
                raise FormulaError('line %d: %s is not a Tensor argument' % (lineno, name))
            if name in formula_targets(op) or name in op.not_implemented:
                raise FormulaError('line %d: two formulas for %s' % (lineno, name))
        if expr == 'not_implemented':
            op.not_implemented.update(names)
            continue
        op.formulas[names[0] if len(names) == 1 else tuple(names)] = (lineno, expr)


def formula_targets(op):
    """The arguments op's formulas give gradients of."""
    names = set()
    for key in op.formulas:
        names.update(key if isinstance(key, tuple) else (key,))
    return names


def has_autograd(op):
    return bool(op.formulas or op.not_implemented or op.grad_name or op.output_diff is not None)


def assign_names(ops):
    """PyTorch's node names: CamelCase + Backward + the rank among same-named ops with formulas."""
    rank = {}
    for o in ops:
        if o.base is not o or not has_autograd(o):
            continue
        n = rank.get(o.name, 0)
        rank[o.name] = n + 1
        o.grad_name = o.grad_name or '%sBackward%d' % (camel(o.name), n)


def emit(ops, entry_name, path_c, path_table):
    """Writes the C of every op's backward and grad info. Returns {op id: info symbol}."""
    ops_by_name = {}
    for o in ops:
        ops_by_name.setdefault(o.name, []).append(o)
    assign_names(ops)
    out = ['/* Generated by tools/gen_ops.py (gen_autograd.py) from core/ops.table. Do not edit. */',
           '#include "autograd/autograd_internal.h"', '#include "autograd/formula_helpers.h"', '',
           '#include <string.h>', '']
    infos = {}
    for o in ops:
        if o.base is not o or not has_autograd(o):
            continue
        try:
            infos[o.id] = emit_op(o, ops_by_name, entry_name, out)
        except FormulaError as e:
            line = min((ln for ln, _ in o.formulas.values()), default=o.lineno)
            raise SystemExit('%s:%d: %s: %s' % (path_table, line, o.qualname, e))
    return out, infos


def emit_op(o, ops_by_name, entry_name, out):
    comp = Compiler(o, ops_by_name, entry_name)
    n_args, n_ret = len(o.args), len(o.returns)
    saved_users = [0] * (n_args + n_ret)
    meta_users = [0] * n_args
    blocks = []
    index = {a.name: i for i, a in enumerate(o.args)}
    for key, (lineno, text) in sorted(o.formulas.items(), key=lambda kv: kv[1][0]):
        targets = [index[n] for n in (key if isinstance(key, tuple) else (key,))]
        v, body, saved, metas = comp.compile_formula(key, text)
        users = sum(1 << i for i in targets)
        for s in saved:
            saved_users[s] |= users
        for m in metas:
            meta_users[m] |= users
        blocks.append((targets, v, body))
    targets_all = formula_targets(o)
    # differentiable arguments: those with a formula or declared not implemented
    diff = 0
    for i, a in enumerate(o.args):
        if a.name in targets_all or a.name in o.not_implemented:
            diff |= 1 << i
    diff_results = 0
    for j, r in enumerate(o.returns):
        if r.ty['base'] == 'Tensor' and not r.ty['list'] and (o.output_diff is None or o.output_diff[j]):
            diff_results |= 1 << j
    fn = 'backward_%s' % o.id
    out.append('static int %s(tc_node *node, tc_op_node *o, tc_tensor *const *grads, tc_tensor **out) {' % fn)
    slots = sorted(s_ for s_, u in enumerate(saved_users) if u)
    lists = sorted(comp.list_args)
    out.append('    int rc = TC_FAIL;')
    for s_ in slots:
        if s_ not in comp.list_args:
            out.append('    tc_tensor *s%d = NULL;' % s_)
    for i in lists:
        out.append('    tc_tensor_vec L%d = {NULL, 0};' % i)
    for v in range(comp.vecs):
        out.append('    tc_tensor_vec V%d = {NULL, 0};' % v)
    for t in range(comp.temps):
        out.append('    tc_tensor *tmp%d = NULL;' % t)
    if comp.uses_arena:
        out.append('    tc_ag_arena arena = {NULL, 0, 0};')
    for s_ in slots:
        if s_ in comp.list_args:
            out.append('    if (tc_ag_op_saved_list(node, o, %d, &L%d)) goto done;' % (s_, s_))
        else:
            out.append('    if (tc_ag_op_saved(node, o, %d, &s%d)) goto done;' % (s_, s_))
    for targets, v, body in blocks:
        a = o.args[targets[0]]
        is_list = len(targets) == 1 and param_type(a) in ('Tensor[]', 'Tensor?[]')
        if is_list:
            i = targets[0]
            out.append('    if (o->edge_of_arg[%d] >= 0 && tc_ag_any_needed(node, o->edge_of_arg[%d], o->arg_edges[%d])) {'
                       % (i, i, i))
        else:
            needed = ' || '.join('(o->edge_of_arg[%d] >= 0 && tc_node_needs_input_grad(node, o->edge_of_arg[%d]))'
                                 % (i, i) for i in targets)
            out.append('    if (%s) {' % needed)
        out += body
        if is_list:
            out.append('        tc_tensor_list result = %s;' % v.c)
            out.append('        if (result.len != o->arg_edges[%d]) {' % i)
            out.append('            tc_set_error(TC_ERR_RUNTIME, "%s: %%lld gradients for %%d tensors", '
                       '(long long)result.len, o->arg_edges[%d]);' % (o.grad_name, i))
            out.append('            goto done;')
            out.append('        }')
            out.append('        for (int64_t k = 0; k < result.len; k++) {')
            out.append('            int32_t e = o->edge_of_arg[%d] + (int32_t)k;' % i)
            out.append('            if (!result.items[k] || !tc_node_needs_input_grad(node, e)) continue;')
            out.append('            tc_tensor_retain(result.items[k]);')
            out.append('            out[e] = result.items[k];')
            out.append('        }')
        elif len(targets) == 1:
            out.append('        tc_tensor_retain(%s);' % v.c)
            out.append('        out[o->edge_of_arg[%d]] = %s;' % (targets[0], v.c))
        else:  # one result per target; undefined (NULL) where that target needs no gradient
            for i, t in zip(targets, v.c):
                out.append('        if (%s && o->edge_of_arg[%d] >= 0 && tc_node_needs_input_grad(node, '
                           'o->edge_of_arg[%d])) {' % (t, i, i))
                out.append('            tc_tensor_retain(%s);' % t)
                out.append('            out[o->edge_of_arg[%d]] = %s;' % (i, t))
                out.append('        }')
        out.append('    }')
    for i, a in enumerate(o.args):
        if a.name in o.not_implemented:
            out.append('    if (o->edge_of_arg[%d] >= 0 && tc_node_needs_input_grad(node, o->edge_of_arg[%d])) {' % (
                i, i))
            out.append('        tc_set_error(TC_ERR_RUNTIME, "derivative for aten::%s is not implemented");'
                       % o.name)
            out.append('        goto done;')
            out.append('    }')
    out.append('    rc = TC_OK;')
    out.append('done: __attribute__((unused));')
    for t in range(comp.temps):
        out.append('    tc_tensor_release(tmp%d);' % t)
    for v in range(comp.vecs):
        out.append('    tc_tensor_vec_release(&V%d);' % v)
    for i in lists:
        out.append('    tc_tensor_vec_release(&L%d);' % i)
    for s_ in slots:
        if s_ not in comp.list_args:
            out.append('    tc_tensor_release(s%d);' % s_)
    if comp.uses_arena:
        out.append('    tc_ag_arena_free(&arena);')
    out.append('    return rc;')
    out.append('}')
    sym = 'tc_grad_info_%s' % o.id
    out.append('static const uint64_t saved_users_%s[] = {%s};' % (o.id, ', '.join('%du' % u for u in saved_users)
                                                                   or '0'))
    out.append('static const uint64_t meta_users_%s[] = {%s};' % (o.id, ', '.join('%du' % u for u in meta_users)
                                                                  or '0'))
    out.append('const tc_grad_info %s = {' % sym)
    out.append('    .name = "%s",' % o.grad_name)
    out.append('    .backward = %s,' % fn)
    out.append('    .diff_args = %du,' % diff)
    out.append('    .formula_args = %du,' % sum(1 << i for i, a in enumerate(o.args) if a.name in targets_all))
    out.append('    .saved_users = saved_users_%s,' % o.id)
    out.append('    .meta_users = meta_users_%s,' % o.id)
    out.append('    .diff_results = %du,' % diff_results)
    out.append('};')
    out.append('')
    return sym
