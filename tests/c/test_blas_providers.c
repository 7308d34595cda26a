/*
 * test_blas_providers.c - the BLIS and OpenBLAS provider plugins, loaded side by side.
 *
 * Usage: test_blas_providers <package_dir>   (plugins in <package_dir>/plugins/)
 *
 * Loads both plugins the way the core does (RTLD_NOW | RTLD_LOCAL), initialises each with a fake
 * core table, and checks GEMM in every transpose combination, padded leading dimensions, beta
 * handling, one-row operands with meaningless leading dimensions, against a naive loop; describe();
 * the BLIS kernel set picked on this CPU; thread counts; the refusal of a BLIS_ARCH_TYPE that would
 * make BLIS abort; and the splitting of oversized problems that the OpenBLAS provider relies on
 * (driven here with a tiny integer limit).
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -I core/include -I plugins/common
 *            tests/c/test_blas_providers.c -ldl -lm
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../plugins/blas/openblas/gemm_split.h"
#include "fake_pool.h"
#include "torch_core/tc_abi.h"

/* ---- a fake core ----------------------------------------------------------------------------- */

static const tc_blas_provider *registered;
static char last_error[512];

static int fake_set_error(int kind, const char *fmt, ...) {
    (void)kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return TC_FAIL;
}
static int32_t fake_op_id(const char *name) { (void)name; return -1; }
static int fake_register_kernel(const char *op, int32_t device_type, int32_t layout, int32_t dtype,
                                tc_kernel_fn fn) {
    (void)op, (void)device_type, (void)layout, (void)dtype, (void)fn;
    return fake_set_error(TC_ERR_RUNTIME, "register_kernel is not part of this test");
}
static int32_t fake_register_device_type(const tc_device_type_desc *desc) {
    (void)desc;
    return fake_set_error(TC_ERR_RUNTIME, "register_device_type is not part of this test");
}
static int fake_register_allocator(int32_t device_type, const tc_allocator *allocator) {
    (void)device_type, (void)allocator;
    return fake_set_error(TC_ERR_RUNTIME, "register_allocator is not part of this test");
}
static int fake_register_blas(const tc_blas_provider *provider) {
    if (!provider || provider->struct_size < sizeof(tc_blas_provider))
        return fake_set_error(TC_ERR_VALUE, "bad provider");
    registered = provider;
    return TC_OK;
}
static const tc_blas_provider *fake_blas_current(void) { return registered; }
static int fake_get_num_threads(void) { return 1; }
static void *fake_host_alloc(size_t nbytes) { return aligned_alloc(64, (nbytes + 63) / 64 * 64); }
static void fake_host_free(void *ptr, size_t nbytes) { (void)nbytes, free(ptr); }
static size_t fake_dtype_size(int32_t dtype) {
    static const size_t sizes[TC_NUM_DTYPES] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 4, 8, 16};
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? sizes[dtype] : 0;
}
static const char *fake_dtype_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool",  "uint8",   "int8",     "int16",   "int32",
                                               "int64", "float16", "bfloat16", "float32", "float64",
                                               "complex32", "complex64", "complex128"};
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? names[dtype] : "?";
}

static const tc_core_api fake_core = {
    .struct_size = sizeof(tc_core_api),
    .abi_major = TC_ABI_MAJOR,
    .abi_minor = TC_ABI_MINOR,
    .set_error = fake_set_error,
    .op_id = fake_op_id,
    .register_kernel = fake_register_kernel,
    .register_device_type = fake_register_device_type,
    .register_allocator = fake_register_allocator,
    .register_blas = fake_register_blas,
    .blas_current = fake_blas_current,
    .get_num_threads = fake_get_num_threads,
    .host_alloc = fake_host_alloc,
    .host_free = fake_host_free,
    .dtype_size = fake_dtype_size,
    .dtype_name = fake_dtype_name,
    .parallel_for = fake_parallel_for,
};

/* ---- checks ---------------------------------------------------------------------------------- */

#include "check.h"

/* ---- reference GEMM and operands ------------------------------------------------------------- */

/* op(X)[r][c] of a row-major matrix with row stride ld. */
static double elem(const double *x, int trans, int64_t ld, int64_t r, int64_t c) {
    return trans ? x[c * ld + r] : x[r * ld + c];
}

/* C = alpha op(A) op(B) + beta C in double; beta == 0 overwrites C without reading it. Also returns,
 * per element, the magnitude sum |alpha| sum|a||b| + |beta||c| that bounds the rounding error. */
static void ref_gemm(int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
                     int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc,
                     double *mag) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0, sa = 0;
            for (int64_t p = 0; p < k; p++) {
                double x = elem(a, ta, lda, i, p) * elem(b, tb, ldb, p, j);
                s += x;
                sa += fabs(x);
            }
            double c0 = beta == 0 ? 0 : c[i * ldc + j];
            c[i * ldc + j] = alpha * s + beta * c0;
            if (mag) mag[i * ldc + j] = fabs(alpha) * sa + fabs(beta * c0);
        }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double rnd(void) { /* uniform in [-1, 1) */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

typedef struct gemm_case {
    int64_t m, n, k;
    int64_t pad_a, pad_b, pad_c; /* leading dimension = row length + pad */
    double alpha, beta;
} gemm_case;

static const gemm_case gemm_cases[] = {
    {1, 1, 1, 0, 0, 0, 1.0, 0.0},     {1, 1, 1, 2, 3, 1, -0.5, 2.0},     {3, 5, 7, 0, 0, 0, 1.0, 0.0},
    {5, 3, 7, 4, 1, 2, 1.25, 0.5},    {17, 1, 9, 3, 0, 5, 1.0, -1.5},    {1, 19, 6, 0, 2, 0, 0.75, 1.0},
    {64, 64, 64, 0, 0, 0, 1.0, 0.0},  {257, 129, 65, 0, 0, 0, 1.0, 0.0}, {257, 129, 65, 5, 3, 7, -1.5, 0.25},
    {129, 257, 300, 1, 0, 2, 1.0, 1.0},
};
#define N_GEMM_CASES (sizeof(gemm_cases) / sizeof(gemm_cases[0]))

/* Runs one case through provider p in float or double, compares with the reference. */
static void check_gemm(const tc_blas_provider *p, int dbl, int ta, int tb, const gemm_case *g,
                       int nan_c) {
    int64_t m = g->m, n = g->n, k = g->k;
    int64_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
    int64_t lda = a_cols + g->pad_a, ldb = b_cols + g->pad_b, ldc = n + g->pad_c;
    size_t na = (size_t)(a_rows * lda), nb = (size_t)(b_rows * ldb), nc = (size_t)(m * ldc);
    double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double));
    double *c = malloc(nc * sizeof(double)), *ref = malloc(nc * sizeof(double));
    double *mag = calloc(nc, sizeof(double));
    void *a_lp = malloc(na * 8), *b_lp = malloc(nb * 8), *c_lp = malloc(nc * 8);
    for (size_t i = 0; i < na; i++) a[i] = rnd();
    for (size_t i = 0; i < nb; i++) b[i] = rnd();
    for (size_t i = 0; i < nc; i++) c[i] = ref[i] = rnd();
    if (nan_c) /* beta == 0 must not read C: uninitialised outputs may hold NaN */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) c[i * ldc + j] = NAN;
    if (dbl) {
        memcpy(a_lp, a, na * 8), memcpy(b_lp, b, nb * 8), memcpy(c_lp, c, nc * 8);
    } else {
        /* Round the operands to float first so that the reference sees the same inputs. */
        float *af = a_lp, *bf = b_lp, *cf = c_lp;
        for (size_t i = 0; i < na; i++) a[i] = af[i] = (float)a[i];
        for (size_t i = 0; i < nb; i++) b[i] = bf[i] = (float)b[i];
        for (size_t i = 0; i < nc; i++) cf[i] = (float)c[i], ref[i] = (float)ref[i];
    }
    double alpha = dbl ? g->alpha : (float)g->alpha, beta = dbl ? g->beta : (float)g->beta;
    ref_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, ref, ldc, mag);
    if (dbl)
        p->dgemm(ta, tb, m, n, k, alpha, a_lp, lda, b_lp, ldb, beta, c_lp, ldc);
    else
        p->sgemm(ta, tb, m, n, k, (float)alpha, a_lp, lda, b_lp, ldb, (float)beta, c_lp, ldc);

    double eps = dbl ? 2.3e-16 : 1.2e-7;
    int64_t bad = 0;
    double worst = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ldc; j++) {
            double got = dbl ? ((double *)c_lp)[i * ldc + j] : ((float *)c_lp)[i * ldc + j];
            double want = j < n ? ref[i * ldc + j] : (dbl ? c[i * ldc + j] : (float)c[i * ldc + j]);
            double tol = j < n ? 2.0 * (double)(k + 2) * eps * mag[i * ldc + j] + 1e-30 : 0.0;
            double err = fabs(got - want);
            if (!(err <= tol)) { /* also catches NaN */
                bad++;
                if (!(err <= worst)) worst = err;
            }
        }
    CHECK(bad == 0,
          "%s %cgemm trans=(%d,%d) m=%lld n=%lld k=%lld ld=(%lld,%lld,%lld) alpha=%g beta=%g%s: %lld "
          "wrong elements (worst error %g; padding must be untouched)",
          p->name, dbl ? 'd' : 's', ta, tb, (long long)m, (long long)n, (long long)k, (long long)lda,
          (long long)ldb, (long long)ldc, g->alpha, g->beta, nan_c ? " C=NaN" : "", (long long)bad,
          worst);
    free(a), free(b), free(c), free(ref), free(mag), free(a_lp), free(b_lp), free(c_lp);
}

/* ---- the plugins ----------------------------------------------------------------------------- */

static const char *package_dir;

typedef struct loaded {
    const char *file, *desc_name, *provider_name;
    void *handle;
    const tc_plugin_desc *desc;
    const tc_blas_provider *provider;
} loaded;

static loaded blis = {"libtorch_blas_blis.so", "blas-blis", "blis", NULL, NULL, NULL};
static loaded openblas = {"libtorch_blas_openblas.so", "blas-openblas", "openblas", NULL, NULL, NULL};

static void load(loaded *l) {
    char path[4096];
    snprintf(path, sizeof path, "%s/plugins/%s", package_dir, l->file);
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK(l->handle != NULL, "dlopen(%s): %s", path, dlerror());
    if (!l->handle) return;
    tc_plugin_entry_fn entry = (tc_plugin_entry_fn)dlsym(l->handle, TC_PLUGIN_ENTRY_NAME);
    CHECK(entry != NULL, "%s does not export %s", l->file, TC_PLUGIN_ENTRY_NAME);
    if (!entry) return;
    const tc_plugin_desc *d = entry();
    CHECK(d && d->struct_size == sizeof(tc_plugin_desc) && d->abi_major == TC_ABI_MAJOR,
          "%s: bad descriptor header", l->file);
    if (!d) return;
    CHECK(d->name && strcmp(d->name, l->desc_name) == 0, "%s: name %s", l->file, d->name);
    CHECK(d->kind && strcmp(d->kind, TC_PLUGIN_KIND_BLAS) == 0, "%s: kind %s", l->file, d->kind);
    CHECK(d->version && *d->version, "%s: no version", l->file);
    CHECK(d->init != NULL, "%s: no init", l->file);
    char reason[256] = "";
    int score = d->probe ? d->probe(&fake_core, reason, sizeof reason) : 1;
    CHECK(score > 0, "%s: probe says %d (%s)", l->file, score, reason);
    /* Only the entry point is exported: no internal name can clash with the other plugin's. */
    CHECK(dlsym(l->handle, "blis_sgemm") == NULL && dlsym(l->handle, "openblas_sgemm") == NULL &&
              dlsym(l->handle, "tc_cpu_isa_level") == NULL,
          "%s exports internal symbols", l->file);
    l->desc = d;
}

static void init(loaded *l) {
    if (!l->desc) {
        CHECK(0, "%s was not loaded", l->file);
        return;
    }
    char err[512] = "";
    registered = NULL;
    int rc = l->desc->init(&fake_core, err, sizeof err);
    CHECK(rc == TC_OK, "%s init: %s", l->file, err);
    CHECK(registered != NULL, "%s registered no provider", l->file);
    if (rc != TC_OK || !registered) return;
    l->provider = registered;
    const tc_blas_provider *p = l->provider;
    CHECK(p->struct_size == sizeof(tc_blas_provider), "%s: struct_size %u", l->file, p->struct_size);
    CHECK(p->name && strcmp(p->name, l->provider_name) == 0, "%s: provider name %s", l->file, p->name);
    CHECK(p->describe && p->sgemm && p->dgemm && p->set_num_threads && p->get_num_threads &&
              TC_BLAS_HAS(p, cgemm) && TC_BLAS_HAS(p, zgemm),
          "%s: provider has NULL members", l->file);
}

/* BLIS aborts the whole process on a BLIS_ARCH_TYPE it was not built with; the plugin must refuse
 * it instead, before BLIS reads it. Runs before the real init (BLIS reads the variable once). */
static void test_blis_refuses_bad_arch_type(void) {
    if (!blis.desc) {
        CHECK(0, "BLIS plugin not loaded");
        return;
    }
    const char *user = getenv("BLIS_ARCH_TYPE");
    char *saved = user ? strdup(user) : NULL;
    static const char *bad[] = {"13" /* armsve: never in an x86-64 build */, "-2", "999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("BLIS_ARCH_TYPE", bad[i], 1);
        char err[512] = "";
        registered = NULL;
        int rc = blis.desc->init(&fake_core, err, sizeof err);
        CHECK(rc == TC_FAIL && registered == NULL, "BLIS_ARCH_TYPE=%s was accepted", bad[i]);
        CHECK(strstr(err, "BLIS_ARCH_TYPE") != NULL, "BLIS_ARCH_TYPE=%s: message '%s'", bad[i], err);
    }
    if (saved)
        setenv("BLIS_ARCH_TYPE", saved, 1);
    else
        unsetenv("BLIS_ARCH_TYPE");
    free(saved);
}

static void test_load_and_init(void) {
    init(&blis);
    init(&openblas);
}

static void test_describe(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        if (!ls[i]->provider) {
            CHECK(0, "%s has no provider", ls[i]->file);
            continue;
        }
        const char *d = ls[i]->provider->describe();
        CHECK(d && *d, "%s: empty describe()", ls[i]->file);
        printf("     %s: %s\n", ls[i]->provider->name, d ? d : "(null)");
    }
    if (blis.provider) CHECK(strstr(blis.provider->describe(), "BLIS") != NULL, "BLIS describe");
    if (openblas.provider) {
        const char *d = openblas.provider->describe();
        CHECK(strstr(d, "OpenBLAS") != NULL && strstr(d, "core: ") != NULL, "OpenBLAS describe: %s", d);
    }
}

/* On an x86-64-v4 CPU BLIS must run its AVX-512 (skx) kernels, on v3 an AVX2 set, never generic,
 * unless the user chose with BLIS_ARCH_TYPE. gcc's own CPU detection serves as the oracle. */
static void test_blis_kernel_set(void) {
    if (!blis.provider) {
        CHECK(0, "no BLIS provider");
        return;
    }
    const char *d = blis.provider->describe();
    if (getenv("BLIS_ARCH_TYPE")) {
        CHECK(strstr(d, "from BLIS_ARCH_TYPE") != NULL, "user's BLIS_ARCH_TYPE not reported: %s", d);
        return;
    }
    __builtin_cpu_init();
    int v4 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
    int v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (v4)
        CHECK(strstr(d, "kernels: skx") != NULL, "AVX-512 CPU, but BLIS runs: %s", d);
    else if (v3)
        CHECK(strstr(d, "kernels: zen3") || strstr(d, "kernels: haswell") || strstr(d, "kernels: zen"),
              "AVX2 CPU, but BLIS runs: %s", d);
    CHECK(getenv("BLIS_ARCH_TYPE") == NULL, "the plugin left BLIS_ARCH_TYPE set in the environment");
}

static void gemm_all(const loaded *l) {
    if (!l->provider) {
        CHECK(0, "%s has no provider", l->file);
        return;
    }
    for (int dbl = 0; dbl < 2; dbl++)
        for (int t = 0; t < 4; t++)
            for (size_t i = 0; i < N_GEMM_CASES; i++)
                check_gemm(l->provider, dbl, t >> 1, t & 1, &gemm_cases[i], gemm_cases[i].beta == 0);
}
static void test_gemm_blis(void) { gemm_all(&blis); }
static void test_gemm_openblas(void) { gemm_all(&openblas); }

/* A stored matrix with one row may come with any leading dimension, 0 included (tensors with a
 * size-1 dimension carry arbitrary strides there); the providers must not reject it. */
static void test_gemm_single_rows(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        const tc_blas_provider *p = ls[i]->provider;
        if (!p) {
            CHECK(0, "%s has no provider", ls[i]->file);
            continue;
        }
        /* [1,4] @ [4,3]: A's ld = 1 (< its 4 columns); C's ld = 1 (< its 3 columns). */
        float a[4] = {1, 2, 3, 4}, b[12], c[3] = {0, 0, 0};
        for (int j = 0; j < 12; j++) b[j] = (float)(j + 1);
        p->sgemm(0, 0, 1, 3, 4, 1.0f, a, 1, b, 3, 0.0f, c, 1);
        CHECK(c[0] == 70 && c[1] == 80 && c[2] == 90, "%s: 1-row sgemm gave %g %g %g", p->name, c[0],
              c[1], c[2]);
        /* op(B) = B^T with B stored [1,4] (n = 1) and ld 2: C[2,1] = A[2,4] @ B^T. */
        double ad[8] = {1, 0, 0, 1, 0, 1, 1, 0}, bd[4] = {1, 2, 3, 4}, cd[2] = {-1, -1};
        p->dgemm(0, 1, 2, 1, 4, 2.0, ad, 4, bd, 2, 0.0, cd, 1);
        CHECK(cd[0] == 10 && cd[1] == 10, "%s: 1-row transposed dgemm gave %g %g", p->name, cd[0], cd[1]);
        /* Leading dimension 0, as an expanded size-1 dimension has: [1,4] @ [4,3] once more. */
        c[0] = c[1] = c[2] = -1;
        p->sgemm(0, 0, 1, 3, 4, 1.0f, a, 0, b, 3, 0.0f, c, 0);
        CHECK(c[0] == 70 && c[1] == 80 && c[2] == 90, "%s: sgemm with ld 0 gave %g %g %g", p->name, c[0],
              c[1], c[2]);
    }
}

/* Complex GEMM with every transpose (0 none, 1 transpose, 2 conjugate transpose), complex alpha and
 * beta, against the definition; m, n, k large enough that products are split over the pool. */
#define COMPLEX_GEMM_CHECK(NAME, R, GEMM, TOL)                                                      \
    static void NAME(const tc_blas_provider *p, int ta, int tb) {                                  \
        enum { M = 37, N = 29, K = 41 };                                                           \
        static R a[2 * M * K], b[2 * K * N], c[2 * M * N], want[2 * M * N];                        \
        for (int i = 0; i < 2 * M * K; i++) a[i] = (R)((i * 7) % 11) - 5;                          \
        for (int i = 0; i < 2 * K * N; i++) b[i] = (R)((i * 5) % 13) - 6;                          \
        for (int i = 0; i < 2 * M * N; i++) c[i] = want[i] = (R)((i * 3) % 7) - 3;                 \
        const R alpha[2] = {0.5, -1.5}, beta[2] = {2, 0.25};                                       \
        const int64_t lda = ta ? M : K, ldb = tb ? K : N;                                          \
        for (int i = 0; i < M; i++)                                                                \
            for (int j = 0; j < N; j++) {                                                          \
                double re = 0, im = 0;                                                             \
                for (int q = 0; q < K; q++) {                                                      \
                    const R *x = ta ? a + 2 * (q * lda + i) : a + 2 * (i * lda + q);               \
                    const R *y = tb ? b + 2 * (j * ldb + q) : b + 2 * (q * ldb + j);               \
                    const double xi = ta == 2 ? -x[1] : x[1], yi = tb == 2 ? -y[1] : y[1];         \
                    re += x[0] * y[0] - xi * yi;                                                   \
                    im += x[0] * yi + xi * y[0];                                                   \
                }                                                                                  \
                R *w = want + 2 * (i * N + j);                                                     \
                const double cr = w[0], ci = w[1];                                                 \
                w[0] = (R)(alpha[0] * re - alpha[1] * im + beta[0] * cr - beta[1] * ci);           \
                w[1] = (R)(alpha[0] * im + alpha[1] * re + beta[0] * ci + beta[1] * cr);           \
            }                                                                                      \
        p->GEMM(ta, tb, M, N, K, alpha, a, lda, b, ldb, beta, c, N);                               \
        int bad = 0;                                                                               \
        for (int i = 0; i < 2 * M * N; i++) bad += fabs((double)c[i] - (double)want[i]) > TOL * (1 + fabs(want[i])); \
        CHECK(bad == 0, "%s: " #GEMM " trans %d/%d: %d of %d parts differ", p->name, ta, tb, bad, 2 * M * N); \
    }
COMPLEX_GEMM_CHECK(check_cgemm, float, cgemm, 1e-5)
COMPLEX_GEMM_CHECK(check_zgemm, double, zgemm, 1e-12)

static void test_gemm_complex(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        const tc_blas_provider *p = ls[i]->provider;
        if (!p || !TC_BLAS_HAS(p, cgemm) || !TC_BLAS_HAS(p, zgemm)) {
            CHECK(0, "%s has no complex gemm", ls[i]->file);
            continue;
        }
        p->set_num_threads(2);
        for (int ta = 0; ta < 3; ta++)
            for (int tb = 0; tb < 3; tb++) {
                check_cgemm(p, ta, tb);
                check_zgemm(p, ta, tb);
            }
        p->set_num_threads(1);
    }
}

/* The complex eigendecomposition (ABI 1.4) of both providers' LAPACK: [[2, 1+i], [1-i, 3]] is
 * hermitian with eigenvalues 1 and 4; A v = lambda v for each vector, of unit norm; and refusals. */
#define GEEV_COMPLEX_CHECK(NAME, R, DT, TOL)                                                        \
    static void NAME(const tc_blas_provider *p) {                                                  \
        const tc_lapack *l = p->lapack;                                                            \
        R a[8] = {2, 0, 1, -1, 1, 1, 3, 0}, keep[8], w[4], vr[8], dummy[2];                        \
        memcpy(keep, a, sizeof a);                                                                 \
        int rc = l->geev_complex(DT, 'N', 'V', 2, a, 2, w, dummy, 1, vr, 2, NULL);                 \
        CHECK(rc == 0, "%s: " #DT " geev_complex returned %d", p->name, rc);                       \
        if (rc) return;                                                                            \
        const double lo = fmin(w[0], w[2]), hi = fmax(w[0], w[2]);                                 \
        CHECK(fabs(lo - 1) < TOL && fabs(hi - 4) < TOL && fabs(w[1]) < TOL && fabs(w[3]) < TOL,    \
              "%s: eigenvalues %g%+gi, %g%+gi", p->name, w[0], w[1], w[2], w[3]);                  \
        for (int j = 0; j < 2; j++) {                                                              \
            const R *v = vr + 4 * j;                                                               \
            double norm = 0, err = 0;                                                              \
            for (int i = 0; i < 2; i++) {                                                          \
                double re = 0, im = 0;                                                             \
                for (int k = 0; k < 2; k++) {                                                      \
                    const R *x = keep + 2 * (i + 2 * k), *y = v + 2 * k;                           \
                    re += x[0] * y[0] - x[1] * y[1], im += x[0] * y[1] + x[1] * y[0];              \
                }                                                                                  \
                re -= w[2 * j] * v[2 * i] - w[2 * j + 1] * v[2 * i + 1];                           \
                im -= w[2 * j] * v[2 * i + 1] + w[2 * j + 1] * v[2 * i];                           \
                err = fmax(err, fabs(re) + fabs(im));                                              \
                norm += v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1];                         \
            }                                                                                      \
            CHECK(err < 10 * TOL && fabs(norm - 1) < 10 * TOL, "%s: vector %d: residual %g, norm^2 %g", \
                  p->name, j, err, norm);                                                          \
        }                                                                                          \
        CHECK(l->geev_complex(DT, 'N', 'V', 2, a, 1, w, dummy, 1, vr, 2, NULL) == TC_LAPACK_BADARG, \
              "%s: lda 1 for n 2 is refused before LAPACK sees it", p->name);                      \
        CHECK(l->geev_complex(DT, 'N', 'N', 0, a, 1, w, dummy, 1, vr, 1, NULL) == 0, "%s: n 0", p->name); \
    }
GEEV_COMPLEX_CHECK(check_cgeev, float, TC_COMPLEX64, 1e-5)
GEEV_COMPLEX_CHECK(check_zgeev, double, TC_COMPLEX128, 1e-12)

/* The LAPACK of a loaded provider with every 1.4 member set (both providers have them), or NULL
 * after a failed check. */
static const tc_lapack *lapack_1_4(const loaded *ld) {
    const tc_blas_provider *p = ld->provider;
    const tc_lapack *l = p && TC_BLAS_HAS(p, lapack) ? p->lapack : NULL;
    if (l && TC_STRUCT_HAS(l, tc_lapack, potri_complex) && l->geev_complex && l->getrf_complex &&
        l->getrs_complex && l->getri_complex && l->potrf_complex && l->potrs_complex && l->potri_complex)
        return l;
    CHECK(0, "%s lacks a member of tc_lapack 1.4", ld->file);
    return NULL;
}

static void test_geev_complex(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        const tc_blas_provider *p = ls[i]->provider;
        const tc_lapack *l = lapack_1_4(ls[i]);
        if (!l) continue;
        CHECK(l->struct_size == sizeof(tc_lapack), "%s: tc_lapack struct_size %u", ls[i]->file, l->struct_size);
        check_cgeev(p);
        check_zgeev(p);
        double x[2] = {1, 0};
        CHECK(l->geev_complex(TC_FLOAT64, 'N', 'N', 1, x, 1, x, x, 1, x, 1, NULL) == TC_LAPACK_DTYPE,
              "%s: geev_complex refuses a real dtype", ls[i]->file);
    }
}

/* The complex LU members (ABI 1.4): A = [[1+i, 2], [3i, 4-i]] factors, inverts (A A^-1 = I) and solves
 * op(A) x = b for each of 'N', 'T' and 'C' (b made from a known x); a zero matrix gives getrf's positive
 * info; a real dtype, a bad trans and a bad pivot are refused. */
#define LU_COMPLEX_CHECK(NAME, R, DT, TOL)                                                          \
    static void NAME(const tc_blas_provider *p) {                                                  \
        const tc_lapack *l = p->lapack;                                                            \
        const R a0[8] = {1, 1, 0, 3, 2, 0, 4, -1}; /* column-major (re, im) pairs */              \
        R a[8], inv[8], b[4];                                                                      \
        int64_t ipiv[2];                                                                           \
        memcpy(a, a0, sizeof a);                                                                   \
        int rc = l->getrf_complex(DT, 2, 2, a, 2, ipiv, NULL);                                     \
        CHECK(rc == 0, "%s: " #DT " getrf_complex returned %d", p->name, rc);                      \
        if (rc) return;                                                                            \
        memcpy(inv, a, sizeof a);                                                                  \
        rc = l->getri_complex(DT, 2, inv, 2, ipiv, NULL);                                          \
        CHECK(rc == 0, "%s: getri_complex returned %d", p->name, rc);                              \
        double err = 0;                                                                            \
        for (int i = 0; i < 2; i++)                                                                \
            for (int j = 0; j < 2; j++) {                                                          \
                double re = 0, im = 0;                                                             \
                for (int k = 0; k < 2; k++) {                                                      \
                    const R *x = a0 + 2 * (i + 2 * k), *y = inv + 2 * (k + 2 * j);                 \
                    re += x[0] * y[0] - x[1] * y[1], im += x[0] * y[1] + x[1] * y[0];              \
                }                                                                                  \
                err = fmax(err, fabs(re - (i == j)) + fabs(im));                                   \
            }                                                                                      \
        CHECK(err < 10 * TOL, "%s: A A^-1 - I: %g", p->name, err);                                 \
        const char trans[3] = {'N', 'T', 'C'};                                                     \
        const R x[4] = {1, -2, 0.5, 3};                                                            \
        for (int t = 0; t < 3; t++) {                                                              \
            for (int i = 0; i < 2; i++) { /* b = op(A) x */                                        \
                double re = 0, im = 0;                                                             \
                for (int k = 0; k < 2; k++) {                                                      \
                    const R *e = t == 0 ? a0 + 2 * (i + 2 * k) : a0 + 2 * (k + 2 * i);             \
                    const double er = e[0], ei = t == 2 ? -e[1] : e[1];                            \
                    re += er * x[2 * k] - ei * x[2 * k + 1], im += er * x[2 * k + 1] + ei * x[2 * k]; \
                }                                                                                  \
                b[2 * i] = (R)re, b[2 * i + 1] = (R)im;                                            \
            }                                                                                      \
            rc = l->getrs_complex(DT, trans[t], 2, 1, a, 2, ipiv, b, 2, NULL);                     \
            double e = 0;                                                                          \
            for (int i = 0; i < 4; i++) e = fmax(e, fabs(b[i] - x[i]));                            \
            CHECK(rc == 0 && e < 10 * TOL, "%s: getrs_complex '%c': status %d, error %g", p->name, trans[t], rc, e); \
        }                                                                                          \
        CHECK(l->getrs_complex(DT, 'X', 2, 1, a, 2, ipiv, b, 2, NULL) == TC_LAPACK_BADARG,         \
              "%s: getrs_complex refuses trans 'X'", p->name);                                     \
        const int64_t bad[2] = {3, 2};                                                             \
        CHECK(l->getri_complex(DT, 2, inv, 2, bad, NULL) == TC_LAPACK_BADARG, "%s: pivot 3 of 2", p->name); \
        R z[8] = {0};                                                                              \
        CHECK(l->getrf_complex(DT, 2, 2, z, 2, ipiv, NULL) == 1, "%s: a zero matrix's info", p->name); \
        CHECK(l->getrf_complex(DT, 0, 0, z, 1, ipiv, NULL) == 0, "%s: n 0", p->name);              \
    }
LU_COMPLEX_CHECK(check_clu, float, TC_COMPLEX64, 1e-5)
LU_COMPLEX_CHECK(check_zlu, double, TC_COMPLEX128, 1e-12)

/* The complex Cholesky members (ABI 1.4): A = [[4, 1+i], [1-i, 3]] is Hermitian positive definite;
 * potrf ('L') gives L with L L^H = A, potrs solves A x = b, potri's lower triangle is that of
 * A^-1 = [[3, -1-i], [-1+i, 4]] / 10; a matrix that is not positive definite gives info 1. */
#define CHOLESKY_COMPLEX_CHECK(NAME, R, DT, TOL)                                                    \
    static void NAME(const tc_blas_provider *p) {                                                  \
        const tc_lapack *l = p->lapack;                                                            \
        const R a0[8] = {4, 0, 1, -1, 1, 1, 3, 0};                                                 \
        R a[8], b[4] = {0}, x[4] = {1, 2, -1, 0.5};                                                \
        memcpy(a, a0, sizeof a);                                                                   \
        int rc = l->potrf_complex(DT, 'L', 2, a, 2, NULL);                                         \
        CHECK(rc == 0, "%s: " #DT " potrf_complex returned %d", p->name, rc);                      \
        if (rc) return;                                                                            \
        /* (L L^H)[i][j] = sum_k L[i][k] conj(L[j][k]) over k <= min(i, j) */                      \
        double err = 0;                                                                            \
        for (int i = 0; i < 2; i++)                                                                \
            for (int j = 0; j <= i; j++) {                                                         \
                double re = 0, im = 0;                                                             \
                for (int k = 0; k <= j; k++) {                                                     \
                    const R *u = a + 2 * (i + 2 * k), *v = a + 2 * (j + 2 * k);                    \
                    re += u[0] * v[0] + u[1] * v[1], im += u[1] * v[0] - u[0] * v[1];              \
                }                                                                                  \
                err = fmax(err, fabs(re - a0[2 * (i + 2 * j)]) + fabs(im - a0[2 * (i + 2 * j) + 1])); \
            }                                                                                      \
        CHECK(err < 10 * TOL, "%s: L L^H - A: %g", p->name, err);                                  \
        for (int i = 0; i < 2; i++) /* b = A x */                                                  \
            for (int k = 0; k < 2; k++) {                                                          \
                const R *e = a0 + 2 * (i + 2 * k);                                                 \
                b[2 * i] += e[0] * x[2 * k] - e[1] * x[2 * k + 1];                                 \
                b[2 * i + 1] += e[0] * x[2 * k + 1] + e[1] * x[2 * k];                             \
            }                                                                                      \
        rc = l->potrs_complex(DT, 'L', 2, 1, a, 2, b, 2, NULL);                                    \
        double e = 0;                                                                              \
        for (int i = 0; i < 4; i++) e = fmax(e, fabs(b[i] - x[i]));                                \
        CHECK(rc == 0 && e < 10 * TOL, "%s: potrs_complex: status %d, error %g", p->name, rc, e);  \
        rc = l->potri_complex(DT, 'L', 2, a, 2, NULL);                                             \
        CHECK(rc == 0 && fabs(a[0] - 0.3) < TOL && fabs(a[1]) < TOL && fabs(a[2] + 0.1) < TOL &&   \
                  fabs(a[3] - 0.1) < TOL && fabs(a[6] - 0.4) < TOL,                                \
              "%s: potri_complex: status %d, %g %g%+gi %g", p->name, rc, a[0], a[2], a[3], a[6]);  \
        R neg[8] = {-1, 0, 0, 0, 0, 0, 1, 0};                                                      \
        CHECK(l->potrf_complex(DT, 'L', 2, neg, 2, NULL) == 1, "%s: not positive definite", p->name); \
    }
CHOLESKY_COMPLEX_CHECK(check_cpotrf, float, TC_COMPLEX64, 1e-5)
CHOLESKY_COMPLEX_CHECK(check_zpotrf, double, TC_COMPLEX128, 1e-12)

static void test_lu_complex(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        const tc_lapack *l = lapack_1_4(ls[i]);
        if (!l) continue;
        check_clu(ls[i]->provider);
        check_zlu(ls[i]->provider);
        check_cpotrf(ls[i]->provider);
        check_zpotrf(ls[i]->provider);
        double x[2] = {1, 0};
        int64_t piv[1];
        CHECK(l->getrf_complex(TC_FLOAT64, 1, 1, x, 1, piv, NULL) == TC_LAPACK_DTYPE &&
                  l->getrf(TC_COMPLEX128, 1, 1, x, 1, piv, NULL) == TC_LAPACK_DTYPE,
              "%s: getrf_complex refuses a real dtype, getrf a complex one", ls[i]->file);
    }
}

/* (A X)[i][j] of complex column-major matrices held as doubles: A[m,k], X[k,n], lda = m, ldx = k;
 * op 'C' takes A's conjugate transpose (A is then k x m). */
static void zmul(char op, int m, int k, int n, const double *a, const double *x, double *out) {
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double re = 0, im = 0;
            for (int t = 0; t < k; t++) {
                const double *e = op == 'C' ? a + 2 * (t + k * i) : a + 2 * (i + m * t);
                const double er = e[0], ei = op == 'C' ? -e[1] : e[1], *y = x + 2 * (t + k * j);
                re += er * y[0] - ei * y[1], im += er * y[1] + ei * y[0];
            }
            out[2 * (i + m * j)] = re, out[2 * (i + m * j) + 1] = im;
        }
}

static double zdiff(int n, const double *a, const double *b) {
    double e = 0;
    for (int i = 0; i < 2 * n; i++) e = fmax(e, fabs(a[i] - b[i]));
    return e;
}

/* The complex members of ABI 1.5, on H = [[2, 1+i], [1-i, 3]] (Hermitian: eigenvalues and singular
 * values 1 and 4) and G = [[1+i, 2], [3i, 4-i]] (general, invertible): heevd's H v = w v, gesdd's
 * values, geqrf/ungqr's Q R = G with Q^H Q = I and unmqr's Q^H G = R, trsm's triangular solves with
 * 'N' and 'C', and the four least-squares routines solving G x = G x0; refusals of a real dtype and
 * of a transpose letter the routine does not take. */
#define LAPACK_1_5_CHECK(NAME, R, DT, TOL)                                                          \
    static void NAME(const tc_blas_provider *p) {                                                  \
        const tc_lapack *l = p->lapack;                                                            \
        const R h0[8] = {2, 0, 1, -1, 1, 1, 3, 0}, g0[8] = {1, 1, 0, 3, 2, 0, 4, -1};              \
        const R x0[4] = {1, -2, 0.5, 3};                                                           \
        double H[8], G[8], X0[4], t1[8], t2[8];                                                    \
        for (int i = 0; i < 8; i++) H[i] = h0[i], G[i] = g0[i];                                    \
        for (int i = 0; i < 4; i++) X0[i] = x0[i];                                                 \
        R a[8], w[2], v[8], tau[4], q[8], b[8], s[2];                                              \
        memcpy(v, h0, sizeof v);                                                                   \
        int rc = l->heevd_complex(DT, 'V', 'L', 2, v, 2, w, NULL);                                 \
        double V[8], W[8];                                                                         \
        for (int i = 0; i < 8; i++) V[i] = v[i];                                                   \
        zmul('N', 2, 2, 2, H, V, t1);                                                              \
        for (int j = 0; j < 2; j++)                                                                \
            for (int i = 0; i < 2; i++)                                                            \
                for (int c = 0; c < 2; c++) W[2 * (i + 2 * j) + c] = w[j] * V[2 * (i + 2 * j) + c]; \
        CHECK(rc == 0 && fabs(w[0] - 1) < TOL && fabs(w[1] - 4) < TOL && zdiff(4, t1, W) < 10 * TOL, \
              "%s: " #DT " heevd_complex: status %d, w %g %g", p->name, rc, w[0], w[1]);            \
        memcpy(a, h0, sizeof a);                                                                   \
        rc = l->gesdd_complex(DT, 'A', 2, 2, a, 2, s, q, 2, v, 2, NULL);                           \
        CHECK(rc == 0 && fabs(s[0] - 4) < TOL && fabs(s[1] - 1) < TOL, "%s: gesdd_complex 'A': %d, %g %g", \
              p->name, rc, s[0], s[1]);                                                            \
        memcpy(a, g0, sizeof a);                                                                   \
        rc = l->gesdd_complex(DT, 'N', 2, 2, a, 2, s, q, 1, v, 1, NULL);                           \
        CHECK(rc == 0 && fabs(s[0] * s[0] * s[1] * s[1] - 34) < 100 * TOL, /* |det G|^2 = 34 */    \
              "%s: gesdd_complex 'N': %d, %g %g", p->name, rc, s[0], s[1]);                         \
        memcpy(a, g0, sizeof a);                                                                   \
        rc = l->geqrf_complex(DT, 2, 2, a, 2, tau, NULL);                                          \
        memcpy(q, a, sizeof q);                                                                    \
        if (!rc) rc = l->ungqr_complex(DT, 2, 2, 2, q, 2, tau, NULL);                              \
        double Q[8], Rm[8] = {a[0], a[1], 0, 0, a[4], a[5], a[6], a[7]}, I2[8] = {1, 0, 0, 0, 0, 0, 1, 0}; \
        for (int i = 0; i < 8; i++) Q[i] = q[i];                                                   \
        zmul('N', 2, 2, 2, Q, Rm, t1);                                                             \
        zmul('C', 2, 2, 2, Q, Q, t2);                                                              \
        CHECK(rc == 0 && zdiff(4, t1, G) < 10 * TOL && zdiff(4, t2, I2) < 10 * TOL,               \
              "%s: geqrf/ungqr_complex: status %d, QR - G %g", p->name, rc, zdiff(4, t1, G));       \
        memcpy(b, g0, sizeof b);                                                                   \
        rc = l->unmqr_complex(DT, 'L', 'C', 2, 2, 2, a, 2, tau, b, 2, NULL);                       \
        for (int i = 0; i < 8; i++) t1[i] = b[i];                                                  \
        CHECK(rc == 0 && zdiff(4, t1, Rm) < 10 * TOL, "%s: unmqr_complex Q^H G: %d", p->name, rc); \
        CHECK(l->unmqr_complex(DT, 'L', 'T', 2, 2, 2, a, 2, tau, b, 2, NULL) == TC_LAPACK_BADARG,   \
              "%s: unmqr_complex refuses 'T'", p->name);                                           \
        const char ops[2] = {'N', 'C'};                                                            \
        double Lm[8] = {G[0], G[1], G[2], G[3], 0, 0, G[6], G[7]}, B[4];                           \
        for (int o = 0; o < 2; o++) { /* G's lower triangle: op(L) x = b */                        \
            memcpy(a, g0, sizeof a);                                                               \
            zmul(ops[o], 2, 2, 1, Lm, X0, B);                                                      \
            for (int i = 0; i < 4; i++) b[i] = (R)B[i];                                            \
            rc = l->trsm_complex(DT, 'L', 'L', ops[o], 'N', 2, 1, 1.0, a, 2, b, 2, NULL);          \
            for (int i = 0; i < 4; i++) t1[i] = b[i];                                              \
            CHECK(rc == 0 && zdiff(2, t1, X0) < 10 * TOL, "%s: trsm_complex '%c': %d", p->name, ops[o], rc); \
        }                                                                                          \
        zmul('N', 2, 2, 1, G, X0, B);                                                              \
        for (int r = 0; r < 4; r++) {                                                              \
            memcpy(a, g0, sizeof a);                                                               \
            for (int i = 0; i < 4; i++) b[i] = (R)B[i];                                            \
            int64_t rank = -1, jpvt[2] = {0, 0};                                                   \
            rc = r == 0   ? l->gels_complex(DT, 'N', 2, 2, 1, a, 2, b, 2, NULL)                    \
                 : r == 1 ? l->gelsy_complex(DT, 2, 2, 1, a, 2, b, 2, jpvt, -1, &rank, NULL)       \
                 : r == 2 ? l->gelsd_complex(DT, 2, 2, 1, a, 2, b, 2, s, -1, &rank, NULL)          \
                          : l->gelss_complex(DT, 2, 2, 1, a, 2, b, 2, s, -1, &rank, NULL);         \
            for (int i = 0; i < 4; i++) t1[i] = b[i];                                              \
            CHECK(rc == 0 && zdiff(2, t1, X0) < 100 * TOL && (r == 0 || rank == 2),                \
                  "%s: least squares %d: status %d, rank %lld, error %g", p->name, r, rc, (long long)rank, \
                  zdiff(2, t1, X0));                                                               \
        }                                                                                          \
        CHECK(l->gels_complex(DT, 'T', 2, 2, 1, a, 2, b, 2, NULL) == TC_LAPACK_BADARG,             \
              "%s: gels_complex refuses 'T'", p->name);                                            \
    }
LAPACK_1_5_CHECK(check_lapack_1_5_c, float, TC_COMPLEX64, 1e-5)
LAPACK_1_5_CHECK(check_lapack_1_5_z, double, TC_COMPLEX128, 1e-12)

static void test_lapack_1_5(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        const tc_blas_provider *p = ls[i]->provider;
        const tc_lapack *l = p && TC_BLAS_HAS(p, lapack) ? p->lapack : NULL;
        if (!l || !TC_STRUCT_HAS(l, tc_lapack, gelss_complex) || !l->trsm_complex || !l->geqrf_complex ||
            !l->ungqr_complex || !l->unmqr_complex || !l->gesdd_complex || !l->heevd_complex || !l->gels_complex ||
            !l->gelsy_complex || !l->gelsd_complex || !l->gelss_complex) {
            CHECK(0, "%s lacks a member of tc_lapack 1.5", ls[i]->file);
            continue;
        }
        check_lapack_1_5_c(p);
        check_lapack_1_5_z(p);
        double x[8] = {1, 0, 0, 0, 0, 0, 1, 0}, w[2];
        CHECK(l->heevd_complex(TC_FLOAT64, 'N', 'L', 1, x, 1, w, NULL) == TC_LAPACK_DTYPE &&
                  l->geqrf_complex(TC_FLOAT32, 1, 1, x, 1, w, NULL) == TC_LAPACK_DTYPE &&
                  l->geqrf(TC_COMPLEX64, 1, 1, x, 1, w, NULL) == TC_LAPACK_DTYPE,
              "%s: the complex members refuse real dtypes, the real ones complex dtypes", ls[i]->file);
        CHECK(l->heevd_complex(TC_COMPLEX128, 'N', 'L', 0, x, 1, w, NULL) == 0, "%s: heevd n 0", ls[i]->file);
    }
}

static void test_threads(void) {
    const loaded *ls[] = {&blis, &openblas};
    for (int i = 0; i < 2; i++) {
        const tc_blas_provider *p = ls[i]->provider;
        if (!p) {
            CHECK(0, "%s has no provider", ls[i]->file);
            continue;
        }
        CHECK(p->get_num_threads() == 1, "%s: after init with core threads = 1, get_num_threads = %d",
              p->name, p->get_num_threads());
        int want[] = {2, 3, 1};
        for (int j = 0; j < 3; j++) {
            p->set_num_threads(want[j]);
            CHECK(p->get_num_threads() == want[j], "%s: set_num_threads(%d), get_num_threads() = %d",
                  p->name, want[j], p->get_num_threads());
        }
        p->set_num_threads(0); /* nonsense is clamped, not passed on */
        CHECK(p->get_num_threads() >= 1, "%s: set_num_threads(0) left %d", p->name, p->get_num_threads());
        /* A product split over the core's pool still computes the right thing, in every transpose
         * combination, and a small one is not split at all. */
        for (int nt = 2; nt <= 3; nt++) {
            p->set_num_threads(nt);
            const int split_before = fake_pool_split_calls;
            for (int t = 0; t < 4; t++) {
                check_gemm(p, 0, t >> 1, t & 1, &gemm_cases[9], 0);
                check_gemm(p, 1, t >> 1, t & 1, &gemm_cases[9], 0);
            }
            if (strstr(p->describe(), "the core's pool")) /* else the library threads itself */
                CHECK(fake_pool_split_calls > split_before, "%s: %d threads, but no product was split", p->name, nt);
            const int small_before = fake_pool_split_calls;
            check_gemm(p, 0, 0, 0, &gemm_cases[6], 0);
            CHECK(fake_pool_split_calls == small_before, "%s: a 64^3 product was split", p->name);
        }
        p->set_num_threads(1);
    }
}

/* ---- the splitting of oversized problems (OpenBLAS's 32-bit blasint) --------------------------- */

typedef struct split_ctx {
    int ta, tb;
    const double *a, *b;
    double *c;
    int64_t lda, ldb, ldc;
    double alpha, beta;
    int64_t limit;
    int bad_block;
} split_ctx;

static void split_block(void *ctx, const gemm_split_block *blk) {
    split_ctx *s = ctx;
    if (blk->m < 1 || blk->n < 1 || blk->k < 1 || blk->m > s->limit || blk->n > s->limit ||
        blk->k > s->limit || blk->lda > s->limit || blk->ldb > s->limit || blk->ldc > s->limit ||
        blk->lda < (s->ta ? blk->m : blk->k) || blk->ldb < (s->tb ? blk->k : blk->n) ||
        blk->ldc < blk->n)
        s->bad_block = 1;
    ref_gemm(s->ta, s->tb, blk->m, blk->n, blk->k, s->alpha, s->a + gemm_split_a_offset(blk, s->ta, s->lda),
             blk->lda, s->b + gemm_split_b_offset(blk, s->tb, s->ldb), blk->ldb,
             blk->first_k ? s->beta : 1.0, s->c + gemm_split_c_offset(blk, s->ldc), blk->ldc, NULL);
}

static void test_gemm_split(void) {
    /* Every combination of sizes and leading dimensions below, at, and above the limit. */
    static const int64_t limits[] = {1, 4, 7};
    static const int64_t sizes[][3] = {{1, 1, 1}, {7, 7, 7}, {13, 9, 11}, {3, 16, 8}, {15, 2, 1}};
    static const int64_t pads[][3] = {{0, 0, 0}, {5, 0, 3}, {0, 9, 0}, {6, 6, 6}};
    for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (size_t pi = 0; pi < sizeof pads / sizeof pads[0]; pi++)
                for (int t = 0; t < 4; t++) {
                    int ta = t >> 1, tb = t & 1;
                    int64_t m = sizes[si][0], n = sizes[si][1], k = sizes[si][2];
                    int64_t lda = (ta ? m : k) + pads[pi][0], ldb = (tb ? k : n) + pads[pi][1];
                    int64_t ldc = n + pads[pi][2];
                    int64_t na = (ta ? k : m) * lda, nb = (tb ? n : k) * ldb, nc = m * ldc;
                    double *a = malloc((size_t)na * 8), *b = malloc((size_t)nb * 8);
                    double *c = malloc((size_t)nc * 8), *ref = malloc((size_t)nc * 8);
                    for (int64_t i = 0; i < na; i++) a[i] = rnd();
                    for (int64_t i = 0; i < nb; i++) b[i] = rnd();
                    for (int64_t i = 0; i < nc; i++) c[i] = ref[i] = rnd();
                    ref_gemm(ta, tb, m, n, k, 0.5, a, lda, b, ldb, -2.0, ref, ldc, NULL);
                    split_ctx s = {ta, tb, a, b, c, lda, ldb, ldc, 0.5, -2.0, limits[li], 0};
                    gemm_split(limits[li], ta, tb, m, n, k, lda, ldb, ldc, split_block, &s);
                    double worst = 0;
                    for (int64_t i = 0; i < nc; i++)
                        if (fabs(c[i] - ref[i]) > worst) worst = fabs(c[i] - ref[i]);
                    CHECK(!s.bad_block && worst < 1e-12,
                          "split limit=%lld trans=(%d,%d) m=%lld n=%lld k=%lld ld=(%lld,%lld,%lld): %s "
                          "(error %g)",
                          (long long)limits[li], ta, tb, (long long)m, (long long)n, (long long)k,
                          (long long)lda, (long long)ldb, (long long)ldc,
                          s.bad_block ? "a block exceeds the limit or has an illegal ld" : "wrong result",
                          worst);
                    free(a), free(b), free(c), free(ref);
                }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <package_dir>\n", argv[0]);
        return 2;
    }
    package_dir = argv[1];
    load(&blis);
    load(&openblas);
    run("blis refuses a BLIS_ARCH_TYPE it cannot run", test_blis_refuses_bad_arch_type);
    run("load and init both providers", test_load_and_init);
    run("describe", test_describe);
    run("blis kernel set", test_blis_kernel_set);
    run("gemm blis", test_gemm_blis);
    run("gemm openblas", test_gemm_openblas);
    run("gemm with one-row operands", test_gemm_single_rows);
    run("complex gemm (cgemm, zgemm)", test_gemm_complex);
    run("complex eigendecomposition (geev_complex)", test_geev_complex);
    run("complex LU and Cholesky (getrf/getrs/getri/potrf/potrs/potri_complex)", test_lu_complex);
    run("complex QR, SVD, Hermitian eigenvalues, triangular and least-squares solves (ABI 1.5)", test_lapack_1_5);
    run("threads", test_threads);
    run("gemm splitting for narrow BLAS integers", test_gemm_split);
    printf("%d passed, %d failed\n", n_passed, n_failed);
    return n_failed ? 1 : 0;
}
