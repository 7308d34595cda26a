/*
 * test_dispatch.c - the op interface from C, through the core's public API only: typed entries and
 * the boxed form agree, schemas parse at run time as the generator parsed them, dispatch keys fall
 * through and follow the thread's sets, ops added at run time get boxed implementations, a slot
 * is never silently replaced, and the front end's hooks run around long kernels only.
 *
 * Usage: test_dispatch <package_dir>   (the core finds its plugins beside itself)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "torch_core/tc_ops.h"

static int failures, checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __func__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf(" [%s]\n", tc_last_error_message());                                            \
        }                                                                                          \
    } while (0)

static double value_at(tc_tensor *t, int64_t i) {
    tc_scalar s;
    if (tc_tensor_get(t, i, &s)) return NAN;
    return s.kind == TC_SCALAR_FLOAT ? s.v.f : (double)s.v.i;
}

static tc_tensor *vector(const double *values, int64_t n) {
    tc_tensor *t = tc_empty_memory_format((tc_int_list){&n, 1}, TC_FLOAT32, -1, NULL, NULL, -1);
    for (int64_t i = 0; t && i < n; i++) ((float *)tc_tensor_data(t))[i] = (float)values[i];
    return t;
}

/* The same op through its typed entry and through the boxed form. */
static void test_entries_and_boxed_form(void) {
    tc_tensor *a = vector((double[]){1, 2, 3}, 3), *b = vector((double[]){10, 20, 30}, 3);
    tc_tensor *typed = tc_add_Tensor(a, b, TC_SCALAR_OF_INT(2));
    tc_value args[3] = {{.tag = TC_VALUE_TENSOR, .v.tensor = a}, {.tag = TC_VALUE_TENSOR, .v.tensor = b},
                        {.tag = TC_VALUE_INT, .v.i = 2}}; /* a Scalar may be passed as a plain int */
    tc_value outs[1];
    int rc = tc_call_op(tc_op_lookup("add.Tensor"), args, outs);
    CHECK(typed && rc == TC_OK, "add through both forms");
    for (int64_t i = 0; typed && rc == TC_OK && i < 3; i++)
        CHECK(value_at(typed, i) == value_at(outs[0].v.tensor, i) && value_at(typed, i) == 21 * (i + 1),
              "element %lld", (long long)i);
    if (rc == TC_OK) tc_values_release(outs, 1);
    /* a wrong tag is a TypeError, not a crash */
    args[1] = (tc_value){.tag = TC_VALUE_STR, .v.s = "nope"};
    CHECK(tc_call_op(tc_op_lookup("add.Tensor"), args, outs) == TC_FAIL && tc_last_error_kind() == TC_ERR_TYPE,
          "boxed call with a wrong tag");
    /* multiple named results and int lists */
    tc_tensor *range = tc_arange(TC_SCALAR_OF_INT(6), -1, -1, NULL, NULL);
    tc_tensor *m = range ? tc_reshape(range, TC_INTS(2, 3)) : NULL;
    tc_tensor_release(range);
    tc_tensor *values = NULL, *indices = NULL;
    CHECK(m && tc_max_dim(m, 1, false, &values, &indices) == TC_OK && value_at(values, 1) == 5 &&
              value_at(indices, 0) == 2, "max.dim");
    tc_tensor *s = m ? tc_sum_dim_IntList(m, &TC_INTS(0), true, TC_FLOAT64) : NULL;
    CHECK(s && s->ndim == 2 && s->dtype == TC_FLOAT64 && value_at(s, 2) == 7, "sum.dim_IntList");
    tc_tensor *all = m ? tc_sum_dim_IntList(m, NULL, false, -1) : NULL; /* dim=None: every dim */
    CHECK(all && all->ndim == 0 && value_at(all, 0) == 15, "sum over None dims");
    tc_tensor *r[] = {a, b, typed, m, values, indices, s, all};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
}

/* The run-time parser reads every built-in schema as the generator did. */
static void test_schemas_round_trip(void) {
    int32_t n = tc_op_count();
    CHECK(n >= TC_NUM_BUILTIN_OPS, "op count %d", n);
    for (int32_t id = 0; id < TC_NUM_BUILTIN_OPS; id++) {
        const tc_op_schema *want = tc_op_schema_of(id);
        tc_op_schema *got = tc_schema_parse_text(want->text);
        CHECK(got != NULL, "parse %s", want->text);
        if (!got) continue;
        CHECK(strcmp(got->name, want->name) == 0 && strcmp(got->overload, want->overload) == 0 &&
                  got->n_args == want->n_args && got->n_returns == want->n_returns,
              "%s: header", want->text);
        for (int32_t i = 0; i < want->n_args && i < got->n_args; i++) {
            const tc_arg_schema *w = &want->args[i], *g = &got->args[i];
            CHECK(strcmp(w->name, g->name) == 0 && w->type == g->type && w->flags == g->flags &&
                      w->fixed_len == g->fixed_len && w->default_value.tag == g->default_value.tag,
                  "%s: argument %s", want->text, w->name);
            if (w->default_value.tag == TC_VALUE_INT)
                CHECK(w->default_value.v.i == g->default_value.v.i, "%s: default of %s", want->text, w->name);
        }
        for (int32_t i = 0; i < want->n_returns && i < got->n_returns; i++)
            CHECK(want->returns[i].type == got->returns[i].type && want->returns[i].flags == got->returns[i].flags &&
                      want->returns[i].alias_arg == got->returns[i].alias_arg,
                  "%s: result %d", want->text, i);
        tc_schema_free(got);
    }
    const char *bad[] = {"f(Tensor x", "f(Dimname d) -> Tensor", "f(int x=None) -> Tensor", "f(Tensor x, Tensor x) -> Tensor",
                         "f(Tensor x) -> Tensor(a)", "f(int[2] x=[1, y]) -> Tensor", "f(Tensor?[] x, Scalar?[] y) -> ()"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_op_schema *s = tc_schema_parse_text(bad[i]);
        CHECK(!s && tc_last_error_kind() == TC_ERR_VALUE, "malformed schema accepted: %s", bad[i]);
        tc_schema_free(s);
    }
}

/* A runtime op with a boxed CPU implementation; a second one for the same backend is refused. */
static int doubled(void *ctx, int32_t op, const tc_value *args, tc_value *outs) {
    (*(int *)ctx)++;
    tc_tensor *r = tc_mul_Tensor(args[0].v.tensor, args[0].v.tensor);
    if (!r) return TC_FAIL;
    outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = r};
    return TC_OK;
}

static void test_runtime_op(void) {
    int calls = 0;
    int32_t id = tc_op_define("ctest::square(Tensor x) -> Tensor", NULL);
    CHECK(id >= TC_NUM_BUILTIN_OPS && tc_op_lookup("ctest::square") == id, "define");
    CHECK(tc_op_define("ctest::square(Tensor x) -> Tensor", NULL) == TC_FAIL, "defining an existing op is refused");
    CHECK(tc_op_define("square(Tensor x) -> Tensor", NULL) == TC_FAIL && tc_last_error_kind() == TC_ERR_VALUE,
          "a runtime op needs a namespace");
    CHECK(tc_op_impl(id, TC_DEVICE_CPU, TC_STRIDED, doubled, &calls, "test_dispatch") == TC_OK, "impl");
    CHECK(tc_op_impl(id, TC_DEVICE_CPU, TC_STRIDED, doubled, &calls, "second") == TC_FAIL &&
              strstr(tc_last_error_message(), "test_dispatch") && strstr(tc_last_error_message(), "second"),
          "a second impl for one backend names both owners");
    tc_tensor *x = vector((double[]){3, 4}, 2);
    tc_value args[1] = {{.tag = TC_VALUE_TENSOR, .v.tensor = x}}, outs[1];
    CHECK(tc_call_op(id, args, outs) == TC_OK && value_at(outs[0].v.tensor, 1) == 16 && calls == 1, "call");
    tc_values_release(outs, 1);
    tc_tensor_release(x);
}

/* Keys: a tensor bringing the autograd key falls through to the backend (nothing is registered at
 * autograd yet); the thread's excluded set removes a key, its included set adds one. */
static void test_dispatch_keys(void) {
    tc_tensor *x = vector((double[]){1, 2}, 2);
    x->keys |= TC_KEYBIT(TC_KEY_AUTOGRAD);
    tc_tensor *y = tc_add_Tensor(x, x, TC_SCALAR_OF_INT(1));
    CHECK(y && value_at(y, 1) == 4, "autograd key falls through");
    tc_tensor *z = tc_mean(x, -1); /* a composite runs at the autograd key itself */
    CHECK(z && value_at(z, 0) == 1.5, "composite at the autograd key");
    tc_dispatch_set_excluded(TC_KEYBIT(TC_KEY_AUTOGRAD));
    CHECK(tc_dispatch_excluded() == TC_KEYBIT(TC_KEY_AUTOGRAD), "excluded set");
    tc_tensor *w = tc_add_Tensor(x, x, TC_SCALAR_OF_INT(1));
    CHECK(w && value_at(w, 0) == 2, "with autograd excluded");
    tc_dispatch_set_excluded(TC_KEYBIT(TC_KEY_BACKEND)); /* the backend key cannot be excluded */
    CHECK(tc_dispatch_excluded() == 0, "backend key stays");
    tc_dispatch_set_included(TC_KEYBIT(TC_KEY_PYTHON)); /* nothing at that key: falls through */
    tc_tensor *v = tc_neg(x);
    CHECK(v && value_at(v, 0) == -1, "included key without impls falls through");
    tc_dispatch_set_included(0);
    tc_tensor *r[] = {x, y, z, w, v};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
}

/* Results that alias arguments: in-place and out= return the written tensor itself. */
static void test_variants(void) {
    tc_tensor *x = vector((double[]){1, 2}, 2), *out = vector((double[]){0}, 1);
    tc_tensor *same = tc_add__Tensor(x, x, TC_SCALAR_OF_INT(1));
    CHECK(same == x && value_at(x, 1) == 4, "in-place returns self");
    tc_tensor_release(same);
    tc_tensor *o = tc_add_out(x, x, TC_SCALAR_OF_INT(1), out); /* resized from [1] to [2] */
    CHECK(o == out && out->ndim == 1 && out->sizes[0] == 2 && value_at(out, 1) == 8, "out= resizes and returns out");
    tc_tensor_release(o);
    tc_tensor *i64 = tc_empty_memory_format(TC_INTS(2), TC_INT64, -1, NULL, NULL, -1);
    CHECK(!tc_add_out(x, x, TC_SCALAR_OF_INT(1), i64) && strstr(tc_last_error_message(), "can't be cast"),
          "float result into an int64 out= is refused");
    tc_tensor_release(i64);
    tc_tensor_release(x);
    tc_tensor_release(out);
}

/* ---- the front end's hooks around long kernels (torch._C releases the GIL there) ---- */

static int hook_enters, hook_leaves, hook_depth, hook_bad_token;

static void *count_enter(void) {
    hook_enters++;
    hook_depth++;
    return &hook_depth;
}

static void count_leave(void *token) {
    hook_leaves++;
    hook_depth--;
    hook_bad_token += token != &hook_depth;
}

static const tc_long_kernel_hooks counting = {.struct_size = sizeof(tc_long_kernel_hooks), .enter = count_enter,
                                              .leave = count_leave};

/* How many kernels of fn's op ran between the hooks. */
static int hooked(tc_tensor *(*fn)(tc_tensor *, tc_tensor *), tc_tensor *a, tc_tensor *b) {
    hook_enters = hook_leaves = hook_bad_token = 0;
    tc_tensor *r = fn(a, b);
    int n = r && hook_leaves == hook_enters && hook_depth == 0 && !hook_bad_token ? hook_enters : -1;
    tc_tensor_release(r);
    return n;
}

static tc_tensor *add2(tc_tensor *a, tc_tensor *b) { return tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1)); }
static tc_tensor *sum1(tc_tensor *a, tc_tensor *b) { return tc_sum(a, -1); }

static tc_tensor *ones(int32_t ndim, const int64_t *sizes) {
    tc_tensor *t = tc_empty_memory_format((tc_int_list){sizes, ndim}, TC_FLOAT32, -1, NULL, NULL, -1);
    int64_t n = t ? tc_tensor_numel(t) : 0;
    for (int64_t i = 0; i < n; i++) ((float *)tc_tensor_data(t))[i] = 1;
    return t;
}

static void test_long_kernel_hooks(void) {
    tc_set_long_kernel_hooks(&counting);
    tc_tensor *one = ones(1, (int64_t[]){1}), *under = ones(1, (int64_t[]){TC_LONG_KERNEL_ELEMENTS - 1});
    tc_tensor *at = ones(1, (int64_t[]){TC_LONG_KERNEL_ELEMENTS}), *rows = ones(2, (int64_t[]){256, 256});
    tc_tensor *m8 = ones(2, (int64_t[]){8, 8}), *m16 = ones(2, (int64_t[]){16, 16}), *m17 = ones(2, (int64_t[]){16, 17});
    tc_tensor *k17 = ones(2, (int64_t[]){17, 16}), *tall = ones(2, (int64_t[]){2048, 2}), *col = ones(2, (int64_t[]){2, 1});
    CHECK(hooked(add2, one, one) == 0, "a one-element add is not long");
    CHECK(hooked(add2, under, under) == 0, "%lld elements are not long", (long long)TC_LONG_KERNEL_ELEMENTS - 1);
    CHECK(hooked(add2, at, at) == 1, "%lld elements are long", (long long)TC_LONG_KERNEL_ELEMENTS);
    CHECK(hooked(add2, at, one) == 1, "a broadcast operand: the result decides");
    CHECK(hooked(sum1, at, NULL) == 1, "a reduction of a long input to one element");
    CHECK(hooked(add2, rows, rows) == 1, "2-d operands count all their elements");
    CHECK(hooked(tc_mm, m8, m8) == 0, "8x8x8 multiply-adds are not long");
    CHECK(hooked(tc_mm, m16, m16) == 0, "16x16x16 multiply-adds are the threshold, not above it");
    CHECK(hooked(tc_mm, m17, k17) == 1, "16x17x16 multiply-adds are long");
    CHECK(hooked(tc_mm, tall, col) == 0, "2048x1x2: as many multiply-adds as 16^3");
    tc_set_long_kernel_hooks(NULL);
    CHECK(hooked(add2, at, at) == 0, "no hooks once removed");
    tc_tensor *all[] = {one, under, at, rows, m8, m16, m17, k17, tall, col};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) tc_tensor_release(all[i]);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    if (tc_plugins_load()) {
        printf("FAIL loading plugins: %s\n", tc_last_error_message());
        return 1;
    }
    tc_set_warning_handler(NULL);
    test_entries_and_boxed_form();
    test_schemas_round_trip();
    test_runtime_op();
    test_dispatch_keys();
    test_variants();
    test_long_kernel_hooks();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
