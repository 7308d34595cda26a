/*
 * openblas_provider.c - the "openblas" BLAS provider: GEMM through OpenBLAS's cblas interface.
 *
 * The plugin links libopenblas.so.0 directly, so a missing OpenBLAS makes dlopen fail with the
 * loader's message. The functions themselves are looked up in that library with dlsym on its own
 * handle: names like cblas_sgemm are also defined by BLIS and by any BLAS in the process's global
 * scope, which the dynamic linker searches before the plugin's local scope, and the provider named
 * "openblas" must run OpenBLAS.
 *
 * OpenBLAS chooses its kernels itself (DYNAMIC_ARCH) unless OPENBLAS_CORETYPE names a core. The
 * plugin leaves that to the user and reports the core in use, since a preset OPENBLAS_CORETYPE
 * (e.g. Haswell on an AVX-512 machine) halves GEMM throughput.
 *
 * Threads. The plugin links the system's libopenblas.so.0, the library numpy links too: there can be
 * only one under that soname in a process, and Debian's serial build put in its place breaks numpy's
 * libblas.so.3 (it needs the pthreads build's symbols). With the pthreads build (Debian's default)
 * OpenBLAS keeps its own pool, capped at the core's thread count; it is fork-safe (OpenBLAS stops and
 * restarts its threads around fork()). With a serial or OpenMP build (alternatives chosen so), the
 * library is held to one thread, so no OpenMP pool ever starts, and large products are cut into panels
 * on the core's pool instead (plugins/common/gemm_parallel.h).
 *
 * LAPACK. OpenBLAS carries LAPACK (its own getrf/potrf/trtri..., the reference routines for the
 * rest, all over its BLAS): the provider's tc_lapack looks each routine up in the same library
 * (plugins/common/lapack_glue.h adds the workspace and integer handling). A libopenblas without
 * them leaves the provider without LAPACK (linalg ops then name the provider in their error).
 */
#include <cblas.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_features.h"
#include "gemm_complex.h"
#include "gemm_parallel.h"
#include "gemm_split.h"
#include "lapack_glue.h"
#include "torch_core/tc_abi.h"

#define OPENBLAS_SONAME "libopenblas.so.0"

/* The largest size or leading dimension one cblas call takes. */
#define OPENBLAS_INT_MAX ((int64_t)(sizeof(blasint) == 4 ? INT32_MAX : INT64_MAX))

typedef __typeof__(cblas_sgemm) openblas_sgemm_fn;
typedef __typeof__(cblas_dgemm) openblas_dgemm_fn;
typedef __typeof__(cblas_cgemm) openblas_cgemm_fn;
typedef __typeof__(cblas_zgemm) openblas_zgemm_fn;
typedef __typeof__(openblas_set_num_threads) openblas_set_threads_fn;
typedef __typeof__(openblas_get_config) openblas_config_fn;
typedef int openblas_parallel_fn(void);

/* ---- state, written once by init ------------------------------------------------------------- */

static void *openblas_lib; /* our reference to libopenblas.so.0, taken in init */
static openblas_sgemm_fn *openblas_sgemm_p;
static openblas_dgemm_fn *openblas_dgemm_p;
static openblas_cgemm_fn *openblas_cgemm_p;
static openblas_zgemm_fn *openblas_zgemm_p;
static openblas_set_threads_fn *openblas_set_threads_p;
static char openblas_description[512];
static const tc_core_api *openblas_core; /* for parallel_for */
static int openblas_threads = 1;         /* what set_num_threads asked for, capped */
static int openblas_own_pool;            /* 1: the pthreads build threads itself; 0: the core's pool */

static void openblas_set_threads(int n) {
    openblas_threads = n < 1 ? 1 : n > 256 ? 256 : n;
    if (openblas_own_pool) openblas_set_threads_p(openblas_threads);
}
static int openblas_get_threads(void) { return openblas_threads; }
static const char *openblas_describe(void) { return openblas_description; }

/* ---- gemm ------------------------------------------------------------------------------------ */

static enum CBLAS_TRANSPOSE openblas_trans(int trans) {
    return trans == 2 ? CblasConjTrans : trans ? CblasTrans : CblasNoTrans;
}

/* ARG(x) is how FN takes the scalar x (the value, or for complex types its address); ONE is 1 in T. */
#define OPENBLAS_GEMM_ARGS(NAME, T, FN, ARG, ONE)                                                   \
    typedef struct NAME##_call {                                                                    \
        int trans_a, trans_b;                                                                       \
        T alpha, beta;                                                                              \
        const T *a, *b;                                                                             \
        T *c;                                                                                       \
        int64_t lda, ldb, ldc;                                                                      \
    } NAME##_call;                                                                                  \
                                                                                                    \
    static void NAME##_block(void *ctx, const gemm_split_block *blk) {                              \
        const NAME##_call *g = ctx;                                                                 \
        static const T one = ONE;                                                                   \
        FN(CblasRowMajor, openblas_trans(g->trans_a), openblas_trans(g->trans_b), (blasint)blk->m,  \
           (blasint)blk->n, (blasint)blk->k, ARG(g->alpha),                                         \
           g->a + gemm_split_a_offset(blk, g->trans_a, g->lda), (blasint)blk->lda,                  \
           g->b + gemm_split_b_offset(blk, g->trans_b, g->ldb), (blasint)blk->ldb,                  \
           blk->first_k ? ARG(g->beta) : ARG(one), g->c + gemm_split_c_offset(blk, g->ldc),          \
           (blasint)blk->ldc);                                                                      \
    }                                                                                               \
                                                                                                    \
    /* One panel of C (gemm_parallel.h), itself cut to blasint sizes (gemm_split.h). */             \
    typedef struct NAME##_whole {                                                                   \
        NAME##_call g;                                                                              \
        int64_t k;                                                                                  \
    } NAME##_whole;                                                                                 \
                                                                                                    \
    static void NAME##_panel(void *ctx, int64_t i, int64_t m, int64_t j, int64_t n) {               \
        const NAME##_whole *w = ctx;                                                                \
        NAME##_call g = w->g;                                                                       \
        g.a += gemm_parallel_a_offset(g.trans_a, g.lda, i);                                         \
        g.b += gemm_parallel_b_offset(g.trans_b, g.ldb, j);                                         \
        g.c += gemm_parallel_c_offset(g.ldc, i, j);                                                 \
        gemm_split(OPENBLAS_INT_MAX, g.trans_a, g.trans_b, m, n, w->k, g.lda, g.ldb, g.ldc, NAME##_block, &g); \
    }                                                                                               \
                                                                                                    \
    static void NAME(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T *a, \
                     int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc) {            \
        NAME##_whole w = {{trans_a, trans_b, alpha, beta, a, b, c, lda, ldb, ldc}, k};              \
        gemm_parallel(openblas_core, openblas_own_pool ? 1 : openblas_threads, m, n, k, NAME##_panel, &w); \
    }

#define OPENBLAS_BY_VALUE(x) (x)
#define OPENBLAS_BY_ADDRESS(x) ((const void *)&(x))
OPENBLAS_GEMM_ARGS(openblas_sgemm, float, openblas_sgemm_p, OPENBLAS_BY_VALUE, 1)
OPENBLAS_GEMM_ARGS(openblas_dgemm, double, openblas_dgemm_p, OPENBLAS_BY_VALUE, 1)

/* complex: cblas takes scalars by address and matrices as interleaved (real, imaginary) pairs */
typedef struct openblas_cf { float re, im; } openblas_cf;
typedef struct openblas_cd { double re, im; } openblas_cd;
#define OPENBLAS_COMPLEX_ONE {1, 0}
OPENBLAS_GEMM_ARGS(openblas_cgemm_typed, openblas_cf, openblas_cgemm_p, OPENBLAS_BY_ADDRESS, OPENBLAS_COMPLEX_ONE)
OPENBLAS_GEMM_ARGS(openblas_zgemm_typed, openblas_cd, openblas_zgemm_p, OPENBLAS_BY_ADDRESS, OPENBLAS_COMPLEX_ONE)
GEMM_COMPLEX_ENTRY(openblas_cgemm, float, openblas_cf, openblas_cgemm_typed)
GEMM_COMPLEX_ENTRY(openblas_zgemm, double, openblas_cd, openblas_zgemm_typed)

/* ---- LAPACK ------------------------------------------------------------------------------------ */

static char openblas_lapack_description[96];
static const tc_lapack openblas_lapack_api = LAPACK_GLUE_API(openblas_lapack_description);

/* Every routine of lapack_glue_table from the library, or NULL when one is missing. */
static const tc_lapack *openblas_lapack_init(const char *version) {
#define LOOKUP(name)                                                                               \
    lapack_glue_fns.name[0] = (lapack_##name##_fn *)dlsym(openblas_lib, "s" #name "_");            \
    lapack_glue_fns.name[1] = (lapack_##name##_fn *)dlsym(openblas_lib, "d" #name "_");            \
    if (!lapack_glue_fns.name[0] || !lapack_glue_fns.name[1]) return NULL;
    LAPACK_GLUE_ROUTINES(LOOKUP)
#undef LOOKUP
#define LOOKUP(name)                                                                               \
    lapack_glue_fns.c##name[0] = (lapack_c##name##_fn *)dlsym(openblas_lib, "c" #name "_");        \
    lapack_glue_fns.c##name[1] = (lapack_c##name##_fn *)dlsym(openblas_lib, "z" #name "_");        \
    if (!lapack_glue_fns.c##name[0] || !lapack_glue_fns.c##name[1]) return NULL;
    LAPACK_GLUE_COMPLEX_ROUTINES(LOOKUP)
#undef LOOKUP
    snprintf(openblas_lapack_description, sizeof openblas_lapack_description, "OpenBLAS's LAPACK%s%s",
             version[0] ? " " : "", version);
    return &openblas_lapack_api;
}

static tc_blas_provider openblas_provider = {
    .struct_size = sizeof(tc_blas_provider),
    .name = "openblas",
    .describe = openblas_describe,
    .sgemm = openblas_sgemm,
    .dgemm = openblas_dgemm,
    .set_num_threads = openblas_set_threads,
    .get_num_threads = openblas_get_threads,
    .lapack = NULL, /* set by init */
    .cgemm = openblas_cgemm,
    .zgemm = openblas_zgemm,
};

/* ---- plugin entry ---------------------------------------------------------------------------- */

static int openblas_fail(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int openblas_fail(char *err, size_t err_len, const char *fmt, ...) {
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return TC_FAIL;
}

static void *openblas_sym(const char *name, char *err, size_t err_len) {
    void *p = dlsym(openblas_lib, name);
    if (!p) openblas_fail(err, err_len, "%s: %s", OPENBLAS_SONAME, dlerror());
    return p;
}

static void openblas_shutdown(void) {
    if (openblas_lib) dlclose(openblas_lib);
    openblas_lib = NULL;
}

static int openblas_init(const tc_core_api *core, char *err, size_t err_len) {
    /* Already loaded as our DT_NEEDED; this only takes a handle on it. */
    if (!openblas_lib) openblas_lib = dlopen(OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!openblas_lib)
        return openblas_fail(err, err_len, "%s is not loaded: %s", OPENBLAS_SONAME, dlerror());
    openblas_config_fn *config = openblas_sym("openblas_get_config", err, err_len);
    openblas_config_fn *corename = openblas_sym("openblas_get_corename", err, err_len);
    openblas_parallel_fn *parallel = openblas_sym("openblas_get_parallel", err, err_len);
    openblas_sgemm_p = openblas_sym("cblas_sgemm", err, err_len);
    openblas_dgemm_p = openblas_sym("cblas_dgemm", err, err_len);
    openblas_cgemm_p = openblas_sym("cblas_cgemm", err, err_len);
    openblas_zgemm_p = openblas_sym("cblas_zgemm", err, err_len);
    openblas_set_threads_p = openblas_sym("openblas_set_num_threads", err, err_len);
    if (!config || !corename || !parallel || !openblas_sgemm_p || !openblas_dgemm_p || !openblas_cgemm_p ||
        !openblas_zgemm_p || !openblas_set_threads_p) {
        openblas_shutdown();
        return TC_FAIL;
    }

    /* "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64" */
    const char *cfg = config();
    char version[32] = "";
    if (sscanf(cfg, "OpenBLAS %31s", version) != 1) version[0] = 0;
    const char *preset = getenv("OPENBLAS_CORETYPE");
    char why[160];
    if (preset && *preset)
        snprintf(why, sizeof why, "from OPENBLAS_CORETYPE=%s; CPU supports %s", preset,
                 tc_cpu_isa_name(tc_cpu_isa_level()));
    else
        snprintf(why, sizeof why, "OpenBLAS's detection; CPU supports %s",
                 tc_cpu_isa_name(tc_cpu_isa_level()));
    /* openblas_get_parallel: 0 serial, 1 pthreads, 2 OpenMP (whose pool would hang after fork) */
    const int kind = parallel();
    openblas_own_pool = kind == 1 || !TC_CORE_HAS(core, parallel_for);
    if (!openblas_own_pool) openblas_set_threads_p(1);
    openblas_core = core;
    snprintf(openblas_description, sizeof openblas_description,
             "OpenBLAS%s%s, core: %s (%s), threading: %s, config: %s", version[0] ? " " : "", version,
             corename(), why,
             kind == 1 ? "OpenBLAS's own pthreads (capped at the core's thread count, fork-safe)"
             : openblas_own_pool ? "none (the core has no thread pool)"
             : kind == 2 ? "the core's pool (an OpenMP libopenblas, held to 1 thread)"
                         : "the core's pool (a serial libopenblas; large products split into panels)",
             cfg);

    /* the core answers with at least 1 (OMP_NUM_THREADS or the online CPUs) */
    openblas_set_threads(core->get_num_threads());
    openblas_provider.lapack = openblas_lapack_init(version);

    if (!core || !core->register_blas || core->register_blas(&openblas_provider) != TC_OK)
        return openblas_fail(err, err_len, "the core refused the OpenBLAS provider");
    return TC_OK;
}

static int openblas_probe(const tc_core_api *core, char *reason, size_t reason_len) {
    (void)core, (void)reason, (void)reason_len;
    return 10; /* any x86-64 CPU: OpenBLAS's DYNAMIC_ARCH build has kernels for all of them */
}

static const tc_plugin_desc openblas_desc = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "blas-openblas",
    .kind = TC_PLUGIN_KIND_BLAS,
    .version = "1.0",
    .probe = openblas_probe,
    .init = openblas_init,
    .shutdown = openblas_shutdown,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &openblas_desc; }
