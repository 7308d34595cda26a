/*
 * linalg_eig.c - the eigendecomposition of general (not necessarily symmetric) matrices over
 * LAPACK's geev: linalg_eig.
 *
 * Contract (docs/plugin-abi.md), batch dims first:
 *   linalg_eig  A[n,n] (float32, float64, complex64, complex128) -> eigenvalues[n], eigenvectors[n,n]
 *               (columns, unit norm) or [0], both of A's complex dtype; args: compute_v.
 *
 * A real A goes to sgeev/dgeev, which return eigenvalues as wr + i wi and the vectors of a complex
 * conjugate pair (the one with the positive imaginary part first) packed into two real columns:
 * v_j = VR(:,j) + i VR(:,j+1), v_j+1 = conj(v_j). They are unpacked as PyTorch's
 * linalg_eig_make_complex_eigenvectors does, pairing columns where wi[j] != 0. A complex A goes to
 * cgeev/zgeev (tc_lapack.geev_complex, ABI 1.4); a provider whose LAPACK lacks it (built against
 * 1.3) raises a RuntimeError naming the provider.
 *
 * A matrix holding NaN or infinity gets NaN eigenvalues and vectors without a call: LAPACK's
 * balancing rejects it as an illegal argument (PyTorch's eigvals raises an internal assert there).
 * linalg.eig itself refuses such input before the kernel runs, as PyTorch's does.
 */
#include <math.h>

#include "linalg.h"

typedef struct eig_job {
    const tc_view *a, *w, *v;
    bool vectors;
} eig_job;

/* wr, wi and the packed real vectors (leading dimension ld) -> complex eigenvalues w[n] and, when v
 * is not NULL, complex vectors v (leading dimension ld, in complex elements). */
#define EIG_UNPACK(T)                                                                              \
    static void unpack_##T(int64_t n, const T *wr, const T *wi, const T *vr, int64_t ld, T *w, T *v) { \
        for (int64_t j = 0; j < n; j++) w[2 * j] = wr[j], w[2 * j + 1] = wi[j];                    \
        if (!v) return;                                                                            \
        for (int64_t j = 0; j < n; j++) {                                                          \
            const T *x = vr + j * ld;                                                              \
            T *y = v + 2 * j * ld;                                                                 \
            if (wi[j] == 0 || j + 1 == n) {                                                        \
                for (int64_t i = 0; i < n; i++) y[2 * i] = x[i], y[2 * i + 1] = 0;                 \
                continue;                                                                          \
            }                                                                                      \
            const T *xi = x + ld;                                                                  \
            T *y2 = y + 2 * ld;                                                                    \
            for (int64_t i = 0; i < n; i++) {                                                      \
                y[2 * i] = x[i], y[2 * i + 1] = xi[i];                                             \
                y2[2 * i] = x[i], y2[2 * i + 1] = -xi[i];                                          \
            }                                                                                      \
            j++;                                                                                   \
        }                                                                                          \
    }
EIG_UNPACK(float)
EIG_UNPACK(double)

/* count complex elements of dtype cdt set to NaN + NaN i */
static void fill_nan(int32_t cdt, void *p, int64_t count) {
    for (int64_t i = 0; i < 2 * count; i++) {
        if (cdt == TC_COMPLEX128)
            ((double *)p)[i] = NAN;
        else
            ((float *)p)[i] = NAN;
    }
}

static int eig_item(void *ctx, int64_t b, la_scratch *s) {
    const eig_job *j = ctx;
    const tc_view *a = j->a;
    const int32_t dt = a->dtype, cdt = j->w->dtype;
    const bool cplx = dt == cdt;
    const int64_t n = la_rows(a), ld = la_max1(n);
    int64_t nn;
    if (__builtin_mul_overflow(ld, n, &nn)) return TC_LAPACK_TOO_LARGE;
    const int64_t nv = j->vectors ? nn : 1;
    /* A and VR in A's dtype; wr, wi (real A) or w; the complex vectors of a real A */
    const size_t es = la_es(dt), ces = la_es(cdt);
    const size_t ba = la_bytes(es, nn, 0, 0), bw = la_bytes(es, cplx ? n : 2 * n, 0, 0), bv = la_bytes(es, nv, 0, 0);
    const size_t bo = la_bytes(ces, cplx ? 0 : n, cplx ? 0 : nv, 0);
    if (ba == SIZE_MAX || bw == SIZE_MAX || bv == SIZE_MAX || bo == SIZE_MAX) return TC_LAPACK_TOO_LARGE;
    const size_t total = la_bytes(1, (int64_t)ba, (int64_t)bw, (int64_t)bv);
    if (total == SIZE_MAX || total > SIZE_MAX / 2 - bo) return TC_LAPACK_TOO_LARGE;
    char *p = la_scratch_get(s, total + bo);
    if (!p) return TC_LAPACK_NOMEM;
    char *A = p, *W = A + ba, *VR = W + bw, *out = VR + bv;
    /* what is scattered: LAPACK's own results for a complex A, the unpacked ones for a real A */
    char *w = cplx ? W : out, *v = cplx ? VR : out + la_bytes(ces, n, 0, 0);
    la_gather(a, la_offset(a, 2, b), A, ld, false);
    const char job = j->vectors ? 'V' : 'N';
    double dummy[4];
    int st = 0;
    if (!la_finite(dt, A, n, n, ld)) {
        fill_nan(cdt, w, n);
        if (j->vectors) fill_nan(cdt, v, nn);
    } else if (cplx) {
        st = s->lapack->geev_complex(dt, 'N', job, n, A, ld, W, dummy, 1, VR, j->vectors ? ld : 1, &s->ws);
    } else {
        void *wi = W + (size_t)n * es;
        st = s->lapack->geev(dt, 'N', job, n, A, ld, W, wi, dummy, 1, VR, j->vectors ? ld : 1, &s->ws);
        if (!st && dt == TC_FLOAT64)
            unpack_double(n, (double *)W, wi, (double *)VR, ld, (double *)w, j->vectors ? (double *)v : NULL);
        else if (!st)
            unpack_float(n, (float *)W, wi, (float *)VR, ld, (float *)w, j->vectors ? (float *)v : NULL);
    }
    if (st) return st;
    la_scatter_vec(j->w, la_offset(j->w, 1, b), w);
    if (j->vectors) la_scatter(j->v, la_offset(j->v, 2, b), v, ld, false);
    return 0;
}

static int k_linalg_eig(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "linalg_eig")) return TC_FAIL;
    const tc_view *a = &args->inputs[0];
    const int32_t dt = a->dtype;
    if (dt != TC_FLOAT32 && dt != TC_FLOAT64 && dt != TC_COMPLEX64 && dt != TC_COMPLEX128)
        return la_dtype_error("linalg_eig_out_cpu", dt);
    eig_job j = {a, &args->outputs[0], &args->outputs[1], args->args[1].v.b};
    if (j.w->dtype != (dt == TC_FLOAT32 || dt == TC_COMPLEX64 ? TC_COMPLEX64 : TC_COMPLEX128) ||
        j.v->dtype != j.w->dtype)
        return cpu_core->set_error(TC_ERR_RUNTIME, "linalg_eig: the results must be of the input's complex dtype");
    const char *api = j.vectors ? "torch.linalg.eig" : "torch.linalg.eigvals";
    const tc_lapack *l = la_lapack(api);
    if (!l) return TC_FAIL;
    if (la_complex(dt) && !(TC_STRUCT_HAS(l, tc_lapack, geev_complex) && l->geev_complex))
        return la_no_complex(api, "geev_complex");
    const int64_t n = la_rows(a);
    int64_t failed, work;
    if (__builtin_mul_overflow(n * n, 10 * n, &work)) work = INT64_MAX; /* n * n fits: the matrix exists */
    const int st = la_batches(l, la_batch_count(a, 2), work, eig_item, &j, &failed);
    return st ? la_raise_item(st, failed, a, api, "eigenvalues") : TC_OK;
}

static const cpu_kernel_entry kernels[] = {
    {"linalg_eig", TC_ANY_DTYPE, k_linalg_eig},
};
CPU_KERNEL_TABLE(kernels);
