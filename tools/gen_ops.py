#!/usr/bin/env python3
"""Generate everything per-op from core/ops.table: op ids, static schemas, typed C entries, Python
bindings and the API coverage page.

Usage: gen_ops.py TABLE OUT_DIR [COVERAGE_MD]

Writes into OUT_DIR:
  torch_core/tc_ops.h  public: op ids and one typed C entry per op (tc_<name>[_<overload>])
  tc_ops_gen.h         core-internal: kernel ids, the built-in op records, meta/impl prototypes
  tc_ops_gen.c         the static schemas and op records, and the typed entries' bodies
  bindings.inc         torch._C: which ops each Python function and Tensor method tries, in order

The table is the single declaration of every op; nothing per-op is written by hand elsewhere. The
schema parser here and the core's run-time one (core/src/schema.c) accept the same language;
tests/c/test_schema.c parses every generated schema text again with the core's and compares.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_autograd  # noqa: E402

# ---- the schema language -------------------------------------------------------------------------

# base type -> (value tag, C type, C type when optional)
BASE_TYPES = {
    'Tensor': ('TENSOR', 'tc_tensor *', 'tc_tensor *'),
    'Scalar': ('SCALAR', 'tc_scalar', 'const tc_scalar *'),
    'int': ('INT', 'int64_t', 'const int64_t *'),
    'SymInt': ('INT', 'int64_t', 'const int64_t *'),
    'float': ('FLOAT', 'double', 'const double *'),
    'bool': ('BOOL', 'bool', 'const bool *'),
    'str': ('STR', 'const char *', 'const char *'),
    'ScalarType': ('DTYPE', 'int32_t', 'int32_t'),
    'Layout': ('LAYOUT', 'int32_t', 'int32_t'),
    'MemoryFormat': ('MEMORY_FORMAT', 'int32_t', 'int32_t'),
    'Device': ('DEVICE', 'tc_device', 'const tc_device *'),
    'Generator': ('GENERATOR', 'tc_generator *', 'tc_generator *'),
}
LIST_TYPES = {
    'Tensor': ('TENSOR_LIST', 'tc_tensor_list'),
    'int': ('INT_LIST', 'tc_int_list'),
    'SymInt': ('INT_LIST', 'tc_int_list'),
    'float': ('FLOAT_LIST', 'tc_float_list'),
    'bool': ('BOOL_LIST', 'tc_bool_list'),
}
# Enums of the "-1 means None" kind: no pointer needed for their optional form.
SENTINEL_NONE = {'ScalarType', 'Layout', 'MemoryFormat'}
RETURN_TYPES = {'Tensor', 'Tensor[]', 'bool', 'int', 'float', 'Scalar', 'ScalarType'}
NAMED_DEFAULTS = {
    'Mean': 1, 'Sum': 2, 'None_': 0,
    'contiguous_format': 1, 'preserve_format': 0, 'channels_last': 2,
    'strided': 0, 'sparse_coo': 1,
}
DTYPE_NAMES = {'bool': 0, 'uint8': 1, 'int8': 2, 'int16': 3, 'int': 4, 'int32': 4, 'long': 5, 'int64': 5,
               'half': 6, 'float16': 6, 'bfloat16': 7, 'float': 8, 'float32': 8, 'double': 9, 'float64': 9}
MAX_RETURNS = 8

# attributes after the `|`
KINDS = ('structured', 'impl')
FLAG_WORDS = ('method', 'function', 'number_self', 'no_bool', 'float_only', 'factory', 'composite', 'view',
              'inplace_function', 'ignore_coverage', 'internal', 'hidden', 'varargs', 'hidden_out', 'nn', 'out_exact')
# python modules an op may live in instead of torch (PyTorch's python_module): module=linalg makes
# linalg_inv torch.linalg.inv; the flag `nn` is module=nn (torch._C._nn.gelu, what torch.nn.functional
# calls), neither torch.* nor a method
PYTHON_MODULES = {'linalg': 'linalg_', 'fft': 'fft_', 'nn': ''}
DTYPE_RULES = ('promote', 'float', 'compare', 'same', 'none', 'int_only', 'bool')


class TableError(Exception):
    pass


class Arg:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class Op:
    pass


def split_top(text, sep=','):
    """Splits on `sep` outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, None, ''
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in '"\'':
            quote = ch
        elif ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


TYPE_RE = re.compile(r'^([A-Za-z]+)(\(([a-z])(!?)(->\*)?\))?(\[(\d*)\])?(\?)?$')


def parse_type(text):
    """'Tensor(a!)', 'int[2]', 'Tensor?[]', 'int[1]?', 'Tensor(a -> *)' -> dict. `(a -> *)` is PyTorch's
    annotation of an argument whose views land in a list result (split, unbind)."""
    t = text.replace(' ', '')
    inner_optional = False
    m = re.match(r'^([A-Za-z]+)\?\[\]$', t)  # Tensor?[]: a list whose items may be None
    if m:
        t = m.group(1) + '[]'
        inner_optional = True
    m = TYPE_RE.match(t)
    if not m:
        raise TableError('cannot parse type %r' % text)
    base, _, alias, bang, wildcard, list_part, fixed, optional = m.groups()
    if base not in BASE_TYPES:
        raise TableError('unsupported type %r' % base)
    is_list = list_part is not None
    if is_list and base not in LIST_TYPES:
        raise TableError('unsupported list type %s[]' % base)
    if inner_optional and base != 'Tensor':
        raise TableError('only Tensor?[] may have optional items')
    return {'base': base, 'list': is_list, 'fixed': int(fixed) if fixed else 0, 'optional': optional is not None,
            'alias': alias, 'write': bang == '!', 'optional_items': inner_optional, 'wildcard': bool(wildcard)}


def tag_of(ty):
    return (LIST_TYPES[ty['base']][0] if ty['list'] else BASE_TYPES[ty['base']][0])


def parse_default(ty, text):
    """Returns (kind, python value) where kind says how C spells it."""
    t = text.strip()
    if t == 'None':
        if not ty['optional']:
            raise TableError('default None for a non-optional argument')
        return None
    tag = tag_of(ty)
    if tag in ('INT_LIST', 'FLOAT_LIST', 'BOOL_LIST'):
        if t.startswith('['):
            items = [x.strip() for x in t[1:-1].split(',') if x.strip()]
        else:
            items = [t] * (ty['fixed'] or 1)
        conv = {'INT_LIST': int, 'FLOAT_LIST': float, 'BOOL_LIST': lambda s: {'True': True, 'False': False}[s]}[tag]
        try:
            return [conv(x) for x in items]
        except (ValueError, KeyError):
            raise TableError('bad list default %r' % t)
    if tag == 'INT':
        if t in NAMED_DEFAULTS:
            return NAMED_DEFAULTS[t]
        return int(t)
    if tag == 'FLOAT':
        return float(t)
    if tag == 'BOOL':
        if t not in ('True', 'False'):
            raise TableError('bad bool default %r' % t)
        return t == 'True'
    if tag == 'SCALAR':
        if t in ('True', 'False'):
            return ('int', int(t == 'True'))
        try:
            return ('int', int(t))
        except ValueError:
            return ('float', float(t))
    if tag == 'STR':
        if len(t) < 2 or t[0] not in '"\'' or t[-1] != t[0]:
            raise TableError('bad str default %r' % t)
        return t[1:-1]
    if tag == 'DTYPE':
        if t not in DTYPE_NAMES:
            raise TableError('bad ScalarType default %r' % t)
        return DTYPE_NAMES[t]
    if tag in ('LAYOUT', 'MEMORY_FORMAT'):
        if t not in NAMED_DEFAULTS:
            raise TableError('bad default %r' % t)
        return NAMED_DEFAULTS[t]
    raise TableError('type %s cannot have a default other than None' % ty['base'])


def parse_schema(text):
    m = re.match(r'^\s*(?:([A-Za-z_][A-Za-z0-9_]*)::)?([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z0-9_]+))?'
                 r'\((.*)\)\s*->\s*(.+?)\s*$', text)
    if not m:
        raise TableError('cannot parse schema: %s' % text.strip())
    ns, name, overload, arglist, returns = m.groups()
    if ns:
        raise TableError('built-in ops have no namespace')
    args, kwonly, seen = [], False, set()
    for raw in split_top(arglist):
        if raw == '*':
            if kwonly:
                raise TableError('two `*` in one schema')
            kwonly = True
            continue
        am = re.match(r'^(.+?)\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s*=\s*(.+))?$', raw)
        if not am:
            raise TableError('cannot parse argument: %s' % raw)
        ty = parse_type(am.group(1))
        aname, dflt = am.group(2), am.group(3)
        if aname in seen:
            raise TableError('argument %s appears twice' % aname)
        seen.add(aname)
        default = parse_default(ty, dflt) if dflt is not None else None
        args.append(Arg(name=aname, ty=ty, kwonly=kwonly, has_default=dflt is not None, default=default,
                        default_text=dflt))
    rets = []
    rtext = returns.strip()
    if rtext == '()':
        items = []
    elif rtext.startswith('('):
        items = split_top(rtext[1:-1])
    else:
        items = [rtext]
    for item in items:
        parts = item.rsplit(' ', 1)
        rname = None
        if len(parts) == 2 and re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', parts[1]) and parts[0] != '':
            rty_text, rname = parts
        else:
            rty_text = item
        rty = parse_type(rty_text)
        key = rty['base'] + ('[]' if rty['list'] else '')
        if key not in RETURN_TYPES or rty['optional']:
            raise TableError('unsupported return type %s' % rty_text)
        rets.append(Arg(name=rname, ty=rty))
    if len(rets) > MAX_RETURNS:
        raise TableError('more than %d returns' % MAX_RETURNS)
    # every alias of a result names an argument
    for r in rets:
        if r.ty['alias'] and not any(a.ty['alias'] == r.ty['alias'] for a in args):
            raise TableError('result alias (%s) names no argument' % r.ty['alias'])
    op = Op()
    op.name, op.overload, op.args, op.returns = name, overload or '', args, rets
    return op


def schema_text(op):
    def ty_text(ty):
        s = ty['base']
        if ty['alias']:
            s += '(%s%s%s)' % (ty['alias'], '!' if ty['write'] else '', ' -> *' if ty.get('wildcard') else '')
        if ty['optional_items']:
            s += '?'
        if ty['list']:
            s += '[%s]' % (ty['fixed'] or '')
        if ty['optional']:
            s += '?'
        return s
    parts, star = [], False
    for a in op.args:
        if a.kwonly and not star:
            parts.append('*')
            star = True
        p = '%s %s' % (ty_text(a.ty), a.name)
        if a.has_default:
            p += '=' + a.default_text
        parts.append(p)
    rets = [ty_text(r.ty) + (' ' + r.name if r.name else '') for r in op.returns]
    rtext = rets[0] if len(rets) == 1 and not op.returns[0].name else '(%s)' % ', '.join(rets)
    full = op.name + ('.' + op.overload if op.overload else '')
    return '%s(%s) -> %s' % (full, ', '.join(parts), rtext)


# ---- the table -----------------------------------------------------------------------------------

def parse_attrs(op, words):
    op.kind = None
    op.meta = None
    op.kernel = None
    op.dtype_rule = 'none'
    op.variants = []
    op.flags = set()
    op.impl_name = None
    op.inplace_overload = None
    op.out_overload = None
    op.out_args = None
    op.out_impl = None
    op.as_tuple = None
    op.python_module = None
    for w in words:
        if w in KINDS:
            if op.kind:
                raise TableError('two kinds (%s and %s)' % (op.kind, w))
            op.kind = w
        elif w.startswith('meta='):
            op.meta = w[5:]
        elif w.startswith('kernel='):
            op.kernel = w[7:]
        elif w.startswith('dtype='):
            op.dtype_rule = w[6:]
            if op.dtype_rule not in DTYPE_RULES:
                raise TableError('unknown dtype rule %s' % op.dtype_rule)
        elif w.startswith('variants='):
            op.variants = w[9:].split(',')
            for v in op.variants:
                if v not in ('inplace', 'out'):
                    raise TableError('unknown variant %s' % v)
        elif w.startswith('impl='):
            op.impl_name = w[5:]
        elif w.startswith('out_impl='):  # the C function of a composite's out= variant
            op.out_impl = w[9:]
        elif w.startswith('inplace=') or w.startswith('out='):
            # PyTorch names some variants irregularly (pow_.Scalar of pow.Tensor_Scalar, eq.Tensor_out)
            key, _, name = w.partition('=')
            if not re.match(r'^[A-Za-z0-9_]*$', name):
                raise TableError('bad overload name %r' % name)
            setattr(op, key + '_overload', name)
        elif w.startswith('out_args='):  # PyTorch's names of the out= variant's written arguments
            op.out_args = w[9:].split(',')
        elif w.startswith('as_tuple='):
            op.as_tuple = w[9:]
        elif w.startswith('module='):
            op.python_module = w[7:]
            if op.python_module not in PYTHON_MODULES:
                raise TableError('unknown python module %s' % op.python_module)
        elif w in FLAG_WORDS:
            op.flags.add(w)
        else:
            raise TableError('unknown attribute %s' % w)
    if op.kind is None:
        raise TableError('expected `structured` or `impl` after |')
    for key in ('inplace', 'out'):
        if getattr(op, key + '_overload') is not None and key not in op.variants:
            raise TableError('%s= names a variant the op does not declare' % key)
    if op.kind == 'structured':
        if not op.meta:
            raise TableError('a structured op needs meta=')
        if op.kernel is None:
            op.kernel = op.name.rstrip('_')
        if op.kernel == '-':
            op.kernel = None
    elif op.meta or op.kernel:
        raise TableError('meta= and kernel= are for structured ops')


def derive_inplace(base):
    op = Op()
    op.__dict__.update(base.__dict__)
    op.name = base.name + '_'
    if base.inplace_overload is not None:
        op.overload = base.inplace_overload
    op.args = [Arg(**a.__dict__) for a in base.args]
    first = op.args[0]
    if first.ty['base'] != 'Tensor' or first.ty['list']:
        raise TableError('an in-place variant needs a Tensor first argument')
    first.ty = dict(first.ty, alias='a', write=True)
    if len(base.returns) != 1:
        raise TableError('an in-place variant needs one Tensor result')
    op.returns = [Arg(name=None, ty=dict(base.returns[0].ty, alias='a', write=True))]
    op.variant = 'inplace'
    if base.kind == 'impl':
        op.impl_name = 'inplace_from_functional'
    op.flags = set(base.flags) - {'function'}
    op.flags.add('method')
    if 'inplace_function' in base.flags:
        op.flags.discard('method')
    op.variants = []
    return op


def derive_out(base):
    op = Op()
    op.__dict__.update(base.__dict__)
    op.overload = base.out_overload or ('out' if base.overload in ('', 'Tensor') else base.overload + '_out')
    op.args = [Arg(**a.__dict__) for a in base.args]
    if base.out_args and len(base.out_args) != len(base.returns):
        raise TableError('out_args= names %d arguments for %d results' % (len(base.out_args), len(base.returns)))
    letters = 'abcdefgh'
    names = []
    for i, r in enumerate(base.returns):
        if r.ty['base'] != 'Tensor' or r.ty['list']:
            raise TableError('out variants need Tensor results')
        name = base.out_args[i] if base.out_args else 'out' if len(base.returns) == 1 else (r.name or 'out%d' % i)
        names.append(name)
        op.args.append(Arg(name=name, ty={'base': 'Tensor', 'list': False, 'fixed': 0, 'optional': False,
                                          'alias': letters[i], 'write': True, 'optional_items': False},
                           kwonly=True, has_default=False, default=None, default_text=None))
    op.returns = [Arg(name=r.name, ty=dict(r.ty, alias=letters[i], write=True)) for i, r in enumerate(base.returns)]
    op.variant = 'out'
    if base.kind == 'impl':
        op.impl_name = base.out_impl or ('out_exact_from_functional' if 'out_exact' in base.flags
                                         else 'out_from_functional')
    # out= is a torch function, unless the op is a method only (x.repeat: torch.ops.aten.repeat.out alone)
    # or PyTorch's Python has no out= for it (hidden_out)
    op.flags = set(base.flags) - {'method'}
    op.flags.add('hidden' if 'method' in base.flags or 'hidden_out' in base.flags else 'function')
    op.variants = []
    return op


INTERNAL_KERNELS = []


def read_table(path):
    ops = []
    formula_lines = {}  # functional op -> [(lineno, text)]
    last = None
    with open(path) as f:
        lines = list(f)
    for lineno, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith('#'):
            continue
        if line[0] in ' \t':  # a derivative formula of the op above
            if last is None:
                raise SystemExit('%s:%d: a formula needs an op line above it' % (path, lineno))
            formula_lines[last].append((lineno, stripped))
            continue
        last = None
        if stripped.startswith('kernel '):  # a kernel the core runs for itself (casts, copies)
            name = stripped.split()[1]
            if not re.match(r'^[a-z_][a-z0-9_]*$', name) or len(stripped.split()) != 2:
                raise SystemExit('%s:%d: expected "kernel NAME"' % (path, lineno))
            INTERNAL_KERNELS.append(name)
            continue
        schema, bar, attrs = stripped.partition('|')
        try:
            if not bar:
                raise TableError('expected "schema | attributes"')
            op = parse_schema(schema)
            parse_attrs(op, attrs.split())
            op.variant = 'inplace' if op.returns and op.returns[0].ty['write'] and op.args and \
                op.args[0].ty['write'] else 'functional'
            if any(a.ty['write'] and a.kwonly for a in op.args):
                op.variant = 'out'
            op.lineno = lineno
            group = [op]
            for v in op.variants:
                group.append(derive_inplace(op) if v == 'inplace' else derive_out(op))
            for g in group:
                g.lineno = lineno
                g.base = op
            ops.extend(group)
            last = op
            formula_lines[op] = []
        except TableError as e:
            raise SystemExit('%s:%d: %s' % (path, lineno, e))
    for op, flines in formula_lines.items():
        if flines and op.variant == 'out':
            raise SystemExit('%s:%d: out= variants have no derivatives' % (path, flines[0][0]))
        try:
            gen_autograd.parse_formula_lines(op, flines)
        except gen_autograd.FormulaError as e:
            raise SystemExit('%s: %s' % (path, e))
    seen = {}
    for o in ops:
        o.id = o.name + ('_' + o.overload if o.overload else '')
        o.qualname = o.name + ('.' + o.overload if o.overload else '')
        if o.id in seen:
            raise SystemExit('%s:%d: op %s is declared twice (first at line %d)' % (path, o.lineno, o.qualname,
                                                                                  seen[o.id]))
        seen[o.id] = o.lineno
        if 'nn' in o.flags and not o.python_module:
            o.python_module = 'nn'
        # a method when a Tensor argument is called self, usually the first (polygamma(int n, Tensor self)
        # is x.polygamma(n) too)
        o.is_method = any(a.name == 'self' and a.ty['base'] == 'Tensor' and not a.ty['list'] for a in o.args) \
            and 'function' not in o.flags and 'internal' not in o.flags and 'hidden' not in o.flags \
            and not o.python_module
        # a module's ops are functions of the module in every variant (torch._C._nn.hardtanh_)
        o.is_function = ('method' not in o.flags or bool(o.python_module)) and 'internal' not in o.flags \
            and 'hidden' not in o.flags
        o.python_name = o.name
        if o.python_module:
            prefix = PYTHON_MODULES[o.python_module]
            if not o.name.startswith(prefix):
                raise SystemExit('%s:%d: module=%s ops are named %s*' % (path, o.lineno, o.python_module, prefix))
            o.python_name = o.name[len(prefix):]
        if o.kind == 'impl' and not o.impl_name:
            o.impl_name = o.id
    return ops


def autograd_impl(o):
    """What the op runs at the autograd key: the autograd step, or nothing (NULL: a composite runs
    its parts, which record themselves; an op without tensors in or out, or with only integer
    results, has nothing to record)."""
    tensor_in = any(a.ty['base'] == 'Tensor' for a in o.args)
    tensor_out = any(r.ty['base'] == 'Tensor' for r in o.returns)
    if not tensor_in or not tensor_out:
        return None
    if o.variant == 'out' or gen_autograd.has_autograd(o.base):
        return 'tc_ag_op_impl'
    if o.dtype_rule == 'int_only':
        return None  # integer and bool results only (bitwise ops): nothing to differentiate or record
    if 'composite' in o.flags:
        return None
    return 'tc_ag_op_impl'


def kernel_names(ops):
    names = list(INTERNAL_KERNELS)
    for o in ops:
        if o.kernel and o.kernel not in names:
            names.append(o.kernel)
    return names


# ---- C emission ------------------------------------------------------------------------------------

def c_str(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def arg_flags(a):
    f = []
    if a.ty['optional']:
        f.append('TC_ARG_OPTIONAL')
    if a.kwonly:
        f.append('TC_ARG_KWONLY')
    if a.ty['write']:
        f.append('TC_ARG_WRITE')
    if a.ty['alias']:
        f.append('TC_ARG_ALIAS')
    if a.has_default:
        f.append('TC_ARG_HAS_DEFAULT')
    if a.ty['optional_items']:
        f.append('TC_ARG_OPTIONAL_ITEMS')
    return ' | '.join(f) or '0'


def c_default_value(a, store, prefix):
    """A C initializer for the argument's default tc_value."""
    if not a.has_default or a.default is None:
        return '{.tag = TC_VALUE_NONE}'
    tag = tag_of(a.ty)
    d = a.default
    if tag in ('INT_LIST', 'FLOAT_LIST', 'BOOL_LIST'):
        ctype = {'INT_LIST': 'int64_t', 'FLOAT_LIST': 'double', 'BOOL_LIST': 'bool'}[tag]
        member = {'INT_LIST': 'ints', 'FLOAT_LIST': 'floats', 'BOOL_LIST': 'bools'}[tag]
        if d:
            name = '%s_%s' % (prefix, a.name)
            vals = ', '.join('true' if v is True else 'false' if v is False else repr(v) for v in d)
            store.append('static const %s %s[] = {%s};' % (ctype, name, vals))
            return '{.tag = TC_VALUE_%s, .v.%s = {%s, %d}}' % (tag, member, name, len(d))
        return '{.tag = TC_VALUE_%s, .v.%s = {NULL, 0}}' % (tag, member)
    if tag == 'INT':
        return '{.tag = TC_VALUE_INT, .v.i = %d}' % d
    if tag in ('DTYPE', 'LAYOUT', 'MEMORY_FORMAT'):
        return '{.tag = TC_VALUE_%s, .v.i = %d}' % (tag, d)
    if tag == 'FLOAT':
        return '{.tag = TC_VALUE_FLOAT, .v.f = %s}' % c_double(d)
    if tag == 'BOOL':
        return '{.tag = TC_VALUE_BOOL, .v.b = %s}' % ('true' if d else 'false')
    if tag == 'SCALAR':
        kind, v = d
        if kind == 'int':
            return '{.tag = TC_VALUE_SCALAR, .v.scalar = {.kind = TC_SCALAR_INT, .v.i = %d}}' % v
        return '{.tag = TC_VALUE_SCALAR, .v.scalar = {.kind = TC_SCALAR_FLOAT, .v.f = %s}}' % c_double(v)
    if tag == 'STR':
        return '{.tag = TC_VALUE_STR, .v.s = %s}' % c_str(d)
    raise TableError('no C default for %s' % tag)


def c_double(v):
    if v != v:
        return 'NAN'
    if v in (float('inf'), float('-inf')):
        return 'INFINITY' if v > 0 else '(-INFINITY)'
    return repr(float(v))


def c_param(a):
    ty = a.ty
    if ty['list']:
        ctype = LIST_TYPES[ty['base']][1]
        return ('const %s *' % ctype) if ty['optional'] else ctype
    base = BASE_TYPES[ty['base']]
    if ty['optional'] and ty['base'] not in SENTINEL_NONE:
        return base[2]
    return base[1]


def c_pack(a, i):
    """Statement(s) packing typed parameter `a` into argv[i]."""
    ty, n = a.ty, 'p_' + a.name
    tag = tag_of(ty)
    v = 'argv[%d]' % i
    if ty['list']:
        member = {'TENSOR_LIST': 'tensors', 'INT_LIST': 'ints', 'FLOAT_LIST': 'floats', 'BOOL_LIST': 'bools'}[tag]
        if ty['optional']:
            return ('if (%s) { %s.tag = TC_VALUE_%s; %s.v.%s.items = %s->items; %s.v.%s.len = %s->len; } '
                    'else %s.tag = TC_VALUE_NONE;' % (n, v, tag, v, member, n, v, member, n, v))
        return '%s.tag = TC_VALUE_%s; %s.v.%s.items = %s.items; %s.v.%s.len = %s.len;' % (
            v, tag, v, member, n, v, member, n)
    member = {'TENSOR': 'tensor', 'SCALAR': 'scalar', 'INT': 'i', 'FLOAT': 'f', 'BOOL': 'b', 'STR': 's',
              'DTYPE': 'i', 'LAYOUT': 'i', 'MEMORY_FORMAT': 'i', 'DEVICE': 'device', 'GENERATOR': 'generator'}[tag]
    if ty['optional']:
        if ty['base'] in SENTINEL_NONE:
            return '%s.tag = %s < 0 ? TC_VALUE_NONE : TC_VALUE_%s; %s.v.i = %s;' % (v, n, tag, v, n)
        if ty['base'] in ('Tensor', 'Generator', 'str'):
            return '%s.tag = %s ? TC_VALUE_%s : TC_VALUE_NONE; %s.v.%s = %s;' % (v, n, tag, v, member, n)
        return 'if (%s) { %s.tag = TC_VALUE_%s; %s.v.%s = *%s; } else %s.tag = TC_VALUE_NONE;' % (
            n, v, tag, v, member, n, v)
    return '%s.tag = TC_VALUE_%s; %s.v.%s = %s;' % (v, tag, v, member, n)


# Type names of the ABI that an entry must not shadow: an overload-less op with one of these names
# gets the entry tc_<name>_default (the view op's entry is tc_view_default), as torch.ops spells it.
RESERVED_ENTRY_NAMES = {'view', 'scalar', 'device', 'value', 'tensor', 'layout', 'dtype', 'allocator', 'storage',
                        'generator'}


def entry_name(o):
    return 'tc_' + o.id + ('_default' if o.id in RESERVED_ENTRY_NAMES else '')


def entry_signature(o):
    params = ['%s p_%s' % (c_param(a), a.name) for a in o.args]
    single_tensor = len(o.returns) == 1 and o.returns[0].ty['base'] == 'Tensor' and not o.returns[0].ty['list']
    if single_tensor:
        return 'tc_tensor *%s(%s)' % (entry_name(o), ', '.join(params) or 'void')
    for i, r in enumerate(o.returns):
        key = r.ty['base'] + ('[]' if r.ty['list'] else '')
        ctype = {'Tensor': 'tc_tensor *', 'Tensor[]': 'tc_tensor_vec', 'bool': 'bool', 'int': 'int64_t',
                 'float': 'double', 'Scalar': 'tc_scalar', 'ScalarType': 'int32_t'}[key]
        params.append('%s*r_%d' % (ctype if ctype.endswith('*') else ctype + ' ', i))
    return 'int %s(%s)' % (entry_name(o), ', '.join(params) or 'void')


def entry_body(o):
    n = len(o.args)
    lines = ['%s {' % entry_signature(o)]
    lines.append('    tc_value argv[%d];' % max(n, 1))
    lines.append('    tc_value results[%d];' % max(len(o.returns), 1))
    for i, a in enumerate(o.args):
        lines.append('    ' + c_pack(a, i))
    single_tensor = len(o.returns) == 1 and o.returns[0].ty['base'] == 'Tensor' and not o.returns[0].ty['list']
    call = 'tc_dispatch(&tc_builtin_ops[TC_OP_%s], argv, results)' % o.id
    if single_tensor:
        lines.append('    return %s == TC_OK ? results[0].v.tensor : NULL;' % call)
    else:
        lines.append('    if (%s != TC_OK) return TC_FAIL;' % call)
        for i, r in enumerate(o.returns):
            key = r.ty['base'] + ('[]' if r.ty['list'] else '')
            member = {'Tensor': 'v.tensor', 'bool': 'v.b', 'int': 'v.i', 'float': 'v.f', 'Scalar': 'v.scalar',
                      'ScalarType': 'v.i'}.get(key)
            if key == 'Tensor[]':
                lines.append('    r_%d->items = (tc_tensor **)results[%d].v.tensors.items; '
                             'r_%d->len = results[%d].v.tensors.len;' % (i, i, i, i))
            else:
                lines.append('    *r_%d = results[%d].%s;' % (i, i, member))
        lines.append('    return TC_OK;')
    lines.append('}')
    return '\n'.join(lines)


def write_public_header(ops, path):
    out = ['/* Generated by tools/gen_ops.py from core/ops.table. Do not edit.',
           ' *',
           ' * One typed entry per op. Each packs its arguments and runs the op through the dispatcher,',
           ' * exactly as the boxed form (tc_call_op) does. Optional arguments: NULL (pointers, tensors)',
           ' * or -1 (ScalarType?, Layout?, MemoryFormat?) for None. A Tensor result is a new reference',
           ' * (NULL on failure, with the error set); other ops return TC_OK/TC_FAIL and write results',
           ' * through the trailing pointers. */',
           '#ifndef TC_OPS_H', '#define TC_OPS_H', '',
           '#include "torch_core/tc_core.h"', '', '#ifdef __cplusplus', 'extern "C" {', '#endif', '',
           'enum tc_op_id {']
    out += ['    TC_OP_%s = %d,' % (o.id, i) for i, o in enumerate(ops)]
    out += ['    TC_NUM_BUILTIN_OPS = %d' % len(ops), '};', '']
    for o in ops:
        out.append('TC_EXPORT %s;' % entry_signature(o))
    out += ['', '#ifdef __cplusplus', '}', '#endif', '#endif', '']
    write_if_changed(path, '\n'.join(out))


def write_internal_header(ops, path):
    kernels = kernel_names(ops)
    out = ['/* Generated by tools/gen_ops.py from core/ops.table. Do not edit. */',
           '#ifndef TC_OPS_GEN_H', '#define TC_OPS_GEN_H', '', '#include "torch_core/tc_ops.h"', '',
           'enum tc_kernel_id {']
    out += ['    TC_KERNEL_%s = %d,' % (k.replace('::', '_'), i) for i, k in enumerate(kernels)]
    out += ['    TC_NUM_BUILTIN_KERNELS = %d' % len(kernels), '};', '']
    out += ['enum tc_dtype_rule {'] + ['    TC_RULE_%s,' % r.upper() for r in DTYPE_RULES] + ['};', '']
    out += ['struct tc_op;', 'struct tc_opcall;', 'struct tc_plan;', '']
    metas = sorted({o.meta for o in ops if o.meta})
    for m in metas:
        out.append('TC_INTERNAL int tc_meta_%s(struct tc_opcall *call, struct tc_plan *plan);' % m)
    impls = sorted({o.impl_name for o in ops if o.kind == 'impl'})
    for i in impls:
        out.append('TC_INTERNAL int tc_impl_%s(struct tc_opcall *call);' % i)
    out += ['', 'struct tc_grad_info;']
    for o in ops:
        if o.base is o and gen_autograd.has_autograd(o):
            out.append('extern const struct tc_grad_info tc_grad_info_%s;' % o.id)
    out += ['', 'extern const char *const tc_builtin_kernel_names[TC_NUM_BUILTIN_KERNELS];', '', '#endif', '']
    write_if_changed(path, '\n'.join(out))


def write_source(ops, path):
    kernels = kernel_names(ops)
    out = ['/* Generated by tools/gen_ops.py from core/ops.table. Do not edit. */',
           '#include "core_internal.h"', '', '#include <math.h>', '']
    for o in ops:
        store = []
        rows = []
        for a in o.args:
            dv = c_default_value(a, store, 'dflt_%s' % o.id)
            rows.append('    {%s, TC_VALUE_%s, %s, %d, %s, %s},' % (
                c_str(a.name), tag_of(a.ty), arg_flags(a), a.ty['fixed'],
                c_str(a.default_text) if a.default_text is not None else 'NULL', dv))
        out += store
        if rows:
            out.append('static const tc_arg_schema args_%s[] = {' % o.id)
            out += rows
            out.append('};')
        rrows = []
        for r in o.returns:
            alias_arg = -1
            if r.ty['alias']:
                alias_arg = next(i for i, a in enumerate(o.args) if a.ty['alias'] == r.ty['alias'])
            rrows.append('    {%s, TC_VALUE_%s, %s, %d},' % (
                c_str(r.name) if r.name else 'NULL', tag_of(r.ty),
                'TC_ARG_WRITE | TC_ARG_ALIAS' if r.ty['write'] else 'TC_ARG_ALIAS' if r.ty['alias'] else '0',
                alias_arg))
        if rrows:
            out.append('static const tc_return_schema returns_%s[] = {' % o.id)
            out += rrows
            out.append('};')
    out.append('')
    out.append('struct tc_op tc_builtin_ops[TC_NUM_BUILTIN_OPS] = {')
    for o in ops:
        flags = []
        if o.is_method:
            flags.append('TC_OPF_METHOD')
        if o.is_function:
            flags.append('TC_OPF_FUNCTION')
        if o.variant == 'out':
            flags.append('TC_OPF_OUT')
        for f, c in (('number_self', 'NUMBER_SELF'), ('no_bool', 'NO_BOOL'), ('float_only', 'FLOAT_ONLY'),
                     ('factory', 'FACTORY'), ('composite', 'COMPOSITE'), ('view', 'VIEW'), ('varargs', 'VARARGS'),
                     ('out_exact', 'OUT_EXACT')):
            if f in o.flags:
                flags.append('TC_OPF_' + c)
        variant = {'functional': 'TC_VARIANT_FUNCTIONAL', 'inplace': 'TC_VARIANT_INPLACE',
                   'out': 'TC_VARIANT_OUT'}[o.variant]
        out.append('    [TC_OP_%s] = {' % o.id)
        out.append('        .schema = {%s, %s, %s, %d, %d, %s, %s, %s},' % (
            c_str(o.name), c_str(o.overload), c_str(schema_text(o)), len(o.args), len(o.returns),
            'args_%s' % o.id if o.args else 'NULL', 'returns_%s' % o.id if o.returns else 'NULL',
            ' | '.join(flags) or '0'))
        out.append('        .id = TC_OP_%s, .variant = %s, .base = TC_OP_%s, .dtype_rule = TC_RULE_%s,' % (
            o.id, variant, o.base.id, o.dtype_rule.upper()))
        if o.kind == 'structured':
            out.append('        .kernel = %s, .meta = tc_meta_%s, .impl = tc_structured_run,' % (
                'TC_KERNEL_%s' % o.kernel if o.kernel else '-1', o.meta))
        else:
            out.append('        .kernel = -1, .impl = tc_impl_%s,' % o.impl_name)
        ag = autograd_impl(o)
        if ag:
            out.append('        .impl_autograd = %s, .impl_forward_ad = tc_fw_op_impl,' % ag)
        if gen_autograd.has_autograd(o.base):
            out.append('        .grad = &tc_grad_info_%s,' % o.base.id)
        out.append('    },')
    out.append('};')
    out.append('')
    out.append('const char *const tc_builtin_kernel_names[TC_NUM_BUILTIN_KERNELS] = {')
    out += ['    %s,' % c_str(k) for k in kernels]
    out.append('};')
    out.append('')
    for o in ops:
        out.append(entry_body(o))
        out.append('')
    write_if_changed(path, '\n'.join(out))


def write_bindings(ops, path):
    """Per Python name, the ops it tries in order (table order), as functions and as methods."""
    out = ['/* Generated by tools/gen_ops.py from core/ops.table. Do not edit. */', '']
    functions, methods = {}, {}
    for o in ops:
        if o.is_function:
            functions.setdefault(o.name, []).append(o)
        if o.is_method:
            methods.setdefault(o.name, []).append(o)
    for kind, table in (('fn', functions), ('meth', methods)):
        for name, group in table.items():
            out.append('static const int32_t %s_ops_%s[] = {%s, -1};' % (
                kind, name, ', '.join('TC_OP_%s' % o.id for o in group)))
    # the ops an as_tuple=OP attribute names, whether or not they have a Python name of their own
    for alt in sorted({o.as_tuple for o in ops if o.as_tuple}):
        group = [o for o in ops if o.name == alt]
        if not group:
            raise SystemExit('as_tuple=%s names no op' % alt)
        out.append('static const int32_t alt_ops_%s[] = {%s, -1};' % (
            alt, ', '.join('TC_OP_%s' % o.id for o in group)))
    out.append('')
    def binding(kind, name, group):
        # as_tuple=OP: as_tuple=True calls OP's ops instead (varargs ops need nothing here: the binding
        # spreads their Tensor[] over the positional tensors)
        first, self_arg = ('m', 'NULL') if kind == 'fn' else ('self', 'self')
        alt = next((o.as_tuple for o in group if o.as_tuple), None)
        if alt:
            call = 'tp_call_ops_as_tuple(%s_ops_%s, alt_ops_%s' % (kind, name, alt)
        else:
            call = 'tp_call_ops(%s_ops_%s' % (kind, name)
        return ('static PyObject *%s_%s(PyObject *%s, PyObject *const *args, Py_ssize_t n, PyObject *kw) '
                '{ return %s, %s, %s, args, n, kw); }' % (kind, name, first, call, c_str(name), self_arg))
    for name, group in functions.items():
        out.append(binding('fn', name, group))
    for name, group in methods.items():
        out.append(binding('meth', name, group))
    out.append('')
    modules = {None: 'TP_GENERATED_FUNCTIONS'}
    modules.update({m: 'TP_GENERATED_%s_FUNCTIONS' % m.upper() for m in PYTHON_MODULES})
    for module, macro in modules.items():
        out.append('#define %s \\' % macro)
        for name, group in functions.items():
            if group[0].python_module == module:
                out.append('    {%s, (PyCFunction)(void (*)(void))fn_%s, METH_FASTCALL | METH_KEYWORDS, NULL}, \\'
                           % (c_str(group[0].python_name), name))
        out.append('    /* end of generated functions */')
        out.append('')
    out.append('#define TP_GENERATED_METHODS \\')
    for name in methods:
        out.append('    {%s, (PyCFunction)(void (*)(void))meth_%s, METH_FASTCALL | METH_KEYWORDS, NULL}, \\'
                   % (c_str(name), name))
    out.append('    /* end of generated methods */')
    out.append('')
    write_if_changed(path, '\n'.join(out))


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, 'w') as f:
        f.write(text)


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    ops = read_table(argv[1])
    out = argv[2]
    write_public_header(ops, os.path.join(out, 'torch_core', 'tc_ops.h'))
    write_internal_header(ops, os.path.join(out, 'tc_ops_gen.h'))
    write_source(ops, os.path.join(out, 'tc_ops_gen.c'))
    write_bindings(ops, os.path.join(out, 'bindings.inc'))
    text, _ = gen_autograd.emit(ops, entry_name, None, argv[1])
    write_if_changed(os.path.join(out, 'tc_autograd_gen.c'), '\n'.join(text) + '\n')


if __name__ == '__main__':
    main(sys.argv)
