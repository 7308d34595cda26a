/*
 * The derivatives of the factorisations, as ops the formulas of core/ops.table call (PyTorch's
 * FunctionsManual.cpp for linear algebra): composites over ops, so that a backward recorded with
 * create_graph is differentiable again.
 *
 * PyTorch writes them with tril/triu, diag_embed, cat and masked_fill; here triangles are where()
 * over masks made by comparing aranges (zeros outside them are +0, as triu writes them: a product with
 * a 0/1 mask would leave -0 beside negative values), a diagonal matrix is a vector times eye(n), and blocks
 * are put together by products with selection matrices (slices of eye), all ops of this table.
 *
 * An op node receives zeros for the gradients of results nothing used (the engine materialises
 * them); where PyTorch skips terms of a gradient that is undefined (svdvals' U and V, eigvalsh's
 * eigenvectors), a gradient that is all zeros and requires no grad is skipped alike, which avoids
 * dividing zero by zero for repeated singular values or eigenvalues.
 */
#include "linalg.h"
#include "torch_core/tc_autograd.h"

#include <math.h>
#include <string.h>

/* ---- temporaries: every result held until the function ends; a NULL stops the chain ---- */

#define BW_MAX 96

typedef struct bw {
    tc_tensor *held[BW_MAX];
    int n;
    bool failed;
} bw;

static tc_tensor *keep(bw *b, tc_tensor *t) {
    if (!t || b->n == BW_MAX) {
        if (t) {
            tc_tensor_release(t);
            tc_set_error(TC_ERR_RUNTIME, "internal error: too many temporaries in a linalg backward");
        }
        b->failed = true;
        return NULL;
    }
    return b->held[b->n++] = t;
}

/* Runs an op unless an earlier one failed, and holds its result. */
#define OP(b, expr) ((b)->failed ? NULL : keep((b), (expr)))

/* The result (retained) and every temporary released. */
static tc_tensor *finish(bw *b, tc_tensor *result) {
    if (!b->failed && result) tc_tensor_retain(result);
    for (int i = 0; i < b->n; i++) tc_tensor_release(b->held[i]);
    return b->failed ? NULL : result;
}

static int64_t rows(const tc_tensor *t) { return t->sizes[t->ndim - 2]; }
static int64_t cols(const tc_tensor *t) { return t->sizes[t->ndim - 1]; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* ---- building blocks ---- */

static tc_tensor *mT(bw *b, tc_tensor *x) { return OP(b, tc_transpose_int(x, -2, -1)); }
/* The conjugate of a complex x; a real x itself, so that real gradients keep their ops. */
static tc_tensor *conjugate(bw *b, tc_tensor *x) {
    return !x || !tc_dtype_is_complex(x->dtype) ? x : OP(b, tc_conj_physical(x));
}
static tc_tensor *mH(bw *b, tc_tensor *x) { return b->failed ? NULL : conjugate(b, mT(b, x)); }
static tc_tensor *mm(bw *b, tc_tensor *x, tc_tensor *y) { return OP(b, tc_matmul(x, y)); }
static tc_tensor *add(bw *b, tc_tensor *x, tc_tensor *y) { return OP(b, tc_add_Tensor(x, y, TC_SCALAR_OF_INT(1))); }
static tc_tensor *sub(bw *b, tc_tensor *x, tc_tensor *y) { return OP(b, tc_sub_Tensor(x, y, TC_SCALAR_OF_INT(1))); }
static tc_tensor *mul(bw *b, tc_tensor *x, tc_tensor *y) { return OP(b, tc_mul_Tensor(x, y)); }
static tc_tensor *divide(bw *b, tc_tensor *x, tc_tensor *y) { return OP(b, tc_div_Tensor(x, y)); }
static tc_tensor *neg(bw *b, tc_tensor *x) { return OP(b, tc_neg(x)); }
static tc_tensor *num(bw *b, double v, const tc_tensor *like) {
    return OP(b, tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(v), like->dtype, -1, &like->device, NULL));
}
static tc_tensor *scale(bw *b, tc_tensor *x, double v) { return b->failed ? NULL : mul(b, x, num(b, v, x)); }
static tc_tensor *unsq(bw *b, tc_tensor *x, int64_t d) { return OP(b, tc_unsqueeze(x, d)); }
static tc_tensor *as_dtype(bw *b, tc_tensor *x, const tc_tensor *like) {
    return OP(b, tc_to_dtype(x, like->dtype, false, false, -1));
}
static tc_tensor *narrow(bw *b, tc_tensor *x, int64_t dim, int64_t start, int64_t len) {
    return OP(b, tc_slice_Tensor(x, dim, &start, &(int64_t){start + len}, 1));
}

/* eye(r, c) of x's dtype and device */
static tc_tensor *eye(bw *b, int64_t r, int64_t c, const tc_tensor *like) {
    return OP(b, tc_eye_m(r, c, like->dtype, -1, &like->device, NULL));
}

/* The bool mask of the elements (i, j) of an r x c matrix with j - i >= k (upper) or <= k (lower). */
static tc_tensor *triangle_mask(bw *b, int64_t r, int64_t c, int64_t k, bool upper, const tc_tensor *like) {
    const tc_device dev = like->device;
    tc_tensor *i = OP(b, tc_arange(TC_SCALAR_OF_INT(r), TC_INT64, -1, &dev, NULL));
    tc_tensor *j = OP(b, tc_arange(TC_SCALAR_OF_INT(c), TC_INT64, -1, &dev, NULL));
    tc_tensor *d = b->failed ? NULL : sub(b, unsq(b, j, 0), unsq(b, i, 1));
    tc_tensor *kk = OP(b, tc_scalar_tensor(TC_SCALAR_OF_INT(k), TC_INT64));
    return b->failed ? NULL : upper ? OP(b, tc_ge_Tensor(d, kk)) : OP(b, tc_le_Tensor(d, kk));
}

static tc_tensor *triangle(bw *b, tc_tensor *x, int64_t k, bool upper) {
    tc_tensor *mask = b->failed ? NULL : triangle_mask(b, rows(x), cols(x), k, upper, x);
    return OP(b, tc_where_ScalarOther(mask, x, TC_SCALAR_OF_INT(0)));
}
static tc_tensor *triu(bw *b, tc_tensor *x, int64_t k) { return triangle(b, x, k, true); }
static tc_tensor *tril(bw *b, tc_tensor *x, int64_t k) { return triangle(b, x, k, false); }

/* A batch of vectors as diagonal matrices. */
static tc_tensor *diag_embed(bw *b, tc_tensor *v) {
    const int64_t n = v->sizes[v->ndim - 1];
    return b->failed ? NULL : mul(b, unsq(b, v, -1), eye(b, n, n, v));
}

/* Whether g is a gradient nothing flowed into: zeros the engine made, requiring no grad. */
static bool unused_grad(tc_tensor *g) {
    if (!g || tc_requires_grad(g) || g->device.type != TC_DEVICE_CPU) return !g;
    tc_tensor *z = tc_scalar_tensor(TC_SCALAR_OF_INT(0), g->dtype), *ne = z ? tc_ne_Tensor(g, z) : NULL;
    tc_tensor *any = ne ? tc_sum(ne, -1) : NULL;
    tc_scalar s = {0};
    const bool zero = any && tc_tensor_get(any, 0, &s) == TC_OK && s.v.i == 0;
    tc_tensor_release(z);
    tc_tensor_release(ne);
    tc_tensor_release(any);
    tc_error_clear();
    return zero;
}

/* ---- determinants ---- */

/* grad det(A) = conj(det) * A^{-H}: a solve with A^H against (grad conj(det)) I */
int tc_impl_linalg_det_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *det = tc_arg_tensor(c, 1), *a = tc_arg_tensor(c, 2);
    bw b = {0};
    const int64_t n = rows(a);
    tc_tensor *d = mul(&b, g, conjugate(&b, det));
    tc_tensor *rhs = b.failed ? NULL : mul(&b, unsq(&b, unsq(&b, d, -1), -1), eye(&b, n, n, a));
    tc_tensor *r = b.failed ? NULL : OP(&b, tc_linalg_solve(mH(&b, a), rhs, true));
    return tc_return(c, finish(&b, r));
}

/* grad logabsdet = g A^{-H}, g the logabsdet's gradient (the sign of a real determinant has no
 * derivative); for a complex A, g - i imag(conj(grad_sign) sign) as PyTorch's */
int tc_impl_slogdet_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 1), *a = tc_arg_tensor(c, 2);
    bw b = {0};
    const int64_t n = rows(a);
    if (tc_dtype_is_complex(a->dtype)) {
        tc_tensor *t = mul(&b, tc_arg_tensor(c, 0), conjugate(&b, tc_arg_tensor(c, 3)));
        tc_tensor *im = b.failed ? NULL : OP(&b, tc_imag(t));
        g = b.failed ? NULL : OP(&b, tc_complex(g, im));
    }
    tc_tensor *rhs = b.failed ? NULL : mul(&b, unsq(&b, unsq(&b, g, -1), -1), eye(&b, n, n, a));
    tc_tensor *r = b.failed ? NULL : OP(&b, tc_linalg_solve(mH(&b, a), rhs, true));
    return tc_return(c, finish(&b, r));
}

/* ---- solve ---- */

/* X = A^{-1} B (left) or B A^{-1}: gB = A^{-H} gX (or gX A^{-H}); gA = -gB X^H (or -X^H gB). With
 * create_graph the solve is recomputed from A, so that it is differentiable; else the saved LU. */
static tc_tensor *solve_gB(bw *b, tc_tensor *gx, tc_tensor *x, tc_tensor *a, tc_tensor *lu, tc_tensor *piv, bool left,
                           bool *vector) {
    *vector = x->ndim == 1 || x->ndim == a->ndim - 1;
    if (tc_grad_enabled()) return OP(b, tc_linalg_solve(mH(b, a), gx, left));
    tc_tensor *g = *vector ? unsq(b, gx, -1) : gx;
    tc_tensor *r = b->failed ? NULL : OP(b, tc_linalg_lu_solve(lu, piv, g, left, true));
    return *vector && r ? OP(b, tc_squeeze_dim(r, -1)) : r;
}

int tc_impl_linalg_solve_backward_B(tc_opcall *c) {
    bw b = {0};
    bool vector;
    tc_tensor *gb = solve_gB(&b, tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 2), tc_arg_tensor(c, 3),
                             tc_arg_tensor(c, 4), tc_arg_bool(c, 5), &vector);
    return tc_return(c, finish(&b, gb));
}

int tc_impl_linalg_solve_backward_A(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 1);
    const bool left = tc_arg_bool(c, 5);
    bw b = {0};
    bool vector;
    tc_tensor *gb = solve_gB(&b, tc_arg_tensor(c, 0), x, tc_arg_tensor(c, 2), tc_arg_tensor(c, 3), tc_arg_tensor(c, 4),
                             left, &vector);
    tc_tensor *ga;
    if (vector) /* -gB x^H, an outer product per batch */
        ga = b.failed ? NULL : neg(&b, mul(&b, unsq(&b, gb, -1), unsq(&b, conjugate(&b, x), -2)));
    else
        ga = b.failed ? NULL : neg(&b, left ? mm(&b, gb, mH(&b, x)) : mm(&b, mH(&b, x), gb));
    return tc_return(c, finish(&b, ga));
}

/* ---- LU ---- */

/* PyTorch's linalg_lu_backward: for A = P L U (L m x k unit lower, U k x n upper, k = min(m, n)).
 * Square: gA = P L^{-H} [L^H gL o 1_L + gU U^H o 1_U] U^{-H}, 1_L the strictly lower triangle and 1_U
 * the upper one. Wide (m < n), with U = [U1 U2]: gA1 = P L^{-H} [(L^H gL - gU2 U2^H) o 1_L +
 * gU1 U1^H o 1_U] U1^{-H} and gA2 = P L^{-H} gU2. Tall (m > n) likewise with L = [L1; L2]. (^H is
 * the transpose of real factors.) */
static tc_tensor *lu_backward(bw *b, tc_tensor *gl, tc_tensor *gu, tc_tensor *p, tc_tensor *l, tc_tensor *u, bool pivot) {
    const int64_t m = rows(l), n = cols(u), k = min64(m, n);
    tc_tensor *ga;
    if (m == n) {
        ga = add(b, tril(b, mm(b, mH(b, l), gl), -1), triu(b, mm(b, gu, mH(b, u)), 0));
        ga = OP(b, tc_linalg_solve_triangular(mH(b, u), ga, false, false, false));
        ga = OP(b, tc_linalg_solve_triangular(mH(b, l), ga, true, true, true));
    } else if (m < n) {
        tc_tensor *u1 = narrow(b, u, -1, 0, k), *u2 = narrow(b, u, -1, k, n - k);
        tc_tensor *gu1 = narrow(b, gu, -1, 0, k), *gu2 = narrow(b, gu, -1, k, n - k);
        /* gM = tril(L^H gL - gU2 U2^H, -1) + triu(gU1 U1^H); gA1 = L^{-H} gM U1^{-H}, gA2 = L^{-H} gU2 */
        ga = add(b, tril(b, sub(b, mm(b, mH(b, l), gl), mm(b, gu2, mH(b, u2))), -1), triu(b, mm(b, gu1, mH(b, u1)), 0));
        ga = OP(b, tc_linalg_solve_triangular(mH(b, u1), ga, false, false, false));
        /* [ga gU2]: each block times the rows of eye(n) that put it in place */
        tc_tensor *e = eye(b, n, n, u);
        ga = add(b, mm(b, ga, narrow(b, e, -2, 0, k)), mm(b, gu2, narrow(b, e, -2, k, n - k)));
        ga = OP(b, tc_linalg_solve_triangular(mH(b, l), ga, true, true, true));
    } else {
        tc_tensor *l1 = narrow(b, l, -2, 0, k), *gl1 = narrow(b, gl, -2, 0, k), *gl2 = narrow(b, gl, -2, k, m - k);
        ga = sub(b, mm(b, gu, mH(b, u)), mm(b, mH(b, l), tril(b, gl, -1)));
        ga = OP(b, tc_linalg_solve_triangular(mH(b, l1), triu(b, ga, 0), true, true, true));
        ga = add(b, ga, tril(b, gl1, -1));
        tc_tensor *e = eye(b, m, m, l);
        ga = add(b, mm(b, narrow(b, e, -1, 0, k), ga), mm(b, narrow(b, e, -1, k, m - k), gl2));
        ga = OP(b, tc_linalg_solve_triangular(mH(b, u), ga, false, false, false));
    }
    return pivot ? mm(b, p, ga) : ga;
}

int tc_impl_linalg_lu_backward(tc_opcall *c) {
    bw b = {0};
    tc_tensor *r = lu_backward(&b, tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 2), tc_arg_tensor(c, 3),
                               tc_arg_tensor(c, 4), tc_arg_bool(c, 5));
    return tc_return(c, finish(&b, r));
}

/* linalg_lu_factor_ex: the factors unpacked, LU's gradient split into its L and U parts. */
int tc_impl_lu_factor_ex_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *lu = tc_arg_tensor(c, 1), *piv = tc_arg_tensor(c, 2);
    const bool pivot = tc_arg_bool(c, 3);
    tc_tensor *p, *l, *u;
    if (tc_lu_unpack(lu, piv, true, pivot, &p, &l, &u)) return TC_FAIL;
    bw b = {0};
    keep(&b, p), keep(&b, l), keep(&b, u);
    const int64_t k = min64(rows(lu), cols(lu));
    tc_tensor *gl = tril(&b, narrow(&b, g, -1, 0, k), -1), *gu = triu(&b, narrow(&b, g, -2, 0, k), 0);
    tc_tensor *r = b.failed ? NULL : lu_backward(&b, gl, gu, p, l, u, pivot);
    return tc_return(c, finish(&b, r));
}

/* lu_unpack: LU's gradient is L's strictly lower part and U's upper part, put in place. */
int tc_impl_lu_unpack_backward(tc_opcall *c) {
    tc_tensor *gl = tc_arg_tensor(c, 0), *gu = tc_arg_tensor(c, 1);
    const int64_t m = tc_arg_int(c, 2), n = tc_arg_int(c, 3), k = min64(m, n);
    bw b = {0};
    /* [m, k] and [k, n] pieces embedded in [m, n] by eye(m, k) and eye(k, n) */
    tc_tensor *r = add(&b, mm(&b, tril(&b, gl, -1), eye(&b, k, n, gl)), mm(&b, eye(&b, m, k, gu), triu(&b, gu, 0)));
    return tc_return(c, finish(&b, r));
}

/* The gradient of linalg_lu_solve with respect to LU (PyTorch's linalg_lu_solve_LU). */
int tc_impl_linalg_lu_solve_LU(tc_opcall *c) {
    tc_tensor *gx = tc_arg_tensor(c, 0), *lu = tc_arg_tensor(c, 1), *piv = tc_arg_tensor(c, 2), *x = tc_arg_tensor(c, 3);
    const bool left = tc_arg_bool(c, 4), adjoint = tc_arg_bool(c, 5);
    tc_tensor *p, *l, *u;
    if (tc_lu_unpack(lu, piv, true, true, &p, &l, &u)) return TC_FAIL;
    bw b = {0};
    keep(&b, p), keep(&b, l), keep(&b, u);
    tc_tensor *r;
    if (left != adjoint) {
        /* gR = U^{-H} op(-gX) op(X)^H; gU = triu(gR); gL = tril(L^{-H} gR U^H, -1) */
        tc_tensor *prod = left ? mm(&b, neg(&b, gx), mH(&b, x)) : mm(&b, neg(&b, mH(&b, gx)), x);
        tc_tensor *gr = OP(&b, tc_linalg_solve_triangular(mH(&b, u), prod, false, true, false));
        tc_tensor *gl = OP(&b, tc_linalg_solve_triangular(mH(&b, l), mm(&b, gr, mH(&b, u)), true, true, true));
        r = add(&b, tril(&b, gl, -1), triu(&b, gr, 0));
    } else {
        /* gR = -P^T op(X) op(gX)^H P L^{-H}; gU = triu(L^H gR U^{-H}); gL = tril(gR, -1) */
        tc_tensor *xx = left ? x : mH(&b, x), *gg = left ? mH(&b, gx) : gx;
        tc_tensor *gr = neg(&b, mm(&b, mm(&b, mm(&b, mT(&b, p), xx), gg), p));
        gr = OP(&b, tc_linalg_solve_triangular(mH(&b, l), gr, true, false, true));
        tc_tensor *gu = OP(&b, tc_linalg_solve_triangular(mH(&b, u), mm(&b, mH(&b, l), gr), false, false, false));
        r = add(&b, tril(&b, gr, -1), triu(&b, gu, 0));
    }
    return tc_return(c, finish(&b, r));
}

/* ---- Cholesky ---- */

/* A = L L^H: gA = L^{-H} phi(L^H gL) L^{-1}, made Hermitian: 0.5 (tril(X) + tril(X, -1)^H) for
 * X = L^H gL, between the triangular solves (Murray 2016, as PyTorch 1.13). */
int tc_impl_cholesky_backward(tc_opcall *c) {
    tc_tensor *gl = tc_arg_tensor(c, 0), *l = tc_arg_tensor(c, 2);
    const bool upper = tc_arg_bool(c, 1);
    bw b = {0};
    if (upper) l = mH(&b, l), gl = mH(&b, gl);
    tc_tensor *x = b.failed ? NULL : mm(&b, mH(&b, l), gl);
    tc_tensor *phi = b.failed ? NULL : scale(&b, add(&b, tril(&b, x, 0), mH(&b, tril(&b, x, -1))), 0.5);
    tc_tensor *ga = OP(&b, tc_linalg_solve_triangular(mH(&b, l), phi, true, true, false));
    ga = OP(&b, tc_linalg_solve_triangular(l, ga, false, false, false));
    return tc_return(c, finish(&b, ga));
}

/* cholesky_solve(B, L): L's gradient, -(C + C^H) L (or -U (C + C^H)) with C = gB X^H, gB = A^{-1} gX */
int tc_impl_cholesky_solve_backward_L(tc_opcall *c) {
    tc_tensor *gx = tc_arg_tensor(c, 0), *l = tc_arg_tensor(c, 2), *x = tc_arg_tensor(c, 3);
    const bool upper = tc_arg_bool(c, 4);
    bw b = {0};
    tc_tensor *gb = OP(&b, tc_cholesky_solve(gx, l, upper));
    tc_tensor *ct = b.failed ? NULL : mm(&b, gb, mH(&b, x));
    ct = b.failed ? NULL : add(&b, ct, mH(&b, ct));
    tc_tensor *r = b.failed ? NULL : neg(&b, upper ? mm(&b, l, ct) : mm(&b, ct, l));
    return tc_return(c, finish(&b, r));
}

/* ---- QR ---- */

/* For m >= n (A = Q R, R square): gA = (gQ + Q copyltu(M)) R^{-H} with M = R gR^H - gQ^H Q and
 * copyltu(M) = tril(M, -1) + tril(M, -1)^H + Re diag(M) (for real M: tril(M) + tril(M, -1)^T); the
 * real part of the diagonal because LAPACK's R has a real diagonal, so that Q^H dQ is skew-Hermitian
 * and dR's diagonal real. For m < n, A = Q [U V]: the square formula for the first m columns with
 * gQ + V-part's (A2 gV^H) and gV's columns Q gV. */
static tc_tensor *qr_square(bw *b, tc_tensor *gq, tc_tensor *gr, tc_tensor *q, tc_tensor *r) {
    tc_tensor *m = sub(b, mm(b, r, mH(b, gr)), mm(b, mH(b, gq), q));
    tc_tensor *low = tril(b, m, -1);
    /* Re diag(M) as the diagonal of the Hermitian part (M + M^H) / 2 */
    tc_tensor *diag = b->failed ? NULL : mul(b, scale(b, add(b, m, mH(b, m)), 0.5), eye(b, rows(m), cols(m), m));
    tc_tensor *copy = b->failed ? NULL : add(b, add(b, low, mH(b, low)), diag);
    tc_tensor *x = b->failed ? NULL : add(b, gq, mm(b, q, copy));
    return OP(b, tc_linalg_solve_triangular(mH(b, r), x, false, false, false));
}

int tc_impl_linalg_qr_backward(tc_opcall *c) {
    tc_tensor *gq = tc_arg_tensor(c, 0), *gr = tc_arg_tensor(c, 1), *q = tc_arg_tensor(c, 2), *r = tc_arg_tensor(c, 3);
    const char *mode = c->args[4].v.s;
    if (strcmp(mode, "r") == 0)
        return tc_set_error(TC_ERR_RUNTIME, "The derivative of linalg.qr depends on Q, which is not computed when "
                                            "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                                            "differentiate through linalg.qr.");
    const int64_t m = rows(q), n = cols(r);
    if (strcmp(mode, "complete") == 0 && m > n)
        return tc_set_error(TC_ERR_RUNTIME, "The QR decomposition is not differentiable when mode='complete' and "
                                            "nrows > ncols.");
    bw b = {0};
    tc_tensor *ga;
    if (m >= n) {
        ga = qr_square(&b, gq, gr, q, r);
    } else {
        tc_tensor *u = narrow(&b, r, -1, 0, m), *v = narrow(&b, r, -1, m, n - m);
        tc_tensor *gu = narrow(&b, gr, -1, 0, m), *gv = narrow(&b, gr, -1, m, n - m);
        tc_tensor *a2 = b.failed ? NULL : mm(&b, q, v);
        tc_tensor *gx = b.failed ? NULL : qr_square(&b, add(&b, gq, mm(&b, a2, mH(&b, gv))), gu, q, u);
        tc_tensor *gy = b.failed ? NULL : mm(&b, q, gv);
        tc_tensor *e = eye(&b, n, n, r);
        ga = b.failed ? NULL : add(&b, mm(&b, gx, narrow(&b, e, -2, 0, m)), mm(&b, gy, narrow(&b, e, -2, m, n - m)));
    }
    return tc_return(c, finish(&b, ga));
}

/* ---- SVD and eigh ---- */

/* Whether every element of the boolean tensor ok is true (host read; the meta device passes). */
static int all_true(bw *b, tc_tensor *ok, bool *result) {
    const int32_t meta = tc_device_type_id("meta");
    *result = true;
    if (b->failed) return TC_FAIL;
    if ((meta >= 0 && ok->device.type == meta) || tc_tensor_numel(ok) == 0) return TC_OK;
    tc_tensor *all = OP(b, tc_all(ok));
    tc_scalar v = {0};
    if (!all || tc__local_scalar_dense(all, &v)) return b->failed = true, TC_FAIL;
    *result = v.v.i != 0;
    return TC_OK;
}

/* Im(diag(x)) of a batch of complex matrices; NULL for a NULL x. */
static tc_tensor *imag_diagonal(bw *b, tc_tensor *x) {
    tc_tensor *d = x ? OP(b, tc_diagonal(x, 0, -2, -1)) : NULL;
    return d ? OP(b, tc_imag(d)) : NULL;
}

/* PyTorch's check that a loss of complex singular vectors does not depend on their phases (U -> U L,
 * V -> V L for a diagonal unitary L): allclose(Im diag(skew(U^H gU)), -Im diag(skew(V^H gV)), rtol =
 * atol = 1e-2), a missing gradient's term zero. NaN fails it, as allclose's does. */
static int svd_check_gauge(bw *b, tc_tensor *uhgu, tc_tensor *vhgv) {
    tc_tensor *iu = imag_diagonal(b, uhgu), *iv = imag_diagonal(b, vhgv);
    tc_tensor *diff = !iu ? iv : !iv ? iu : add(b, iu, iv), *adiff = b->failed ? NULL : OP(b, tc_abs(diff));
    tc_tensor *tol = b->failed ? NULL : num(b, 1e-2, adiff);
    if (iv) tol = b->failed ? NULL : add(b, tol, scale(b, OP(b, tc_abs(iv)), 1e-2));
    tc_tensor *ok = b->failed ? NULL : OP(b, tc_le_Tensor(adiff, tol));
    bool fine;
    if (all_true(b, ok, &fine)) return TC_FAIL;
    if (fine) return TC_OK;
    b->failed = true;
    return tc_set_error(TC_ERR_RUNTIME, "svd_backward: The singular vectors in the complex case are specified up to "
                                        "multiplication by e^{i phi}. The specified loss function depends on this "
                                        "phase term, making it ill-defined.");
}

/* PyTorch's svd_backward (distinct singular values; full rank when rectangular or complex), with
 * skew(X) = X - X^H and E_jk = S_k^2 - S_j^2 (1 on the diagonal):
 *   gA = U [(skew(U^H gU) / E) S + S (skew(V^H gV) / E) + diag(gS) + i Im(diag(U^H gU)) / S] V^H
 * plus, for a tall A, (I - U U^H) gU S^-1 V^H (a wide one: U S^-1 gV^H (I - V V^H)). The
 * i Im(diag(U^H gU)) / S term is complex only. */
static tc_tensor *svd_backward(bw *b, tc_tensor *gu, tc_tensor *gs, tc_tensor *gvh, tc_tensor *u, tc_tensor *s,
                               tc_tensor *vh) {
    const int64_t m = rows(u), n = cols(vh);
    if (!gu && !gvh) /* svdvals: U diag(gS) Vh */
        return m >= n ? mm(b, u, mul(b, unsq(b, gs, -1), vh)) : mm(b, mul(b, u, unsq(b, gs, -2)), vh);
    const bool cplx = tc_dtype_is_complex(u->dtype);
    const int64_t k = s->sizes[s->ndim - 1];
    tc_tensor *s2 = mul(b, s, s), *e = b->failed ? NULL : add(b, sub(b, unsq(b, s2, -2), unsq(b, s2, -1)),
                                                              eye(b, k, k, s));
    tc_tensor *uhgu = NULL, *vhgv = NULL;
    if (gu) uhgu = mm(b, mH(b, u), gu), uhgu = b->failed ? NULL : sub(b, uhgu, mH(b, uhgu));
    if (gvh) vhgv = mm(b, vh, mH(b, gvh)), vhgv = b->failed ? NULL : sub(b, vhgv, mH(b, vhgv));
    if (cplx && !b->failed && svd_check_gauge(b, uhgu, vhgv)) return NULL;
    tc_tensor *ga;
    if (gu && gvh)
        ga = divide(b, add(b, mul(b, uhgu, unsq(b, s, -2)), mul(b, unsq(b, s, -1), vhgv)), e);
    else if (gu)
        ga = mul(b, uhgu, divide(b, unsq(b, s, -2), e));
    else
        ga = mul(b, divide(b, unsq(b, s, -1), e), vhgv);
    ga = b->failed ? NULL : add(b, ga, diag_embed(b, gs));
    if (cplx && gu && !b->failed) /* diag(skew(U^H gU)) is 2i Im(diag(U^H gU)) */
        ga = add(b, ga, diag_embed(b, divide(b, OP(b, tc_diagonal(uhgu, 0, -2, -1)), scale(b, s, 2))));
    if (m > n && gu) { /* gA = [U gA + (I - U U^H) gU S^{-1}] Vh */
        ga = mm(b, u, ga);
        tc_tensor *gus = divide(b, gu, unsq(b, s, -2));
        ga = b->failed ? NULL : sub(b, add(b, ga, gus), mm(b, u, mm(b, mH(b, u), gus)));
        return mm(b, ga, vh);
    }
    if (m < n && gvh) { /* gA = U [gA Vh + S^{-1} gVh (I - V Vh)] */
        ga = mm(b, ga, vh);
        tc_tensor *sgv = divide(b, gvh, unsq(b, s, -1));
        ga = b->failed ? NULL : sub(b, add(b, ga, sgv), mm(b, mm(b, sgv, mH(b, vh)), vh));
        return mm(b, u, ga);
    }
    return m >= n ? mm(b, u, mm(b, ga, vh)) : mm(b, mm(b, u, ga), vh);
}

/* _linalg_svd's formula: with full_matrices only the first k columns of U (rows of Vh) matter. */
int tc_impl_svd_backward(tc_opcall *c) {
    tc_tensor *gu = tc_arg_tensor(c, 0), *gs = tc_arg_tensor(c, 1), *gvh = tc_arg_tensor(c, 2);
    tc_tensor *u = tc_arg_tensor(c, 3), *s = tc_arg_tensor(c, 4), *vh = tc_arg_tensor(c, 5);
    const bool full = tc_arg_bool(c, 6);
    if (u->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "linalg.svd: the derivative needs U and V: compute them");
    bw b = {0};
    const int64_t k = s->sizes[s->ndim - 1];
    if (unused_grad(gu)) gu = NULL;
    if (unused_grad(gvh)) gvh = NULL;
    if (full) {
        u = narrow(&b, u, -1, 0, k), vh = narrow(&b, vh, -2, 0, k);
        if (gu) gu = narrow(&b, gu, -1, 0, k);
        if (gvh) gvh = narrow(&b, gvh, -2, 0, k);
    }
    tc_tensor *r = b.failed ? NULL : svd_backward(&b, gu, gs, gvh, u, s, vh);
    return tc_return(c, finish(&b, r));
}

static int eig_check_gauge(tc_tensor *diag, const char *api);

/* _linalg_eigh (PyTorch's linalg_eig_backward, hermitian): with E_ij = L_j - L_i (1 on the diagonal),
 * gA = V (skew(V^H gV) / E, its diagonal replaced by gL) V^H, skew(X) = (X - X^H) / 2; without gV,
 * gA = V diag(gL) V^H. For complex V the loss must not depend on the vectors' phases (the imaginary
 * part of diag(V^H gV) zero); a real skew's diagonal is zero, so adding gL replaces it. */
int tc_impl_linalg_eigh_backward(tc_opcall *c) {
    tc_tensor *gl = tc_arg_tensor(c, 0), *gv = tc_arg_tensor(c, 1), *l = tc_arg_tensor(c, 2), *v = tc_arg_tensor(c, 3);
    if (v->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "linalg.eigh: the derivative needs the eigenvectors: compute them");
    const bool no_gv = unused_grad(gv), no_gl = unused_grad(gl), cplx = tc_dtype_is_complex(v->dtype);
    bw b = {0};
    if (no_gv) { /* V diag(gL) V^H as PyTorch's (V * gL) V^H: the product promotes a real gL */
        tc_tensor *r = mm(&b, mul(&b, v, unsq(&b, gl, -2)), mH(&b, v));
        return tc_return(c, finish(&b, r));
    }
    const int64_t n = l->sizes[l->ndim - 1];
    tc_tensor *x = mm(&b, mH(&b, v), gv), *skew = b.failed ? NULL : scale(&b, sub(&b, x, mH(&b, x)), 0.5);
    tc_tensor *d = cplx && !b.failed ? OP(&b, tc_diagonal(x, 0, -2, -1)) : NULL;
    if (d && eig_check_gauge(d, "linalg_eigh_backward")) b.failed = true;
    tc_tensor *eye_n = eye(&b, n, n, l);
    tc_tensor *e = b.failed ? NULL : add(&b, sub(&b, unsq(&b, l, -2), unsq(&b, l, -1)), eye_n);
    tc_tensor *q = b.failed ? NULL : divide(&b, skew, e);
    if (cplx && !no_gl && !b.failed) q = sub(&b, q, mul(&b, q, eye_n)); /* PyTorch copies gL over it */
    tc_tensor *inner = b.failed ? NULL : add(&b, diag_embed(&b, gl), q);
    tc_tensor *r = b.failed ? NULL : mm(&b, v, mm(&b, inner, mH(&b, v)));
    return tc_return(c, finish(&b, r));
}

/* ---- eig ---- */

static tc_tensor *cat2(bw *b, tc_tensor *x, tc_tensor *y, int64_t dim) {
    return b->failed ? NULL : OP(b, tc_cat((tc_tensor_list){(tc_tensor *[]){x, y}, 2}, dim));
}

/* A X = B for complex A and B, as the real system [[Re A, -Im A], [Im A, Re A]] [Re X; Im X] =
 * [Re B; Im B] of twice the size: the LAPACK kernels take real matrices only so far, and the real
 * solve is differentiable again for create_graph. */
static tc_tensor *complex_solve(bw *b, tc_tensor *a, tc_tensor *rhs) {
    const int64_t n = rows(a);
    tc_tensor *ar = OP(b, tc_real(a)), *ai = OP(b, tc_imag(a)), *br = OP(b, tc_real(rhs)), *bi = OP(b, tc_imag(rhs));
    tc_tensor *big = b->failed ? NULL : cat2(b, cat2(b, ar, neg(b, ai), -1), cat2(b, ai, ar, -1), -2);
    tc_tensor *x = b->failed ? NULL : OP(b, tc_linalg_solve(big, cat2(b, br, bi, -2), true));
    return b->failed ? NULL : OP(b, tc_complex(narrow(b, x, -2, 0, n), narrow(b, x, -2, n, n)));
}

/* PyTorch's check that the loss does not depend on the eigenvectors' phases: the imaginary part of
 * diag(V^H gV) is zero (allclose, rtol = atol = 1e-2; not read on the meta device); api names the
 * backward in the message. */
static int eig_check_gauge(tc_tensor *diag, const char *api) {
    const int32_t meta = tc_device_type_id("meta");
    if ((meta >= 0 && diag->device.type == meta) || tc_tensor_numel(diag) == 0) return TC_OK;
    tc_tensor *im = tc_imag(diag), *a = im ? tc_abs(im) : NULL, *m = a ? tc_max(a) : NULL;
    tc_scalar s = {0};
    const int rc = m ? tc__local_scalar_dense(m, &s) : TC_FAIL;
    tc_tensor_release(im);
    tc_tensor_release(a);
    tc_tensor_release(m);
    if (rc) return TC_FAIL;
    if (!(s.v.f > 1e-2)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s: The eigenvectors in the complex case are specified up to "
                                        "multiplication by e^{i phi}. The specified loss function depends on this "
                                        "quantity, so it is ill-defined.", api);
}

/* _linalg_eig (PyTorch's linalg_eig_backward, not hermitian): with E_ij = conj(L_j - L_i),
 * gA = V^-H (diag(gL) + (V^H gV - V^H V diag(re(diag(V^H gV)))) / E) V^H, the quotient's diagonal
 * replaced by gL; without gV, gA = V^-H diag(gL) V^H. The caller takes the real part for a real A. */
int tc_impl_linalg_eig_backward(tc_opcall *c) {
    tc_tensor *gl = tc_arg_tensor(c, 0), *gv = tc_arg_tensor(c, 1), *l = tc_arg_tensor(c, 2), *v = tc_arg_tensor(c, 3);
    if (v->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "linalg.eig: the derivative needs the eigenvectors: compute them");
    const bool no_gv = unused_grad(gv), no_gl = unused_grad(gl); /* (these clear the error state) */
    bw b = {0};
    tc_tensor *vh = mT(&b, OP(&b, tc_conj_physical(v))), *inner;
    if (no_gv) {
        inner = diag_embed(&b, gl);
    } else {
        const int64_t n = l->sizes[l->ndim - 1];
        tc_tensor *vhgv = mm(&b, vh, gv), *d = b.failed ? NULL : OP(&b, tc_diagonal(vhgv, 0, -2, -1));
        if (!b.failed && eig_check_gauge(d, "linalg_eig_backward")) b.failed = true;
        tc_tensor *re = OP(&b, tc_real(d));
        tc_tensor *proj = b.failed ? NULL : sub(&b, vhgv, mm(&b, vh, mul(&b, v, unsq(&b, re, -2))));
        tc_tensor *lc = OP(&b, tc_conj_physical(l)), *eye_n = eye(&b, n, n, l);
        tc_tensor *e = b.failed ? NULL : add(&b, sub(&b, unsq(&b, lc, -2), unsq(&b, lc, -1)), eye_n);
        inner = b.failed ? NULL : divide(&b, proj, e);
        if (!no_gl && !b.failed)
            inner = add(&b, sub(&b, inner, mul(&b, inner, eye_n)), diag_embed(&b, gl));
    }
    tc_tensor *r = b.failed ? NULL : complex_solve(&b, vh, mm(&b, inner, vh));
    return tc_return(c, finish(&b, r));
}

/* ---- triangular solves ---- */

/* gA of X = op(A)^{-1} B: -gB X^H; when op is the (plain) transpose, -conj(X) gB^T, the transpose of
 * the former for A^T; -X^H gB for X A = B. Projected on A's triangle. */
static tc_tensor *triangular_gA(bw *b, tc_tensor *gb, tc_tensor *x, bool upper, bool left, bool transpose, bool unit) {
    tc_tensor *ga = left ? (transpose ? mm(b, conjugate(b, x), mT(b, gb)) : mm(b, gb, mH(b, x))) : mm(b, mH(b, x), gb);
    ga = neg(b, ga);
    return upper ? triu(b, ga, unit ? 1 : 0) : tril(b, ga, unit ? -1 : 0);
}

/* B's gradient of X = op(A)^{-1} B, op(A)^{-H} gX: a triangular_solve with conj(A) and the other
 * transpose (triangular_solve's transpose is the plain one, for complex A too). */
static int triangular_gB(bw *b, tc_tensor *gx, tc_tensor *a, bool upper, bool transpose, bool unit, tc_tensor **gb) {
    tc_tensor *ac = conjugate(b, a), *m;
    if (b->failed || tc_triangular_solve(gx, ac, upper, !transpose, unit, gb, &m)) return TC_FAIL;
    tc_tensor_release(m);
    return keep(b, *gb) ? TC_OK : TC_FAIL;
}

/* triangular_solve(B, A, upper, transpose, unitriangular): B's gradient */
int tc_impl_triangular_solve_backward_self(tc_opcall *c) {
    bw b = {0};
    tc_tensor *gb = NULL;
    triangular_gB(&b, tc_arg_tensor(c, 0), tc_arg_tensor(c, 2), tc_arg_bool(c, 4), tc_arg_bool(c, 5),
                  tc_arg_bool(c, 6), &gb);
    return tc_return(c, finish(&b, gb));
}

/* ... and A's: the solution's part on A's triangle, plus the gradient of the copy of A */
int tc_impl_triangular_solve_backward_A(tc_opcall *c) {
    tc_tensor *gx = tc_arg_tensor(c, 0), *gm = tc_arg_tensor(c, 1), *a = tc_arg_tensor(c, 2), *x = tc_arg_tensor(c, 3);
    const bool upper = tc_arg_bool(c, 4), transpose = tc_arg_bool(c, 5), unit = tc_arg_bool(c, 6);
    bw b = {0};
    tc_tensor *gb = NULL;
    if (triangular_gB(&b, gx, a, upper, transpose, unit, &gb)) return tc_return(c, finish(&b, NULL));
    tc_tensor *ga = triangular_gA(&b, gb, x, upper, true, transpose, unit);
    return tc_return(c, finish(&b, b.failed ? NULL : add(&b, ga, gm)));
}

/* linalg_solve_triangular(A, B, upper, left, unitriangular): A's gradient */
int tc_impl_solve_triangular_backward_A(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1), *x = tc_arg_tensor(c, 2);
    const bool upper = tc_arg_bool(c, 3), left = tc_arg_bool(c, 4), unit = tc_arg_bool(c, 5);
    bw b = {0};
    tc_tensor *gb = OP(&b, tc_linalg_solve_triangular(mH(&b, a), g, !upper, left, unit));
    return tc_return(c, finish(&b, b.failed ? NULL : triangular_gA(&b, gb, x, upper, left, false, unit)));
}

/* ---- least squares: through the pseudoinverse, as PyTorch 1.13 ---- */

/* PyTorch's pinv_backward: the gradient of A from that of pinv(A). */
static tc_tensor *pinv_backward(bw *b, tc_tensor *g, tc_tensor *pinv, tc_tensor *a) {
    tc_tensor *ph = mH(b, pinv), *gh = mH(b, g);
    if (rows(a) <= cols(a)) {
        tc_tensor *k = mm(b, gh, pinv), *kph = mm(b, k, ph);
        tc_tensor *t1 = neg(b, mH(b, mm(b, pinv, k))), *t3 = mm(b, mm(b, a, pinv), kph);
        tc_tensor *t4 = mm(b, mm(b, ph, pinv), sub(b, gh, mm(b, k, a)));
        return b->failed ? NULL : add(b, sub(b, add(b, t1, kph), t3), t4);
    }
    tc_tensor *k = mm(b, pinv, gh), *phk = mm(b, ph, k);
    tc_tensor *t1 = neg(b, mH(b, mm(b, k, pinv))), *t2 = mm(b, mm(b, sub(b, gh, mm(b, a, k)), pinv), ph);
    tc_tensor *t4 = mm(b, mm(b, phk, pinv), a);
    return b->failed ? NULL : sub(b, add(b, add(b, t1, t2), phk), t4);
}

static bool lstsq_vector(const tc_tensor *a, const tc_tensor *bb) { return bb->ndim == a->ndim - 1; }

int tc_impl_linalg_lstsq_backward_A(tc_opcall *c) {
    tc_tensor *gx = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1), *bb = tc_arg_tensor(c, 2);
    bw b = {0};
    const bool vec = lstsq_vector(a, bb);
    tc_tensor *g = vec ? unsq(&b, gx, -1) : gx, *B = vec ? unsq(&b, bb, -1) : bb;
    tc_tensor *pinv = OP(&b, tc_linalg_pinv_atol_rtol_tensor(a, NULL, NULL, false));
    tc_tensor *r = b.failed ? NULL : pinv_backward(&b, mm(&b, g, mH(&b, B)), pinv, a);
    return tc_return(c, finish(&b, r));
}

int tc_impl_linalg_lstsq_backward_B(tc_opcall *c) {
    tc_tensor *gx = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1), *bb = tc_arg_tensor(c, 2);
    bw b = {0};
    const bool vec = lstsq_vector(a, bb);
    tc_tensor *g = vec ? unsq(&b, gx, -1) : gx;
    tc_tensor *pinv = OP(&b, tc_linalg_pinv_atol_rtol_tensor(a, NULL, NULL, false));
    tc_tensor *r = b.failed ? NULL : mm(&b, mH(&b, pinv), g);
    if (vec && r) r = OP(&b, tc_squeeze_dim(r, -1));
    return tc_return(c, finish(&b, r));
}

/* ---- matrix_exp ---- */

/* The Fréchet derivative of exp at A applied to G (adjoint: at A^H, its adjoint under the real inner
 * product re tr(X^H Y), which is what backward needs: A^T for real A, the conjugate transpose for
 * complex A, as PyTorch's differential_analytic_matrix_function): the top right block of
 * exp([[A, G], [0, A]]) (Mathias 1996), the blocks placed by the selection matrices E1 = eye(2n, n)
 * and E2 = the last n columns of eye(2n). */
int tc_impl_linalg_matrix_exp_differential(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *g = tc_arg_tensor(c, 1);
    const bool adjoint = tc_arg_bool(c, 2);
    const int64_t n = cols(a);
    bw b = {0};
    tc_tensor *x = adjoint ? mH(&b, a) : a;
    tc_tensor *e1 = eye(&b, 2 * n, n, a), *e2 = narrow(&b, eye(&b, 2 * n, 2 * n, a), -1, n, n);
    tc_tensor *e1t = mT(&b, e1), *e2t = mT(&b, e2);
    tc_tensor *big = b.failed ? NULL : add(&b, add(&b, mm(&b, mm(&b, e1, x), e1t), mm(&b, mm(&b, e1, g), e2t)),
                                           mm(&b, mm(&b, e2, x), e2t));
    tc_tensor *ex = OP(&b, tc_linalg_matrix_exp(big));
    tc_tensor *r = b.failed ? NULL : mm(&b, mm(&b, e1t, ex), e2);
    return tc_return(c, finish(&b, r));
}

/* ---- vector_norm ---- */

/* sign(x) as x's dtype: (x > 0) - (x < 0), a constant for autograd; x / |x| (0 at 0) for complex x */
static tc_tensor *sign_of(bw *b, tc_tensor *x) {
    if (tc_dtype_is_complex(x->dtype)) return OP(b, tc_sgn(OP(b, tc_detach(x))));
    tc_tensor *z = num(b, 0, x);
    return b->failed ? NULL : sub(b, as_dtype(b, OP(b, tc_gt_Tensor(x, z)), x), as_dtype(b, OP(b, tc_lt_Tensor(x, z)), x));
}

/* x with (mask) added: a denominator kept away from zero where mask is 1 */
static tc_tensor *plus_mask(bw *b, tc_tensor *x, tc_tensor *mask) { return add(b, x, as_dtype(b, mask, x)); }

/* PyTorch's norm_backward over the reduced dims (put back as size 1 first). */
int tc_impl_linalg_vector_norm_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *norm = tc_arg_tensor(c, 3);
    const tc_scalar ps = c->args[2].v.scalar;
    const double p = ps.kind == TC_SCALAR_FLOAT ? ps.v.f : (double)ps.v.i;
    const bool keepdim = tc_arg_bool(c, 5);
    bw b = {0};
    if (!keepdim && x->ndim > 0) { /* unsqueeze the reduced dims, in increasing order */
        bool reduced[TC_MAX_DIMS] = {false};
        if (tc_arg_none(c, 4) || c->args[4].v.ints.len == 0) {
            for (int32_t d = 0; d < x->ndim; d++) reduced[d] = true;
        } else {
            tc_int_list dims = tc_arg_ints(c, 4);
            for (int64_t i = 0; i < dims.len; i++) {
                int32_t d;
                if (tc_shape_wrap_dim(dims.items[i], x->ndim, &d)) return TC_FAIL;
                reduced[d] = true;
            }
        }
        for (int32_t d = 0; d < x->ndim; d++)
            if (reduced[d]) g = unsq(&b, g, d), norm = unsq(&b, norm, d);
    }
    tc_tensor *zero = num(&b, 0, x), *r;
    if (p == 0) {
        r = OP(&b, tc_zeros_like(x, -1, -1, NULL, NULL, -1));
    } else if (p == 1) {
        r = mul(&b, sign_of(&b, x), g);
    } else if (p == 2) { /* g x / norm, 0 where norm is 0 (x is 0 there too) */
        r = mul(&b, g, divide(&b, x, plus_mask(&b, norm, OP(&b, tc_eq_Tensor(norm, zero)))));
    } else if (p == INFINITY || p == -INFINITY) { /* g split over the elements reaching the norm (or NaN) */
        tc_tensor *ax = OP(&b, tc_abs(x));
        tc_tensor *hit = b.failed ? NULL : add(&b, as_dtype(&b, OP(&b, tc_eq_Tensor(ax, norm)), x),
                                               as_dtype(&b, OP(&b, tc_ne_Tensor(x, x)), x));
 const bool all = tc_arg_none(c, 4) || c->args[4].v.ints.len == 0;
        tc_int_list dims = all ? TC_NO_INTS : tc_arg_ints(c, 4);
        tc_tensor *count = b.failed ? NULL : OP(&b, tc_sum_dim_IntList(hit, all ? NULL : &dims, true, -1));
        r = b.failed ? NULL : mul(&b, sign_of(&b, x), mul(&b, divide(&b, g, count), hit));
    } else if (p < 1) { /* sign(x) |x|^(p-1) g norm^(1-p), 0 where x is 0 */
        tc_tensor *ax = plus_mask(&b, OP(&b, tc_abs(x)), OP(&b, tc_eq_Tensor(x, zero)));
        tc_tensor *sx = b.failed ? NULL : mul(&b, sign_of(&b, x), OP(&b, tc_pow_Tensor_Tensor(ax, num(&b, p - 1, x))));
        r = b.failed ? NULL : mul(&b, mul(&b, sx, g), OP(&b, tc_pow_Tensor_Tensor(norm, num(&b, 1 - p, norm))));
    } else { /* x |x|^(p-2) g / norm^(p-1), 0 where norm is 0 */
        tc_tensor *nz = OP(&b, tc_eq_Tensor(norm, zero));
        tc_tensor *den = b.failed ? NULL : OP(&b, tc_pow_Tensor_Tensor(plus_mask(&b, norm, nz), num(&b, p - 1, norm)));
        tc_tensor *sv = b.failed ? NULL : mul(&b, divide(&b, g, den), sub(&b, num(&b, 1, x), as_dtype(&b, nz, x)));
        tc_tensor *sx = p < 2 ? mul(&b, sign_of(&b, x), OP(&b, tc_pow_Tensor_Tensor(OP(&b, tc_abs(x)), num(&b, p - 1, x))))
                              : mul(&b, x, OP(&b, tc_pow_Tensor_Tensor(OP(&b, tc_abs(x)), num(&b, p - 2, x))));
        r = b.failed ? NULL : mul(&b, sx, sv);
    }
    return tc_return(c, finish(&b, r));
}

/* ---- cdist ---- */

/* The gradient of x1 in _cdist_forward(x1, x2, p): sum_j g_ij d/dx1_i |x1_i - x2_j|_p, as a composite
 * of ops (differentiable again, unlike PyTorch's kernel): diff * |diff|^(p-2) / d^(p-1) for p > 0
 * (p = inf: the coordinates reaching the maximum), 0 for p = 0; 0 where a distance is 0. */
int tc_impl__cdist_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *x1 = tc_arg_tensor(c, 1), *x2 = tc_arg_tensor(c, 2), *d = tc_arg_tensor(c, 4);
    const double p = c->args[3].v.f;
    bw b = {0};
    if (p == 0) return tc_return(c, finish(&b, OP(&b, tc_zeros_like(x1, -1, -1, NULL, NULL, -1))));
    tc_tensor *diff = sub(&b, unsq(&b, x1, -2), unsq(&b, x2, -3)); /* [*, r1, r2, m] */
    tc_tensor *dd = unsq(&b, d, -1), *gg = unsq(&b, g, -1), *zero = num(&b, 0, x1);
    tc_tensor *dz = OP(&b, tc_eq_Tensor(dd, zero)), *safe = b.failed ? NULL : plus_mask(&b, dd, dz);
    tc_tensor *keepm = b.failed ? NULL : sub(&b, num(&b, 1, x1), as_dtype(&b, dz, x1));
    tc_tensor *term;
    if (p == INFINITY) {
        tc_tensor *ad = OP(&b, tc_abs(diff)), *hit = b.failed ? NULL : as_dtype(&b, OP(&b, tc_eq_Tensor(ad, dd)), x1);
        term = b.failed ? NULL : mul(&b, sign_of(&b, diff), hit);
    } else if (p == 1) {
        term = sign_of(&b, diff);
    } else if (p == 2) {
        term = divide(&b, diff, safe);
    } else {
        tc_tensor *ad = OP(&b, tc_abs(diff)), *adz = b.failed ? NULL : plus_mask(&b, ad, OP(&b, tc_eq_Tensor(diff, zero)));
        tc_tensor *num_ = b.failed ? NULL : mul(&b, sign_of(&b, diff), OP(&b, tc_pow_Tensor_Tensor(adz, num(&b, p - 1, x1))));
        term = b.failed ? NULL : divide(&b, num_, OP(&b, tc_pow_Tensor_Tensor(safe, num(&b, p - 1, x1))));
    }
    tc_tensor *w = b.failed ? NULL : mul(&b, mul(&b, term, gg), keepm);
    tc_tensor *r = b.failed ? NULL : OP(&b, tc_sum_dim_IntList(w, &TC_INTS(-2), false, -1));
    return tc_return(c, finish(&b, r));
}
