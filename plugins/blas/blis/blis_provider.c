/*
 * blis_provider.c - the "blis" BLAS provider: GEMM through BLIS's native typed API.
 *
 * The plugin links libblis.so.4 directly (so a missing BLIS makes dlopen fail with the loader's
 * message) and calls only BLIS's own bli_* names, which no other BLAS defines, so the calls cannot
 * bind to OpenBLAS when both providers are loaded.
 *
 * Kernel set. BLIS 0.9 picks its kernels from CPUID tables that predate recent CPUs: on an AMD
 * Zen 5 with AVX-512 it falls back to the generic (plain C) kernels, ~6x slower than its skx ones.
 * BLIS reads BLIS_ARCH_TYPE (an arch_t id) once, when it first initialises, so init picks the best
 * set this CPU and OS can run (plugins/common/cpu_features) among those this libblis was built with,
 * sets BLIS_ARCH_TYPE for the duration of bli_init(), restores the environment, and asks BLIS which
 * set it really uses. A BLIS_ARCH_TYPE the user set is honoured, after checking that BLIS would not
 * abort the process on it (BLIS aborts on an id it was not built with).
 *
 * Threads. The plugin links Debian's single-threaded BLIS (blis-serial) and cuts large products into
 * panels that run on the core's thread pool (plugins/common/gemm_parallel.h): one pool for the
 * process, and none that hangs in a fork()ed child the way OpenMP's does. Should a threaded libblis
 * already be in the process (same soname), it is held to one thread and the same splitting applies.
 * Complex products on a kernel set without complex kernels of its own (skx) go through BLIS's 1m
 * method, which BLIS enables per thread (its induced-method switches are thread-local): only the
 * thread that ran bli_init starts with it, and any other thread falls back to the kernel set's
 * reference complex kernels, about seven times slower (BLIS 0.9, this project's machine: 27 against
 * 190 GFLOP/s for a 1024^3 complex64 product) and rounding differently. So every thread that computes
 * a complex panel, or calls a complex LAPACK routine (whose products go to BLIS's BLAS layer on the
 * calling thread), enables the method init found, once: otherwise the bits of a complex solve
 * depended on which pool thread ran it, and whether that thread had computed a complex product before
 * (matrix_exp's backward failed gradcheck's reentrancy check on AVX-512 machines).
 */
#include <blis.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_features.h"
#include "gemm_complex.h"
#include "gemm_parallel.h"
#include "torch_core/tc_abi.h"

/* int64_t dimensions and strides pass to BLIS unchanged only if dim_t/inc_t are 64-bit, as in every
 * Debian build (BLIS_INT_TYPE_SIZE 64 on 64-bit targets); init also checks the loaded library. */
_Static_assert(sizeof(dim_t) == sizeof(int64_t) && sizeof(inc_t) == sizeof(int64_t),
               "this plugin passes int64_t sizes straight to BLIS");

/* The x86-64 kernel sets of the BLIS family, as compiled into this libblis (blis.h's BLIS_CONFIG_*
 * say which). The ids are the headers' arch_t values; init checks them against the library. */
typedef struct blis_config {
    arch_t id;
    const char *name; /* as bli_arch_string() spells it */
} blis_config;

static const blis_config blis_built[] = {
#ifdef BLIS_CONFIG_SKX
    {BLIS_ARCH_SKX, "skx"},
#endif
#ifdef BLIS_CONFIG_KNL
    {BLIS_ARCH_KNL, "knl"},
#endif
#ifdef BLIS_CONFIG_KNC
    {BLIS_ARCH_KNC, "knc"},
#endif
#ifdef BLIS_CONFIG_HASWELL
    {BLIS_ARCH_HASWELL, "haswell"},
#endif
#ifdef BLIS_CONFIG_SANDYBRIDGE
    {BLIS_ARCH_SANDYBRIDGE, "sandybridge"},
#endif
#ifdef BLIS_CONFIG_PENRYN
    {BLIS_ARCH_PENRYN, "penryn"},
#endif
#ifdef BLIS_CONFIG_ZEN3
    {BLIS_ARCH_ZEN3, "zen3"},
#endif
#ifdef BLIS_CONFIG_ZEN2
    {BLIS_ARCH_ZEN2, "zen2"},
#endif
#ifdef BLIS_CONFIG_ZEN
    {BLIS_ARCH_ZEN, "zen"},
#endif
#ifdef BLIS_CONFIG_EXCAVATOR
    {BLIS_ARCH_EXCAVATOR, "excavator"},
#endif
#ifdef BLIS_CONFIG_STEAMROLLER
    {BLIS_ARCH_STEAMROLLER, "steamroller"},
#endif
#ifdef BLIS_CONFIG_PILEDRIVER
    {BLIS_ARCH_PILEDRIVER, "piledriver"},
#endif
#ifdef BLIS_CONFIG_BULLDOZER
    {BLIS_ARCH_BULLDOZER, "bulldozer"},
#endif
#ifdef BLIS_CONFIG_GENERIC
    {BLIS_ARCH_GENERIC, "generic"},
#endif
};
#define BLIS_N_BUILT (sizeof(blis_built) / sizeof(blis_built[0]))

static const blis_config *blis_find_built(long id) {
    for (size_t i = 0; i < BLIS_N_BUILT; i++)
        if ((long)blis_built[i].id == id) return &blis_built[i];
    return NULL;
}

/* The built set this CPU runs best, or NULL to leave the choice to BLIS: below x86-64-v3 every CPU
 * is one BLIS's own tables know (sandybridge, penryn, bulldozer... or generic). */
static const blis_config *blis_pick(tc_isa_level level) {
    static const arch_t v4[] = {BLIS_ARCH_SKX, BLIS_ARCH_ZEN3, BLIS_ARCH_HASWELL};
    static const arch_t v3_amd[] = {BLIS_ARCH_ZEN3, BLIS_ARCH_ZEN2, BLIS_ARCH_ZEN, BLIS_ARCH_HASWELL};
    static const arch_t v3_other[] = {BLIS_ARCH_HASWELL, BLIS_ARCH_ZEN3};
    const arch_t *order;
    size_t n;
    if (level >= TC_ISA_V4) {
        order = v4;
        n = sizeof(v4) / sizeof(v4[0]);
    } else if (level == TC_ISA_V3 && tc_cpu_is_amd()) {
        order = v3_amd;
        n = sizeof(v3_amd) / sizeof(v3_amd[0]);
    } else if (level == TC_ISA_V3) {
        order = v3_other;
        n = sizeof(v3_other) / sizeof(v3_other[0]);
    } else {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const blis_config *c = blis_find_built((long)order[i]);
        if (c) return c;
    }
    return NULL;
}

/* ---- state, written once by init ------------------------------------------------------------- */

static char blis_description[640];
static const tc_core_api *blis_core; /* for parallel_for */
static int blis_threads = 1;         /* threads a product may be split over (set_num_threads) */
static ind_t blis_complex_method[2] = {BLIS_NAT, BLIS_NAT}; /* scomplex, dcomplex: as init found */
static __thread int blis_thread_has_method;                   /* this thread enabled them */

static void blis_set_num_threads(int n) { blis_threads = n < 1 ? 1 : n > 256 ? 256 : n; }

static int blis_get_num_threads(void) { return blis_threads; }

static const char *blis_describe(void) { return blis_description; }

/* ---- gemm ------------------------------------------------------------------------------------ */

/* Row and column strides of a stored rows x cols row-major matrix with row stride ld, seen through
 * op(): transposing swaps them. A single stored row has no meaningful row stride (tensors with a
 * size-1 dimension may carry any stride there), so it becomes cols, which BLIS's checks accept. */
static void blis_strides(int trans, int64_t rows, int64_t cols, int64_t ld, inc_t *rs, inc_t *cs) {
    if (rows == 1) ld = cols;
    *rs = trans ? 1 : (inc_t)ld;
    *cs = trans ? (inc_t)ld : 1;
}

/* The conjugation of an operand (trans 2, the conjugate transpose): its transposition is in the
 * strides. */
static trans_t blis_conj(int trans) { return trans == 2 ? BLIS_CONJ_NO_TRANSPOSE : BLIS_NO_TRANSPOSE; }

/* Enables on the calling thread the induced methods (1m) that init's thread had for complex GEMM. */
static void blis_thread_enable_complex_method(void) {
    if (blis_thread_has_method) return;
    if (blis_complex_method[0] != BLIS_NAT) bli_ind_enable_dt(blis_complex_method[0], BLIS_SCOMPLEX);
    if (blis_complex_method[1] != BLIS_NAT) bli_ind_enable_dt(blis_complex_method[1], BLIS_DCOMPLEX);
    blis_thread_has_method = 1;
}

static void blis_thread_ready_real(void) {}

/* BLIS_NO_TRANSPOSE with swapped strides expresses op(X) = X^T exactly; BLIS packs either way. Each
 * panel of C (gemm_parallel.h) is one bli_?gemm call. */
#define BLIS_GEMM(NAME, T, BLI, READY)                                                              \
    typedef struct NAME##_call {                                                                    \
        int trans_a, trans_b;                                                                       \
        int64_t k;                                                                                  \
        T alpha, beta;                                                                              \
        const T *a, *b;                                                                             \
        T *c;                                                                                       \
        int64_t lda, ldb, ldc;                                                                      \
    } NAME##_call;                                                                                  \
                                                                                                    \
    static void NAME##_panel(void *ctx, int64_t i, int64_t m, int64_t j, int64_t n) {               \
        const NAME##_call *g = ctx;                                                                 \
        const int64_t k = g->k;                                                                     \
        inc_t rsa, csa, rsb, csb, rsc, csc;                                                         \
        blis_strides(g->trans_a, g->trans_a ? k : m, g->trans_a ? m : k, g->lda, &rsa, &csa);       \
        blis_strides(g->trans_b, g->trans_b ? n : k, g->trans_b ? k : n, g->ldb, &rsb, &csb);       \
        blis_strides(0, m, n, g->ldc, &rsc, &csc);                                                  \
        T alpha = g->alpha, beta = g->beta;                                                         \
        READY();                                                                                    \
        BLI(blis_conj(g->trans_a), blis_conj(g->trans_b), (dim_t)m, (dim_t)n, (dim_t)k, &alpha,     \
            (T *)g->a + gemm_parallel_a_offset(g->trans_a, g->lda, i), rsa, csa,                    \
            (T *)g->b + gemm_parallel_b_offset(g->trans_b, g->ldb, j), rsb, csb, &beta,             \
            g->c + gemm_parallel_c_offset(g->ldc, i, j), rsc, csc);                                 \
    }                                                                                               \
                                                                                                    \
    static void NAME(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T *a, \
                     int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc) {            \
        NAME##_call g = {trans_a, trans_b, k, alpha, beta, a, b, c, lda, ldb, ldc};                 \
        gemm_parallel(blis_core, blis_threads, m, n, k, NAME##_panel, &g);                             \
    }

BLIS_GEMM(blis_sgemm, float, bli_sgemm, blis_thread_ready_real)
BLIS_GEMM(blis_dgemm, double, bli_dgemm, blis_thread_ready_real)
BLIS_GEMM(blis_cgemm_typed, scomplex, bli_cgemm, blis_thread_enable_complex_method)
BLIS_GEMM(blis_zgemm_typed, dcomplex, bli_zgemm, blis_thread_enable_complex_method)

GEMM_COMPLEX_ENTRY(blis_cgemm, float, scomplex, blis_cgemm_typed)
GEMM_COMPLEX_ENTRY(blis_zgemm, double, dcomplex, blis_zgemm_typed)

const tc_lapack *blis_lapack_init(void (*complex_thread_setup)(void)); /* blis_lapack.c */

static tc_blas_provider blis_provider = {
    .struct_size = sizeof(tc_blas_provider),
    .name = "blis",
    .describe = blis_describe,
    .sgemm = blis_sgemm,
    .dgemm = blis_dgemm,
    .set_num_threads = blis_set_num_threads,
    .get_num_threads = blis_get_num_threads,
    .lapack = NULL, /* set by init */
    .cgemm = blis_cgemm,
    .zgemm = blis_zgemm,
};

/* ---- plugin entry ---------------------------------------------------------------------------- */

static int blis_fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int blis_fail(char *err, size_t err_len, const char *fmt, ...) {
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return TC_FAIL;
}

/* BLIS parses BLIS_ARCH_TYPE with strtol(s, NULL, 10): "skx" or "" read as 0, -1 means "detect". */
static long blis_env_arch(const char *s) {
    errno = 0;
    long v = strtol(s, NULL, 10);
    return errno ? LONG_MIN : v;
}

static void blis_list_built(char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < BLIS_N_BUILT && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s=%d", i ? ", " : "", blis_built[i].name,
                         (int)blis_built[i].id);
        if (w < 0) break;
        used += (size_t)w;
    }
}

static int blis_init(const tc_core_api *core, char *err, size_t err_len) {
    if (bli_info_get_int_type_size() != 64)
        return blis_fail(err, err_len, "this libblis uses %d-bit integers; the plugin needs 64-bit",
                         (int)bli_info_get_int_type_size());

    tc_isa_level level = tc_cpu_isa_level();
    const char *user = getenv("BLIS_ARCH_TYPE");
    const blis_config *want = NULL;
    char why[160];
    int set_env = 0;

    if (user) {
        long id = blis_env_arch(user);
        if (id != -1 && !blis_find_built(id)) {
            char built[256];
            blis_list_built(built, sizeof built);
            return blis_fail(err, err_len,
                             "BLIS_ARCH_TYPE=%s is not a kernel set this libblis was built with, and "
                             "BLIS would abort the process on it; use one of %s, or -1 for BLIS's own "
                             "detection",
                             user, built);
        }
        want = id == -1 ? NULL : blis_find_built(id);
        snprintf(why, sizeof why, "from BLIS_ARCH_TYPE=%s%s", user,
                 id == -1 ? ": BLIS's own detection" : "");
    } else if ((want = blis_pick(level)) != NULL &&
               strcmp(bli_arch_string(want->id), want->name) != 0) {
        /* The loaded libblis numbers its kernel sets differently from the headers we were built
         * with: an id could name the wrong set, so leave the choice to BLIS. */
        snprintf(why, sizeof why, "BLIS's own detection: the library's arch ids differ from its headers'");
        want = NULL;
    } else if (want) {
        snprintf(why, sizeof why, "chosen: CPU supports %s", tc_cpu_isa_name(level));
        char id[16];
        snprintf(id, sizeof id, "%d", (int)want->id);
        if (setenv("BLIS_ARCH_TYPE", id, 1) != 0)
            return blis_fail(err, err_len, "setenv(BLIS_ARCH_TYPE) failed: %s", strerror(errno));
        set_env = 1;
    } else {
        snprintf(why, sizeof why, "BLIS's own detection: CPU supports %s", tc_cpu_isa_name(level));
    }

    /* BLIS reads BLIS_ARCH_TYPE here, once per process (later bli_init calls are no-ops). */
    bli_init();
    arch_t got = bli_arch_query_id();
    if (set_env) unsetenv("BLIS_ARCH_TYPE"); /* a child process may run another BLIS build */

    if (want && got != want->id)
        snprintf(why, sizeof why, "wanted %s, but BLIS was initialised in this process before the plugin",
                 want->name);

    /* A threaded libblis can only be here because another one was loaded first under the same
     * soname: keep it on the calling thread, so its own pool never starts. */
    const int threaded = bli_info_get_enable_openmp() || bli_info_get_enable_pthreads();
    if (threaded) bli_thread_set_num_threads(1);
    blis_core = core;
    blis_complex_method[0] = bli_ind_oper_find_avail(BLIS_GEMM, BLIS_SCOMPLEX);
    blis_complex_method[1] = bli_ind_oper_find_avail(BLIS_GEMM, BLIS_DCOMPLEX);
    blis_thread_has_method = 1; /* bli_init ran on this thread */
    snprintf(blis_description, sizeof blis_description,
             "BLIS %s, kernels: %s (%s), threading: %s, complex gemm: the %s method", bli_info_get_version_str(),
             bli_arch_string(got), why,
             !TC_CORE_HAS(core, parallel_for) ? "none (the core has no thread pool)"
             : threaded ? "the core's pool (a threaded libblis was already loaded; held to 1 thread)"
                        : "the core's pool (serial libblis, large products split into panels)",
             bli_ind_oper_get_avail_impl_string(BLIS_GEMM, BLIS_SCOMPLEX));

    /* the core answers with at least 1 (OMP_NUM_THREADS or the online CPUs) */
    blis_set_num_threads(core->get_num_threads());
    blis_provider.lapack = blis_lapack_init(blis_thread_enable_complex_method);

    if (!core || !core->register_blas || core->register_blas(&blis_provider) != TC_OK)
        return blis_fail(err, err_len, "the core refused the BLIS provider");
    return TC_OK;
}

static int blis_probe(const tc_core_api *core, char *reason, size_t reason_len) {
    (void)core, (void)reason, (void)reason_len;
    return 10; /* any x86-64 CPU: BLIS has kernels for all of them */
}

static const tc_plugin_desc blis_desc = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "blas-blis",
    .kind = TC_PLUGIN_KIND_BLAS,
    .version = "1.0",
    .probe = blis_probe,
    .init = blis_init,
    .shutdown = NULL, /* BLIS cannot initialise again after bli_finalize(); it stays up */
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &blis_desc; }
