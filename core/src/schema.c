/*
 * The run-time schema parser: PyTorch's schema language, for ops added while the program runs
 * (tc_op_define, a plugin's register_op, torch.library's define). It accepts exactly what
 * tools/gen_ops.py accepts for the op table (tests/c/test_schema.c parses every built-in schema with
 * it and compares), and gives every string, argument and default of the op one allocation, owned by
 * the returned record.
 */
#include "core_internal.h"

#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bump allocator over the record's one block. */
typedef struct arena {
    char *base;
    size_t used, cap;
} arena;

static void *take(arena *a, size_t n) {
    size_t at = (a->used + 7) & ~(size_t)7;
    if (at + n > a->cap) return NULL;
    a->used = at + n;
    return a->base + at;
}

static char *copy_text(arena *a, const char *s, size_t n) {
    char *d = take(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

typedef struct span {
    const char *s;
    size_t n;
} span;

static span trim(span x) {
    while (x.n && isspace((unsigned char)x.s[0])) x.s++, x.n--;
    while (x.n && isspace((unsigned char)x.s[x.n - 1])) x.n--;
    return x;
}

static bool span_is(span x, const char *word) { return x.n == strlen(word) && memcmp(x.s, word, x.n) == 0; }

/* Splits `x` at top-level commas (outside brackets and quotes); calls fn for each non-empty piece. */
static int split(span x, int (*fn)(void *ctx, span piece), void *ctx) {
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    for (size_t i = 0; i <= x.n; i++) {
        char c = i < x.n ? x.s[i] : ',';
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '"' || c == '\'') quote = c;
        else if (c == '(' || c == '[') depth++;
        else if (c == ')' || c == ']') depth--;
        else if (c == ',' && depth == 0) {
            span piece = trim((span){x.s + start, i - start});
            if (piece.n && fn(ctx, piece)) return TC_FAIL;
            start = i + 1;
        }
    }
    return TC_OK;
}

static int count_piece(void *ctx, span piece) {
    (void)piece;
    (*(int32_t *)ctx)++;
    return TC_OK;
}

/* ---- types ---- */

typedef struct parsed_type {
    int32_t tag;
    uint32_t flags; /* TC_ARG_OPTIONAL / WRITE / ALIAS / OPTIONAL_ITEMS */
    int32_t fixed_len;
    char alias;
    bool is_list;
    span base;
} parsed_type;

static const struct {
    const char *name;
    int32_t tag, list_tag;
} base_types[] = {
    {"Tensor", TC_VALUE_TENSOR, TC_VALUE_TENSOR_LIST},
    {"Scalar", TC_VALUE_SCALAR, -1},
    {"int", TC_VALUE_INT, TC_VALUE_INT_LIST},
    {"SymInt", TC_VALUE_INT, TC_VALUE_INT_LIST},
    {"float", TC_VALUE_FLOAT, TC_VALUE_FLOAT_LIST},
    {"bool", TC_VALUE_BOOL, TC_VALUE_BOOL_LIST},
    {"str", TC_VALUE_STR, -1},
    {"ScalarType", TC_VALUE_DTYPE, -1},
    {"Layout", TC_VALUE_LAYOUT, -1},
    {"MemoryFormat", TC_VALUE_MEMORY_FORMAT, -1},
    {"Device", TC_VALUE_DEVICE, -1},
    {"Generator", TC_VALUE_GENERATOR, -1},
};

static int bad(const char *what, span where) {
    return tc_set_error(TC_ERR_VALUE, "schema: %s: '%.*s'", what, (int)where.n, where.s);
}

static int parse_type(span t, parsed_type *out) {
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < t.n && (isalnum((unsigned char)t.s[i]) || t.s[i] == '_')) i++;
    out->base = (span){t.s, i};
    int found = -1;
    for (size_t k = 0; k < sizeof base_types / sizeof base_types[0] && found < 0; k++)
        if (span_is(out->base, base_types[k].name)) found = (int)k;
    if (found < 0) return bad("unsupported type", t);
    if (i < t.n && t.s[i] == '(') { /* alias annotation (a), (a!), or (a -> *): views of it in a list result */
        if (i + 2 >= t.n || !islower((unsigned char)t.s[i + 1])) return bad("bad alias annotation", t);
        out->alias = t.s[i + 1];
        out->flags |= TC_ARG_ALIAS;
        i += 2;
        if (i < t.n && t.s[i] == '!') {
            out->flags |= TC_ARG_WRITE;
            i++;
        }
        while (i < t.n && t.s[i] == ' ') i++;
        if (i + 1 < t.n && t.s[i] == '-' && t.s[i + 1] == '>') {
            for (i += 2; i < t.n && t.s[i] == ' '; i++) {}
            if (i >= t.n || t.s[i] != '*') return bad("bad alias annotation", t);
            for (i++; i < t.n && t.s[i] == ' '; i++) {}
        }
        if (i >= t.n || t.s[i] != ')') return bad("bad alias annotation", t);
        i++;
    }
    if (i + 1 < t.n && t.s[i] == '?' && t.s[i + 1] == '[') { /* Tensor?[] */
        if (found != 0) return bad("only Tensor?[] may have optional items", t);
        out->flags |= TC_ARG_OPTIONAL_ITEMS;
        i++;
    }
    if (i < t.n && t.s[i] == '[') {
        size_t j = i + 1;
        int64_t n = 0;
        while (j < t.n && isdigit((unsigned char)t.s[j])) n = n * 10 + (t.s[j++] - '0');
        if (j >= t.n || t.s[j] != ']' || n > TC_MAX_DIMS) return bad("bad list type", t);
        out->is_list = true;
        out->fixed_len = (int32_t)n;
        i = j + 1;
    }
    if (i < t.n && t.s[i] == '?') {
        out->flags |= TC_ARG_OPTIONAL;
        i++;
    }
    if (i != t.n) return bad("cannot parse type", t);
    out->tag = out->is_list ? base_types[found].list_tag : base_types[found].tag;
    if (out->tag < 0) return bad("unsupported list type", t);
    return TC_OK;
}

/* ---- defaults ---- */

static const struct {
    const char *name;
    int64_t value;
} named_defaults[] = {
    {"Mean", 1}, {"Sum", 2}, {"None_", 0}, {"contiguous_format", 1}, {"preserve_format", 0},
    {"channels_last", 2}, {"strided", 0}, {"sparse_coo", 1},
    {"bool", TC_BOOL}, {"uint8", TC_UINT8}, {"int8", TC_INT8}, {"int16", TC_INT16}, {"int", TC_INT32},
    {"int32", TC_INT32}, {"long", TC_INT64}, {"int64", TC_INT64}, {"half", TC_FLOAT16}, {"float16", TC_FLOAT16},
    {"bfloat16", TC_BFLOAT16}, {"float", TC_FLOAT32}, {"float32", TC_FLOAT32}, {"double", TC_FLOAT64},
    {"float64", TC_FLOAT64},
};

static bool parse_int(span t, int64_t *out) {
    char buf[32];
    if (t.n == 0 || t.n >= sizeof buf) return false;
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (*end) return false;
    *out = v;
    return true;
}

static bool parse_double(span t, double *out) {
    char buf[64];
    if (t.n == 0 || t.n >= sizeof buf) return false;
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    if (strcmp(buf, "inf") == 0) return *out = INFINITY, true;
    if (strcmp(buf, "-inf") == 0) return *out = -INFINITY, true;
    char *end;
    *out = strtod(buf, &end);
    return !*end;
}

static bool named(span t, int64_t *out) {
    for (size_t k = 0; k < sizeof named_defaults / sizeof named_defaults[0]; k++)
        if (span_is(t, named_defaults[k].name)) return *out = named_defaults[k].value, true;
    return false;
}

typedef struct list_ctx {
    arena *a;
    int32_t tag;
    void *items;
    int64_t len;
    bool ok;
} list_ctx;

static int list_item(void *vctx, span piece) {
    list_ctx *c = vctx;
    if (c->tag == TC_VALUE_INT_LIST) {
        c->ok = c->ok && parse_int(piece, &((int64_t *)c->items)[c->len]);
    } else if (c->tag == TC_VALUE_FLOAT_LIST) {
        c->ok = c->ok && parse_double(piece, &((double *)c->items)[c->len]);
    } else {
        bool t = span_is(piece, "True");
        c->ok = c->ok && (t || span_is(piece, "False"));
        ((bool *)c->items)[c->len] = t;
    }
    c->len++;
    return TC_OK;
}

static int parse_default(arena *a, const parsed_type *ty, span t, tc_value *out) {
    *out = (tc_value){.tag = TC_VALUE_NONE};
    if (span_is(t, "None")) {
        if (!(ty->flags & TC_ARG_OPTIONAL)) return bad("default None for a non-optional argument", t);
        return TC_OK;
    }
    int64_t i;
    double f;
    out->tag = ty->tag;
    switch (ty->tag) {
    case TC_VALUE_INT_LIST:
    case TC_VALUE_FLOAT_LIST:
    case TC_VALUE_BOOL_LIST: {
        bool bracket = t.n >= 2 && t.s[0] == '[' && t.s[t.n - 1] == ']';
        span inner = bracket ? (span){t.s + 1, t.n - 2} : t;
        int32_t count = 0;
        split(inner, count_piece, &count);
        int64_t n = bracket ? count : (ty->fixed_len ? ty->fixed_len : 1);
        size_t size = ty->tag == TC_VALUE_BOOL_LIST ? sizeof(bool) : 8;
        list_ctx c = {a, ty->tag, n ? take(a, size * (size_t)n) : NULL, 0, true};
        if (n && !c.items) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        if (bracket) {
            split(inner, list_item, &c);
        } else {
            for (int64_t k = 0; k < n; k++) list_item(&c, t); /* int[2] stride=1 means [1, 1] */
        }
        if (!c.ok) return bad("bad list default", t);
        out->v.ints.items = c.items; /* the three list members share their layout */
        out->v.ints.len = c.len;
        return TC_OK;
    }
    case TC_VALUE_INT:
        if (!parse_int(t, &out->v.i) && !named(t, &out->v.i)) return bad("bad int default", t);
        return TC_OK;
    case TC_VALUE_FLOAT:
        if (!parse_double(t, &out->v.f)) return bad("bad float default", t);
        return TC_OK;
    case TC_VALUE_BOOL:
        if (!span_is(t, "True") && !span_is(t, "False")) return bad("bad bool default", t);
        out->v.b = span_is(t, "True");
        return TC_OK;
    case TC_VALUE_SCALAR:
        if (span_is(t, "True") || span_is(t, "False")) {
            out->v.scalar = TC_SCALAR_OF_INT(span_is(t, "True"));
        } else if (parse_int(t, &i)) {
            out->v.scalar = TC_SCALAR_OF_INT(i);
        } else if (parse_double(t, &f)) {
            out->v.scalar = TC_SCALAR_OF_FLOAT(f);
        } else {
            return bad("bad Scalar default", t);
        }
        return TC_OK;
    case TC_VALUE_STR:
        if (t.n < 2 || (t.s[0] != '"' && t.s[0] != '\'') || t.s[t.n - 1] != t.s[0]) return bad("bad str default", t);
        if (!(out->v.s = copy_text(a, t.s + 1, t.n - 2))) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        return TC_OK;
    case TC_VALUE_DTYPE:
    case TC_VALUE_LAYOUT:
    case TC_VALUE_MEMORY_FORMAT:
        if (!named(t, &out->v.i)) return bad("bad default", t);
        return TC_OK;
    default:
        return bad("this type takes no default but None", t);
    }
}

/* ---- arguments and returns ---- */

typedef struct args_ctx {
    arena *a;
    tc_arg_schema *args;
    char *aliases; /* each argument's alias letter, 0 for none, for the results to refer to */
    int32_t n;
    bool kwonly;
} args_ctx;

static int one_arg(void *vctx, span piece) {
    args_ctx *c = vctx;
    if (span_is(piece, "*")) {
        if (c->kwonly) return bad("two `*` in one schema", piece);
        c->kwonly = true;
        return TC_OK;
    }
    span def = {NULL, 0};
    const char *eq = memchr(piece.s, '=', piece.n);
    span decl = piece;
    if (eq) {
        decl = trim((span){piece.s, (size_t)(eq - piece.s)});
        def = trim((span){eq + 1, piece.n - (size_t)(eq + 1 - piece.s)});
    }
    size_t sp = decl.n;
    while (sp && !isspace((unsigned char)decl.s[sp - 1])) sp--;
    if (!sp) return bad("an argument needs a type and a name", piece);
    span name = {decl.s + sp, decl.n - sp};
    parsed_type ty;
    if (parse_type(trim((span){decl.s, sp}), &ty)) return TC_FAIL;
    for (size_t i = 0; i < name.n; i++)
        if (!isalnum((unsigned char)name.s[i]) && name.s[i] != '_') return bad("bad argument name", piece);
    for (int32_t i = 0; i < c->n; i++)
        if (strlen(c->args[i].name) == name.n && memcmp(c->args[i].name, name.s, name.n) == 0)
            return bad("argument appears twice", piece);
    tc_arg_schema *arg = &c->args[c->n];
    memset(arg, 0, sizeof *arg);
    arg->name = copy_text(c->a, name.s, name.n);
    arg->type = ty.tag;
    arg->flags = ty.flags | (c->kwonly ? TC_ARG_KWONLY : 0);
    arg->fixed_len = ty.fixed_len;
    arg->default_value.tag = TC_VALUE_NONE;
    if (!arg->name) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    if (def.s) {
        arg->flags |= TC_ARG_HAS_DEFAULT;
        arg->default_text = copy_text(c->a, def.s, def.n);
        if (!arg->default_text || parse_default(c->a, &ty, def, &arg->default_value)) return TC_FAIL;
    }
    c->aliases[c->n] = ty.alias;
    c->n++;
    return TC_OK;
}

typedef struct rets_ctx {
    arena *a;
    tc_return_schema *rets;
    int32_t n;
    const tc_arg_schema *args;
    int32_t n_args;
    const char *alias_of_arg; /* alias letter per argument */
} rets_ctx;

static int one_return(void *vctx, span piece) {
    rets_ctx *c = vctx;
    if (c->n == TC_MAX_RETURNS) return bad("too many results", piece);
    size_t sp = piece.n;
    while (sp && !isspace((unsigned char)piece.s[sp - 1])) sp--;
    span type_text = piece, name = {NULL, 0};
    if (sp) {
        type_text = trim((span){piece.s, sp});
        name = (span){piece.s + sp, piece.n - sp};
    }
    parsed_type ty;
    if (parse_type(type_text, &ty)) return TC_FAIL;
    if ((ty.flags & TC_ARG_OPTIONAL) || (ty.is_list && ty.tag != TC_VALUE_TENSOR_LIST) ||
        ty.tag == TC_VALUE_STR || ty.tag == TC_VALUE_DEVICE || ty.tag == TC_VALUE_GENERATOR ||
        ty.tag == TC_VALUE_LAYOUT || ty.tag == TC_VALUE_MEMORY_FORMAT)
        return bad("unsupported result type", piece);
    tc_return_schema *r = &c->rets[c->n];
    r->name = name.s ? copy_text(c->a, name.s, name.n) : NULL;
    r->type = ty.tag;
    r->flags = ty.flags & (TC_ARG_WRITE | TC_ARG_ALIAS);
    r->alias_arg = -1;
    if (ty.alias) {
        for (int32_t i = 0; i < c->n_args && r->alias_arg < 0; i++)
            if (c->alias_of_arg[i] == ty.alias) r->alias_arg = i;
        if (r->alias_arg < 0) return bad("result alias names no argument", piece);
    }
    c->n++;
    return TC_OK;
}

struct tc_op *tc_schema_parse(const char *text) {
    if (!text) return tc_set_error(TC_ERR_VALUE, "schema: NULL"), NULL;
    span all = trim((span){text, strlen(text)});
    const char *open = memchr(all.s, '(', all.n);
    /* the arrow outside brackets: an argument's alias annotation (a -> *) holds one too */
    const char *arrow = NULL;
    for (size_t i = 0, depth = 0; i + 1 < all.n && !arrow; i++) {
        if (all.s[i] == '(' || all.s[i] == '[') depth++;
        else if ((all.s[i] == ')' || all.s[i] == ']') && depth) depth--;
        else if (depth == 0 && all.s[i] == '-' && all.s[i + 1] == '>') arrow = all.s + i;
    }
    if (!open || !arrow) return bad("expected name(args) -> returns", all), NULL;
    /* the argument list ends at the ')' before the arrow */
    const char *close = arrow;
    while (close > open && *close != ')') close--;
    if (close <= open) return bad("expected name(args) -> returns", all), NULL;
    span head = trim((span){all.s, (size_t)(open - all.s)});
    span arglist = {open + 1, (size_t)(close - open - 1)};
    span rets = trim((span){arrow + 2, (size_t)(all.s + all.n - arrow - 2)});

    /* name: [ns::]ident[.overload] */
    const char *dot = memchr(head.s, '.', head.n);
    span name = dot ? (span){head.s, (size_t)(dot - head.s)} : head;
    span overload = dot ? (span){dot + 1, head.n - (size_t)(dot + 1 - head.s)} : (span){"", 0};
    for (size_t i = 0; i < name.n; i++)
        if (!isalnum((unsigned char)name.s[i]) && name.s[i] != '_' && name.s[i] != ':')
            return bad("bad op name", head), NULL;
    for (size_t i = 0; i < overload.n; i++)
        if (!isalnum((unsigned char)overload.s[i]) && overload.s[i] != '_') return bad("bad overload name", head), NULL;
    if (!name.n) return bad("bad op name", head), NULL;

    int32_t n_args = 0, n_rets = 0;
    split(arglist, count_piece, &n_args);
    bool tuple = rets.n >= 2 && rets.s[0] == '(' && rets.s[rets.n - 1] == ')';
    span ret_inner = tuple ? (span){rets.s + 1, rets.n - 2} : rets;
    split(ret_inner, count_piece, &n_rets);

    arena a = {0};
    a.cap = sizeof(struct tc_op) + sizeof(tc_arg_schema) * (size_t)(n_args + 1) +
            sizeof(tc_return_schema) * (size_t)(n_rets + 1) + 24 * all.n + 256;
    a.base = calloc(1, a.cap);
    if (!a.base) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory"), NULL;
    struct tc_op *op = take(&a, sizeof *op);
    tc_arg_schema *args = take(&a, sizeof(tc_arg_schema) * (size_t)(n_args + 1));
    tc_return_schema *ret = take(&a, sizeof(tc_return_schema) * (size_t)(n_rets + 1));
    op->schema.name = copy_text(&a, name.s, name.n);
    op->schema.overload = copy_text(&a, overload.s, overload.n);
    op->schema.text = copy_text(&a, all.s, all.n);
    char *aliases = take(&a, (size_t)n_args + 1);
    if (!aliases) goto oom;
    args_ctx ac = {&a, args, aliases, 0, false};
    if (split(arglist, one_arg, &ac)) goto fail;
    rets_ctx rc = {&a, ret, 0, args, ac.n, aliases};
    if (!span_is(rets, "()") && split(ret_inner, one_return, &rc)) goto fail;
    if (!op->schema.name || !op->schema.overload || !op->schema.text) goto oom;
    op->schema.n_args = ac.n;
    op->schema.n_returns = rc.n;
    op->schema.args = args;
    op->schema.returns = ret;
    op->variant = TC_VARIANT_FUNCTIONAL;
    for (int32_t i = 0; i < ac.n; i++)
        if ((args[i].flags & TC_ARG_WRITE) && (args[i].flags & TC_ARG_KWONLY)) op->variant = TC_VARIANT_OUT;
    if (op->variant == TC_VARIANT_OUT) op->schema.flags |= TC_OPF_OUT;
    if (op->variant == TC_VARIANT_FUNCTIONAL && ac.n && (args[0].flags & TC_ARG_WRITE) && rc.n &&
        (ret[0].flags & TC_ARG_WRITE))
        op->variant = TC_VARIANT_INPLACE;
    op->kernel = -1;
    op->dtype_rule = TC_RULE_NONE;
    return op;
oom:
    tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
fail:
    free(a.base);
    return NULL;
}

/* The schema is the record's first member, and the record one allocation. */
_Static_assert(offsetof(struct tc_op, schema) == 0, "tc_schema_free frees the record through its schema");

tc_op_schema *tc_schema_parse_text(const char *text) {
    struct tc_op *op = tc_schema_parse(text);
    return op ? &op->schema : NULL;
}

void tc_schema_free(tc_op_schema *schema) { free(schema); }
