/*
 * Meta functions of the matrix products: mm, bmm, dot/vdot, mv, addmm, addmv, addr, baddbmm, addbmm.
 *
 * Operands of any strides go to the kernels as they are. mv, addmv and addr are presented as the
 * matrix products they are (a vector as a one-column or one-row matrix view), so they run the mm and
 * addmm kernels; the bias of the add* forms is expanded to the result's sizes (zero strides). An out=
 * tensor must have the result's dtype, as PyTorch checks, and a strided one gets a contiguous
 * temporary that the runner copies in afterwards. Dtypes a CPU kernel does not take (bool, half) are
 * refused by the kernels, so other backends may take them.
 */
#include "linalg.h"
#include "torch_core/tc_autograd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "expected scalar type Float but found Double": PyTorch's check of a second operand against the first. */
static int scalar_type(const tc_tensor *want, const tc_tensor *got) {
    if (want->dtype == got->dtype) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "expected scalar type %s but found %s", tc_dtype_scalar_name(want->dtype),
                        tc_dtype_scalar_name(got->dtype));
}

/* out= of a product takes exactly the result's dtype. */
static int out_dtype(const tc_opcall *c, int32_t dtype) {
    if (c->op->variant != TC_VARIANT_OUT) return TC_OK;
    const tc_tensor *out = c->args[c->op->schema.n_args - 1].v.tensor;
    if (out->dtype == dtype) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                        tc_dtype_cpp_name(dtype), tc_dtype_cpp_name(out->dtype));
}

/* In-place add* forms: the bias is the result and must have its sizes already. */
static int inplace_sizes(const tc_opcall *c, const tc_tensor *self, int32_t ndim, const int64_t *sizes) {
    if (c->op->variant != TC_VARIANT_INPLACE || tc_shape_equal(self->ndim, self->sizes, ndim, sizes)) return TC_OK;
    char have[256], want[256];
    tc_shape_format(self->ndim, self->sizes, have, sizeof have);
    tc_shape_format(ndim, sizes, want, sizeof want);
    return tc_set_error(TC_ERR_RUNTIME, "Bad in-place call: input tensor size %s and output tensor size %s should match",
                        have, want);
}

/* The result: the kernels write a contiguous tensor, so a strided out= gets a temporary. */
static int product_output(tc_plan *p, int32_t ndim, const int64_t *sizes, int32_t dtype) {
    if (out_dtype(p->call, dtype) || tc_plan_output(p, 0, ndim, sizes, dtype)) return TC_FAIL;
    if (!tc_tensor_is_contiguous(p->out[0])) {
        tc_tensor *tmp = tc_empty(ndim, sizes, dtype, p->call->device);
        if (!tmp) return TC_FAIL;
        if (p->out[0] != p->target[0]) tc_tensor_release(p->out[0]);
        p->out[0] = tmp;
    }
    p->dtype = dtype;
    return TC_OK;
}

/* A kernel input given as a view of t with other geometry (a vector as a matrix). */
static int input_as(tc_plan *p, tc_tensor *t, int32_t ndim, const int64_t *sizes, const int64_t *strides) {
    tc_tensor *v = tc_tensor_restride(t, ndim, sizes, strides, t->offset);
    int rc = v ? tc_plan_input(p, v, -1) : TC_FAIL;
    tc_tensor_release(v);
    return rc;
}

/* A vector of n elements as an n x 1 (column) or 1 x n (row) matrix. */
static int vector_input(tc_plan *p, tc_tensor *v, bool column) {
    const int64_t n = v->sizes[0], s = v->strides[0];
    return column ? input_as(p, v, 2, (int64_t[]){n, 1}, (int64_t[]){s, 1})
                  : input_as(p, v, 2, (int64_t[]){1, n}, (int64_t[]){n * s, s});
}

/* The bias of an add* form expanded to the result's sizes, optionally seen with other geometry. */
static int bias_input(tc_plan *p, tc_tensor *self, int32_t ndim, const int64_t *sizes) {
    tc_tensor *e = tc_expand_to(self, ndim, sizes);
    int rc = e ? tc_plan_input(p, e, -1) : TC_FAIL;
    tc_tensor_release(e);
    return rc;
}

/* beta and alpha, the addmm kernel's scalars. */
static int add_scalars(tc_plan *p, int beta_arg) {
    const tc_opcall *c = p->call;
    return tc_plan_scalar(p, c->args[beta_arg].v.scalar) || tc_plan_scalar(p, c->args[beta_arg + 1].v.scalar)
               ? TC_FAIL
               : TC_OK;
}

static int matrix_check(const tc_tensor *m, const char *name) {
    if (m->ndim == 2) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s must be a matrix, got %d-D tensor", name, m->ndim);
}

static int shapes_multiply(const tc_tensor *a, const tc_tensor *b) {
    if (a->sizes[1] == b->sizes[0]) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                        (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0],
                        (long long)b->sizes[1]);
}

int tc_meta_mm(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    if (a->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "self must be a matrix");
    if (b->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "mat2 must be a matrix");
    if (shapes_multiply(a, b) || scalar_type(a, b)) return TC_FAIL;
    int64_t sizes[2] = {a->sizes[0], b->sizes[1]};
    return product_output(p, 2, sizes, a->dtype) || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) ? TC_FAIL
                                                                                                      : TC_OK;
}

static int batch_check(const tc_tensor *a, const tc_tensor *b) {
    if (a->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "batch1 must be a 3D tensor");
    if (b->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "batch2 must be a 3D tensor");
    if (b->sizes[0] != a->sizes[0] || b->sizes[1] != a->sizes[2])
        return tc_set_error(TC_ERR_RUNTIME, "Expected size for first two dimensions of batch2 tensor to be: "
                                            "[%lld, %lld] but got: [%lld, %lld].", (long long)a->sizes[0],
                            (long long)a->sizes[2], (long long)b->sizes[0], (long long)b->sizes[1]);
    return scalar_type(a, b);
}

int tc_meta_bmm(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    if (batch_check(a, b)) return TC_FAIL;
    int64_t sizes[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
    return product_output(p, 3, sizes, a->dtype) || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) ? TC_FAIL
                                                                                                      : TC_OK;
}

/* dot(self, tensor) and vdot(self, other): two vectors of one dtype and length -> a 0-dim result. */
/* dot's and vdot's checks and plan; vdot conjugates its first vector (the kernel is dot's). */
static int dot_plan(tc_opcall *c, tc_plan *p, bool conjugate_first) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    if (a->ndim != 1 || b->ndim != 1)
        return tc_set_error(TC_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "dot : expected both vectors to have same dtype, but found %s and %s",
                            tc_dtype_scalar_name(a->dtype), tc_dtype_scalar_name(b->dtype));
    if (a->sizes[0] != b->sizes[0])
        return tc_set_error(TC_ERR_RUNTIME, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have "
                                            "the same number of elements, but got %lld and %lld elements respectively",
                            (long long)a->sizes[0], (long long)b->sizes[0], (long long)a->sizes[0],
                            (long long)b->sizes[0]);
    if (c->op->variant == TC_VARIANT_OUT) {
        const tc_tensor *out = c->args[2].v.tensor;
        if (out->dtype != a->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "result dtype %s does not match input dtype %s",
                                tc_dtype_scalar_name(out->dtype), tc_dtype_scalar_name(a->dtype));
    }
    if (tc_plan_output(p, 0, 0, NULL, a->dtype)) return TC_FAIL;
    p->dtype = a->dtype;
    if (conjugate_first && tc_dtype_is_complex(a->dtype)) { /* a conjugate view: the kernel gets it resolved */
        tc_tensor *conj = tc_conj(a);
        const int rc = !conj || tc_plan_input(p, conj, -1) || tc_plan_input(p, b, -1) ? TC_FAIL : TC_OK;
        tc_tensor_release(conj);
        return rc;
    }
    return tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) ? TC_FAIL : TC_OK;
}

int tc_meta_dot(tc_opcall *c, tc_plan *p) { return dot_plan(c, p, false); }
int tc_meta_vdot(tc_opcall *c, tc_plan *p) { return dot_plan(c, p, true); }

/* PyTorch's checks of mv and addmv: the result (or bias) is a vector of the matrix's rows. */
static int mv_check(const tc_tensor *self, const tc_tensor *mat, const tc_tensor *vec) {
    if (!(mat->ndim == 2 && vec->ndim == 1 && self->ndim <= 1))
        return tc_set_error(TC_ERR_RUNTIME, "vector + matrix @ vector expected, got %d, %d, %d", self->ndim, mat->ndim,
                            vec->ndim);
    const int64_t bias = self->ndim == 1 ? self->sizes[0] : 1;
    if (mat->sizes[1] != vec->sizes[0] || !(bias == mat->sizes[0] || bias == 1))
        return tc_set_error(TC_ERR_RUNTIME, "size mismatch, got %lld, %lldx%lld,%lld", (long long)bias,
                            (long long)mat->sizes[0], (long long)mat->sizes[1], (long long)vec->sizes[0]);
    return scalar_type(mat, vec);
}

/* The result vector as the kernel's m x 1 matrix. */
static int column_output(tc_plan *p, int64_t m) {
    return tc_plan_kernel_view(p, 0, 2, (int64_t[]){m, 1}, (int64_t[]){1, 1});
}

/* mv(self, vec): the mm kernel with the vector as a column. */
int tc_meta_mv(tc_opcall *c, tc_plan *p) {
    tc_tensor *mat = tc_arg_tensor(c, 0), *vec = tc_arg_tensor(c, 1);
    const int64_t m = mat->ndim == 2 ? mat->sizes[0] : 0;
    const tc_tensor result = {.ndim = 1, .sizes = (int64_t[]){m}};
    if (mv_check(&result, mat, vec) || product_output(p, 1, &m, mat->dtype)) return TC_FAIL;
    return tc_plan_input(p, mat, -1) || vector_input(p, vec, true) || column_output(p, m) ? TC_FAIL : TC_OK;
}

/* alpha * product + beta * self for complex dtypes, whose products the plugin computes in its mm,
 * mv and bmm kernels but not in the add* ones: computed here through those (the product taken,
 * owned), without recording gradients (the op's formula does). A beta of 0 ignores self (its NaNs
 * too), as PyTorch's. */
static int add_product_complex(tc_opcall *c, tc_plan *p, tc_tensor *product) {
    const tc_scalar beta = c->args[3].v.scalar, alpha = c->args[4].v.scalar;
    const bool beta_zero = beta.kind == TC_SCALAR_COMPLEX ? beta.v.f == 0 && beta.imag == 0
                           : beta.kind == TC_SCALAR_FLOAT ? beta.v.f == 0 : beta.v.i == 0;
    const bool grad = tc_grad_enabled();
    tc_set_grad_enabled(false);
    const int32_t dtype = product ? product->dtype : TC_COMPLEX64;
    tc_tensor *a = tc_scalar_tensor(alpha, dtype), *b = tc_scalar_tensor(beta, dtype);
    tc_tensor *r = product && a ? tc_mul_Tensor(product, a) : NULL;
    if (r && b && !beta_zero) {
        tc_tensor *self = tc_kernel_cast(tc_arg_tensor(c, 0), dtype);
        tc_tensor *bs = self ? tc_mul_Tensor(self, b) : NULL, *sum = bs ? tc_add_Tensor(bs, r, TC_SCALAR_OF_INT(1)) : NULL;
        tc_tensor_release(self);
        tc_tensor_release(bs);
        tc_tensor_release(r);
        r = sum;
    }
    tc_set_grad_enabled(grad);
    tc_tensor_release(a);
    tc_tensor_release(b);
    tc_tensor_release(product);
    if (!r) return TC_FAIL;
    tc_plan_result(p, 0, r);
    return TC_OK;
}

/* addmm(self, mat1, mat2, *, beta, alpha): beta * self + alpha * mat1 @ mat2, self broadcast. */
int tc_meta_addmm(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1), *b = tc_arg_tensor(c, 2);
    if (matrix_check(a, "mat1") || matrix_check(b, "mat2") || shapes_multiply(a, b)) return TC_FAIL;
    if (a->dtype != b->dtype) return tc_set_error(TC_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
    if (self->dtype != b->dtype) return tc_set_error(TC_ERR_RUNTIME, "self and mat2 must have the same dtype");
    int64_t sizes[2] = {a->sizes[0], b->sizes[1]};
    if (inplace_sizes(c, self, 2, sizes) || product_output(p, 2, sizes, a->dtype)) return TC_FAIL;
    if (tc_dtype_is_complex(a->dtype)) return add_product_complex(c, p, tc_mm(a, b));
    return bias_input(p, self, 2, sizes) || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) || add_scalars(p, 3)
               ? TC_FAIL
               : TC_OK;
}

/* addmv(self, mat, vec, *, beta, alpha): the addmv kernel; self converts to mat's dtype. The vectors
 * stay vectors here (an in-place bias must be seen exactly as the result is). */
int tc_meta_addmv(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *mat = tc_arg_tensor(c, 1), *vec = tc_arg_tensor(c, 2);
    if (mv_check(self, mat, vec)) return TC_FAIL;
    const int64_t m = mat->sizes[0];
    if (inplace_sizes(c, self, 1, &m) || product_output(p, 1, &m, mat->dtype)) return TC_FAIL;
    if (tc_dtype_is_complex(mat->dtype)) return add_product_complex(c, p, tc_mv(mat, vec));
    tc_tensor *bias = tc_expand_to(self, 1, &m);
    int rc = bias ? tc_plan_input(p, bias, mat->dtype) : TC_FAIL;
    tc_tensor_release(bias);
    return rc || tc_plan_input(p, mat, -1) || tc_plan_input(p, vec, -1) || add_scalars(p, 3) ? TC_FAIL : TC_OK;
}

/* addr(self, vec1, vec2, *, beta, alpha): beta * self + alpha * vec1 vec2^T, the addmm kernel with a
 * column times a row; the dtype is promoted over the three, as PyTorch does. */
int tc_meta_addr(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *v1 = tc_arg_tensor(c, 1), *v2 = tc_arg_tensor(c, 2);
    if (v1->ndim != 1) return tc_set_error(TC_ERR_RUNTIME, "addr: Expected 1-D argument vec1, but got %d-D", v1->ndim);
    if (v2->ndim != 1) return tc_set_error(TC_ERR_RUNTIME, "addr: Expected 1-D argument vec2, but got %d-D", v2->ndim);
    int64_t sizes[2] = {v1->sizes[0], v2->sizes[0]};
    if (c->op->variant == TC_VARIANT_INPLACE && !tc_shape_equal(self->ndim, self->sizes, 2, sizes)) {
        char s[256], a[256], b[256];
        tc_shape_format(self->ndim, self->sizes, s, sizeof s);
        tc_shape_format(1, v1->sizes, a, sizeof a);
        tc_shape_format(1, v2->sizes, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "size mismatch, input: %s, v1: %s, v2: %s", s, a, b);
    }
    tc_tensor *ops[3] = {self, v1, v2};
    const int32_t dtype = tc_result_type(ops, 3);
    if (!tc_dtype_is_floating(dtype))
        for (int i = 0; i < 2; i++)
            if (c->args[3 + i].v.scalar.kind == TC_SCALAR_FLOAT)
                return tc_set_error(TC_ERR_RUNTIME, "For integral input tensors, argument %s must not be a floating "
                                                    "point number.", i ? "alpha" : "beta");
    if (tc_plan_output(p, 0, 2, sizes, dtype)) return TC_FAIL;
    if (tc_dtype_is_complex(dtype)) {
        tc_tensor *x = tc_kernel_cast(v1, dtype), *y = x ? tc_kernel_cast(v2, dtype) : NULL;
        tc_tensor *outer = y ? tc_outer(x, y) : NULL;
        tc_tensor_release(x);
        tc_tensor_release(y);
        return outer ? add_product_complex(c, p, outer) : TC_FAIL;
    }
    tc_tensor *bias = tc_expand_to(self, 2, sizes);
    int rc = bias ? tc_plan_input(p, bias, dtype) : TC_FAIL;
    tc_tensor_release(bias);
    if (rc) return TC_FAIL;
    tc_tensor *a = tc_kernel_cast(v1, dtype), *b = a ? tc_kernel_cast(v2, dtype) : NULL;
    rc = b ? vector_input(p, a, true) || vector_input(p, b, false) : TC_FAIL;
    tc_tensor_release(a);
    tc_tensor_release(b);
    p->dtype = dtype;
    return rc || add_scalars(p, 3) ? TC_FAIL : TC_OK;
}

/* PyTorch expands the bias to the result's sizes, read from the batches, before checking them: the
 * errors come in that order (an IndexError for a batch without the dim). */
static int bias_first(tc_tensor *self, tc_tensor *a, tc_tensor *b, int32_t ndim, int64_t *sizes) {
    int32_t d;
    for (int32_t i = 0; i < ndim - 1; i++)
        if (tc_shape_wrap_dim(3 - ndim + i, a->ndim, &d)) return TC_FAIL;
    if (tc_shape_wrap_dim(2, b->ndim, &d)) return TC_FAIL;
    for (int32_t i = 0; i < ndim - 1; i++) sizes[i] = a->sizes[3 - ndim + i];
    sizes[ndim - 1] = b->sizes[2];
    tc_tensor *e = tc_expand_to(self, ndim, sizes);
    tc_tensor_release(e);
    return e ? TC_OK : TC_FAIL;
}

/* baddbmm(self, batch1, batch2, *, beta, alpha): per batch, addmm; self converts to the batches' dtype. */
int tc_meta_baddbmm(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1), *b = tc_arg_tensor(c, 2);
    int64_t sizes[3];
    if (bias_first(self, a, b, 3, sizes) || batch_check(a, b) || inplace_sizes(c, self, 3, sizes) || product_output(p, 3, sizes, a->dtype)) return TC_FAIL;
    if (tc_dtype_is_complex(a->dtype)) return add_product_complex(c, p, tc_bmm(a, b));
    tc_tensor *bias = tc_expand_to(self, 3, sizes);
    int rc = bias ? tc_plan_input(p, bias, a->dtype) : TC_FAIL;
    tc_tensor_release(bias);
    return rc || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) || add_scalars(p, 3) ? TC_FAIL : TC_OK;
}

/* addbmm(self, batch1, batch2, *, beta, alpha): beta * self + alpha * the sum of the batch's products. */
int tc_meta_addbmm(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1), *b = tc_arg_tensor(c, 2);
    int64_t sizes[2];
    if (bias_first(self, a, b, 2, sizes)) return TC_FAIL;
    if (a->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "batch1 must be a 3D tensor");
    if (b->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "batch2 must be a 3D tensor");
    if (a->sizes[0] != b->sizes[0])
        return tc_set_error(TC_ERR_RUNTIME, "batch1 and batch2 must have same number of batches, got %lld and %lld",
                            (long long)a->sizes[0], (long long)b->sizes[0]);
    if (a->sizes[2] != b->sizes[1])
        return tc_set_error(TC_ERR_RUNTIME, "Incompatible matrix sizes for bmm (%lldx%lld and %lldx%lld)",
                            (long long)a->sizes[1], (long long)a->sizes[2], (long long)b->sizes[1],
                            (long long)b->sizes[2]);
    if (a->dtype != b->dtype) return tc_set_error(TC_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
    if (self->dtype != b->dtype) return tc_set_error(TC_ERR_RUNTIME, "self and mat2 must have the same dtype");
    if (inplace_sizes(c, self, 2, sizes) || product_output(p, 2, sizes, a->dtype)) return TC_FAIL;
    if (tc_dtype_is_complex(a->dtype)) {
        tc_tensor *batches = tc_bmm(a, b), *sum = batches ? tc_sum_dim_IntList(batches, &TC_INTS(0), false, -1) : NULL;
        tc_tensor_release(batches);
        return sum ? add_product_complex(c, p, sum) : TC_FAIL;
    }
    return bias_input(p, self, 2, sizes) || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) || add_scalars(p, 3)
               ? TC_FAIL
               : TC_OK;
}

/* linalg_cross(self, other, *, dim): both of one dtype and rank, dim of length 3, broadcast. The
 * kernel gets the inputs at the result's sizes and the wrapped dim (ints[0]). */
int tc_meta_linalg_cross(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    const int64_t dim = tc_arg_int(c, 2);
    if (a->ndim != b->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.cross: inputs must have the same number of dimensions.");
    int32_t d;
    if (tc_shape_wrap_dim(dim, a->ndim, &d)) return TC_FAIL;
    if (a->sizes[d] != 3 || b->sizes[d] != 3)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.cross: inputs dimension %lld must have length 3. Got %lld and %lld",
                            (long long)dim, (long long)a->sizes[d], (long long)b->sizes[d]);
    if (scalar_type(a, b)) return TC_FAIL;
    int32_t ndim;
    int64_t sizes[TC_MAX_DIMS];
    if (tc_shape_broadcast(a->ndim, a->sizes, b->ndim, b->sizes, &ndim, sizes)) return TC_FAIL;
    if (tc_plan_output(p, 0, ndim, sizes, a->dtype) || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) ||
        tc_plan_int(p, d))
        return TC_FAIL;
    p->dtype = a->dtype;
    p->flags |= TC_PLAN_BROADCAST;
    return TC_OK;
}

/* _cdist_forward(x1, x2, p, compute_mode): distances between the rows of x1 and of x2 over the
 * broadcast batch. The kernel reads p and compute_mode from the op's arguments. */
int tc_meta_cdist(tc_opcall *c, tc_plan *p) {
    tc_tensor *x1 = tc_arg_tensor(c, 0), *x2 = tc_arg_tensor(c, 1);
    if (tc_linalg_check_cdist(x1, x2)) return TC_FAIL;
    if (!tc_dtype_is_floating(x1->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "cdist only supports floating-point dtypes, X1 got: %s",
                            tc_dtype_scalar_name(x1->dtype));
    if (!tc_dtype_is_floating(x2->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "cdist only supports floating-point dtypes, X2 got: %s",
                            tc_dtype_scalar_name(x2->dtype));
    if (c->args[2].v.f < 0) return tc_set_error(TC_ERR_RUNTIME, "cdist only supports non-negative p values");
    if (scalar_type(x1, x2)) return TC_FAIL;
    if (!tc_arg_none(c, 3) && (tc_arg_int(c, 3) < 0 || tc_arg_int(c, 3) > 2))
        return tc_set_error(TC_ERR_RUNTIME, "possible modes: 0, 1, 2, but was: %lld", (long long)tc_arg_int(c, 3));
    int32_t nb;
    int64_t sizes[TC_MAX_DIMS], s1[TC_MAX_DIMS], s2[TC_MAX_DIMS];
    if (tc_shape_broadcast(x1->ndim - 2, x1->sizes, x2->ndim - 2, x2->sizes, &nb, sizes)) return TC_FAIL;
    memcpy(s1, sizes, sizeof(int64_t) * (size_t)nb);
    memcpy(s2, sizes, sizeof(int64_t) * (size_t)nb);
    s1[nb] = x1->sizes[x1->ndim - 2], s1[nb + 1] = x1->sizes[x1->ndim - 1];
    s2[nb] = x2->sizes[x2->ndim - 2], s2[nb + 1] = x2->sizes[x2->ndim - 1];
    sizes[nb] = s1[nb], sizes[nb + 1] = s2[nb];
    if (tc_plan_output(p, 0, nb + 2, sizes, x1->dtype)) return TC_FAIL;
    tc_tensor *e1 = tc_expand_to(x1, nb + 2, s1), *e2 = e1 ? tc_expand_to(x2, nb + 2, s2) : NULL;
    const int rc = e2 ? tc_plan_input(p, e1, -1) || tc_plan_input(p, e2, -1) : TC_FAIL;
    tc_tensor_release(e1);
    tc_tensor_release(e2);
    p->dtype = x1->dtype;
    return rc;
}

/* linalg_vector_norm(self, ord, dim, keepdim, *, dtype): the input converted to the result's dtype
 * and seen with its kept dims first and its reduced dims last; the result seen without its reduced
 * dims. Kernel contract: ints[0] the number of kept dims, scalars[0] ord. */
/* The norm of complex input: that of its absolute values, computed through the real kernel here
 * (without recording gradients: the op's own formula does), as PyTorch's norm kernels take |z|. */
static int vector_norm_complex(tc_opcall *c, tc_plan *p, tc_tensor *t, int32_t dtype) {
    const bool grad = tc_grad_enabled();
    tc_set_grad_enabled(false);
    tc_tensor *x = dtype != t->dtype ? tc_kernel_cast(t, dtype) : (tc_tensor_retain(t), t);
    tc_tensor *a = x ? tc_abs(x) : NULL;
    const tc_int_list dims = tc_arg_ints(c, 2);
    tc_tensor *r = a ? tc_linalg_vector_norm(a, c->args[1].v.scalar, tc_arg_none(c, 2) ? NULL : &dims, tc_arg_bool(c, 3), -1)
                     : NULL;
    tc_set_grad_enabled(grad);
    tc_tensor_release(x);
    tc_tensor_release(a);
    if (!r) return TC_FAIL;
    if (tc_linalg_output(p, 0, r->ndim, r->sizes, r->dtype)) {
        tc_tensor_release(r);
        return TC_FAIL;
    }
    tc_plan_result(p, 0, r);
    return TC_OK;
}

int tc_meta_vector_norm(tc_opcall *c, tc_plan *p) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    const char *api = "linalg.vector_norm";
    if (tc_dtype_is_complex(t->dtype)) {
        const int32_t want = tc_arg_enum(c, 4);
        if (want >= 0 && !tc_dtype_is_complex(want))
            return tc_set_error(TC_ERR_RUNTIME, "%s: dtype should be complex for complex inputs, but got %s", api,
                                tc_dtype_scalar_name(want));
        if (want >= 0 && tc_promote_types(t->dtype, want) != want)
            return tc_set_error(TC_ERR_RUNTIME, "%s: the dtype of the input (%s) should be convertible without "
                                                "narrowing to the specified dtype (%s)", api,
                                tc_dtype_scalar_name(t->dtype), tc_dtype_scalar_name(want));
        return vector_norm_complex(c, p, t, want >= 0 ? want : t->dtype);
    }
    if (!tc_dtype_is_floating(t->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "%s: Expected a floating point or complex tensor as input. Got %s", api,
                            tc_dtype_scalar_name(t->dtype));
    const int32_t want = tc_arg_enum(c, 4), dtype = want >= 0 ? want : t->dtype;
    if (want >= 0 && !tc_dtype_is_floating(want))
        return tc_set_error(TC_ERR_RUNTIME, "%s: dtype should be floating point or complex, but got %s", api,
                            tc_dtype_scalar_name(want));
    if (want >= 0 && tc_promote_types(t->dtype, want) != want)
        return tc_set_error(TC_ERR_RUNTIME, "%s: the dtype of the input (%s) should be convertible without narrowing to "
                                            "the specified dtype (%s)", api, tc_dtype_scalar_name(t->dtype),
                            tc_dtype_scalar_name(want));
    const tc_scalar ord_s = c->args[1].v.scalar;
    const double ord = ord_s.kind == TC_SCALAR_FLOAT ? ord_s.v.f : (double)ord_s.v.i;
    const bool all = tc_arg_none(c, 2) || c->args[2].v.ints.len == 0;
    bool reduced[TC_MAX_DIMS] = {false};
    if (all) {
        for (int32_t d = 0; d < t->ndim; d++) reduced[d] = true;
    } else {
        tc_int_list dims = tc_arg_ints(c, 2);
        for (int64_t i = 0; i < dims.len; i++) {
            int32_t d;
            if (tc_shape_wrap_dim(dims.items[i], t->ndim > 0 ? t->ndim : 1, &d)) return TC_FAIL;
            if (reduced[d]) return tc_set_error(TC_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
            reduced[d] = true;
        }
    }
    if (tc_tensor_numel(t) == 0 && (ord < 0 || ord == INFINITY)) {
        char o[64];
        snprintf(o, sizeof o, ord_s.kind == TC_SCALAR_FLOAT ? "%g" : "%.0f", ord);
        if (all)
            return tc_set_error(TC_ERR_RUNTIME, "%s cannot compute the %s norm on an empty tensor because the operation "
                                                "does not have an identity", api, o);
        for (int32_t d = 0; d < t->ndim; d++)
            if (reduced[d] && t->sizes[d] == 0)
                return tc_set_error(TC_ERR_RUNTIME, "%s cannot compute the %s norm on the dimension %dbecause this "
                                                    "dimension is empty and the operation does not have an identity",
                                    api, o, d);
    }
    const bool keepdim = tc_arg_bool(c, 3);
    int64_t out[TC_MAX_DIMS], ksizes[TC_MAX_DIMS], kstrides[TC_MAX_DIMS], isizes[TC_MAX_DIMS], istrides[TC_MAX_DIMS];
    int32_t nout = 0, nkept = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (!reduced[d]) {
            out[nout++] = t->sizes[d];
            isizes[nkept] = t->sizes[d], istrides[nkept++] = t->strides[d];
        } else if (keepdim) {
            out[nout++] = 1;
        }
    }
    int32_t ni = nkept;
    for (int32_t d = 0; d < t->ndim; d++)
        if (reduced[d]) isizes[ni] = t->sizes[d], istrides[ni++] = t->strides[d];
    if (tc_linalg_output(p, 0, nout, out, dtype)) return TC_FAIL;
    /* kept dims of the (contiguous) result */
    for (int32_t d = 0, k = 0; d < t->ndim; d++)
        if (!reduced[d]) ksizes[k++] = t->sizes[d];
    tc_shape_contiguous_strides(nkept, ksizes, kstrides);
    tc_tensor *x = tc_kernel_cast(t, dtype), *v = x ? tc_tensor_restride(x, ni, isizes, istrides, x->offset) : NULL;
    if (x && x != t) { /* a converted copy: contiguous, so its strides are not t's */
        int64_t cs[TC_MAX_DIMS];
        tc_shape_contiguous_strides(x->ndim, x->sizes, cs);
        for (int32_t d = 0, k = 0, r = nkept; d < t->ndim; d++) v->strides[reduced[d] ? r++ : k++] = cs[d];
    }
    const int rc = v ? tc_plan_input(p, v, -1) : TC_FAIL;
    tc_tensor_release(x);
    tc_tensor_release(v);
    if (rc || tc_plan_kernel_view(p, 0, nkept, ksizes, kstrides) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(ord)) ||
        tc_plan_int(p, nkept))
        return TC_FAIL;
    p->dtype = dtype;
    return TC_OK;
}
