/* Helpers of the generated derivative formulas (see formula_helpers.h). */
#include "formula_helpers.h"

tc_tensor *tc_ag_wrap(tc_scalar value) {
    int32_t dtype = value.kind == TC_SCALAR_FLOAT ? TC_FLOAT64 : value.kind == TC_SCALAR_BOOL ? TC_BOOL
                    : value.kind == TC_SCALAR_COMPLEX ? TC_COMPLEX128 : TC_INT64;
    tc_tensor *t = tc_scalar_tensor(value, dtype);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

tc_scalar tc_ag_scalar_arith(char op, tc_scalar a, tc_scalar b) {
    bool ints = a.kind != TC_SCALAR_FLOAT && b.kind != TC_SCALAR_FLOAT && op != '/';
    if (ints) {
        int64_t x = a.v.i, y = b.v.i;
        return TC_SCALAR_OF_INT(op == '+' ? x + y : op == '-' ? x - y : x * y);
    }
    double x = a.kind == TC_SCALAR_FLOAT ? a.v.f : (double)a.v.i, y = b.kind == TC_SCALAR_FLOAT ? b.v.f : (double)b.v.i;
    return TC_SCALAR_OF_FLOAT(op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y);
}

static bool is_one(tc_scalar s) {
    if (s.kind == TC_SCALAR_FLOAT) return s.v.f == 1.0;
    if (s.kind == TC_SCALAR_COMPLEX) return s.v.f == 1.0 && s.imag == 0.0;
    return s.v.i == 1;
}

tc_tensor *tc_ag_maybe_multiply(tc_tensor *t, tc_scalar s) {
    if (is_one(s)) {
        tc_tensor_retain(t);
        return t;
    }
    tc_tensor *w = tc_ag_wrap(s);
    if (!w) return NULL;
    tc_tensor *r = tc_mul_Tensor(t, w);
    tc_tensor_release(w);
    return r;
}

int64_t tc_ag_list_numel(tc_int_list sizes) {
    int64_t n = 1;
    for (int64_t i = 0; i < sizes.len; i++) n *= sizes.items[i];
    return n;
}

int64_t tc_ag_list_at(tc_int_list list, int64_t i) {
    if (i < 0) i += list.len;
    return i >= 0 && i < list.len ? list.items[i] : 0;
}

int64_t tc_ag_reduced_numel(tc_int_list sizes, const tc_int_list *dims) {
    if (!dims || dims->len == 0) return tc_ag_list_numel(sizes);
    bool seen[TC_MAX_DIMS] = {false};
    int64_t n = 1;
    for (int64_t k = 0; k < dims->len; k++) {
        int64_t d = dims->items[k];
        if (d < 0) d += sizes.len;
        if (d < 0 || d >= sizes.len || seen[d]) continue;
        seen[d] = true;
        n *= sizes.items[d];
    }
    return n;
}

tc_int_list tc_ag_invert_permutation(tc_int_list dims, int64_t *buf) {
    int64_t n = dims.len;
    for (int64_t i = 0; i < n; i++) {
        int64_t d = dims.items[i];
        if (d < 0) d += n;
        if (d >= 0 && d < n) buf[d] = i;
    }
    return (tc_int_list){buf, n};
}

bool tc_ag_any_needed(const tc_node *node, int32_t first, int32_t n) {
    for (int32_t k = 0; k < n; k++)
        if (tc_node_needs_input_grad(node, first + k)) return true;
    return false;
}
