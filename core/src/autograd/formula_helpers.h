/*
 * formula_helpers.h - what generated derivative formulas call besides ops (formula_helpers.c):
 * numbers as tensors and arithmetic on sizes. Anything that computes on tensors is an op, so that
 * a recorded backward stays differentiable.
 */
#ifndef TC_FORMULA_HELPERS_H
#define TC_FORMULA_HELPERS_H

#include "autograd_internal.h"

/* A Python number beside a tensor: a 0-dim CPU tensor marked as a wrapped number. */
TC_INTERNAL tc_tensor *tc_ag_wrap(tc_scalar value);
/* a op b on Scalars, with Python's result kind (an int stays an int unless a float is involved or
 * the op is '/'). */
TC_INTERNAL tc_scalar tc_ag_scalar_arith(char op, tc_scalar a, tc_scalar b);
/* The complex conjugate of a scalar (real scalars unchanged): alpha.conj() in a formula. */
static inline tc_scalar tc_ag_scalar_conj(tc_scalar s) {
    if (s.kind == TC_SCALAR_COMPLEX) s.imag = -s.imag;
    return s;
}
/* t * s, or t itself (a new reference) when s is 1. */
TC_INTERNAL tc_tensor *tc_ag_maybe_multiply(tc_tensor *t, tc_scalar s);
TC_INTERNAL int64_t tc_ag_list_numel(tc_int_list sizes);
static inline int64_t tc_ag_value_or(const int64_t *value, int64_t otherwise) { return value ? *value : otherwise; }
/* sizes[i], i counted from the end when negative (0 when out of range). */
TC_INTERNAL int64_t tc_ag_list_at(tc_int_list list, int64_t i);
/* The number of elements a reduction over dims (NULL or empty: all) of a tensor of `sizes` gathers. */
TC_INTERNAL int64_t tc_ag_reduced_numel(tc_int_list sizes, const tc_int_list *dims);
/* Whether any of the n edges from `first` needs a gradient (a Tensor[] argument's). */
TC_INTERNAL bool tc_ag_any_needed(const tc_node *node, int32_t first, int32_t n);
/* The inverse of a permutation, written into buf (TC_MAX_DIMS long). */
TC_INTERNAL tc_int_list tc_ag_invert_permutation(tc_int_list dims, int64_t *buf);

#endif
