/*
 * lapack_glue.h - the tc_lapack members of a BLAS provider (tc_abi.h), over the Fortran LAPACK
 * routines of its library.
 *
 * A provider fills `lapack_glue_fns` with the addresses of its library's s and d routines, and c and
 * z for the complex members (linked, or looked up with dlsym) and hands `lapack_glue_api` to the core in its tc_blas_provider. What the
 * members add to the bare routines:
 *   - int64_t sizes in, LAPACK's 32-bit integers (Debian's LP64 builds) out, with TC_LAPACK_TOO_LARGE
 *     for what does not fit; int64_t pivots and ranks converted both ways;
 *   - the workspace: queried (lwork = -1), checked for overflow, and taken from the caller's scratch
 *     (tc_lapack_ws, grown with malloc), so a batch of small factorisations allocates once;
 *   - arguments LAPACK would reject are refused before the call (TC_LAPACK_BADARG), because the
 *     reference xerbla stops the process;
 *   - Fortran's hidden lengths of character arguments are passed (gfortran's size_t), as gfortran-built
 *     callers do: code compiled by gfortran may rely on them.
 * Header-only and static: each provider plugin has its own copy, and nothing here is exported.
 */
#ifndef TC_LAPACK_GLUE_H
#define TC_LAPACK_GLUE_H

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "torch_core/tc_abi.h"

typedef int lapack_int; /* LP64 LAPACK */

/* One prototype serves the s and d routine: their real arguments are all passed by pointer. */
typedef void lapack_getrf_fn(const lapack_int *m, const lapack_int *n, void *a, const lapack_int *lda,
                             lapack_int *ipiv, lapack_int *info);
typedef void lapack_getrs_fn(const char *trans, const lapack_int *n, const lapack_int *nrhs, const void *a,
                             const lapack_int *lda, const lapack_int *ipiv, void *b, const lapack_int *ldb,
                             lapack_int *info, size_t);
typedef void lapack_getri_fn(const lapack_int *n, void *a, const lapack_int *lda, const lapack_int *ipiv, void *work,
                             const lapack_int *lwork, lapack_int *info);
typedef void lapack_potrf_fn(const char *uplo, const lapack_int *n, void *a, const lapack_int *lda, lapack_int *info,
                             size_t);
typedef lapack_potrf_fn lapack_potri_fn;
typedef void lapack_potrs_fn(const char *uplo, const lapack_int *n, const lapack_int *nrhs, const void *a,
                             const lapack_int *lda, void *b, const lapack_int *ldb, lapack_int *info, size_t);
typedef void lapack_trsm_fn(const char *side, const char *uplo, const char *transa, const char *diag,
                            const lapack_int *m, const lapack_int *n, const void *alpha, const void *a,
                            const lapack_int *lda, void *b, const lapack_int *ldb, size_t, size_t, size_t, size_t);
typedef void lapack_geqrf_fn(const lapack_int *m, const lapack_int *n, void *a, const lapack_int *lda, void *tau,
                             void *work, const lapack_int *lwork, lapack_int *info);
typedef void lapack_orgqr_fn(const lapack_int *m, const lapack_int *n, const lapack_int *k, void *a,
                             const lapack_int *lda, const void *tau, void *work, const lapack_int *lwork,
                             lapack_int *info);
typedef void lapack_ormqr_fn(const char *side, const char *trans, const lapack_int *m, const lapack_int *n,
                             const lapack_int *k, const void *a, const lapack_int *lda, const void *tau, void *c,
                             const lapack_int *ldc, void *work, const lapack_int *lwork, lapack_int *info, size_t,
                             size_t);
typedef void lapack_gesdd_fn(const char *jobz, const lapack_int *m, const lapack_int *n, void *a,
                             const lapack_int *lda, void *s, void *u, const lapack_int *ldu, void *vt,
                             const lapack_int *ldvt, void *work, const lapack_int *lwork, lapack_int *iwork,
                             lapack_int *info, size_t);
typedef void lapack_syevd_fn(const char *jobz, const char *uplo, const lapack_int *n, void *a, const lapack_int *lda,
                             void *w, void *work, const lapack_int *lwork, lapack_int *iwork,
                             const lapack_int *liwork, lapack_int *info, size_t, size_t);
typedef void lapack_geev_fn(const char *jobvl, const char *jobvr, const lapack_int *n, void *a, const lapack_int *lda,
                            void *wr, void *wi, void *vl, const lapack_int *ldvl, void *vr, const lapack_int *ldvr,
                            void *work, const lapack_int *lwork, lapack_int *info, size_t, size_t);
typedef void lapack_gels_fn(const char *trans, const lapack_int *m, const lapack_int *n, const lapack_int *nrhs,
                            void *a, const lapack_int *lda, void *b, const lapack_int *ldb, void *work,
                            const lapack_int *lwork, lapack_int *info, size_t);
typedef void lapack_gelsy_fn(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, void *a,
                             const lapack_int *lda, void *b, const lapack_int *ldb, lapack_int *jpvt,
                             const void *rcond, lapack_int *rank, void *work, const lapack_int *lwork,
                             lapack_int *info);
typedef void lapack_gelsd_fn(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, void *a,
                             const lapack_int *lda, void *b, const lapack_int *ldb, void *s, const void *rcond,
                             lapack_int *rank, void *work, const lapack_int *lwork, lapack_int *iwork,
                             lapack_int *info);
typedef void lapack_gelss_fn(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, void *a,
                             const lapack_int *lda, void *b, const lapack_int *ldb, void *s, const void *rcond,
                             lapack_int *rank, void *work, const lapack_int *lwork, lapack_int *info);

/* The complex routines (c, z): eigenvalues w as complex pairs, and a real workspace rwork[2n]. */
typedef void lapack_cgeev_fn(const char *jobvl, const char *jobvr, const lapack_int *n, void *a, const lapack_int *lda,
                             void *w, void *vl, const lapack_int *ldvl, void *vr, const lapack_int *ldvr, void *work,
                             const lapack_int *lwork, void *rwork, lapack_int *info, size_t, size_t);
/* cgetrf, cgetrs and cgetri take the arguments of their real counterparts. */
typedef lapack_getrf_fn lapack_cgetrf_fn;
typedef lapack_getrs_fn lapack_cgetrs_fn;
typedef lapack_getri_fn lapack_cgetri_fn;
typedef lapack_potrf_fn lapack_cpotrf_fn;
typedef lapack_potrs_fn lapack_cpotrs_fn;
typedef lapack_potri_fn lapack_cpotri_fn;
/* ctrsm's alpha is a complex pair; the other arguments are those of the real routines. */
typedef lapack_trsm_fn lapack_ctrsm_fn;
typedef lapack_geqrf_fn lapack_cgeqrf_fn;
typedef lapack_orgqr_fn lapack_cungqr_fn;
typedef lapack_ormqr_fn lapack_cunmqr_fn;
typedef lapack_gels_fn lapack_cgels_fn;
/* These add a real workspace rwork (and cheevd its size); s and w are real. */
typedef void lapack_cgesdd_fn(const char *jobz, const lapack_int *m, const lapack_int *n, void *a,
                              const lapack_int *lda, void *s, void *u, const lapack_int *ldu, void *vt,
                              const lapack_int *ldvt, void *work, const lapack_int *lwork, void *rwork,
                              lapack_int *iwork, lapack_int *info, size_t);
typedef void lapack_cheevd_fn(const char *jobz, const char *uplo, const lapack_int *n, void *a, const lapack_int *lda,
                              void *w, void *work, const lapack_int *lwork, void *rwork, const lapack_int *lrwork,
                              lapack_int *iwork, const lapack_int *liwork, lapack_int *info, size_t, size_t);
typedef void lapack_cgelsy_fn(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, void *a,
                              const lapack_int *lda, void *b, const lapack_int *ldb, lapack_int *jpvt,
                              const void *rcond, lapack_int *rank, void *work, const lapack_int *lwork, void *rwork,
                              lapack_int *info);
typedef void lapack_cgelsd_fn(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, void *a,
                              const lapack_int *lda, void *b, const lapack_int *ldb, void *s, const void *rcond,
                              lapack_int *rank, void *work, const lapack_int *lwork, void *rwork, lapack_int *iwork,
                              lapack_int *info);
typedef void lapack_cgelss_fn(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, void *a,
                              const lapack_int *lda, void *b, const lapack_int *ldb, void *s, const void *rcond,
                              lapack_int *rank, void *work, const lapack_int *lwork, void *rwork, lapack_int *info);

/* [0]: the float (s) routine, [1]: the double (d) one. */
typedef struct lapack_glue_table {
    lapack_getrf_fn *getrf[2];
    lapack_getrs_fn *getrs[2];
    lapack_getri_fn *getri[2];
    lapack_potrf_fn *potrf[2];
    lapack_potrs_fn *potrs[2];
    lapack_potri_fn *potri[2];
    lapack_trsm_fn *trsm[2];
    lapack_geqrf_fn *geqrf[2];
    lapack_orgqr_fn *orgqr[2];
    lapack_ormqr_fn *ormqr[2];
    lapack_gesdd_fn *gesdd[2];
    lapack_syevd_fn *syevd[2];
    lapack_geev_fn *geev[2];
    lapack_gels_fn *gels[2];
    lapack_gelsy_fn *gelsy[2];
    lapack_gelsd_fn *gelsd[2];
    lapack_gelss_fn *gelss[2];
    /* complex routines, [0]: complex64 (c), [1]: complex128 (z) */
    lapack_cgeev_fn *cgeev[2];
    lapack_cgetrf_fn *cgetrf[2];
    lapack_cgetrs_fn *cgetrs[2];
    lapack_cgetri_fn *cgetri[2];
    lapack_cpotrf_fn *cpotrf[2];
    lapack_cpotrs_fn *cpotrs[2];
    lapack_cpotri_fn *cpotri[2];
    lapack_ctrsm_fn *ctrsm[2];
    lapack_cgeqrf_fn *cgeqrf[2];
    lapack_cungqr_fn *cungqr[2];
    lapack_cunmqr_fn *cunmqr[2];
    lapack_cgesdd_fn *cgesdd[2];
    lapack_cheevd_fn *cheevd[2];
    lapack_cgels_fn *cgels[2];
    lapack_cgelsy_fn *cgelsy[2];
    lapack_cgelsd_fn *cgelsd[2];
    lapack_cgelss_fn *cgelss[2];
} lapack_glue_table;

/* The routine names, in the order of lapack_glue_table's members (s then d), for dlsym. */
#define LAPACK_GLUE_ROUTINES(X)                                                                    \
    X(getrf) X(getrs) X(getri) X(potrf) X(potrs) X(potri) X(trsm) X(geqrf) X(orgqr) X(ormqr) X(gesdd) \
    X(syevd) X(geev) X(gels) X(gelsy) X(gelsd) X(gelss)
/* The complex routines, by their names without the c/z letter (members c<name>: c then z). */
#define LAPACK_GLUE_COMPLEX_ROUTINES(X)                                                            \
    X(geev) X(getrf) X(getrs) X(getri) X(potrf) X(potrs) X(potri) X(trsm) X(geqrf) X(ungqr) X(unmqr) X(gesdd) \
    X(heevd) X(gels) X(gelsy) X(gelsd) X(gelss)

static lapack_glue_table lapack_glue_fns; /* filled by the provider's init */

/* ---- scratch ------------------------------------------------------------------------------------ */

static void lapack_glue_ws_release(tc_lapack_ws *ws) {
    if (!ws) return;
    free(ws->data);
    ws->data = NULL;
    ws->bytes = 0;
}

/* Bytes per element of a LAPACK dtype (a complex one: its pair). */
static size_t lapack_glue_es(int32_t dtype) {
    return dtype == TC_FLOAT32 ? 4 : dtype == TC_FLOAT64 || dtype == TC_COMPLEX64 ? 8 : 16;
}

/* What one call needs from the scratch: `ints` LAPACK integers, then `reals` elements of the dtype
 * (aligned to 64 bytes). */
typedef struct lapack_glue_need {
    int64_t ints, reals;
} lapack_glue_need;

/* Grows ws to hold `need`; sets *ip and *rp. Returns 0 or a TC_LAPACK_* status. */
static int lapack_glue_reserve(tc_lapack_ws *ws, int32_t dtype, lapack_glue_need need, lapack_int **ip, void **rp) {
    const size_t es = lapack_glue_es(dtype);
    if (need.ints < 0 || need.reals < 0 || (uint64_t)need.ints > SIZE_MAX / 8 || (uint64_t)need.reals > SIZE_MAX / 16)
        return TC_LAPACK_TOO_LARGE;
    const size_t ibytes = ((size_t)need.ints * sizeof(lapack_int) + 63) & ~(size_t)63;
    const size_t total = ibytes + (size_t)need.reals * es + 64;
    if (total > ws->bytes) {
        free(ws->data);
        ws->data = malloc(total);
        ws->bytes = ws->data ? total : 0;
        if (!ws->data) return TC_LAPACK_NOMEM;
    }
    char *base = (char *)(((uintptr_t)ws->data + 63) & ~(uintptr_t)63);
    *ip = (lapack_int *)(void *)base;
    *rp = base + ibytes;
    return 0;
}

/* ---- conversions --------------------------------------------------------------------------------- */

static int lapack_glue_fits(int64_t x) { return x >= 0 && x <= INT_MAX; }

/* Workspace sizes come back from a query as a real number: read it rounding up, padded for float's
 * rounding (a float cannot hold every integer LAPACK meant). */
static int lapack_glue_lwork(int32_t dtype, const void *query, lapack_int *lwork) {
    const bool single = dtype == TC_FLOAT32 || dtype == TC_COMPLEX64; /* a complex size is its real part */
    double w = single ? (double)*(const float *)query : *(const double *)query;
    if (single) w = w * (1.0 + 1.0 / 1048576.0) + 1.0;
    w = ceil(w);
    if (!(w >= 1.0)) w = 1.0;
    if (w > (double)INT_MAX) return TC_LAPACK_TOO_LARGE;
    *lwork = (lapack_int)w;
    return 0;
}

/* LAPACK's info: a negative one means an argument we should never have passed. */
static int lapack_glue_info(lapack_int info) { return info < 0 ? TC_LAPACK_BADARG : (int)info; }

static int lapack_glue_dt(int32_t dtype) { return dtype == TC_FLOAT32 ? 0 : dtype == TC_FLOAT64 ? 1 : -1; }
/* Run on the calling thread before any complex routine, when the provider sets it: BLIS's induced
 * (1m) method for complex products is a thread-local switch, and a thread without it computes the
 * BLAS calls inside LAPACK with other kernels, so the same call gave different bits depending on
 * which pool thread ran it (and on what that thread had run before). */
static void (*lapack_glue_complex_thread_setup)(void);

/* The index of a complex routine (c: 0, z: 1), -1 for another dtype. Every complex member finds its
 * routine through here, so the thread is set up before the routine runs. */
static int lapack_glue_cdt(int32_t dtype) {
    const int d = dtype == TC_COMPLEX64 ? 0 : dtype == TC_COMPLEX128 ? 1 : -1;
    if (d >= 0 && lapack_glue_complex_thread_setup) lapack_glue_complex_thread_setup();
    return d;
}

static int64_t lapack_glue_max1(int64_t x) { return x > 1 ? x : 1; }
static int64_t lapack_glue_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* A call's own scratch when the caller passed none. */
#define LAPACK_GLUE_WS(ws, own) tc_lapack_ws own = {NULL, 0}, *ws##_ = (ws) ? (ws) : &own
#define LAPACK_GLUE_DONE(ws, own, rc) (lapack_glue_ws_release(&own), (rc))

#define LAPACK_GLUE_CHECK(cond)                                                                    \
    do {                                                                                           \
        if (!(cond)) return TC_LAPACK_TOO_LARGE;                                                   \
    } while (0)

/* The second half of a workspace query: `info` and `query` are what the call with lwork = -1 left.
 * Sets *lwork to the size it asked for and reserves, in ws, `ints` LAPACK integers (*ip) and that
 * workspace (*work). Returns 0 or a TC_LAPACK_* status. */
static int lapack_glue_workspace(tc_lapack_ws *ws, int32_t dtype, lapack_int info, const double *query, int64_t ints,
                                 lapack_int *lwork, lapack_int **ip, void **work) {
    const int rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, lwork);
    return rc ? rc : lapack_glue_reserve(ws, dtype, (lapack_glue_need){ints, *lwork}, ip, work);
}

/* A real scalar argument as the routine of index d takes it: *x itself, or its float copy in *f. */
static const void *lapack_glue_real(int d, const double *x, float *f) {
    *f = (float)*x;
    return d ? (const void *)x : (const void *)f;
}

/* ---- the members --------------------------------------------------------------------------------- */

/* getrf, getrs and getri by the routine `fn` of dtype (real or complex: the arguments are the same). */
static int lapack_glue_getrf_by(lapack_getrf_fn *fn, int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda,
                                int64_t *ipiv, tc_lapack_ws *ws) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(m)) return TC_LAPACK_BADARG;
    const int64_t k = lapack_glue_min(m, n);
    if (k == 0) return 0;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *rp;
    int rc = lapack_glue_reserve(ws_, dtype, (lapack_glue_need){k, 0}, &ip, &rp);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_int M = (lapack_int)m, N = (lapack_int)n, LDA = (lapack_int)lda, info = 0;
    fn(&M, &N, a, &LDA, ip, &info);
    for (int64_t i = 0; i < k; i++) ipiv[i] = ip[i];
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* Pivots from the caller, checked to lie in [1, n] (a wrong one would make LAPACK swap out of bounds). */
static int lapack_glue_pivots_in(const int64_t *ipiv, int64_t n, lapack_int *ip) {
    for (int64_t i = 0; i < n; i++) {
        if (ipiv[i] < 1 || ipiv[i] > n) return TC_LAPACK_BADARG;
        ip[i] = (lapack_int)ipiv[i];
    }
    return 0;
}

static int lapack_glue_getrs_by(lapack_getrs_fn *fn, int32_t dtype, char trans, int64_t n, int64_t nrhs,
                                const void *a, int64_t lda, const int64_t *ipiv, void *b, int64_t ldb,
                                tc_lapack_ws *ws) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(nrhs) && lapack_glue_fits(lda) && lapack_glue_fits(ldb));
    if (lda < lapack_glue_max1(n) || ldb < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0 || nrhs == 0) return 0;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *rp;
    int rc = lapack_glue_reserve(ws_, dtype, (lapack_glue_need){n, 0}, &ip, &rp);
    if (!rc) rc = lapack_glue_pivots_in(ipiv, n, ip);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_int N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda, LDB = (lapack_int)ldb, info = 0;
    fn(&trans, &N, &NRHS, a, &LDA, ip, b, &LDB, &info, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_getri_by(lapack_getri_fn *fn, int32_t dtype, int64_t n, void *a, int64_t lda,
                                const int64_t *ipiv, tc_lapack_ws *ws) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    double query[2] = {0, 0};
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, lwork = -1, info = 0;
    lapack_int dummy_ipiv = 1;
    fn(&N, a, &LDA, &dummy_ipiv, query, &lwork, &info);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, n, &lwork, &ip, &work);
    if (!rc) rc = lapack_glue_pivots_in(ipiv, n, ip);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&N, a, &LDA, ip, work, &lwork, &info);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* The members: the real routines for float32/float64, the complex ones (1.4) for complex64/complex128. */
static int lapack_glue_getrf(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, int64_t *ipiv,
                             tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    return d < 0 ? TC_LAPACK_DTYPE : lapack_glue_getrf_by(lapack_glue_fns.getrf[d], dtype, m, n, a, lda, ipiv, ws);
}

static int lapack_glue_getrs(int32_t dtype, char trans, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                             const int64_t *ipiv, void *b, int64_t ldb, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    return lapack_glue_getrs_by(lapack_glue_fns.getrs[d], dtype, trans, n, nrhs, a, lda, ipiv, b, ldb, ws);
}

static int lapack_glue_getri(int32_t dtype, int64_t n, void *a, int64_t lda, const int64_t *ipiv, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    return d < 0 ? TC_LAPACK_DTYPE : lapack_glue_getri_by(lapack_glue_fns.getri[d], dtype, n, a, lda, ipiv, ws);
}

static int lapack_glue_getrf_complex(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, int64_t *ipiv,
                                     tc_lapack_ws *ws) {
    const int d = lapack_glue_cdt(dtype);
    if (d < 0 || !lapack_glue_fns.cgetrf[d]) return TC_LAPACK_DTYPE;
    return lapack_glue_getrf_by(lapack_glue_fns.cgetrf[d], dtype, m, n, a, lda, ipiv, ws);
}

static int lapack_glue_getrs_complex(int32_t dtype, char trans, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                                     const int64_t *ipiv, void *b, int64_t ldb, tc_lapack_ws *ws) {
    const int d = lapack_glue_cdt(dtype);
    if (d < 0 || !lapack_glue_fns.cgetrs[d]) return TC_LAPACK_DTYPE;
    if (trans != 'N' && trans != 'T' && trans != 'C') return TC_LAPACK_BADARG;
    return lapack_glue_getrs_by(lapack_glue_fns.cgetrs[d], dtype, trans, n, nrhs, a, lda, ipiv, b, ldb, ws);
}

static int lapack_glue_getri_complex(int32_t dtype, int64_t n, void *a, int64_t lda, const int64_t *ipiv,
                                     tc_lapack_ws *ws) {
    const int d = lapack_glue_cdt(dtype);
    if (d < 0 || !lapack_glue_fns.cgetri[d]) return TC_LAPACK_DTYPE;
    return lapack_glue_getri_by(lapack_glue_fns.cgetri[d], dtype, n, a, lda, ipiv, ws);
}

/* potrf, potrs and potri by the routine `fn` (real or complex: the arguments are the same). */
static int lapack_glue_potrf_by(lapack_potrf_fn *fn, char uplo, int64_t n, void *a, int64_t lda) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, info = 0;
    fn(&uplo, &N, a, &LDA, &info, 1);
    return lapack_glue_info(info);
}

static int lapack_glue_potrs_by(lapack_potrs_fn *fn, char uplo, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                                void *b, int64_t ldb) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(nrhs) && lapack_glue_fits(lda) && lapack_glue_fits(ldb));
    if (lda < lapack_glue_max1(n) || ldb < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0 || nrhs == 0) return 0;
    lapack_int N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda, LDB = (lapack_int)ldb, info = 0;
    fn(&uplo, &N, &NRHS, a, &LDA, b, &LDB, &info, 1);
    return lapack_glue_info(info);
}

static int lapack_glue_potri_by(lapack_potri_fn *fn, char uplo, int64_t n, void *a, int64_t lda) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, info = 0;
    fn(&uplo, &N, a, &LDA, &info, 1);
    return lapack_glue_info(info);
}

/* The real potrf/potrs/potri members for float32/float64, the complex ones (1.4) for complex64/128. */
#define LAPACK_GLUE_FN(name, d, cplx) ((d) < 0 ? NULL : (cplx) ? lapack_glue_fns.c##name[d] : lapack_glue_fns.name[d])
static int lapack_glue_potrf_of(bool cplx, int32_t dtype, char uplo, int64_t n, void *a, int64_t lda) {
    const int d = cplx ? lapack_glue_cdt(dtype) : lapack_glue_dt(dtype);
    lapack_potrf_fn *fn = LAPACK_GLUE_FN(potrf, d, cplx);
    return fn ? lapack_glue_potrf_by(fn, uplo, n, a, lda) : TC_LAPACK_DTYPE;
}
static int lapack_glue_potrs_of(bool cplx, int32_t dtype, char uplo, int64_t n, int64_t nrhs, const void *a,
                                int64_t lda, void *b, int64_t ldb) {
    const int d = cplx ? lapack_glue_cdt(dtype) : lapack_glue_dt(dtype);
    lapack_potrs_fn *fn = LAPACK_GLUE_FN(potrs, d, cplx);
    return fn ? lapack_glue_potrs_by(fn, uplo, n, nrhs, a, lda, b, ldb) : TC_LAPACK_DTYPE;
}
static int lapack_glue_potri_of(bool cplx, int32_t dtype, char uplo, int64_t n, void *a, int64_t lda) {
    const int d = cplx ? lapack_glue_cdt(dtype) : lapack_glue_dt(dtype);
    lapack_potri_fn *fn = LAPACK_GLUE_FN(potri, d, cplx);
    return fn ? lapack_glue_potri_by(fn, uplo, n, a, lda) : TC_LAPACK_DTYPE;
}
static int lapack_glue_potrf(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_potrf_of(false, dtype, uplo, n, a, lda);
}
static int lapack_glue_potrs(int32_t dtype, char uplo, int64_t n, int64_t nrhs, const void *a, int64_t lda, void *b,
                             int64_t ldb, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_potrs_of(false, dtype, uplo, n, nrhs, a, lda, b, ldb);
}
static int lapack_glue_potri(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_potri_of(false, dtype, uplo, n, a, lda);
}
static int lapack_glue_potrf_complex(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_potrf_of(true, dtype, uplo, n, a, lda);
}
static int lapack_glue_potrs_complex(int32_t dtype, char uplo, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                                     void *b, int64_t ldb, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_potrs_of(true, dtype, uplo, n, nrhs, a, lda, b, ldb);
}
static int lapack_glue_potri_complex(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_potri_of(true, dtype, uplo, n, a, lda);
}

/* The routine of a real (cplx false) or complex member for dtype: NULL when dtype is not one of the
 * member's or the provider lacks the routine. `d` receives the routine's index. */
#define LAPACK_GLUE_PICK(name, cname, cplx, dtype, d)                                              \
    ((d) = (cplx) ? lapack_glue_cdt(dtype) : lapack_glue_dt(dtype),                                \
     (d) < 0 ? NULL : (cplx) ? lapack_glue_fns.cname[d] : lapack_glue_fns.name[d])

/* trsm: alpha as the routine takes it (a real of its precision, or a complex pair). */
static int lapack_glue_trsm_of(bool cplx, int32_t dtype, char side, char uplo, char transa, char diag, int64_t m,
                               int64_t n, double alpha, const void *a, int64_t lda, void *b, int64_t ldb) {
    int d;
    lapack_trsm_fn *fn = LAPACK_GLUE_PICK(trsm, ctrsm, cplx, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    if (transa != 'N' && transa != 'T' && transa != 'C') return TC_LAPACK_BADARG;
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(lda) && lapack_glue_fits(ldb));
    const int64_t ka = side == 'L' ? m : n;
    if (lda < lapack_glue_max1(ka) || ldb < lapack_glue_max1(m)) return TC_LAPACK_BADARG;
    if (m == 0 || n == 0) return 0;
    lapack_int M = (lapack_int)m, N = (lapack_int)n, LDA = (lapack_int)lda, LDB = (lapack_int)ldb;
    const float alpha_f[2] = {(float)alpha, 0.0f};
    const double alpha_d[2] = {alpha, 0.0};
    fn(&side, &uplo, &transa, &diag, &M, &N, d ? (const void *)alpha_d : (const void *)alpha_f, a, &LDA, b, &LDB, 1, 1,
       1, 1);
    return 0;
}

static int lapack_glue_geqrf_of(bool cplx, int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, void *tau,
                                tc_lapack_ws *ws) {
    int d;
    lapack_geqrf_fn *fn = LAPACK_GLUE_PICK(geqrf, cgeqrf, cplx, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(m)) return TC_LAPACK_BADARG;
    if (m == 0 || n == 0) return 0;
    double query[4] = {0, 0, 0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, LDA = (lapack_int)lda, lwork = -1, info = 0;
    fn(&M, &N, a, &LDA, tau, query, &lwork, &info);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, 0, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&M, &N, a, &LDA, tau, work, &lwork, &info);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* orgqr, or ungqr for complex dtypes */
static int lapack_glue_orgqr_of(bool cplx, int32_t dtype, int64_t m, int64_t n, int64_t k, void *a, int64_t lda,
                                const void *tau, tc_lapack_ws *ws) {
    int d;
    lapack_orgqr_fn *fn = LAPACK_GLUE_PICK(orgqr, cungqr, cplx, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(k) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(m) || n > m || k > n) return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    double query[4] = {0, 0, 0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, K = (lapack_int)k, LDA = (lapack_int)lda, lwork = -1, info = 0;
    fn(&M, &N, &K, a, &LDA, tau, query, &lwork, &info);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, 0, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&M, &N, &K, a, &LDA, tau, work, &lwork, &info);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* ormqr, or unmqr for complex dtypes (trans 'C' there, 'T' here) */
static int lapack_glue_ormqr_of(bool cplx, int32_t dtype, char side, char trans, int64_t m, int64_t n, int64_t k,
                                const void *a, int64_t lda, const void *tau, void *c, int64_t ldc, tc_lapack_ws *ws) {
    int d;
    lapack_ormqr_fn *fn = LAPACK_GLUE_PICK(ormqr, cunmqr, cplx, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    if ((side != 'L' && side != 'R') || (trans != 'N' && trans != (cplx ? 'C' : 'T'))) return TC_LAPACK_BADARG;
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(k) && lapack_glue_fits(lda) &&
                      lapack_glue_fits(ldc));
    const int64_t nq = side == 'L' ? m : n;
    if (lda < lapack_glue_max1(nq) || ldc < lapack_glue_max1(m) || k > nq) return TC_LAPACK_BADARG;
    if (m == 0 || n == 0 || k == 0) return 0;
    double query[4] = {0, 0, 0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, K = (lapack_int)k, LDA = (lapack_int)lda, LDC = (lapack_int)ldc;
    lapack_int lwork = -1, info = 0;
    fn(&side, &trans, &M, &N, &K, a, &LDA, tau, c, &LDC, query, &lwork, &info, 1, 1);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, 0, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&side, &trans, &M, &N, &K, a, &LDA, tau, c, &LDC, work, &lwork, &info, 1, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_trsm(int32_t dtype, char side, char uplo, char transa, char diag, int64_t m, int64_t n,
                            double alpha, const void *a, int64_t lda, void *b, int64_t ldb, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_trsm_of(false, dtype, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
static int lapack_glue_trsm_complex(int32_t dtype, char side, char uplo, char transa, char diag, int64_t m, int64_t n,
                                    double alpha, const void *a, int64_t lda, void *b, int64_t ldb, tc_lapack_ws *ws) {
    (void)ws;
    return lapack_glue_trsm_of(true, dtype, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
static int lapack_glue_geqrf(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, void *tau, tc_lapack_ws *ws) {
    return lapack_glue_geqrf_of(false, dtype, m, n, a, lda, tau, ws);
}
static int lapack_glue_geqrf_complex(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, void *tau,
                                     tc_lapack_ws *ws) {
    return lapack_glue_geqrf_of(true, dtype, m, n, a, lda, tau, ws);
}
static int lapack_glue_orgqr(int32_t dtype, int64_t m, int64_t n, int64_t k, void *a, int64_t lda, const void *tau,
                             tc_lapack_ws *ws) {
    return lapack_glue_orgqr_of(false, dtype, m, n, k, a, lda, tau, ws);
}
static int lapack_glue_ungqr_complex(int32_t dtype, int64_t m, int64_t n, int64_t k, void *a, int64_t lda,
                                     const void *tau, tc_lapack_ws *ws) {
    return lapack_glue_orgqr_of(true, dtype, m, n, k, a, lda, tau, ws);
}
static int lapack_glue_ormqr(int32_t dtype, char side, char trans, int64_t m, int64_t n, int64_t k, const void *a,
                             int64_t lda, const void *tau, void *c, int64_t ldc, tc_lapack_ws *ws) {
    return lapack_glue_ormqr_of(false, dtype, side, trans, m, n, k, a, lda, tau, c, ldc, ws);
}
static int lapack_glue_unmqr_complex(int32_t dtype, char side, char trans, int64_t m, int64_t n, int64_t k,
                                     const void *a, int64_t lda, const void *tau, void *c, int64_t ldc,
                                     tc_lapack_ws *ws) {
    return lapack_glue_ormqr_of(true, dtype, side, trans, m, n, k, a, lda, tau, c, ldc, ws);
}

static int lapack_glue_gesdd(int32_t dtype, char jobz, int64_t m, int64_t n, void *a, int64_t lda, void *s, void *u,
                             int64_t ldu, void *vt, int64_t ldvt, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(lda) && lapack_glue_fits(ldu) &&
                      lapack_glue_fits(ldvt));
    const int64_t k = lapack_glue_min(m, n);
    if (lda < lapack_glue_max1(m) || ldu < 1 || ldvt < 1) return TC_LAPACK_BADARG;
    if (jobz != 'N' && (ldu < lapack_glue_max1(m) || ldvt < lapack_glue_max1(jobz == 'A' ? n : k)))
        return TC_LAPACK_BADARG;
    if (m == 0 || n == 0) return 0;
    LAPACK_GLUE_CHECK(k <= INT_MAX / 8);
    double query[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, LDA = (lapack_int)lda, LDU = (lapack_int)ldu;
    lapack_int LDVT = (lapack_int)ldvt, lwork = -1, info = 0, iquery = 0;
    lapack_glue_fns.gesdd[d](&jobz, &M, &N, a, &LDA, s, u, &LDU, vt, &LDVT, query, &lwork, &iquery, &info, 1);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *iwork;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, 8 * k, &lwork, &iwork, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_glue_fns.gesdd[d](&jobz, &M, &N, a, &LDA, s, u, &LDU, vt, &LDVT, work, &lwork, iwork, &info, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_syevd(int32_t dtype, char jobz, char uplo, int64_t n, void *a, int64_t lda, void *w,
                             tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    double query[2] = {0, 0};
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, lwork = -1, liwork = -1, info = 0, iquery = 0;
    lapack_glue_fns.syevd[d](&jobz, &uplo, &N, a, &LDA, w, query, &lwork, &iquery, &liwork, &info, 1, 1);
    liwork = iquery > 1 ? iquery : 1;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *iwork;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, liwork, &lwork, &iwork, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_glue_fns.syevd[d](&jobz, &uplo, &N, a, &LDA, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_geev(int32_t dtype, char jobvl, char jobvr, int64_t n, void *a, int64_t lda, void *wr,
                            void *wi, void *vl, int64_t ldvl, void *vr, int64_t ldvr, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda) && lapack_glue_fits(ldvl) && lapack_glue_fits(ldvr));
    if (lda < lapack_glue_max1(n) || ldvl < (jobvl == 'V' ? lapack_glue_max1(n) : 1) ||
        ldvr < (jobvr == 'V' ? lapack_glue_max1(n) : 1))
        return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    double query[2] = {0, 0};
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, LDVL = (lapack_int)ldvl, LDVR = (lapack_int)ldvr;
    lapack_int lwork = -1, info = 0;
    lapack_glue_fns.geev[d](&jobvl, &jobvr, &N, a, &LDA, wr, wi, vl, &LDVL, vr, &LDVR, query, &lwork, &info, 1, 1);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    int rc = lapack_glue_workspace(ws_, dtype, info, query, 0, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_glue_fns.geev[d](&jobvl, &jobvr, &N, a, &LDA, wr, wi, vl, &LDVL, vr, &LDVR, work, &lwork, &info, 1, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* Complex: rwork[2n] of the part dtype follows the workspace (reserved as part of it). */
static int lapack_glue_geev_complex(int32_t dtype, char jobvl, char jobvr, int64_t n, void *a, int64_t lda, void *w,
                                    void *vl, int64_t ldvl, void *vr, int64_t ldvr, tc_lapack_ws *ws) {
    const int d = lapack_glue_cdt(dtype);
    if (d < 0 || !lapack_glue_fns.cgeev[d]) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda) && lapack_glue_fits(ldvl) && lapack_glue_fits(ldvr));
    if (lda < lapack_glue_max1(n) || ldvl < (jobvl == 'V' ? lapack_glue_max1(n) : 1) ||
        ldvr < (jobvr == 'V' ? lapack_glue_max1(n) : 1))
        return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    double query[4] = {0, 0, 0, 0}, rquery[2] = {0, 0};
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, LDVL = (lapack_int)ldvl, LDVR = (lapack_int)ldvr;
    lapack_int lwork = -1, info = 0;
    lapack_glue_fns.cgeev[d](&jobvl, &jobvr, &N, a, &LDA, w, vl, &LDVL, vr, &LDVR, query, &lwork, rquery, &info, 1, 1);
    int rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, &lwork);
    if (rc) return rc;
    /* the workspace's lwork complex elements, then rwork's 2n reals (n complex elements' worth) */
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    rc = lapack_glue_reserve(ws_, dtype, (lapack_glue_need){0, (int64_t)lwork + n + 1}, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    void *rwork = (char *)work + (size_t)lwork * lapack_glue_es(dtype);
    lapack_glue_fns.cgeev[d](&jobvl, &jobvr, &N, a, &LDA, w, vl, &LDVL, vr, &LDVR, work, &lwork, rwork, &info, 1, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_ls_check(int64_t m, int64_t n, int64_t nrhs, int64_t lda, int64_t ldb) {
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(nrhs) && lapack_glue_fits(lda) &&
                      lapack_glue_fits(ldb));
    if (lda < lapack_glue_max1(m) || ldb < lapack_glue_max1(m > n ? m : n)) return TC_LAPACK_BADARG;
    return 0;
}

/* gels, or cgels/zgels for complex dtypes (trans 'C' there, 'T' here) */
static int lapack_glue_gels_of(bool cplx, int32_t dtype, char trans, int64_t m, int64_t n, int64_t nrhs, void *a,
                               int64_t lda, void *b, int64_t ldb, tc_lapack_ws *ws) {
    int d;
    lapack_gels_fn *fn = LAPACK_GLUE_PICK(gels, cgels, cplx, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    if (trans != 'N' && trans != (cplx ? 'C' : 'T')) return TC_LAPACK_BADARG;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    if (m == 0 || n == 0 || nrhs == 0) return 0;
    double query[4] = {0, 0, 0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, info = 0;
    fn(&trans, &M, &N, &NRHS, a, &LDA, b, &LDB, query, &lwork, &info, 1);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    rc = lapack_glue_workspace(ws_, dtype, info, query, 0, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&trans, &M, &N, &NRHS, a, &LDA, b, &LDB, work, &lwork, &info, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}
static int lapack_glue_gels(int32_t dtype, char trans, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda,
                            void *b, int64_t ldb, tc_lapack_ws *ws) {
    return lapack_glue_gels_of(false, dtype, trans, m, n, nrhs, a, lda, b, ldb, ws);
}
static int lapack_glue_gels_complex(int32_t dtype, char trans, int64_t m, int64_t n, int64_t nrhs, void *a,
                                    int64_t lda, void *b, int64_t ldb, tc_lapack_ws *ws) {
    return lapack_glue_gels_of(true, dtype, trans, m, n, nrhs, a, lda, b, ldb, ws);
}

static int lapack_glue_gelsy(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                             int64_t ldb, int64_t *jpvt, double rcond, int64_t *rank, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    *rank = 0;
    if (m == 0 || n == 0) return 0;
    float rcond_f;
    const void *rc_p = lapack_glue_real(d, &rcond, &rcond_f);
    double query[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, info = 0, r = 0, jq = 0;
    lapack_glue_fns.gelsy[d](&M, &N, &NRHS, a, &LDA, b, &LDB, &jq, rc_p, &r, query, &lwork, &info);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    rc = lapack_glue_workspace(ws_, dtype, info, query, n, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    for (int64_t i = 0; i < n; i++) ip[i] = jpvt ? (lapack_int)(jpvt[i] != 0) : 0;
    lapack_glue_fns.gelsy[d](&M, &N, &NRHS, a, &LDA, b, &LDB, ip, rc_p, &r, work, &lwork, &info);
    if (jpvt)
        for (int64_t i = 0; i < n; i++) jpvt[i] = ip[i];
    *rank = r;
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_gelsd(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                             int64_t ldb, void *s, double rcond, int64_t *rank, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    *rank = 0;
    if (m == 0 || n == 0) return 0;
    float rcond_f;
    const void *rc_p = lapack_glue_real(d, &rcond, &rcond_f);
    double query[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, info = 0, r = 0, iquery[2] = {0, 0};
    lapack_glue_fns.gelsd[d](&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, query, &lwork, iquery, &info);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *iwork;
    void *work;
    rc = lapack_glue_workspace(ws_, dtype, info, query, iquery[0] > 1 ? iquery[0] : 1, &lwork, &iwork, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_glue_fns.gelsd[d](&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, work, &lwork, iwork, &info);
    *rank = r;
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_gelss(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                             int64_t ldb, void *s, double rcond, int64_t *rank, tc_lapack_ws *ws) {
    const int d = lapack_glue_dt(dtype);
    if (d < 0) return TC_LAPACK_DTYPE;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    *rank = 0;
    if (m == 0 || n == 0) return 0;
    float rcond_f;
    const void *rc_p = lapack_glue_real(d, &rcond, &rcond_f);
    double query[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, info = 0, r = 0;
    lapack_glue_fns.gelss[d](&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, query, &lwork, &info);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work;
    rc = lapack_glue_workspace(ws_, dtype, info, query, 0, &lwork, &ip, &work);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    lapack_glue_fns.gelss[d](&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, work, &lwork, &info);
    *rank = r;
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* ---- complex members with a real workspace (1.5) --------------------------------------------------- */

/* The complex routine of index d for dtype, or NULL. */
#define LAPACK_GLUE_COMPLEX(cname, dtype, d) ((d) = lapack_glue_cdt(dtype), (d) < 0 ? NULL : lapack_glue_fns.cname[d])

/* Reserves `ints` LAPACK integers (*ip), lwork complex elements (*work) and then lrwork reals of the
 * dtype's part precision (*rwork, counted as complex elements rounded up). */
static int lapack_glue_reserve_rwork(tc_lapack_ws *ws, int32_t dtype, int64_t ints, lapack_int lwork, int64_t lrwork,
                                     lapack_int **ip, void **work, void **rwork) {
    if (lrwork < 0 || lrwork > INT64_MAX / 2 - (int64_t)lwork - 2) return TC_LAPACK_TOO_LARGE;
    int rc = lapack_glue_reserve(ws, dtype, (lapack_glue_need){ints, (int64_t)lwork + (lrwork + 1) / 2 + 1}, ip, work);
    if (!rc) *rwork = (char *)*work + (size_t)lwork * lapack_glue_es(dtype);
    return rc;
}

/* A size LAPACK reported back as an integer, at least 1. */
static lapack_int lapack_glue_iwork(lapack_int reported) { return reported > 1 ? reported : 1; }

static int lapack_glue_gesdd_complex(int32_t dtype, char jobz, int64_t m, int64_t n, void *a, int64_t lda, void *s,
                                     void *u, int64_t ldu, void *vt, int64_t ldvt, tc_lapack_ws *ws) {
    int d;
    lapack_cgesdd_fn *fn = LAPACK_GLUE_COMPLEX(cgesdd, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    LAPACK_GLUE_CHECK(lapack_glue_fits(m) && lapack_glue_fits(n) && lapack_glue_fits(lda) && lapack_glue_fits(ldu) &&
                      lapack_glue_fits(ldvt));
    const int64_t mn = lapack_glue_min(m, n), mx = m > n ? m : n;
    if (jobz != 'N' && jobz != 'S' && jobz != 'A' && jobz != 'O') return TC_LAPACK_BADARG;
    if (lda < lapack_glue_max1(m) || ldu < 1 || ldvt < 1) return TC_LAPACK_BADARG;
    if (jobz != 'N' && (ldu < lapack_glue_max1(m) || ldvt < lapack_glue_max1(jobz == 'A' ? n : mn)))
        return TC_LAPACK_BADARG;
    if (m == 0 || n == 0) return 0;
    LAPACK_GLUE_CHECK(mn <= INT_MAX / 8);
    /* cgesdd's documented real workspace (7 mn without vectors: LAPACK before 3.7 needs that much) */
    const int64_t a1 = 5 * mn * mn + 5 * mn, a2 = 2 * mx * mn + 2 * mn * mn + mn;
    const int64_t lrwork = jobz == 'N' ? 7 * mn : a1 > a2 ? a1 : a2;
    double query[4] = {0, 0, 0, 0}, rdummy[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, LDA = (lapack_int)lda, LDU = (lapack_int)ldu;
    lapack_int LDVT = (lapack_int)ldvt, lwork = -1, info = 0, iquery = 0;
    fn(&jobz, &M, &N, a, &LDA, s, u, &LDU, vt, &LDVT, query, &lwork, rdummy, &iquery, &info, 1);
    int rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, &lwork);
    if (rc) return rc;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *iwork;
    void *work, *rwork;
    rc = lapack_glue_reserve_rwork(ws_, dtype, 8 * mn, lwork, lrwork, &iwork, &work, &rwork);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&jobz, &M, &N, a, &LDA, s, u, &LDU, vt, &LDVT, work, &lwork, rwork, iwork, &info, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_heevd_complex(int32_t dtype, char jobz, char uplo, int64_t n, void *a, int64_t lda, void *w,
                                     tc_lapack_ws *ws) {
    int d;
    lapack_cheevd_fn *fn = LAPACK_GLUE_COMPLEX(cheevd, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    if ((jobz != 'N' && jobz != 'V') || (uplo != 'L' && uplo != 'U')) return TC_LAPACK_BADARG;
    LAPACK_GLUE_CHECK(lapack_glue_fits(n) && lapack_glue_fits(lda));
    if (lda < lapack_glue_max1(n)) return TC_LAPACK_BADARG;
    if (n == 0) return 0;
    double query[4] = {0, 0, 0, 0}, rquery[2] = {0, 0};
    lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, lwork = -1, lrwork = -1, liwork = -1, info = 0, iquery = 0;
    fn(&jobz, &uplo, &N, a, &LDA, w, query, &lwork, rquery, &lrwork, &iquery, &liwork, &info, 1, 1);
    int rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, &lwork);
    if (!rc) rc = lapack_glue_lwork(dtype, rquery, &lrwork);
    if (rc) return rc;
    liwork = lapack_glue_iwork(iquery);
    LAPACK_GLUE_WS(ws, own);
    lapack_int *iwork;
    void *work, *rwork;
    rc = lapack_glue_reserve_rwork(ws_, dtype, liwork, lwork, lrwork, &iwork, &work, &rwork);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&jobz, &uplo, &N, a, &LDA, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1, 1);
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_gelsy_complex(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                                     int64_t ldb, int64_t *jpvt, double rcond, int64_t *rank, tc_lapack_ws *ws) {
    int d;
    lapack_cgelsy_fn *fn = LAPACK_GLUE_COMPLEX(cgelsy, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    *rank = 0;
    if (m == 0 || n == 0) return 0;
    float rcond_f;
    const void *rc_p = lapack_glue_real(d, &rcond, &rcond_f);
    double query[4] = {0, 0, 0, 0}, rdummy[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, info = 0, r = 0, jq = 0;
    fn(&M, &N, &NRHS, a, &LDA, b, &LDB, &jq, rc_p, &r, query, &lwork, rdummy, &info);
    rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, &lwork);
    if (rc) return rc;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work, *rwork;
    rc = lapack_glue_reserve_rwork(ws_, dtype, n, lwork, 2 * n, &ip, &work, &rwork);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    for (int64_t i = 0; i < n; i++) ip[i] = jpvt ? (lapack_int)(jpvt[i] != 0) : 0;
    fn(&M, &N, &NRHS, a, &LDA, b, &LDB, ip, rc_p, &r, work, &lwork, rwork, &info);
    if (jpvt)
        for (int64_t i = 0; i < n; i++) jpvt[i] = ip[i];
    *rank = r;
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_gelsd_complex(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                                     int64_t ldb, void *s, double rcond, int64_t *rank, tc_lapack_ws *ws) {
    int d;
    lapack_cgelsd_fn *fn = LAPACK_GLUE_COMPLEX(cgelsd, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    *rank = 0;
    if (m == 0 || n == 0) return 0;
    float rcond_f;
    const void *rc_p = lapack_glue_real(d, &rcond, &rcond_f);
    double query[4] = {0, 0, 0, 0}, rquery[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, lrwork = 0, info = 0, r = 0, iquery[2] = {0, 0};
    fn(&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, query, &lwork, rquery, iquery, &info);
    rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, &lwork);
    if (!rc) rc = lapack_glue_lwork(dtype, rquery, &lrwork);
    if (rc) return rc;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *iwork;
    void *work, *rwork;
    rc = lapack_glue_reserve_rwork(ws_, dtype, lapack_glue_iwork(iquery[0]), lwork, lrwork, &iwork, &work, &rwork);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, work, &lwork, rwork, iwork, &info);
    *rank = r;
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

static int lapack_glue_gelss_complex(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                                     int64_t ldb, void *s, double rcond, int64_t *rank, tc_lapack_ws *ws) {
    int d;
    lapack_cgelss_fn *fn = LAPACK_GLUE_COMPLEX(cgelss, dtype, d);
    if (!fn) return TC_LAPACK_DTYPE;
    int rc = lapack_glue_ls_check(m, n, nrhs, lda, ldb);
    if (rc) return rc;
    *rank = 0;
    if (m == 0 || n == 0) return 0;
    float rcond_f;
    const void *rc_p = lapack_glue_real(d, &rcond, &rcond_f);
    double query[4] = {0, 0, 0, 0}, rdummy[2] = {0, 0};
    lapack_int M = (lapack_int)m, N = (lapack_int)n, NRHS = (lapack_int)nrhs, LDA = (lapack_int)lda;
    lapack_int LDB = (lapack_int)ldb, lwork = -1, info = 0, r = 0;
    fn(&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, query, &lwork, rdummy, &info);
    rc = info < 0 ? TC_LAPACK_BADARG : lapack_glue_lwork(dtype, query, &lwork);
    if (rc) return rc;
    LAPACK_GLUE_WS(ws, own);
    lapack_int *ip;
    void *work, *rwork;
    rc = lapack_glue_reserve_rwork(ws_, dtype, 0, lwork, 5 * lapack_glue_min(m, n), &ip, &work, &rwork);
    if (rc) return LAPACK_GLUE_DONE(ws, own, rc);
    fn(&M, &N, &NRHS, a, &LDA, b, &LDB, s, rc_p, &r, work, &lwork, rwork, &info);
    *rank = r;
    return LAPACK_GLUE_DONE(ws, own, lapack_glue_info(info));
}

/* The tc_lapack of a provider whose lapack_glue_fns are filled; `describe` is static storage. */
#define LAPACK_GLUE_API(describe_text)                                                             \
    {                                                                                              \
        .struct_size = sizeof(tc_lapack), .describe = (describe_text), .ws_release = lapack_glue_ws_release, \
        .getrf = lapack_glue_getrf, .getrs = lapack_glue_getrs, .getri = lapack_glue_getri,       \
        .potrf = lapack_glue_potrf, .potrs = lapack_glue_potrs, .potri = lapack_glue_potri,       \
        .trsm = lapack_glue_trsm, .geqrf = lapack_glue_geqrf, .orgqr = lapack_glue_orgqr,         \
        .ormqr = lapack_glue_ormqr, .gesdd = lapack_glue_gesdd, .syevd = lapack_glue_syevd,       \
        .geev = lapack_glue_geev, .gels = lapack_glue_gels, .gelsy = lapack_glue_gelsy,           \
        .gelsd = lapack_glue_gelsd, .gelss = lapack_glue_gelss, .geev_complex = lapack_glue_geev_complex, \
        .getrf_complex = lapack_glue_getrf_complex, .getrs_complex = lapack_glue_getrs_complex,                \
        .getri_complex = lapack_glue_getri_complex, .potrf_complex = lapack_glue_potrf_complex,    \
        .potrs_complex = lapack_glue_potrs_complex, .potri_complex = lapack_glue_potri_complex,    \
        .trsm_complex = lapack_glue_trsm_complex, .geqrf_complex = lapack_glue_geqrf_complex,      \
        .ungqr_complex = lapack_glue_ungqr_complex, .unmqr_complex = lapack_glue_unmqr_complex,    \
        .gesdd_complex = lapack_glue_gesdd_complex, .heevd_complex = lapack_glue_heevd_complex,    \
        .gels_complex = lapack_glue_gels_complex, .gelsy_complex = lapack_glue_gelsy_complex,      \
        .gelsd_complex = lapack_glue_gelsd_complex, .gelss_complex = lapack_glue_gelss_complex,    \
    }

#endif
