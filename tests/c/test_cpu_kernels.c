/*
 * test_cpu_kernels.c - the CPU plugin's kernels, called directly through the plugin ABI.
 *
 * Usage: test_cpu_kernels <package_dir>   (the plugins are in <package_dir>/plugins/)
 *
 * Loads each of the three ISA variants of the CPU plugin that this machine can run (the others are
 * skipped with their probe's reason), hands its init a fake tc_core_api built here (a kernel table,
 * an error slot, an optional reference BLAS), and checks every kernel on small hand-built views:
 * dtypes including float16/bfloat16/bool, non-contiguous and broadcast operands, 0-dim and empty
 * tensors, error paths. Prints one line per failed check and "N passed, M failed" (one count per
 * test per variant); exits nonzero on any failure.
 */
#include <dlfcn.h>
#include <immintrin.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_pool.h"
#include "torch_core/tc_abi.h"

/* ---- the fake core ---------------------------------------------------------------------------- */

#define MAX_KERNELS 4096

typedef struct kernel_slot {
    char op[64];
    int32_t dtype;
    tc_kernel_fn fn;
} kernel_slot;

static kernel_slot g_kernels[MAX_KERNELS];
static int g_nkernels;
static int g_register_errors;
static char g_error[512];
static int g_error_kind;
static int g_threads = 2;
static const tc_blas_provider *g_blas;
static long g_live_allocs;

static int fake_set_error(int kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
    g_error_kind = kind;
    return TC_FAIL;
}

static int32_t fake_op_id(const char *name) {
    (void)name;
    return -1;
}

static int fake_register_kernel(const char *op, int32_t device_type, int32_t layout, int32_t dtype,
                                tc_kernel_fn fn) {
    if (device_type != TC_DEVICE_CPU || layout != TC_STRIDED || dtype < TC_ANY_DTYPE || dtype >= TC_NUM_DTYPES || !fn ||
        strlen(op) >= sizeof g_kernels[0].op || g_nkernels == MAX_KERNELS) {
        g_register_errors++;
        return TC_FAIL;
    }
    for (int i = 0; i < g_nkernels; i++)
        if (strcmp(g_kernels[i].op, op) == 0 && g_kernels[i].dtype == dtype) {
            g_register_errors++; /* registered twice */
            return TC_FAIL;
        }
    snprintf(g_kernels[g_nkernels].op, sizeof g_kernels[0].op, "%s", op);
    g_kernels[g_nkernels].dtype = dtype;
    g_kernels[g_nkernels].fn = fn;
    g_nkernels++;
    return TC_OK;
}

static int32_t fake_register_device_type(const tc_device_type_desc *desc) {
    (void)desc;
    return TC_FAIL;
}

static int fake_register_allocator(int32_t device_type, const tc_allocator *allocator) {
    (void)device_type;
    (void)allocator;
    return TC_FAIL;
}

static int fake_register_blas(const tc_blas_provider *provider) {
    (void)provider;
    return TC_FAIL;
}

static const tc_blas_provider *fake_blas_current(void) { return g_blas; }
static int fake_get_num_threads(void) { return g_threads; }

static void *fake_host_alloc(size_t nbytes) {
    void *p = aligned_alloc(64, (nbytes + 63) / 64 * 64 + 64);
    if (p) __atomic_add_fetch(&g_live_allocs, 1, __ATOMIC_RELAXED);
    return p;
}

static void fake_host_free(void *ptr, size_t nbytes) {
    (void)nbytes;
    if (ptr) __atomic_sub_fetch(&g_live_allocs, 1, __ATOMIC_RELAXED);
    free(ptr);
}

static const size_t g_dtype_sizes[TC_NUM_DTYPES] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 4, 8, 16};
static const char *const g_dtype_names[TC_NUM_DTYPES] = {"bool",    "uint8",    "int8",    "int16",  "int32",
                                                         "int64",   "float16",  "bfloat16", "float32", "float64",
                                                         "complex32", "complex64", "complex128"};

static size_t fake_dtype_size(int32_t dtype) {
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? g_dtype_sizes[dtype] : 0;
}

static const char *fake_dtype_name(int32_t dtype) {
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? g_dtype_names[dtype] : "?";
}

static const tc_core_api g_core = {
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

/* A reference BLAS that also checks the leading dimensions it is handed. */
static int g_blas_calls, g_blas_bad_args;

#define REF_GEMM(NAME, T)                                                                          \
    static void NAME(int ta, int tb, int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t lda, \
                     const T *b, int64_t ldb, T beta, T *c, int64_t ldc) {                         \
        g_blas_calls++;                                                                            \
        if (m <= 0 || n <= 0 || k <= 0 || lda < (ta ? m : k) || ldb < (tb ? k : n) || ldc < n) {   \
            g_blas_bad_args++;                                                                     \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < m; i++)                                                            \
            for (int64_t j = 0; j < n; j++) {                                                      \
                double s = 0;                                                                      \
                for (int64_t p = 0; p < k; p++)                                                    \
                    s += (double)(ta ? a[p * lda + i] : a[i * lda + p]) *                          \
                         (double)(tb ? b[j * ldb + p] : b[p * ldb + j]);                           \
                c[i * ldc + j] = (T)(alpha * s + (beta == 0 ? 0 : beta * c[i * ldc + j]));         \
            }                                                                                      \
    }
REF_GEMM(ref_sgemm, float)
REF_GEMM(ref_dgemm, double)

/* complex: alpha 1 and beta 0 only (what the mm kernels pass); trans 2 conjugates */
#define REF_CGEMM(NAME, R)                                                                         \
    static void NAME(int ta, int tb, int64_t m, int64_t n, int64_t k, const R *alpha, const R *a, int64_t lda, \
                     const R *b, int64_t ldb, const R *beta, R *c, int64_t ldc) {                  \
        g_blas_calls++;                                                                            \
        if (m <= 0 || n <= 0 || k <= 0 || lda < (ta ? m : k) || ldb < (tb ? k : n) || ldc < n ||  \
            alpha[0] != 1 || alpha[1] != 0 || beta[0] != 0 || beta[1] != 0) {                     \
            g_blas_bad_args++;                                                                     \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < m; i++)                                                            \
            for (int64_t j = 0; j < n; j++) {                                                      \
                double re = 0, im = 0;                                                             \
                for (int64_t p = 0; p < k; p++) {                                                  \
                    const R *x = ta ? a + 2 * (p * lda + i) : a + 2 * (i * lda + p);               \
                    const R *y = tb ? b + 2 * (j * ldb + p) : b + 2 * (p * ldb + j);               \
                    const double xi = ta == 2 ? -x[1] : x[1], yi = tb == 2 ? -y[1] : y[1];         \
                    re += x[0] * y[0] - xi * yi;                                                   \
                    im += x[0] * yi + xi * y[0];                                                   \
                }                                                                                  \
                c[2 * (i * ldc + j)] = (R)re;                                                      \
                c[2 * (i * ldc + j) + 1] = (R)im;                                                  \
            }                                                                                      \
    }
REF_CGEMM(ref_cgemm, float)
REF_CGEMM(ref_zgemm, double)

static const tc_blas_provider g_ref_blas = {.struct_size = sizeof(tc_blas_provider), .name = "reference",
                                            .sgemm = ref_sgemm, .dgemm = ref_dgemm, .cgemm = ref_cgemm,
                                            .zgemm = ref_zgemm};
/* A provider built against ABI 1.2: no complex members, which the kernels must not read. */
static const tc_blas_provider g_ref_blas_1_2 = {.struct_size = TC_BLAS_PROVIDER_SIZE_1_0, .name = "reference-1.2",
                                                .sgemm = ref_sgemm, .dgemm = ref_dgemm, .cgemm = ref_cgemm,
                                                .zgemm = ref_zgemm};

/* ---- tensors ---------------------------------------------------------------------------------- */

#define MAX_NDIM 8

typedef struct tensor {
    tc_view v;
    int64_t sizes[MAX_NDIM], strides[MAX_NDIM];
    void *owned; /* NULL for views */
    struct tensor *next;
} tensor;

static tensor *g_tensors; /* everything made by the current test, freed after it */

#define DIMS(...) (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]) { __VA_ARGS__ }

static tensor *new_tensor(int dtype, int ndim, const int64_t *sizes, const int64_t *strides, void *data) {
    tensor *t = calloc(1, sizeof *t);
    if (!t) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (int d = 0; d < ndim; d++) {
        t->sizes[d] = sizes[d];
        t->strides[d] = strides[d];
    }
    t->v = (tc_view){.data = data, .sizes = t->sizes, .strides = t->strides, .ndim = ndim, .dtype = dtype};
    t->next = g_tensors;
    g_tensors = t;
    return t;
}

static int64_t numel_of(int ndim, const int64_t *sizes) {
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= sizes[d];
    return n;
}

/* A contiguous tensor filled with 0xA5 bytes, so unwritten elements show. */
static tensor *T(int dtype, int ndim, const int64_t *sizes) {
    int64_t strides[MAX_NDIM], st = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = st;
        st *= sizes[d];
    }
    size_t bytes = (size_t)numel_of(ndim, sizes) * g_dtype_sizes[dtype];
    void *data = malloc(bytes ? bytes : 1);
    if (!data) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(data, 0xA5, bytes);
    tensor *t = new_tensor(dtype, ndim, sizes, strides, data);
    t->owned = data;
    return t;
}

/* A view of `base`'s storage: element offset and strides in elements. */
static tensor *V(const tensor *base, int64_t offset, int ndim, const int64_t *sizes, const int64_t *strides) {
    char *data = (char *)base->v.data + (size_t)offset * g_dtype_sizes[base->v.dtype];
    return new_tensor(base->v.dtype, ndim, sizes, strides, data);
}

static void free_tensors(void) {
    while (g_tensors) {
        tensor *t = g_tensors;
        g_tensors = t->next;
        free(t->owned);
        free(t);
    }
}

static float bf16_to_f32(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t f32_to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static void *elem(const tensor *t, int64_t i) {
    int64_t off = 0;
    for (int d = t->v.ndim - 1; d >= 0; d--) {
        off += (i % t->sizes[d]) * t->strides[d];
        i /= t->sizes[d];
    }
    return (char *)t->v.data + (size_t)off * g_dtype_sizes[t->v.dtype];
}

/* Element i (row-major over the sizes) as a double / as an int64. */
static double at(const tensor *t, int64_t i) {
    void *p = elem(t, i);
    switch (t->v.dtype) {
    case TC_BOOL: return *(uint8_t *)p;
    case TC_UINT8: return *(uint8_t *)p;
    case TC_INT8: return *(int8_t *)p;
    case TC_INT16: return *(int16_t *)p;
    case TC_INT32: return *(int32_t *)p;
    case TC_INT64: return (double)*(int64_t *)p;
    case TC_FLOAT16: return *(_Float16 *)p;
    case TC_BFLOAT16: return bf16_to_f32(*(uint16_t *)p);
    case TC_FLOAT32: return *(float *)p;
    case TC_COMPLEX32: return ((_Float16 *)p)[0]; /* complex: the real part (im() reads the other) */
    case TC_COMPLEX64: return ((float *)p)[0];
    case TC_COMPLEX128: return ((double *)p)[0];
    default: return *(double *)p;
    }
}

/* The imaginary part of complex element i. */
static double im(const tensor *t, int64_t i) {
    void *p = elem(t, i);
    switch (t->v.dtype) {
    case TC_COMPLEX32: return ((_Float16 *)p)[1];
    case TC_COMPLEX64: return ((float *)p)[1];
    case TC_COMPLEX128: return ((double *)p)[1];
    default: return 0;
    }
}

static int64_t ati(const tensor *t, int64_t i) {
    void *p = elem(t, i);
    switch (t->v.dtype) {
    case TC_INT64: return *(int64_t *)p;
    default: return (int64_t)at(t, i);
    }
}

static void set(tensor *t, int64_t i, double v) {
    void *p = elem(t, i);
    switch (t->v.dtype) {
    case TC_BOOL: *(uint8_t *)p = v != 0; break;
    case TC_UINT8: *(uint8_t *)p = (uint8_t)(int64_t)v; break;
    case TC_INT8: *(int8_t *)p = (int8_t)(int64_t)v; break;
    case TC_INT16: *(int16_t *)p = (int16_t)(int64_t)v; break;
    case TC_INT32: *(int32_t *)p = (int32_t)(int64_t)v; break;
    case TC_INT64: *(int64_t *)p = (int64_t)v; break;
    case TC_FLOAT16: *(_Float16 *)p = (_Float16)v; break;
    case TC_BFLOAT16: *(uint16_t *)p = f32_to_bf16((float)v); break;
    case TC_FLOAT32: *(float *)p = (float)v; break;
    case TC_COMPLEX32: ((_Float16 *)p)[0] = (_Float16)v, ((_Float16 *)p)[1] = 0; break;
    case TC_COMPLEX64: ((float *)p)[0] = (float)v, ((float *)p)[1] = 0; break;
    case TC_COMPLEX128: ((double *)p)[0] = v, ((double *)p)[1] = 0; break;
    default: *(double *)p = v; break;
    }
}

/* A complex element from its parts. */
static void setc(tensor *t, int64_t i, double re, double imag) {
    void *p = elem(t, i);
    switch (t->v.dtype) {
    case TC_COMPLEX32: ((_Float16 *)p)[0] = (_Float16)re, ((_Float16 *)p)[1] = (_Float16)imag; break;
    case TC_COMPLEX64: ((float *)p)[0] = (float)re, ((float *)p)[1] = (float)imag; break;
    default: ((double *)p)[0] = re, ((double *)p)[1] = imag; break;
    }
}

static void seti(tensor *t, int64_t i, int64_t v) {
    if (t->v.dtype == TC_INT64) *(int64_t *)elem(t, i) = v;
    else set(t, i, (double)v);
}

static int64_t numel(const tensor *t) { return numel_of(t->v.ndim, t->sizes); }

static void fill(tensor *t, const double *vals) {
    for (int64_t i = 0; i < numel(t); i++) set(t, i, vals[i]);
}

/* A contiguous tensor with the given values. */
static tensor *TV(int dtype, int ndim, const int64_t *sizes, const double *vals) {
    tensor *t = T(dtype, ndim, sizes);
    fill(t, vals);
    return t;
}

/* ---- checks ----------------------------------------------------------------------------------- */

static const char *g_variant = "";
static int g_level; /* the variant's x86-64 level */
static const char *g_test = "";
static int g_check_failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            g_check_failures++;                                                                    \
            printf("FAIL [%s] %s (line %d): ", g_variant, g_test, __LINE__);                       \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static int same_double(double got, double want, double rtol, double atol) {
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

#define CHECK_NEAR(got, want, rtol, atol, what)                                                    \
    do {                                                                                           \
        double got_ = (got), want_ = (want);                                                       \
        CHECK(same_double(got_, want_, rtol, atol), "%s: got %.17g, want %.17g", what, got_, want_); \
    } while (0)

/* Every element of t against vals. */
static void check_values(const tensor *t, const double *vals, double rtol, const char *what, int line) {
    for (int64_t i = 0; i < numel(t); i++)
        if (!same_double(at(t, i), vals[i], rtol, rtol)) {
            g_check_failures++;
            printf("FAIL [%s] %s (line %d): %s[%lld]: got %.17g, want %.17g\n", g_variant, g_test, line, what,
                   (long long)i, at(t, i), vals[i]);
            return;
        }
}
#define CHECK_VALUES(t, rtol, what, ...) check_values(t, (const double[]){__VA_ARGS__}, rtol, what, __LINE__)

/* ---- calling kernels -------------------------------------------------------------------------- */

static tc_kernel_fn find_kernel(const char *op, int dtype) {
    for (int i = 0; i < g_nkernels; i++)
        if (strcmp(g_kernels[i].op, op) == 0 && g_kernels[i].dtype == dtype) return g_kernels[i].fn;
    return NULL;
}

/* Runs kernel op for dtype; returns its result (or TC_FAIL with a check failure if it is missing). */
static int run(const char *op, int dtype, int nin, tensor *const *in, int nout, tensor *const *out, int nsc,
               const tc_scalar *sc, int nints, const int64_t *ints) {
    tc_kernel_fn fn = find_kernel(op, dtype);
    CHECK(fn != NULL, "no kernel %s for %s", op, g_dtype_names[dtype]);
    if (!fn) return TC_FAIL;
    tc_view ins[4], outs[4];
    for (int i = 0; i < nin; i++) ins[i] = in[i]->v;
    for (int i = 0; i < nout; i++) outs[i] = out[i]->v;
    tc_kernel_args args = {.struct_size = sizeof args, .op = -1, .n_inputs = nin, .n_outputs = nout,
                           .inputs = ins, .outputs = outs, .n_scalars = nsc, .n_ints = nints,
                           .scalars = sc, .ints = ints};
    g_error[0] = 0;
    return fn(&args);
}

static int run1(const char *op, tensor *out, tensor *a) {
    return run(op, out->v.dtype, 1, (tensor *[]){a}, 1, (tensor *[]){out}, 0, NULL, 0, NULL);
}

static int run2(const char *op, tensor *out, tensor *a, tensor *b) {
    return run(op, a->v.dtype, 2, (tensor *[]){a, b}, 1, (tensor *[]){out}, 0, NULL, 0, NULL);
}

static int run2s(const char *op, tensor *out, tensor *a, tensor *b, tc_scalar alpha) {
    return run(op, a->v.dtype, 2, (tensor *[]){a, b}, 1, (tensor *[]){out}, 1, &alpha, 0, NULL);
}

static tc_scalar SI(int64_t v) { return (tc_scalar){.is_float = 0, .v.i = v}; }
static tc_scalar SF(double v) { return (tc_scalar){.is_float = 1, .v.f = v}; }

#define CHECK_OK(call) CHECK((call) == TC_OK, "%s failed: %s", #call, g_error)

/* ---- tests ------------------------------------------------------------------------------------ */

static void test_registration(void) {
    /* (op, dtypes) as a bitmask of tc_dtype; bool is bit 0. cx: complex32/64/128, cxf: complex64/128 */
    const unsigned all = 0x3ff, nobool = 0x3fe, floats = 0x3c0, cx = 0x1c00, cxf = 0x1800;
    const unsigned act = 0x380, act_int = 0x3be, f32_f64 = 0x300; /* bfloat16 up; and the integers; BLAS types */
    const struct {
        const char *op;
        unsigned dtypes;
    } want[] = {{"copy", all | cx},  {"add", all | cx},   {"sub", nobool | cx}, {"mul", all | cx},
                {"div", floats | cxf}, {"floor_divide", nobool}, {"remainder", nobool}, {"pow", nobool | cxf},
                {"maximum", all},   {"minimum", all},    {"eq", all | cx}, {"ne", all | cx},
                {"lt", all},        {"le", all},         {"gt", all},      {"ge", all},
                {"neg", nobool | cx}, {"abs", nobool | cx}, {"relu", nobool}, {"exp", floats | cxf},
                {"log", floats | cxf}, {"sqrt", floats | cxf}, {"sin", floats | cxf}, {"cos", floats | cxf},
                {"tanh", floats | cxf}, {"sigmoid", floats | cxf}, {"sum", all}, {"max", all},
                {"min", all},       {"max_dim", all},    {"min_dim", all}, {"mm", all | cxf},
                {"arange", nobool}, {"linspace", nobool | cxf}, {"logspace", nobool | cxf}, {"bmm", all | cxf}, {"fill", all | cx},
                {"conj_physical", cx}, {"complex", cx}, {"polar", cxf}, {"angle", floats | cxf},
                /* random numbers: bernoulli has no float16 kernels, poisson and multinomial only
                 * bfloat16, float32 and float64 (as PyTorch's CPU kernels) */
                {"uniform", floats}, {"normal", floats}, {"random", all}, {"exponential", floats},
                {"cauchy", floats}, {"log_normal", floats}, {"geometric", nobool}, {"bernoulli_float", 0x3bf},
                {"bernoulli_tensor", 0x3bf}, {"randperm", nobool}, {"poisson", 0x380}, {"multinomial", 0x380},
                {"standard_gamma", 0x300}, {"sample_dirichlet", 0x300}, {"binomial", 0x300},
                {"standard_gamma_grad", 0x300}, {"dirichlet_grad", 0x300},
                /* reductions, scans, sorting and selection */
                {"prod", all},      {"nansum", all},     {"all", all | cxf}, {"any", all | cxf},
                {"count_nonzero", all | cxf}, {"norm", floats}, {"var", floats}, {"std", floats},
                {"logsumexp", floats}, {"cumsum", nobool | cxf}, {"cumprod", nobool | cxf}, {"logcumsumexp", floats},
                {"cummax", all},    {"cummin", all},     {"sort", all},    {"topk", all},
                {"kthvalue", all},  {"median_dim", all}, {"nanmedian_dim", all}, {"mode", all},
                {"median_all", all}, {"nanmedian_all", all}, {"quantile", 0x300}, {"nanquantile", 0x300},
                {"unique", 0x3bf},  {"unique_consecutive", all}, {"unique_dim", all},
                {"searchsorted", nobool}, {"histc", floats}, {"bincount", 0x3e},
                /* the indexing family (complex64/complex128 too) */
                {"index", all | cxf}, {"index_put", all | cxf}, {"where", all | cxf}, {"nonzero_count", all | cxf},
                {"nonzero", all | cxf}, {"masked_select", all | cxf}, {"masked_scatter", all | cxf}, {"cat", all | cxf},
                {"flip", all | cxf}, {"tril", all | cxf}, {"triu", all | cxf}, {"tril_indices", 0x30},
                {"triu_indices", 0x30},
                /* nn: the activations take bfloat16/float32/float64, threshold and hardtanh integers too */
                {"threshold", act_int}, {"hardtanh", act_int}, {"threshold_backward", act},
                {"hardtanh_backward", act}, {"leaky_relu", act}, {"leaky_relu_backward", act}, {"prelu", act},
                {"elu", act}, {"elu_backward", act}, {"celu", act}, {"gelu", act}, {"gelu_backward", act},
                {"silu", act}, {"silu_backward", act}, {"mish", f32_f64}, {"mish_backward", f32_f64},
                {"hardswish", act}, {"hardswish_backward", act}, {"hardsigmoid", act},
                {"hardsigmoid_backward", act}, {"softplus", act}, {"softplus_backward", act},
                {"softshrink", act}, {"softshrink_backward", act}, {"hardshrink", act},
                {"hardshrink_backward", act}, {"log_sigmoid_forward", act}, {"log_sigmoid_backward", act},
                {"glu", act}, {"glu_backward", act}, {"_softmax", floats}, {"_log_softmax", floats},
                {"_softmax_backward_data", floats}, {"_log_softmax_backward_data", floats},
                {"mse_loss", floats}, {"mse_loss_backward", floats}, {"smooth_l1_loss", floats},
                {"smooth_l1_loss_backward", floats}, {"huber_loss", floats}, {"huber_loss_backward", floats},
                {"binary_cross_entropy", floats}, {"nll_loss_forward", act}, {"nll_loss2d_forward", act},
                {"nll_loss_backward", act}, {"nll_loss2d_backward", act}, {"_ctc_loss", f32_f64},
                {"_ctc_loss_backward", f32_f64}, {"_lstm_layer", f32_f64}, {"_lstm_layer_backward_data", f32_f64}};
    /* the pointwise family (ops.table's pointwise section) */
    const unsigned ints_bool = 0x03f, ints = 0x03e;
    const struct {
        const char *op;
        unsigned dtypes;
    } pointwise[] = {
        {"tan", floats | cxf}, {"asin", floats | cxf}, {"acos", floats | cxf}, {"atan", floats | cxf},
        {"sinh", floats | cxf}, {"cosh", floats | cxf}, {"asinh", floats | cxf}, {"acosh", floats | cxf},
        {"atanh", floats | cxf}, {"exp2", floats}, {"expm1", floats}, {"log2", floats | cxf}, {"log10", floats | cxf},
        {"log1p", floats}, {"rsqrt", floats | cxf}, {"reciprocal", floats | cxf},
        {"erf", floats}, {"erfc", floats}, {"erfinv", floats}, {"lgamma", floats}, {"digamma", floats},
        {"deg2rad", floats}, {"rad2deg", floats}, {"logit", floats}, {"polygamma", floats}, {"mvlgamma", floats},
        {"round_decimals", floats}, {"frac", floats}, {"floor", nobool}, {"ceil", nobool}, {"round", nobool},
        {"trunc", nobool}, {"nan_to_num", all}, {"sign", all | cxf}, {"signbit", all}, {"atan2", floats},
        {"hypot", floats}, {"copysign", floats}, {"xlogy", floats}, {"nextafter", floats}, {"heaviside", all}, {"gcd", ints}, {"lcm", ints},
        {"fmax", all}, {"fmin", all}, {"fmod", nobool}, {"bitwise_and", ints_bool}, {"bitwise_or", ints_bool},
        {"bitwise_xor", ints_bool}, {"bitwise_not", ints_bool}, {"lshift", ints}, {"rshift", ints},
        {"logical_and", all | cxf}, {"logical_or", all | cxf}, {"logical_xor", all | cxf}, {"logical_not", all | cxf}, {"isnan", all | cxf},
        {"isinf", all | cxf}, {"isfinite", all | cxf}, {"isposinf", all}, {"isneginf", all}, {"clamp", all},
        {"lerp", floats | cxf},
        {"addcmul", nobool | cxf}, {"addcdiv", floats | cxf}};
    /* linear algebra (ANY: one kernel for every dtype, which checks the dtype itself), the nn spatial
     * family and the optimizers */
    const unsigned ANY = 0x80000000u;
    const struct {
        const char *op;
        unsigned dtypes;
    } more[] = {
        {"cdist", ANY}, {"_embedding_bag", 0x3c0}, {"_embedding_bag_dense_backward", 0x3c0},
        {"_embedding_bag_dense_double_backward", 0x3c0}, {"_embedding_bag_per_sample_weights_backward", 0x3c0},
        {"adadelta_update", 0x3c0}, {"adagrad_update", 0x3c0}, {"adam_update", 0x3c0}, {"adamax_update", 0x3c0},
        {"adaptive_avg_pool2d", 0x3c0}, {"adaptive_avg_pool2d_backward", 0x3c0}, {"adaptive_max_pool2d", 0x3c0},
        {"addbmm", 0x3ff}, {"addmm", 0x3ff}, {"addmv", 0x1bff}, {"addr", 0x3ff}, {"aminmax", 0x3ff},
        {"asgd_update", 0x3c0}, {"avg_pool2d", 0x3e0}, {"avg_pool2d_backward", 0x3e0}, {"baddbmm", 0x3ff},
        {"cholesky_ex", ANY}, {"cholesky_inverse", ANY}, {"cholesky_solve", ANY}, {"col2im", 0x3c0},
        {"convolution", 0x3fe}, {"convolution_backward", 0x3fe}, {"dot", 0x1bff}, {"embedding", 0x3ff},
        {"embedding_dense_backward", 0x3c0}, {"embedding_renorm", 0x3c0}, {"geqrf", ANY},
        {"householder_product", ANY}, {"im2col", 0x3c0}, {"linalg_cross", 0x1bff}, {"linalg_det", ANY},
        {"linalg_eig", ANY}, {"linalg_eigh", ANY}, {"linalg_inv_ex", ANY}, {"linalg_lstsq", ANY}, {"linalg_lu", ANY},
        {"linalg_qr", ANY}, {"linalg_slogdet", ANY}, {"linalg_solve_ex", ANY}, {"linalg_svd", ANY}, {"lu_factor", ANY},
        {"lu_solve", ANY},
        {"lu_unpack", ANY}, {"matrix_exp", ANY}, {"max_pool2d_with_indices", 0x3c0}, {"max_pool_gather", 0x3c0},
        {"max_pool_scatter", 0x3c0}, {"nadam_update", 0x3c0}, {"native_batch_norm", 0x380},
        {"native_batch_norm_backward", 0x380}, {"native_group_norm", 0x380}, {"native_group_norm_backward", 0x380},
        {"native_layer_norm", 0x380}, {"native_layer_norm_backward", 0x380}, {"pad_nd", 0x3ff},
        {"pad_nd_backward", 0x3c0}, {"radam_update", 0x3c0}, {"rmsprop_update", 0x3c0}, {"rprop_update", 0x3c0},
        {"sgd_update", 0x3c0}, {"solve_triangular", ANY}, {"triangular_solve", ANY}, {"upsample", 0x3c2},
        {"upsample_backward", 0x3c2}, {"vector_norm", ANY},
        /* torch.special (float32/float64; i0, i0e with bfloat16; igamma(c) the 16-bit floats too) and torch.fft */
        {"airy_ai", 0x300}, {"bessel_j0", 0x300}, {"bessel_j1", 0x300}, {"bessel_y0", 0x300}, {"bessel_y1", 0x300},
        {"chebyshev_polynomial_t", 0x300}, {"chebyshev_polynomial_u", 0x300}, {"chebyshev_polynomial_v", 0x300},
        {"chebyshev_polynomial_w", 0x300}, {"erfcx", 0x300}, {"hermite_polynomial_h", 0x300},
        {"hermite_polynomial_he", 0x300}, {"i1", 0x300}, {"i1e", 0x300}, {"laguerre_polynomial_l", 0x300},
        {"legendre_polynomial_p", 0x300}, {"log_ndtr", 0x300}, {"modified_bessel_i0", 0x300},
        {"modified_bessel_i1", 0x300}, {"modified_bessel_k0", 0x300}, {"modified_bessel_k1", 0x300},
        {"ndtri", 0x300}, {"scaled_modified_bessel_k0", 0x300}, {"scaled_modified_bessel_k1", 0x300},
        {"shifted_chebyshev_polynomial_t", 0x300}, {"shifted_chebyshev_polynomial_u", 0x300},
        {"shifted_chebyshev_polynomial_v", 0x300}, {"shifted_chebyshev_polynomial_w", 0x300},
        {"spherical_bessel_j0", 0x300}, {"zeta", 0x300}, {"i0", 0x380}, {"i0e", 0x380}, {"igamma", 0x3c0},
        {"igammac", 0x3c0}, {"_fft_c2c", 0x1800}, {"_fft_r2c", 0x1800}, {"_fft_c2r", 0x1800},
    };
    int expected = 0;
    const size_t n_want = sizeof want / sizeof want[0], n_pointwise = sizeof pointwise / sizeof pointwise[0];
    for (size_t i = 0; i < n_want + n_pointwise + sizeof more / sizeof more[0]; i++) {
        const char *op = i < n_want ? want[i].op : i < n_want + n_pointwise ? pointwise[i - n_want].op
                                                                             : more[i - n_want - n_pointwise].op;
        const unsigned dtypes = i < n_want                 ? want[i].dtypes
                                : i < n_want + n_pointwise ? pointwise[i - n_want].dtypes
                                                           : more[i - n_want - n_pointwise].dtypes;
        if (dtypes == ANY) {
            expected++;
            CHECK(find_kernel(op, TC_ANY_DTYPE) != NULL, "%s for any dtype: not registered", op);
            continue;
        }
        for (int d = 0; d < TC_NUM_DTYPES; d++) {
            const int registered = find_kernel(op, d) != NULL, wanted = (dtypes >> d) & 1;
            expected += wanted;
            CHECK(registered == wanted, "%s for %s: registered %d, expected %d", op, g_dtype_names[d], registered,
                  wanted);
        }
    }
    CHECK(g_nkernels == expected, "%d kernels registered, expected %d", g_nkernels, expected);
    CHECK(g_register_errors == 0, "%d registrations were rejected", g_register_errors);
}

static void test_copy(void) {
    /* Every pair of dtypes on values every dtype holds exactly. */
    const double vals[] = {0, 1, 2, 5, 100, 0, 1, 7};
    for (int src = 0; src < TC_NUM_DTYPES; src++)
        for (int dst = 0; dst < TC_NUM_DTYPES; dst++) {
            if (src >= TC_COMPLEX32 && dst < TC_COMPLEX32) continue; /* the core copies real parts instead */
            tensor *a = TV(src, DIMS(2, 4), vals), *b = T(dst, DIMS(2, 4));
            if (src >= TC_COMPLEX32)
                for (int i = 0; i < 8; i++) setc(a, i, vals[i], -vals[i]);
            CHECK_OK(run1("copy", b, a));
            for (int i = 0; i < 8; i++) {
                const double want = dst == TC_BOOL ? (at(a, i) != 0) : at(a, i);
                CHECK(at(b, i) == want && im(b, i) == im(a, i), "copy %s->%s [%d]: got %g%+gj want %g%+gj",
                      g_dtype_names[src], g_dtype_names[dst], i, at(b, i), im(b, i), want, im(a, i));
            }
        }
    tensor *cx = TV(TC_COMPLEX64, DIMS(2), ((double[]){1, 2})), *re = T(TC_FLOAT32, DIMS(2));
    CHECK(run1("copy", re, cx) == TC_FAIL, "complex to real is the core's (a real view), not a kernel's");
    /* Casts: truncation, wrap-around, rounding, NaN does not crash. */
    tensor *f = TV(TC_FLOAT32, DIMS(6), ((double[]){-3.7, 300.7, 2.9, -0.5, NAN, 1e30}));
    tensor *i8 = T(TC_INT8, DIMS(6)), *u8 = T(TC_UINT8, DIMS(6)), *b = T(TC_BOOL, DIMS(6));
    tensor *i64 = T(TC_INT64, DIMS(6));
    CHECK_OK(run1("copy", i8, f));
    CHECK(ati(i8, 0) == -3 && ati(i8, 2) == 2 && ati(i8, 3) == 0, "float->int8 truncation: %lld %lld %lld",
          (long long)ati(i8, 0), (long long)ati(i8, 2), (long long)ati(i8, 3));
    CHECK_OK(run1("copy", u8, f));
    CHECK(ati(u8, 1) == 44, "300.7 -> uint8 wraps to 44, got %lld", (long long)ati(u8, 1));
    CHECK_OK(run1("copy", i64, f));
    CHECK(ati(i64, 5) == INT64_MIN && ati(i64, 4) == INT64_MIN, "1e30, NaN -> int64 give INT64_MIN as on x86, got %lld %lld",
          (long long)ati(i64, 5), (long long)ati(i64, 4));
    CHECK_OK(run1("copy", b, f));
    CHECK_VALUES(b, 0, "float->bool", 1, 1, 1, 1, 1, 1);
    tensor *neg = TV(TC_INT32, DIMS(3), ((double[]){-1, 256, 65537}));
    tensor *u3 = T(TC_UINT8, DIMS(3)), *h3 = T(TC_INT16, DIMS(3));
    CHECK_OK(run1("copy", u3, neg));
    CHECK_VALUES(u3, 0, "int32->uint8 wraps", 255, 0, 1);
    CHECK_OK(run1("copy", h3, neg));
    CHECK_VALUES(h3, 0, "int32->int16 wraps", -1, 256, 1);
    /* bfloat16 rounds to nearest even; float16 too. */
    tensor *r = TV(TC_FLOAT64, DIMS(4), ((double[]){1.00390625, 1.01171875, 65520.0, 1.0 + 1.0 / 2048}));
    tensor *bf = T(TC_BFLOAT16, DIMS(4)), *hf = T(TC_FLOAT16, DIMS(4));
    CHECK_OK(run1("copy", bf, r));
    CHECK_VALUES(bf, 0, "f64->bf16", 1.0, 1.015625, 65536.0, 1.0);
    CHECK_OK(run1("copy", hf, r));
    CHECK_VALUES(hf, 0, "f64->f16", 1.00390625, 1.01171875, INFINITY, 1.0);
    tensor *bnan = TV(TC_FLOAT32, DIMS(1), ((double[]){NAN})), *bfn = T(TC_BFLOAT16, DIMS(1));
    CHECK_OK(run1("copy", bfn, bnan));
    CHECK(isnan(at(bfn, 0)), "NaN -> bf16 stays NaN");
    /* Transposed input, broadcast input, 0-dim, empty. */
    tensor *m = TV(TC_INT32, DIMS(3, 4), ((double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
    tensor *mt = V(m, 0, DIMS(4, 3), (int64_t[]){1, 4}), *o = T(TC_FLOAT32, DIMS(4, 3));
    CHECK_OK(run1("copy", o, mt));
    CHECK_VALUES(o, 0, "transposed copy", 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11);
    tensor *row = V(m, 4, DIMS(3, 4), (int64_t[]){0, 1}), *o2 = T(TC_INT64, DIMS(3, 4));
    CHECK_OK(run1("copy", o2, row));
    CHECK_VALUES(o2, 0, "broadcast copy", 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7);
    tensor *s = TV(TC_FLOAT64, 0, NULL, ((double[]){2.5})), *so = T(TC_FLOAT16, 0, NULL);
    CHECK_OK(run1("copy", so, s));
    CHECK_VALUES(so, 0, "0-dim copy", 2.5);
    tensor *e = T(TC_FLOAT32, DIMS(0, 3)), *eo = T(TC_INT8, DIMS(0, 3));
    CHECK_OK(run1("copy", eo, e));
    /* Same dtype keeps bits (a float16 NaN payload survives), and strided output. */
    tensor *hb = T(TC_FLOAT16, DIMS(2)), *hb2 = T(TC_FLOAT16, DIMS(2));
    ((uint16_t *)hb->v.data)[0] = 0x7d01; /* signalling NaN */
    ((uint16_t *)hb->v.data)[1] = 0x3c00;
    CHECK_OK(run1("copy", hb2, hb));
    CHECK(memcmp(hb->v.data, hb2->v.data, 4) == 0, "same-dtype copy keeps bits");
}

static void test_add_sub(void) {
    tensor *a = TV(TC_FLOAT32, DIMS(2, 3), ((double[]){1, 2, 3, 4, 5, 6}));
    tensor *b = TV(TC_FLOAT32, DIMS(3), ((double[]){10, 20, 30}));
    tensor *bb = V(b, 0, DIMS(2, 3), (int64_t[]){0, 1}); /* broadcast row */
    tensor *c = T(TC_FLOAT32, DIMS(2, 3));
    CHECK_OK(run2("add", c, a, bb));
    CHECK_VALUES(c, 0, "add broadcast", 11, 22, 33, 14, 25, 36);
    CHECK_OK(run2s("add", c, a, bb, SF(0.5)));
    CHECK_VALUES(c, 0, "add alpha", 6, 12, 18, 9, 15, 21);
    CHECK_OK(run2s("sub", c, a, bb, SI(2)));
    CHECK_VALUES(c, 0, "sub alpha", -19, -38, -57, -16, -35, -54);
    /* scalar (all strides 0) on either side */
    tensor *s = TV(TC_FLOAT32, 0, NULL, ((double[]){100}));
    tensor *sb = V(s, 0, DIMS(2, 3), (int64_t[]){0, 0});
    CHECK_OK(run2("sub", c, sb, a));
    CHECK_VALUES(c, 0, "scalar - tensor", 99, 98, 97, 96, 95, 94);
    CHECK_OK(run2("sub", c, a, sb));
    CHECK_VALUES(c, 0, "tensor - scalar", -99, -98, -97, -96, -95, -94);
    /* transposed operands, in place: a.t() += a2.t() */
    tensor *at_ = V(a, 0, DIMS(3, 2), (int64_t[]){1, 3});
    tensor *a2 = TV(TC_FLOAT32, DIMS(2, 3), ((double[]){1, 1, 1, 2, 2, 2}));
    tensor *a2t = V(a2, 0, DIMS(3, 2), (int64_t[]){1, 3});
    CHECK_OK(run2("add", at_, at_, a2t));
    CHECK_VALUES(a, 0, "in-place transposed add", 2, 3, 4, 6, 7, 8);
    /* integers: integral alpha, wrap-around */
    tensor *i = TV(TC_INT32, DIMS(3), ((double[]){INT32_MAX, -5, 7})), *j = TV(TC_INT32, DIMS(3), ((double[]){1, 2, 3}));
    tensor *k = T(TC_INT32, DIMS(3));
    CHECK_OK(run2("add", k, i, j));
    CHECK_VALUES(k, 0, "int32 add wraps", INT32_MIN, -3, 10);
    CHECK_OK(run2s("add", k, i, j, SI(-3)));
    CHECK_VALUES(k, 0, "int32 add alpha", INT32_MAX - 3, -11, -2);
    tensor *u = TV(TC_UINT8, DIMS(2), ((double[]){250, 3})), *u2 = TV(TC_UINT8, DIMS(2), ((double[]){10, 5}));
    tensor *uo = T(TC_UINT8, DIMS(2));
    CHECK_OK(run2("add", uo, u, u2));
    CHECK_VALUES(uo, 0, "uint8 add wraps", 4, 8);
    CHECK_OK(run2("sub", uo, u2, u));
    CHECK_VALUES(uo, 0, "uint8 sub wraps", 16, 2);
    tensor *l = TV(TC_INT64, DIMS(1), ((double[]){0})), *lo = T(TC_INT64, DIMS(1));
    seti(l, 0, INT64_MAX);
    CHECK_OK(run2("add", lo, l, l));
    CHECK(ati(lo, 0) == -2, "int64 overflow wraps: %lld", (long long)ati(lo, 0));
    /* bool add is or (alpha ignored) */
    tensor *p = TV(TC_BOOL, DIMS(4), ((double[]){0, 0, 1, 1})), *q = TV(TC_BOOL, DIMS(4), ((double[]){0, 1, 0, 1}));
    tensor *r = T(TC_BOOL, DIMS(4));
    CHECK_OK(run2s("add", r, p, q, SI(1)));
    CHECK_VALUES(r, 0, "bool add", 0, 1, 1, 1);
    /* 16-bit floats compute in float */
    tensor *h = TV(TC_FLOAT16, DIMS(3), ((double[]){1.5, -2, 1000})), *h2 = TV(TC_FLOAT16, DIMS(3), ((double[]){0.25, 0.5, 0.5}));
    tensor *ho = T(TC_FLOAT16, DIMS(3));
    CHECK_OK(run2s("add", ho, h, h2, SF(2)));
    CHECK_VALUES(ho, 0, "f16 add", 2, -1, 1001);
    tensor *g = TV(TC_BFLOAT16, DIMS(3), ((double[]){1.5, -2, 256})), *g2 = TV(TC_BFLOAT16, DIMS(3), ((double[]){0.25, 0.5, 0.5}));
    tensor *go = T(TC_BFLOAT16, DIMS(3));
    CHECK_OK(run2("sub", go, g, g2));
    CHECK_VALUES(go, 0, "bf16 sub", 1.25, -2.5, 256); /* 255.5 rounds to even: 256 */
    /* 0-dim and empty */
    tensor *z = TV(TC_FLOAT64, 0, NULL, ((double[]){1.25})), *zo = T(TC_FLOAT64, 0, NULL);
    CHECK_OK(run2("add", zo, z, z));
    CHECK_VALUES(zo, 0, "0-dim add", 2.5);
    tensor *e = T(TC_FLOAT32, DIMS(3, 0)), *eo = T(TC_FLOAT32, DIMS(3, 0));
    CHECK_OK(run2("add", eo, e, e));
}

static void test_add_large(void) {
    /* Above the grain, on two threads, with a non-contiguous (sliced) operand. */
    const int64_t n = 300000;
    tensor *a = T(TC_FLOAT32, DIMS(n)), *b = T(TC_FLOAT32, DIMS(2 * n)), *c = T(TC_FLOAT32, DIMS(n));
    for (int64_t i = 0; i < n; i++) set(a, i, (double)(i % 1000));
    for (int64_t i = 0; i < 2 * n; i++) set(b, i, (double)(i % 7));
    tensor *bs = V(b, 1, DIMS(n), (int64_t[]){2});
    CHECK_OK(run2("add", c, a, bs));
    int bad = 0;
    for (int64_t i = 0; i < n && !bad; i++)
        if (at(c, i) != (double)(i % 1000) + (double)((2 * i + 1) % 7)) bad = 1;
    CHECK(!bad, "large strided add");
    /* 3-d with a broadcast middle dim and an in-place output */
    tensor *x = T(TC_INT64, DIMS(50, 40, 30)), *y = T(TC_INT64, DIMS(50, 1, 30));
    for (int64_t i = 0; i < numel(x); i++) seti(x, i, i);
    for (int64_t i = 0; i < numel(y); i++) seti(y, i, 1000000 * i);
    tensor *yb = V(y, 0, DIMS(50, 40, 30), (int64_t[]){30, 0, 1});
    CHECK_OK(run2("add", x, x, yb));
    bad = 0;
    for (int64_t i = 0; i < numel(x) && !bad; i++) {
        const int64_t i0 = i / 1200, i2 = i % 30;
        if (ati(x, i) != i + 1000000 * (i0 * 30 + i2)) bad = 1;
    }
    CHECK(!bad, "large broadcast in-place add");
}

static void test_mul_div(void) {
    tensor *a = TV(TC_FLOAT64, DIMS(4), ((double[]){1, -2, 3, 0})), *b = TV(TC_FLOAT64, DIMS(4), ((double[]){4, 4, 0, 0}));
    tensor *c = T(TC_FLOAT64, DIMS(4));
    CHECK_OK(run2("mul", c, a, b));
    CHECK_VALUES(c, 0, "f64 mul", 4, -8, 0, 0);
    CHECK_OK(run2("div", c, a, b));
    CHECK_VALUES(c, 0, "f64 div", 0.25, -0.5, INFINITY, NAN);
    tensor *h = TV(TC_BFLOAT16, DIMS(2), ((double[]){1, 3})), *h2 = TV(TC_BFLOAT16, DIMS(2), ((double[]){3, 2}));
    tensor *ho = T(TC_BFLOAT16, DIMS(2));
    CHECK_OK(run2("div", ho, h, h2));
    CHECK_VALUES(ho, 0.004, "bf16 div", 1.0 / 3, 1.5);
    tensor *i = TV(TC_INT8, DIMS(3), ((double[]){100, -3, 7})), *j = TV(TC_INT8, DIMS(3), ((double[]){3, 5, -1}));
    tensor *k = T(TC_INT8, DIMS(3));
    CHECK_OK(run2("mul", k, i, j));
    CHECK_VALUES(k, 0, "int8 mul wraps", 44, -15, -7);
    tensor *p = TV(TC_BOOL, DIMS(4), ((double[]){0, 0, 1, 1})), *q = TV(TC_BOOL, DIMS(4), ((double[]){0, 1, 0, 1}));
    tensor *r = T(TC_BOOL, DIMS(4));
    CHECK_OK(run2("mul", r, p, q));
    CHECK_VALUES(r, 0, "bool mul", 0, 0, 0, 1);
}

static void test_floor_divide_remainder(void) {
    tensor *a = TV(TC_INT32, DIMS(6), ((double[]){-7, 7, -7, 7, 0, -1}));
    tensor *b = TV(TC_INT32, DIMS(6), ((double[]){2, -2, -2, 2, 3, 5}));
    tensor *c = T(TC_INT32, DIMS(6));
    CHECK_OK(run2("floor_divide", c, a, b));
    CHECK_VALUES(c, 0, "int floor_divide", -4, -4, 3, 3, 0, -1);
    CHECK_OK(run2("remainder", c, a, b));
    CHECK_VALUES(c, 0, "int remainder", 1, -1, -1, 1, 0, 4);
    tensor *m = TV(TC_INT64, DIMS(2), ((double[]){0, 5})), *n1 = TV(TC_INT64, DIMS(2), ((double[]){-1, -1}));
    tensor *mo = T(TC_INT64, DIMS(2));
    seti(m, 0, INT64_MIN);
    CHECK_OK(run2("floor_divide", mo, m, n1));
    CHECK(ati(mo, 0) == INT64_MIN && ati(mo, 1) == -5, "INT64_MIN // -1 wraps");
    CHECK_OK(run2("remainder", mo, m, n1));
    CHECK(ati(mo, 0) == 0 && ati(mo, 1) == 0, "x %% -1 == 0");
    /* division by zero is an error */
    tensor *z = TV(TC_INT32, DIMS(6), ((double[]){1, 1, 0, 1, 1, 1}));
    CHECK(run2("floor_divide", c, a, z) == TC_FAIL, "int // 0 fails");
    CHECK(strcmp(g_error, "ZeroDivisionError") == 0 && g_error_kind == TC_ERR_RUNTIME, "message: '%s'", g_error);
    CHECK(run2("remainder", c, a, z) == TC_FAIL, "int %% 0 fails");
    CHECK(strcmp(g_error, "ZeroDivisionError") == 0, "message: '%s'", g_error);
    tensor *ua = TV(TC_UINT8, DIMS(2), ((double[]){200, 7})), *ub = TV(TC_UINT8, DIMS(2), ((double[]){7, 0}));
    tensor *uo = T(TC_UINT8, DIMS(2));
    CHECK(run2("floor_divide", uo, ua, ub) == TC_FAIL, "uint8 // 0 fails");
    tensor *ub2 = TV(TC_UINT8, DIMS(2), ((double[]){7, 3}));
    CHECK_OK(run2("floor_divide", uo, ua, ub2));
    CHECK_VALUES(uo, 0, "uint8 floor_divide", 28, 2);
    CHECK_OK(run2("remainder", uo, ua, ub2));
    CHECK_VALUES(uo, 0, "uint8 remainder", 4, 1);
    /* floats */
    tensor *f = TV(TC_FLOAT32, DIMS(6), ((double[]){-7, 7.5, 5, -0.5, 1, -1}));
    tensor *g = TV(TC_FLOAT32, DIMS(6), ((double[]){2, -2, 0, 4, 0, 0}));
    tensor *h = T(TC_FLOAT32, DIMS(6));
    CHECK_OK(run2("floor_divide", h, f, g));
    CHECK_VALUES(h, 0, "float floor_divide", -4, -4, INFINITY, -1, INFINITY, -INFINITY);
    CHECK_OK(run2("remainder", h, f, g));
    CHECK_VALUES(h, 1e-7, "float remainder", 1, -0.5, NAN, 3.5, NAN, NAN);
    tensor *d = TV(TC_FLOAT64, DIMS(3), ((double[]){-7.5, 0.0, 1e300})), *e = TV(TC_FLOAT64, DIMS(3), ((double[]){2, -3, 1e-300}));
    tensor *o = T(TC_FLOAT64, DIMS(3));
    CHECK_OK(run2("floor_divide", o, d, e));
    CHECK_VALUES(o, 0, "f64 floor_divide", -4, 0, INFINITY);
    CHECK(signbit(at(o, 1)), "0 // -3 is -0.0");
    tensor *hh = TV(TC_FLOAT16, DIMS(2), ((double[]){-7.5, 9})), *hd = TV(TC_FLOAT16, DIMS(2), ((double[]){2, -4}));
    tensor *ho = T(TC_FLOAT16, DIMS(2));
    CHECK_OK(run2("remainder", ho, hh, hd));
    CHECK_VALUES(ho, 0, "f16 remainder", 0.5, -3);
}

static void test_pow(void) {
    tensor *a = TV(TC_INT64, DIMS(5), ((double[]){3, 2, 2, -3, 7})), *b = TV(TC_INT64, DIMS(5), ((double[]){4, 62, 64, 3, 0}));
    tensor *c = T(TC_INT64, DIMS(5));
    CHECK_OK(run2("pow", c, a, b));
    CHECK(ati(c, 0) == 81 && ati(c, 1) == ((int64_t)1 << 62) && ati(c, 2) == 0 && ati(c, 3) == -27 && ati(c, 4) == 1,
          "int64 pow: %lld %lld %lld %lld %lld", (long long)ati(c, 0), (long long)ati(c, 1), (long long)ati(c, 2),
          (long long)ati(c, 3), (long long)ati(c, 4));
    tensor *u = TV(TC_UINT8, DIMS(2), ((double[]){2, 3})), *ue = TV(TC_UINT8, DIMS(2), ((double[]){9, 5}));
    tensor *uo = T(TC_UINT8, DIMS(2));
    CHECK_OK(run2("pow", uo, u, ue));
    CHECK_VALUES(uo, 0, "uint8 pow wraps", 0, 243);
    tensor *n = TV(TC_INT32, DIMS(5), ((double[]){1, 2, -1, -1, 0}));
    tensor *ne = TV(TC_INT32, DIMS(5), ((double[]){-1, -1, -3, -2, -2}));
    tensor *no = T(TC_INT32, DIMS(5));
    CHECK_OK(run2("pow", no, n, ne));
    CHECK_VALUES(no, 0, "negative integer powers", 1, 0, -1, 1, 0);
    tensor *f = TV(TC_FLOAT32, DIMS(3), ((double[]){2, 4, -8})), *fe = TV(TC_FLOAT32, DIMS(3), ((double[]){0.5, -1, 1.0 / 3}));
    tensor *fo = T(TC_FLOAT32, DIMS(3));
    CHECK_OK(run2("pow", fo, f, fe));
    CHECK_VALUES(fo, 1e-6, "f32 pow", sqrt(2.0), 0.25, NAN);
    tensor *bf = TV(TC_BFLOAT16, DIMS(1), ((double[]){3})), *bo = T(TC_BFLOAT16, DIMS(1));
    tensor *bfe = V(TV(TC_BFLOAT16, 0, NULL, ((double[]){2})), 0, DIMS(1), (int64_t[]){0});
    CHECK_OK(run2("pow", bo, bf, bfe));
    CHECK_VALUES(bo, 0, "bf16 pow", 9);
}

static void test_maximum_minimum(void) {
    tensor *a = TV(TC_FLOAT32, DIMS(4), ((double[]){1, NAN, 3, -0.5})), *b = TV(TC_FLOAT32, DIMS(4), ((double[]){2, 1, NAN, -1}));
    tensor *c = T(TC_FLOAT32, DIMS(4));
    CHECK_OK(run2("maximum", c, a, b));
    CHECK_VALUES(c, 0, "maximum NaN", 2, NAN, NAN, -0.5);
    CHECK_OK(run2("minimum", c, a, b));
    CHECK_VALUES(c, 0, "minimum NaN", 1, NAN, NAN, -1);
    tensor *i = TV(TC_INT16, DIMS(3), ((double[]){-5, 7, 0})), *j = TV(TC_INT16, DIMS(3), ((double[]){3, -9, 0}));
    tensor *k = T(TC_INT16, DIMS(3));
    CHECK_OK(run2("maximum", k, i, j));
    CHECK_VALUES(k, 0, "int16 maximum", 3, 7, 0);
    CHECK_OK(run2("minimum", k, i, j));
    CHECK_VALUES(k, 0, "int16 minimum", -5, -9, 0);
    tensor *p = TV(TC_BOOL, DIMS(4), ((double[]){0, 0, 1, 1})), *q = TV(TC_BOOL, DIMS(4), ((double[]){0, 1, 0, 1}));
    tensor *r = T(TC_BOOL, DIMS(4));
    CHECK_OK(run2("maximum", r, p, q));
    CHECK_VALUES(r, 0, "bool maximum", 0, 1, 1, 1);
    CHECK_OK(run2("minimum", r, p, q));
    CHECK_VALUES(r, 0, "bool minimum", 0, 0, 0, 1);
    tensor *h = TV(TC_FLOAT16, DIMS(2), ((double[]){NAN, 2})), *hs = TV(TC_FLOAT16, 0, NULL, ((double[]){1}));
    tensor *ho = T(TC_FLOAT16, DIMS(2));
    CHECK_OK(run2("maximum", ho, h, V(hs, 0, DIMS(2), (int64_t[]){0})));
    CHECK_VALUES(ho, 0, "f16 maximum with scalar", NAN, 2);
}

static void test_compare(void) {
    const char *ops[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    /* pairs: (1,2) (2,2) (3,2) (NaN,2) */
    const double want[6][4] = {{0, 1, 0, 0}, {1, 0, 1, 1}, {1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {0, 1, 1, 0}};
    const int dtypes[] = {TC_FLOAT32, TC_FLOAT64, TC_FLOAT16, TC_BFLOAT16, TC_INT8, TC_UINT8, TC_INT64};
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        const int isfloat = dtypes[d] >= TC_FLOAT16;
        tensor *a = TV(dtypes[d], DIMS(4), ((double[]){1, 2, 3, isfloat ? NAN : 1}));
        tensor *s = TV(dtypes[d], 0, NULL, ((double[]){2}));
        tensor *b = V(s, 0, DIMS(4), (int64_t[]){0});
        tensor *c = T(TC_BOOL, DIMS(4));
        for (int o = 0; o < 6; o++) {
            CHECK_OK(run2(ops[o], c, a, b));
            for (int i = 0; i < (isfloat ? 4 : 3); i++)
                CHECK(at(c, i) == want[o][i], "%s %s [%d]: got %g want %g", ops[o], g_dtype_names[dtypes[d]], i,
                      at(c, i), want[o][i]);
            CHECK(((uint8_t *)c->v.data)[0] <= 1, "bool output is 0/1");
        }
    }
    tensor *p = TV(TC_BOOL, DIMS(2, 2), ((double[]){0, 1, 0, 1})), *q = TV(TC_BOOL, DIMS(2, 2), ((double[]){0, 1, 1, 1}));
    tensor *r = T(TC_BOOL, DIMS(2, 2));
    CHECK_OK(run2("lt", r, p, V(q, 0, DIMS(2, 2), (int64_t[]){1, 2})));
    CHECK_VALUES(r, 0, "bool lt transposed", 0, 0, 1, 0);
    CHECK_OK(run2("ge", r, p, V(q, 0, DIMS(2, 2), (int64_t[]){1, 2})));
    CHECK_VALUES(r, 0, "bool ge transposed", 1, 1, 0, 1);
}

static void test_unary(void) {
    tensor *i = TV(TC_INT8, DIMS(4), ((double[]){-128, -5, 0, 7})), *io = T(TC_INT8, DIMS(4));
    CHECK_OK(run1("neg", io, i));
    CHECK_VALUES(io, 0, "int8 neg", -128, 5, 0, -7);
    CHECK_OK(run1("abs", io, i));
    CHECK_VALUES(io, 0, "int8 abs", -128, 5, 0, 7);
    CHECK_OK(run1("relu", io, i));
    CHECK_VALUES(io, 0, "int8 relu", 0, 0, 0, 7);
    tensor *u = TV(TC_UINT8, DIMS(2), ((double[]){0, 200})), *uo = T(TC_UINT8, DIMS(2));
    CHECK_OK(run1("neg", uo, u));
    CHECK_VALUES(uo, 0, "uint8 neg wraps", 0, 56);
    CHECK_OK(run1("abs", uo, u));
    CHECK_VALUES(uo, 0, "uint8 abs", 0, 200);
    tensor *f = TV(TC_FLOAT32, DIMS(5), ((double[]){-1.5, -0.0, NAN, 2, -INFINITY})), *fo = T(TC_FLOAT32, DIMS(5));
    CHECK_OK(run1("relu", fo, f));
    CHECK_VALUES(fo, 0, "f32 relu", 0, 0, NAN, 2, 0);
    CHECK_OK(run1("abs", fo, f));
    CHECK_VALUES(fo, 0, "f32 abs", 1.5, 0, NAN, 2, INFINITY);
    CHECK(!signbit(at(fo, 1)), "abs(-0.0) is +0.0");
    CHECK_OK(run1("neg", fo, f));
    CHECK_VALUES(fo, 0, "f32 neg", 1.5, 0, NAN, -2, INFINITY);
    /* transcendental functions against libm in double */
    const char *names[] = {"exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid"};
    double (*refs[])(double) = {exp, log, sqrt, sin, cos, tanh, NULL};
    const double xs[6] = {0.5, 1, 2.25, 3, 0.125, 7};
    const int dtypes[] = {TC_FLOAT32, TC_FLOAT64, TC_FLOAT16, TC_BFLOAT16};
    const double tol[] = {2e-6, 1e-14, 2e-3, 1e-2};
    for (int d = 0; d < 4; d++) {
        tensor *x = TV(dtypes[d], DIMS(2, 3), xs), *y = T(dtypes[d], DIMS(3, 2));
        tensor *xt = V(x, 0, DIMS(3, 2), (int64_t[]){1, 3}); /* transposed input */
        for (int o = 0; o < 7; o++) {
            CHECK_OK(run1(names[o], y, xt));
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 2; c++) {
                    const double xv = at(x, c * 3 + r);
                    const double want = refs[o] ? refs[o](xv) : 1 / (1 + exp(-xv));
                    CHECK(same_double(at(y, r * 2 + c), want, tol[d], tol[d]), "%s %s(%g): got %.9g want %.9g",
                          names[o], g_dtype_names[dtypes[d]], xv, at(y, r * 2 + c), want);
                }
        }
    }
    tensor *s = TV(TC_FLOAT32, DIMS(4), ((double[]){-1000, 1000, -20, NAN})), *so = T(TC_FLOAT32, DIMS(4));
    CHECK_OK(run1("sigmoid", so, s));
    CHECK_VALUES(so, 1e-6, "sigmoid is stable", 0, 1, 1 / (1 + exp(20.0)), NAN);
    tensor *l = TV(TC_FLOAT64, DIMS(2), ((double[]){0, -1})), *lo = T(TC_FLOAT64, DIMS(2));
    CHECK_OK(run1("log", lo, l));
    CHECK_VALUES(lo, 0, "log edge cases", -INFINITY, NAN);
    /* in place, 0-dim */
    tensor *z = TV(TC_FLOAT64, 0, NULL, ((double[]){4}));
    CHECK_OK(run1("sqrt", z, z));
    CHECK_VALUES(z, 0, "in-place 0-dim sqrt", 2);
    tensor *big = T(TC_FLOAT32, DIMS(100000));
    for (int64_t k = 0; k < 100000; k++) set(big, k, (double)(k % 100) / 10);
    CHECK_OK(run1("exp", big, big));
    int bad = 0;
    for (int64_t k = 0; k < 100000 && !bad; k++) bad = !same_double(at(big, k), exp((double)(k % 100) / 10), 1e-6, 0);
    CHECK(!bad, "large in-place exp");
}

/* SLEEF's float32 exp of the level's vector width over n floats (n a multiple of 16), in functions
 * built for that level: the CPU plugin's variants must give these bits exactly (vmath.h). */
#pragma GCC push_options
#pragma GCC target("sse4.1")
extern __m128 Sleef_expf4_u10sse4(__m128);
static void sleef_expf_sse4(float *y, const float *x, int64_t n) {
    for (int64_t i = 0; i < n; i += 4) _mm_storeu_ps(y + i, Sleef_expf4_u10sse4(_mm_loadu_ps(x + i)));
}
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx2,fma")
extern __m256 Sleef_expf8_u10avx2(__m256);
static void sleef_expf_avx2(float *y, const float *x, int64_t n) {
    for (int64_t i = 0; i < n; i += 8) _mm256_storeu_ps(y + i, Sleef_expf8_u10avx2(_mm256_loadu_ps(x + i)));
}
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f")
extern __m512 Sleef_expf16_u10avx512f(__m512);
static void sleef_expf_avx512(float *y, const float *x, int64_t n) {
    for (int64_t i = 0; i < n; i += 16) _mm512_storeu_ps(y + i, Sleef_expf16_u10avx512f(_mm512_loadu_ps(x + i)));
}
#pragma GCC pop_options

/* float32 exp equals SLEEF's expf_u10 of the variant's level bit for bit, over a sweep of bit
 * patterns (every sign and exponent, subnormals, infinities, NaNs): the AVX2 variant computes it
 * inline rather than calling the library. */
static void test_exp_matches_sleef(void) {
    enum { N = 1 << 20 };
    tensor *x = T(TC_FLOAT32, DIMS(N + 3)), *y = T(TC_FLOAT32, DIMS(N + 3));
    uint32_t *bits = x->v.data;
    for (int64_t i = 0; i < N + 3; i++) bits[i] = (uint32_t)(i * 4093u + (uint32_t)(i >> 18)); /* wraps over 2^32 */
    CHECK_OK(run1("exp", y, x));
    float *want = malloc(sizeof(float) * N);
    if (!want) exit(2);
    void (*sleef)(float *, const float *, int64_t) =
        g_level == 4 ? sleef_expf_avx512 : g_level == 3 ? sleef_expf_avx2 : sleef_expf_sse4;
    sleef(want, x->v.data, N);
    int64_t bad = 0;
    for (int64_t i = 0; i < N; i++)
        if (memcmp(want + i, (float *)y->v.data + i, sizeof(float)) != 0 && bad++ < 4)
            printf("  exp(%a): %a, SLEEF %a\n", ((float *)x->v.data)[i], ((float *)y->v.data)[i], want[i]);
    CHECK(bad == 0, "%lld of %d exp values differ from SLEEF's", (long long)bad, N);
    free(want);
}

static double ref_sum(const tensor *t) {
    double s = 0;
    for (int64_t i = 0; i < numel(t); i++) s += at(t, i);
    return s;
}

static int red(const char *op, tensor *out, tensor *in) {
    return run(op, in->v.dtype, 1, (tensor *[]){in}, 1, (tensor *[]){out}, 0, NULL, 0, NULL);
}

static void test_sum(void) {
    tensor *a = TV(TC_FLOAT32, DIMS(2, 3), ((double[]){1, 2, 3, 4, 5, 6}));
    tensor *r1 = T(TC_FLOAT32, DIMS(2, 1)), *r0 = T(TC_FLOAT32, DIMS(1, 3)), *rall = T(TC_FLOAT32, DIMS(1, 1));
    CHECK_OK(red("sum", r1, a));
    CHECK_VALUES(r1, 0, "sum dim 1", 6, 15);
    CHECK_OK(red("sum", r0, a));
    CHECK_VALUES(r0, 0, "sum dim 0", 5, 7, 9);
    CHECK_OK(red("sum", rall, a));
    CHECK_VALUES(rall, 0, "sum all", 21);
    /* transposed input */
    tensor *at_ = V(a, 0, DIMS(3, 2), (int64_t[]){1, 3}), *t1 = T(TC_FLOAT32, DIMS(3, 1));
    CHECK_OK(red("sum", t1, at_));
    CHECK_VALUES(t1, 0, "sum of transposed, dim 1", 5, 7, 9);
    /* middle dim of a 3-d tensor, and outer+inner dims together */
    tensor *b = T(TC_INT64, DIMS(4, 5, 6));
    for (int64_t i = 0; i < 120; i++) seti(b, i, i);
    tensor *bm = T(TC_INT64, DIMS(4, 1, 6)), *bo = T(TC_INT64, DIMS(1, 5, 1));
    CHECK_OK(red("sum", bm, b));
    int bad = 0;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 6; k++) {
            int64_t s = 0;
            for (int j = 0; j < 5; j++) s += i * 30 + j * 6 + k;
            if (ati(bm, i * 6 + k) != s) bad = 1;
        }
    CHECK(!bad, "sum over the middle dim");
    CHECK_OK(red("sum", bo, b));
    for (int j = 0; j < 5; j++) {
        int64_t s = 0;
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 6; k++) s += i * 30 + j * 6 + k;
        CHECK(ati(bo, j) == s, "sum over dims 0 and 2 [%d]: %lld vs %lld", j, (long long)ati(bo, j), (long long)s);
    }
    /* outer plan: sum(dim=0) with >= 16 contiguous columns, and non-contiguous output */
    tensor *c = T(TC_FLOAT64, DIMS(40, 50)), *cbuf = T(TC_FLOAT64, DIMS(100));
    for (int64_t i = 0; i < 2000; i++) set(c, i, (double)(i % 37) - 10);
    tensor *co = V(cbuf, 0, DIMS(1, 50), (int64_t[]){100, 2});
    CHECK_OK(red("sum", co, c));
    bad = 0;
    for (int j = 0; j < 50; j++) {
        double s = 0;
        for (int i = 0; i < 40; i++) s += at(c, i * 50 + j);
        if (at(co, j) != s) bad = 1;
    }
    CHECK(!bad, "sum dim 0 (outer plan), strided output");
    /* integer wrap and small dtypes */
    tensor *i8 = TV(TC_INT8, DIMS(4), ((double[]){100, 100, 100, -1})), *i8o = T(TC_INT8, DIMS(1));
    CHECK_OK(red("sum", i8o, i8));
    CHECK_VALUES(i8o, 0, "int8 sum wraps", 43);
    tensor *u8 = TV(TC_UINT8, DIMS(3), ((double[]){200, 100, 1})), *u8o = T(TC_UINT8, DIMS(1));
    CHECK_OK(red("sum", u8o, u8));
    CHECK_VALUES(u8o, 0, "uint8 sum wraps", 45);
    tensor *h = T(TC_FLOAT16, DIMS(3000)), *ho = T(TC_FLOAT16, DIMS(1));
    for (int64_t i = 0; i < 3000; i++) set(h, i, 1.0);
    CHECK_OK(red("sum", ho, h));
    CHECK_VALUES(ho, 0, "f16 sum accumulates in float", 3000);
    tensor *g = T(TC_BFLOAT16, DIMS(2, 600)), *go = T(TC_BFLOAT16, DIMS(1, 600));
    for (int64_t i = 0; i < 1200; i++) set(g, i, 0.5);
    CHECK_OK(red("sum", go, g));
    for (int j = 0; j < 600; j++) CHECK(at(go, j) == 1, "bf16 sum dim 0 [%d]: %g", j, at(go, j));
    /* empty input: zeros; empty output: nothing; 0-dim */
    tensor *e = T(TC_FLOAT32, DIMS(3, 0)), *eo = T(TC_FLOAT32, DIMS(3, 1));
    CHECK_OK(red("sum", eo, e));
    CHECK_VALUES(eo, 0, "sum over an empty dim", 0, 0, 0);
    tensor *z = TV(TC_INT32, 0, NULL, ((double[]){-7})), *zo = T(TC_INT32, 0, NULL);
    CHECK_OK(red("sum", zo, z));
    CHECK_VALUES(zo, 0, "0-dim sum", -7);
    /* broadcast input (stride 0) */
    tensor *s = TV(TC_FLOAT32, DIMS(5), ((double[]){1, 2, 3, 4, 5})), *so = T(TC_FLOAT32, DIMS(1, 5));
    CHECK_OK(red("sum", so, V(s, 0, DIMS(1000, 5), (int64_t[]){0, 1})));
    CHECK_VALUES(so, 0, "sum of a broadcast", 1000, 2000, 3000, 4000, 5000);
}

static void test_sum_large(void) {
    /* float32 accuracy over 4M elements: a naive float loop would be off by ~1e-3 relative. */
    const int64_t n = 4 * 1024 * 1024;
    tensor *a = T(TC_FLOAT32, DIMS(n)), *o = T(TC_FLOAT32, DIMS(1));
    uint32_t x = 12345;
    for (int64_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        ((float *)a->v.data)[i] = 0.1f + (float)(x >> 8) / (float)(1 << 24);
    }
    const double want = ref_sum(a);
    CHECK_OK(red("sum", o, a));
    CHECK_NEAR(at(o, 0), want, 1e-6, 0, "4M float32 sum");
    for (int t = 1; t <= 3; t++) { /* thread count must not matter beyond rounding */
        g_threads = t;
        const int split_before = fake_pool_split_calls;
        CHECK_OK(red("sum", o, a));
        CHECK_NEAR(at(o, 0), want, 1e-6, 0, "4M float32 sum, threads");
        CHECK((fake_pool_split_calls > split_before) == (t > 1), "%d threads: the core's pool %s", t,
              t > 1 ? "was not used" : "was used for one thread");
    }
    g_threads = 2;
    /* sum(dim=0) of [2048, 2048]: outer plan over several column tiles and threads */
    tensor *m = V(a, 0, DIMS(2048, 2048), (int64_t[]){2048, 1}), *mo = T(TC_FLOAT32, DIMS(1, 2048));
    CHECK_OK(red("sum", mo, m));
    int bad = 0;
    for (int j = 0; j < 2048 && !bad; j += 37) {
        double s = 0;
        for (int i = 0; i < 2048; i++) s += at(m, (int64_t)i * 2048 + j);
        bad = !same_double(at(mo, j), s, 1e-6, 0);
    }
    CHECK(!bad, "sum dim 0 of [2048, 2048]");
    /* one output tile, many rows: rows split across threads */
    tensor *w = V(a, 0, DIMS(65536, 20), (int64_t[]){20, 1}), *wo = T(TC_FLOAT32, DIMS(1, 20));
    CHECK_OK(red("sum", wo, w));
    for (int j = 0; j < 20; j++) {
        double s = 0;
        for (int64_t i = 0; i < 65536; i++) s += at(w, i * 20 + j);
        CHECK_NEAR(at(wo, j), s, 1e-6, 0, "sum dim 0 of [65536, 20]");
    }
    /* narrow rows (inner plan with a strided row): [1M, 3] over dim 0 */
    tensor *nr = V(a, 0, DIMS(1000000, 3), (int64_t[]){3, 1}), *nro = T(TC_FLOAT32, DIMS(1, 3));
    CHECK_OK(red("sum", nro, nr));
    for (int j = 0; j < 3; j++) {
        double s = 0;
        for (int64_t i = 0; i < 1000000; i++) s += at(nr, i * 3 + j);
        CHECK_NEAR(at(nro, j), s, 1e-6, 0, "sum dim 0 of [1M, 3]");
    }
    /* many short rows: sum(dim=1) of [200000, 7] */
    tensor *sr = V(a, 0, DIMS(200000, 7), (int64_t[]){7, 1}), *sro = T(TC_FLOAT64, DIMS(200000, 1));
    tensor *srd = T(TC_FLOAT64, DIMS(200000, 7));
    CHECK_OK(run1("copy", srd, sr));
    CHECK_OK(red("sum", sro, srd));
    bad = 0;
    for (int64_t i = 0; i < 200000 && !bad; i += 1001) {
        double s = 0;
        for (int j = 0; j < 7; j++) s += at(srd, i * 7 + j);
        bad = !same_double(at(sro, i), s, 1e-12, 0);
    }
    CHECK(!bad, "sum dim 1 of [200000, 7]");
}

static void test_max_min(void) {
    tensor *a = TV(TC_FLOAT32, DIMS(2, 3), ((double[]){1, 5, -2, 4, NAN, 0}));
    tensor *r1 = T(TC_FLOAT32, DIMS(2, 1)), *r0 = T(TC_FLOAT32, DIMS(1, 3)), *rall = T(TC_FLOAT32, DIMS(1, 1));
    CHECK_OK(red("max", r1, a));
    CHECK_VALUES(r1, 0, "max dim 1 NaN", 5, NAN);
    CHECK_OK(red("min", r0, a));
    CHECK_VALUES(r0, 0, "min dim 0 NaN", 1, NAN, -2);
    CHECK_OK(red("max", rall, a));
    CHECK_VALUES(rall, 0, "max all NaN", NAN);
    tensor *i = TV(TC_INT16, DIMS(5), ((double[]){-300, 7, 32767, -32768, 0})), *io = T(TC_INT16, DIMS(1));
    CHECK_OK(red("max", io, i));
    CHECK_VALUES(io, 0, "int16 max", 32767);
    CHECK_OK(red("min", io, i));
    CHECK_VALUES(io, 0, "int16 min", -32768);
    tensor *b = TV(TC_BOOL, DIMS(2, 2), ((double[]){0, 1, 0, 0})), *bo = T(TC_BOOL, DIMS(2, 1));
    CHECK_OK(red("max", bo, b));
    CHECK_VALUES(bo, 0, "bool max", 1, 0);
    CHECK_OK(red("min", bo, b));
    CHECK_VALUES(bo, 0, "bool min", 0, 0);
    /* large, outer plan, with one NaN; and the all-negative float case */
    tensor *m = T(TC_FLOAT64, DIMS(300, 200)), *mo = T(TC_FLOAT64, DIMS(1, 200));
    for (int64_t k = 0; k < 60000; k++) set(m, k, -1e300 + (double)(k % 1000));
    set(m, 150 * 200 + 17, NAN);
    CHECK_OK(red("min", mo, m));
    CHECK(isnan(at(mo, 17)) && at(mo, 16) == -1e300, "min dim 0 large: %g %g", at(mo, 17), at(mo, 16));
    tensor *l = T(TC_FLOAT32, DIMS(100000)), *lo = T(TC_FLOAT32, DIMS(1));
    for (int64_t k = 0; k < 100000; k++) set(l, k, -(double)k - 1);
    CHECK_OK(red("max", lo, l));
    CHECK_VALUES(lo, 0, "max of negatives, threads", -1);
    tensor *h = TV(TC_BFLOAT16, DIMS(3), ((double[]){1, -INFINITY, 2})), *ho = T(TC_BFLOAT16, DIMS(1));
    CHECK_OK(red("min", ho, h));
    CHECK_VALUES(ho, 0, "bf16 min", -INFINITY);
    tensor *u = TV(TC_UINT8, DIMS(3), ((double[]){3, 255, 0})), *uo = T(TC_UINT8, DIMS(1));
    CHECK_OK(red("max", uo, u));
    CHECK_VALUES(uo, 0, "uint8 max", 255);
}

static int red_dim(const char *op, tensor *vals, tensor *idx, tensor *in, int64_t dim) {
    return run(op, in->v.dtype, 1, (tensor *[]){in}, 2, (tensor *[]){vals, idx}, 0, NULL, 1, &dim);
}

static void test_max_min_dim(void) {
    tensor *a = TV(TC_FLOAT32, DIMS(3, 4), ((double[]){1, 5, 5, 2, NAN, 3, NAN, 9, -1, -1, -2, -2}));
    tensor *v = T(TC_FLOAT32, DIMS(3, 1)), *ix = T(TC_INT64, DIMS(3, 1));
    CHECK_OK(red_dim("max_dim", v, ix, a, 1));
    CHECK_VALUES(v, 0, "max_dim values", 5, NAN, -1);
    CHECK_VALUES(ix, 0, "max_dim first index, first NaN", 1, 0, 0);
    CHECK_OK(red_dim("min_dim", v, ix, a, -1));
    CHECK_VALUES(v, 0, "min_dim values", 1, NAN, -2);
    CHECK_VALUES(ix, 0, "min_dim indices", 0, 0, 2);
    tensor *v0 = T(TC_FLOAT32, DIMS(1, 4)), *i0 = T(TC_INT64, DIMS(1, 4));
    CHECK_OK(red_dim("max_dim", v0, i0, a, 0));
    CHECK_VALUES(v0, 0, "max_dim dim 0", NAN, 5, NAN, 9);
    CHECK_VALUES(i0, 0, "max_dim dim 0 indices", 1, 0, 1, 1);
    /* cols plan: dim 0 with >= 16 contiguous columns; NaN after a max, NaN first */
    tensor *m = T(TC_FLOAT64, DIMS(5, 40)), *mv = T(TC_FLOAT64, DIMS(1, 40)), *mi = T(TC_INT64, DIMS(1, 40));
    for (int64_t k = 0; k < 200; k++) set(m, k, (double)((k * 7) % 11));
    set(m, 3 * 40 + 2, NAN);
    set(m, 0 * 40 + 5, NAN);
    set(m, 4 * 40 + 5, NAN);
    CHECK_OK(red_dim("max_dim", mv, mi, m, 0));
    int bad = 0;
    for (int j = 0; j < 40; j++) {
        double best = at(m, j);
        int64_t bi = 0;
        for (int r = 1; r < 5 && !isnan(best); r++) {
            double x = at(m, r * 40 + j);
            if (isnan(x) || x > best) {
                best = x;
                bi = r;
            }
        }
        if (!same_double(at(mv, j), best, 0, 0) || ati(mi, j) != bi) {
            bad = 1;
            printf("  col %d: got %g@%lld want %g@%lld\n", j, at(mv, j), (long long)ati(mi, j), best, (long long)bi);
        }
    }
    CHECK(!bad, "max_dim over dim 0, cols plan");
    CHECK(isnan(at(mv, 2)) && ati(mi, 2) == 3 && isnan(at(mv, 5)) && ati(mi, 5) == 0, "NaN positions");
    /* ints, ties -> first; bool; uint8 */
    tensor *i = TV(TC_INT32, DIMS(2, 3), ((double[]){4, 9, 9, -3, -3, -7}));
    tensor *iv = T(TC_INT32, DIMS(2, 1)), *ii = T(TC_INT64, DIMS(2, 1));
    CHECK_OK(red_dim("max_dim", iv, ii, i, 1));
    CHECK_VALUES(iv, 0, "int max_dim", 9, -3);
    CHECK_VALUES(ii, 0, "int max_dim ties", 1, 0);
    tensor *b = TV(TC_BOOL, DIMS(4), ((double[]){0, 1, 1, 0})), *bv = T(TC_BOOL, DIMS(1)), *bi = T(TC_INT64, DIMS(1));
    CHECK_OK(red_dim("max_dim", bv, bi, b, 0));
    CHECK(at(bv, 0) == 1 && ati(bi, 0) == 1, "bool max_dim");
    CHECK_OK(red_dim("min_dim", bv, bi, b, 0));
    CHECK(at(bv, 0) == 0 && ati(bi, 0) == 0, "bool min_dim");
    tensor *h = TV(TC_FLOAT16, DIMS(3), ((double[]){2, NAN, NAN})), *hv = T(TC_FLOAT16, DIMS(1)), *hi = T(TC_INT64, DIMS(1));
    CHECK_OK(red_dim("min_dim", hv, hi, h, 0));
    CHECK(isnan(at(hv, 0)) && ati(hi, 0) == 1, "f16 min_dim first NaN");
    /* 0-dim input, transposed input */
    tensor *z = TV(TC_INT8, 0, NULL, ((double[]){-4})), *zv = T(TC_INT8, 0, NULL), *zi = T(TC_INT64, 0, NULL);
    CHECK_OK(red_dim("max_dim", zv, zi, z, 0));
    CHECK(ati(zv, 0) == -4 && ati(zi, 0) == 0, "0-dim max_dim");
    tensor *t = V(i, 0, DIMS(3, 2), (int64_t[]){1, 3}), *tv = T(TC_INT32, DIMS(3, 1)), *ti = T(TC_INT64, DIMS(3, 1));
    CHECK_OK(red_dim("min_dim", tv, ti, t, 1));
    CHECK_VALUES(tv, 0, "min_dim of transposed", -3, -3, -7);
    CHECK_VALUES(ti, 0, "min_dim of transposed indices", 1, 1, 1);
    /* large: argmax of each row of [300, 500] and of each column, on threads */
    tensor *L = T(TC_FLOAT32, DIMS(300, 500)), *lv = T(TC_FLOAT32, DIMS(300, 1)), *li = T(TC_INT64, DIMS(300, 1));
    for (int64_t k = 0; k < 150000; k++) set(L, k, (double)((k * 7919) % 10007));
    CHECK_OK(red_dim("max_dim", lv, li, L, 1));
    bad = 0;
    for (int r = 0; r < 300 && !bad; r++) {
        int64_t best = 0;
        for (int c = 1; c < 500; c++)
            if (at(L, r * 500 + c) > at(L, r * 500 + best)) best = c;
        bad = ati(li, r) != best || at(lv, r) != at(L, r * 500 + best);
    }
    CHECK(!bad, "large max_dim rows");
    tensor *cv = T(TC_FLOAT32, DIMS(1, 500)), *ci = T(TC_INT64, DIMS(1, 500));
    CHECK_OK(red_dim("min_dim", cv, ci, L, 0));
    bad = 0;
    for (int c = 0; c < 500 && !bad; c++) {
        int64_t best = 0;
        for (int r = 1; r < 300; r++)
            if (at(L, r * 500 + c) < at(L, best * 500 + c)) best = r;
        bad = ati(ci, c) != best;
    }
    CHECK(!bad, "large min_dim columns");
}

/* c = a @ b in double from the tensors' values, then compared elementwise. */
static void check_mm(tensor *a, tensor *b, tensor *c, double rtol, const char *what) {
    const int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t p = 0; p < k; p++) s += at(a, i * k + p) * at(b, p * n + j);
            if (c->v.dtype == TC_BOOL) s = s != 0;
            if (!same_double(at(c, i * n + j), s, rtol, rtol)) {
                g_check_failures++;
                printf("FAIL [%s] %s: %s c[%lld,%lld] = %.9g, want %.9g\n", g_variant, g_test, what, (long long)i,
                       (long long)j, at(c, i * n + j), s);
                return;
            }
        }
}

static int mm(tensor *c, tensor *a, tensor *b) { return run2("mm", c, a, b); }

static void test_mm_float(void) {
    for (int use_blas = 0; use_blas < 2; use_blas++) {
        g_blas = use_blas ? &g_ref_blas : NULL;
        g_blas_calls = g_blas_bad_args = 0;
        for (int dt = TC_FLOAT32; dt <= TC_FLOAT64; dt++) {
            tensor *base = T(dt, DIMS(8, 9));
            for (int64_t i = 0; i < 72; i++) set(base, i, (double)((i * 5) % 13) - 6);
            tensor *a = V(base, 0, DIMS(3, 4), (int64_t[]){9, 1});        /* row-major, lda 9 */
            tensor *b = V(base, 1, DIMS(4, 5), (int64_t[]){9, 1});
            tensor *at_ = V(base, 0, DIMS(3, 4), (int64_t[]){1, 9});      /* transposed */
            tensor *bt = V(base, 2, DIMS(4, 5), (int64_t[]){1, 9});
            tensor *as = V(base, 0, DIMS(3, 4), (int64_t[]){18, 2});      /* needs packing */
            tensor *bb = V(base, 0, DIMS(4, 5), (int64_t[]){0, 1});       /* broadcast rows: packing */
            tensor *c = T(dt, DIMS(3, 5));
            tensor *pairs[][2] = {{a, b}, {at_, b}, {a, bt}, {at_, bt}, {as, b}, {a, bb}, {as, bt}};
            for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
                CHECK_OK(mm(c, pairs[p][0], pairs[p][1]));
                check_mm(pairs[p][0], pairs[p][1], c, 1e-6, use_blas ? "mm blas" : "mm loop");
            }
            /* size-1 dims with meaningless strides */
            tensor *row = V(base, 3, DIMS(1, 4), (int64_t[]){0, 1}), *col = V(base, 3, DIMS(4, 1), (int64_t[]){9, 0});
            tensor *c11 = T(dt, DIMS(1, 1)), *c44 = T(dt, DIMS(4, 4));
            CHECK_OK(mm(c11, row, col));
            check_mm(row, col, c11, 1e-6, "mm 1x4 @ 4x1");
            CHECK_OK(mm(c44, col, row));
            check_mm(col, row, c44, 1e-6, "mm 4x1 @ 1x4");
            tensor *rowt = V(base, 3, DIMS(1, 4), (int64_t[]){1, 9});
            CHECK_OK(mm(c11, rowt, col));
            check_mm(rowt, col, c11, 1e-6, "mm transposed row");
            /* k == 0 gives zeros; m == 0 does nothing */
            tensor *e1 = T(dt, DIMS(3, 0)), *e2 = T(dt, DIMS(0, 5));
            CHECK_OK(mm(c, e1, e2));
            CHECK_VALUES(c, 0, "mm k=0", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            tensor *e3 = T(dt, DIMS(0, 4)), *c0 = T(dt, DIMS(0, 5));
            CHECK_OK(mm(c0, e3, b));
            /* above the small-size threshold (16^3 multiply-adds) products reach the provider, any
             * layout, or on AVX-512 the plugin's own kernel (mm_kernel.c), which leaves a transposed b
             * with fewer than 16 rows of a to the provider */
            tensor *big = T(dt, DIMS(24, 24)), *bc = T(dt, DIMS(20, 20));
            for (int64_t i = 0; i < 576; i++) set(big, i, (double)((i * 7) % 11) - 5);
            tensor *ba = V(big, 0, DIMS(20, 20), (int64_t[]){24, 1}), *bta = V(big, 1, DIMS(20, 20), (int64_t[]){1, 24});
            tensor *bpk = V(big, 0, DIMS(20, 20), (int64_t[]){1, 0}); /* broadcast columns: packing */
            tensor *big_pairs[][2] = {{ba, ba}, {bta, ba}, {ba, bta}, {bpk, ba}};
            for (size_t p = 0; p < sizeof big_pairs / sizeof big_pairs[0]; p++) {
                CHECK_OK(mm(bc, big_pairs[p][0], big_pairs[p][1]));
                check_mm(big_pairs[p][0], big_pairs[p][1], bc, 1e-6, use_blas ? "mm 20x20 blas" : "mm 20x20 loop");
            }
            tensor *few = V(big, 0, DIMS(12, 24), (int64_t[]){24, 1}), *few_bt = V(big, 0, DIMS(24, 20), (int64_t[]){1, 24});
            tensor *fc = T(dt, DIMS(12, 20));
            CHECK_OK(mm(fc, few, few_bt));
            check_mm(few, few_bt, fc, 1e-6, use_blas ? "mm 12x24 @ transposed blas" : "mm 12x24 @ transposed loop");
        }
        if (use_blas) {
            CHECK(g_blas_calls > 0, "the BLAS provider was used");
            CHECK(g_blas_bad_args == 0, "%d BLAS calls had invalid sizes or leading dimensions", g_blas_bad_args);
        }
    }
    g_blas = NULL;
    /* a larger product on threads, transposed a */
    tensor *a = T(TC_FLOAT32, DIMS(70, 90)), *b = T(TC_FLOAT32, DIMS(70, 300)), *c = T(TC_FLOAT32, DIMS(90, 300));
    for (int64_t i = 0; i < numel(a); i++) set(a, i, (double)(i % 17) / 4 - 2);
    for (int64_t i = 0; i < numel(b); i++) set(b, i, (double)(i % 13) / 8 - 0.75);
    tensor *at_ = V(a, 0, DIMS(90, 70), (int64_t[]){1, 90});
    CHECK_OK(mm(c, at_, b));
    check_mm(at_, b, c, 1e-5, "mm 90x70 @ 70x300");
    CHECK(g_live_allocs == 0, "%ld scratch allocations leaked", g_live_allocs);
}

static void test_mm_other(void) {
    tensor *a = TV(TC_INT32, DIMS(2, 3), ((double[]){1, 2, 3, 4, 5, 6})), *b = TV(TC_INT32, DIMS(3, 2), ((double[]){7, 8, 9, 10, 11, 12}));
    tensor *c = T(TC_INT32, DIMS(2, 2));
    CHECK_OK(mm(c, a, b));
    CHECK_VALUES(c, 0, "int32 mm", 58, 64, 139, 154);
    tensor *bt = V(a, 0, DIMS(3, 2), (int64_t[]){1, 3});
    CHECK_OK(mm(c, a, bt));
    CHECK_VALUES(c, 0, "int32 mm transposed b", 14, 32, 32, 77);
    tensor *i8a = TV(TC_INT8, DIMS(1, 2), ((double[]){100, 100})), *i8b = TV(TC_INT8, DIMS(2, 1), ((double[]){2, 1}));
    tensor *i8c = T(TC_INT8, DIMS(1, 1));
    CHECK_OK(mm(i8c, i8a, i8b));
    CHECK_VALUES(i8c, 0, "int8 mm wraps", 44);
    tensor *p = TV(TC_BOOL, DIMS(2, 2), ((double[]){1, 0, 0, 0})), *q = TV(TC_BOOL, DIMS(2, 2), ((double[]){0, 1, 1, 1}));
    tensor *r = T(TC_BOOL, DIMS(2, 2));
    CHECK(mm(r, p, q) == TC_FAIL, "bool mm is refused, as PyTorch's CPU products are");
    const int dts[] = {TC_FLOAT16, TC_BFLOAT16, TC_INT64, TC_UINT8, TC_INT16};
    for (int d = 0; d < 5; d++) {
        tensor *x = T(dts[d], DIMS(5, 300)), *y = T(dts[d], DIMS(300, 7)), *z = T(dts[d], DIMS(5, 7));
        for (int64_t i = 0; i < numel(x); i++) set(x, i, (double)(i % 3));
        for (int64_t i = 0; i < numel(y); i++) set(y, i, (double)(i % 2));
        CHECK_OK(mm(z, x, V(y, 0, DIMS(300, 7), (int64_t[]){7, 1})));
        if (dts[d] == TC_UINT8) continue; /* sums above 255 wrap; checked by int8 above */
        check_mm(x, y, z, dts[d] == TC_BFLOAT16 ? 4e-3 : 1e-3, g_dtype_names[dts[d]]);
    }
    tensor *e1 = T(TC_INT64, DIMS(2, 0)), *e2 = T(TC_INT64, DIMS(0, 2)), *ec = T(TC_INT64, DIMS(2, 2));
    CHECK_OK(mm(ec, e1, e2));
    CHECK_VALUES(ec, 0, "int64 mm k=0", 0, 0, 0, 0);
}

static void test_bmm(void) {
    /* two batches of 2x3 @ 3x2; the second operand broadcast over the batch (batch stride 0) */
    for (int use_blas = 0; use_blas < 2; use_blas++) {
        g_blas = use_blas ? &g_ref_blas : NULL;
        tensor *a = TV(TC_FLOAT32, DIMS(2, 2, 3), ((double[]){1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0}));
        tensor *b0 = TV(TC_FLOAT32, DIMS(3, 2), ((double[]){7, 8, 9, 10, 11, 12}));
        tensor *b = V(b0, 0, DIMS(2, 3, 2), (int64_t[]){0, 2, 1});
        tensor *c = T(TC_FLOAT32, DIMS(2, 2, 2));
        CHECK_OK(run2("bmm", c, a, b));
        CHECK_VALUES(c, 0, "f32 bmm", 58, 64, 139, 154, 7, 8, 9, 10);
    }
    tensor *ia = TV(TC_INT64, DIMS(1, 1, 2), ((double[]){3, 4})), *ib = TV(TC_INT64, DIMS(1, 2, 1), ((double[]){5, 6}));
    tensor *ic = T(TC_INT64, DIMS(1, 1, 1));
    CHECK_OK(run2("bmm", ic, ia, ib));
    CHECK_VALUES(ic, 0, "int64 bmm", 39);
    tensor *e = T(TC_INT64, DIMS(0, 2, 2));
    CHECK_OK(run2("bmm", e, T(TC_INT64, DIMS(0, 2, 3)), T(TC_INT64, DIMS(0, 3, 2))));
}

static void test_fill(void) {
    const tc_scalar sc[1] = {SF(2.5)};
    for (int dt = 0; dt < TC_NUM_DTYPES; dt++) {
        tensor *t = T(dt, DIMS(2, 3));
        CHECK_OK(run("fill", dt, 0, NULL, 1, (tensor *[]){t}, 1, sc, 0, NULL));
        const double want = dt == TC_BOOL ? 1 : dt < TC_FLOAT16 ? 2 : 2.5; /* float to int truncates */
        for (int64_t i = 0; i < 6; i++) CHECK(at(t, i) == want, "fill %s[%lld] = %g", g_dtype_names[dt], (long long)i, at(t, i));
    }
    tensor *base = T(TC_INT16, DIMS(6)), *v = V(base, 1, DIMS(2), (int64_t[]){3});
    for (int64_t i = 0; i < 6; i++) set(base, i, 0);
    CHECK_OK(run("fill", TC_INT16, 0, NULL, 1, (tensor *[]){v}, 1, (tc_scalar[]){SI(-7)}, 0, NULL));
    CHECK_VALUES(base, 0, "fill a strided view", 0, -7, 0, 0, -7, 0);
}

static int fill_op(const char *op, tensor *out, tc_scalar a, tc_scalar b) {
    const tc_scalar sc[2] = {a, b};
    return run(op, out->v.dtype, 0, NULL, 1, (tensor *[]){out}, 2, sc, 0, NULL);
}

static void test_arange_linspace(void) {
    tensor *i = T(TC_INT64, DIMS(4));
    CHECK_OK(fill_op("arange", i, SI(2), SI(3)));
    CHECK_VALUES(i, 0, "int64 arange", 2, 5, 8, 11);
    CHECK_OK(fill_op("arange", i, SI(5), SI(-2)));
    CHECK_VALUES(i, 0, "int64 arange down", 5, 3, 1, -1);
    tensor *f = T(TC_FLOAT32, DIMS(5));
    CHECK_OK(fill_op("arange", f, SF(0.5), SF(0.25)));
    CHECK_VALUES(f, 0, "f32 arange", 0.5, 0.75, 1, 1.25, 1.5);
    CHECK_OK(fill_op("arange", f, SI(1), SF(0.1)));
    CHECK_VALUES(f, 1e-7, "f32 arange mixed scalars", 1, 1.1, 1.2, 1.3, 1.4);
    tensor *h = T(TC_FLOAT16, DIMS(3));
    CHECK_OK(fill_op("arange", h, SI(2047), SI(1)));
    CHECK_VALUES(h, 0, "f16 arange", 2047, 2048, 2048); /* 2049 rounds to even */
    tensor *u = T(TC_UINT8, DIMS(3));
    CHECK_OK(fill_op("arange", u, SI(254), SI(1)));
    CHECK_VALUES(u, 0, "uint8 arange wraps", 254, 255, 0);
    tensor *ii = T(TC_INT32, DIMS(3));
    CHECK_OK(fill_op("arange", ii, SF(0.5), SF(1.5)));
    CHECK_VALUES(ii, 0, "int32 arange from doubles truncates", 0, 2, 3);
    tensor *l = T(TC_FLOAT32, DIMS(5));
    CHECK_OK(fill_op("linspace", l, SF(0), SF(1)));
    CHECK_VALUES(l, 0, "f32 linspace", 0, 0.25, 0.5, 0.75, 1);
    tensor *d = T(TC_FLOAT64, DIMS(7));
    CHECK_OK(fill_op("linspace", d, SF(-1.3), SF(2.9)));
    CHECK(at(d, 0) == -1.3 && at(d, 6) == 2.9, "linspace hits both ends exactly");
    CHECK_NEAR(at(d, 3), 0.8, 1e-15, 1e-15, "linspace middle");
    tensor *li = T(TC_INT32, DIMS(4));
    CHECK_OK(fill_op("linspace", li, SI(0), SI(10)));
    CHECK_VALUES(li, 0, "int32 linspace truncates", 0, 3, 6, 10);
    tensor *one = T(TC_BFLOAT16, DIMS(1));
    CHECK_OK(fill_op("linspace", one, SF(3.5), SF(9)));
    CHECK_VALUES(one, 0, "linspace n=1", 3.5);
    tensor *strided = T(TC_INT16, DIMS(6)), *sv = V(strided, 1, DIMS(3), (int64_t[]){2});
    set(strided, 0, 0);
    set(strided, 2, 0);
    set(strided, 4, 0);
    CHECK_OK(fill_op("arange", sv, SI(7), SI(7)));
    CHECK_VALUES(strided, 0, "arange into a strided output", 0, 7, 0, 14, 0, 21);
    tensor *e = T(TC_FLOAT32, DIMS(0));
    CHECK_OK(fill_op("arange", e, SI(0), SI(1)));
}

/* ---- driver ----------------------------------------------------------------------------------- */

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

/* Elementwise kernels convert inputs of another dtype while loading (TC_KERNEL_CONVERTS_INPUTS): in
 * blocks (1000 elements span two), strided, broadcast from a 0-dim operand, into float16 math. */
static void test_converting_inputs(void) {
    const int n = 1000;
    tensor *a = T(TC_FLOAT32, DIMS(n)), *b = T(TC_INT64, DIMS(2 * n)), *out = T(TC_FLOAT32, DIMS(n));
    for (int i = 0; i < n; i++) set(a, i, i * 0.5);
    for (int i = 0; i < 2 * n; i++) seti(b, i, i % 2 ? -1 : i / 2 - 300);
    tensor *b_even = V(b, 0, DIMS(n), (int64_t[]){2}); /* every other int64 */
    CHECK_OK(run("add", TC_FLOAT32, 2, (tensor *[]){a, b_even}, 1, (tensor *[]){out}, 1, (tc_scalar[]){SI(2)}, 0, NULL));
    for (int i = 0; i < n; i++)
        CHECK(at(out, i) == i * 0.5 + 2.0 * (i - 300), "add f32 + strided i64 [%d]: %g", i, at(out, i));
    tensor *z = TV(TC_FLOAT64, 0, (int64_t[]){0}, (const double[]){0.25});
    tensor *zb = V(z, 0, DIMS(n), (int64_t[]){0}); /* a 0-dim operand presented at n elements */
    CHECK_OK(run("mul", TC_FLOAT32, 2, (tensor *[]){zb, a}, 1, (tensor *[]){out}, 0, NULL, 0, NULL));
    for (int i = 0; i < n; i++) CHECK(at(out, i) == i * 0.125, "mul f64-scalar * f32 [%d]: %g", i, at(out, i));
    tensor *u = T(TC_INT8, DIMS(n)), *h = T(TC_FLOAT16, DIMS(n));
    for (int i = 0; i < n; i++) set(u, i, i % 7 - 3);
    CHECK_OK(run("exp", TC_FLOAT16, 1, (tensor *[]){u}, 1, (tensor *[]){h}, 0, NULL, 0, NULL));
    for (int i = 0; i < n; i++)
        CHECK_NEAR(at(h, i), exp(i % 7 - 3), 1e-3, 0, "exp of int8 into float16");
    tensor *bits = T(TC_BOOL, DIMS(n));
    CHECK_OK(run("lt", TC_FLOAT32, 2, (tensor *[]){a, b_even}, 1, (tensor *[]){bits}, 0, NULL, 0, NULL));
    for (int i = 0; i < n; i++) CHECK(at(bits, i) == (i * 0.5 < i - 300), "lt f32 < i64 [%d]", i);
}

/* ---- the indexing family (contracts: docs/plugin-abi.md, ints: torch_core/tc_indexing.h) ---- */

/* index: rows picked by an index, one index per row (stride 0 along the row). */
static void test_index_gather(void) {
    tensor *x = TV(TC_FLOAT32, DIMS(3, 4), (const double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    tensor *idx = T(TC_INT64, DIMS(2));
    seti(idx, 0, 2);
    seti(idx, 1, -3); /* wraps to 0 in the BOUNDS style */
    tensor *out = T(TC_FLOAT32, DIMS(2, 4));
    tensor *src = V(x, 0, DIMS(2, 4), (int64_t[]){0, 1}), *iv = V(idx, 0, DIMS(2, 4), (int64_t[]){1, 0});
    const int64_t ints[] = {0, 0, 3, 4}; /* TC_INDEX_BOUNDS, first dim 0, size 3, stride 4 */
    CHECK_OK(run("index", TC_FLOAT32, 2, (tensor *[]){src, iv}, 1, (tensor *[]){out}, 0, NULL, 4, ints));
    CHECK_VALUES(out, 0, "rows", 8, 9, 10, 11, 0, 1, 2, 3);
    /* a bad index found by a worker thread is raised by the calling thread, once */
    const int64_t n = 200000;
    tensor *big = T(TC_INT32, DIMS(n)), *bi = T(TC_INT64, DIMS(n)), *bo = T(TC_INT32, DIMS(n));
    for (int64_t i = 0; i < n; i++) {
        seti(big, i, i);
        seti(bi, i, n - 1 - i);
    }
    tensor *bs = V(big, 0, DIMS(n), (int64_t[]){0});
    const int64_t bints[] = {1, 0, n, 1}; /* TC_INDEX_BOUNDS_RT */
    CHECK_OK(run("index", TC_INT32, 2, (tensor *[]){bs, bi}, 1, (tensor *[]){bo}, 0, NULL, 4, bints));
    CHECK(ati(bo, 0) == n - 1 && ati(bo, n - 1) == 0, "reversed: %lld %lld", (long long)ati(bo, 0),
          (long long)ati(bo, n - 1));
    seti(bi, n - 7, n + 5);
    CHECK(run("index", TC_INT32, 2, (tensor *[]){bs, bi}, 1, (tensor *[]){bo}, 0, NULL, 4, bints) == TC_FAIL &&
          strstr(g_error, "is out of bounds for dimension 0") != NULL, "bad index: %s", g_error);
    /* two indices: offsets computed first (scratch memory, returned) */
    tensor *i0 = T(TC_INT64, DIMS(2)), *i1 = T(TC_INT64, DIMS(2)), *o2 = T(TC_FLOAT32, DIMS(2));
    seti(i0, 0, 1), seti(i0, 1, 2), seti(i1, 0, 3), seti(i1, 1, 0);
    tensor *s0 = V(x, 0, DIMS(2), (int64_t[]){0});
    const int64_t ints2[] = {0, 0, 3, 4, 4, 1};
    CHECK_OK(run("index", TC_FLOAT32, 3, (tensor *[]){s0, i0, i1}, 1, (tensor *[]){o2}, 0, NULL, 6, ints2));
    CHECK_VALUES(o2, 0, "x[[1, 2], [3, 0]]", 7, 8);
    CHECK(g_live_allocs == 0, "%ld scratch allocations leaked", g_live_allocs);
}

/* index_put: repeated indices accumulate in order; mean counts, include_self or not. */
static void test_index_put_modes(void) {
    const struct {
        int64_t mode, include_self;
        double want[3];
    } cases[] = {{0, 1, {2, 10, 5}}, {1, 1, {4, 10, 20}}, {2, 1, {2, 10, 250}}, {3, 1, {4.0 / 3, 10, 20.0 / 3}},
                 {3, 0, {1.5, 10, 7.5}}, {4, 0, {2, 10, 10}}, {5, 1, {1, 10, 5}}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tensor *dst = TV(TC_FLOAT64, DIMS(3), (const double[]){1, 10, 5});
        tensor *vals = TV(TC_FLOAT64, DIMS(4), (const double[]){1, 10, 2, 5});
        tensor *idx = T(TC_INT64, DIMS(4));
        seti(idx, 0, 0), seti(idx, 1, 2), seti(idx, 2, 0), seti(idx, 3, 2);
        const int64_t ints[] = {cases[c].mode, cases[c].include_self, 0, 0, 3, 1};
        tensor *dv = V(dst, 0, DIMS(4), (int64_t[]){0});
        /* values 1, 2 land on element 0; 10, 5 on element 2 */
        CHECK_OK(run("index_put", TC_FLOAT64, 2, (tensor *[]){vals, idx}, 1, (tensor *[]){dv}, 0, NULL, 6, ints));
        for (int i = 0; i < 3; i++) CHECK_NEAR(at(dst, i), cases[c].want[i], 1e-12, 0, "index_put mode");
    }
    CHECK(g_live_allocs == 0, "%ld scratch allocations leaked", g_live_allocs);
}

/* nonzero_count, nonzero, masked_select (large enough for several pieces), where, flip, cat, tril. */
static void test_masked_and_rearranging(void) {
    const int64_t n = 100000;
    tensor *x = T(TC_FLOAT32, DIMS(n)), *m = T(TC_BOOL, DIMS(n)), *cnt = T(TC_INT64, DIMS(1));
    int64_t expect = 0;
    for (int64_t i = 0; i < n; i++) {
        set(x, i, (double)i);
        set(m, i, (i * 7919) % 10 < 3);
        expect += (i * 7919) % 10 < 3;
    }
    tensor *c0 = V(cnt, 0, 0, (int64_t[]){0}, (int64_t[]){0}); /* 0-dim */
    CHECK_OK(run("nonzero_count", TC_BOOL, 1, (tensor *[]){m}, 1, (tensor *[]){c0}, 0, NULL, 0, NULL));
    CHECK(ati(cnt, 0) == expect, "count %lld, want %lld", (long long)ati(cnt, 0), (long long)expect);
    tensor *sel = T(TC_FLOAT32, DIMS(expect));
    CHECK_OK(run("masked_select", TC_FLOAT32, 2, (tensor *[]){x, m}, 1, (tensor *[]){sel}, 0, NULL, 0, NULL));
    int64_t k = 0, bad = 0;
    for (int64_t i = 0; i < n; i++)
        if ((i * 7919) % 10 < 3) bad += at(sel, k++) != (double)i;
    CHECK(bad == 0, "%lld selected elements out of place", (long long)bad);
    tensor *nz = T(TC_INT64, DIMS(expect, 1));
    CHECK_OK(run("nonzero", TC_BOOL, 1, (tensor *[]){m}, 1, (tensor *[]){nz}, 0, NULL, 0, NULL));
    CHECK(ati(nz, 0) == 0 && ati(nz, expect - 1) == (int64_t)at(sel, expect - 1), "nonzero coordinates");
    tensor *a = TV(TC_INT16, DIMS(2, 3), (const double[]){1, 2, 3, 4, 5, 6}), *f = T(TC_INT16, DIMS(2, 3));
    CHECK_OK(run("flip", TC_INT16, 1, (tensor *[]){a}, 1, (tensor *[]){f}, 0, NULL, 2, (int64_t[]){0, 1}));
    CHECK_VALUES(f, 0, "flip both dims", 6, 5, 4, 3, 2, 1);
    tensor *cc = T(TC_INT16, DIMS(2, 6));
    CHECK_OK(run("cat", TC_INT16, 2, (tensor *[]){a, f}, 1, (tensor *[]){cc}, 0, NULL, 1, (int64_t[]){1}));
    CHECK_VALUES(cc, 0, "cat dim 1", 1, 2, 3, 6, 5, 4, 4, 5, 6, 3, 2, 1);
    CHECK_OK(run("tril", TC_INT16, 1, (tensor *[]){a}, 1, (tensor *[]){f}, 0, NULL, 1, (int64_t[]){0}));
    CHECK_VALUES(f, 0, "tril", 1, 0, 0, 4, 5, 0);
    tensor *cond = TV(TC_BOOL, DIMS(2, 3), (const double[]){1, 0, 1, 0, 1, 0}), *w = T(TC_INT16, DIMS(2, 3));
    tensor *zero = TV(TC_INT16, DIMS(1), (const double[]){-9}), *zv = V(zero, 0, DIMS(2, 3), (int64_t[]){0, 0});
    CHECK_OK(run("where", TC_INT16, 3, (tensor *[]){cond, zv, a}, 1, (tensor *[]){w}, 0, NULL, 0, NULL));
    CHECK_VALUES(w, 0, "where", -9, 2, -9, 4, -9, 6);
    CHECK(g_live_allocs == 0, "%ld scratch allocations leaked", g_live_allocs);
}

/* ---- complex ---------------------------------------------------------------------------------- */

static tc_scalar SC(double re, double imag) {
    return (tc_scalar){.kind = TC_SCALAR_COMPLEX, .struct_size = sizeof(tc_scalar), .v.f = re, .imag = imag};
}

#define CHECK_C(t, i, re, imag, tol, what)                                                         \
    CHECK(fabs(at(t, i) - (re)) <= (tol) * (1 + fabs((double)(re))) &&                               \
              fabs(im(t, i) - (imag)) <= (tol) * (1 + fabs((double)(imag))),                           \
          "%s [%d]: got %g%+gj, want %g%+gj", what, (int)(i), at(t, i), im(t, i), (double)(re), (double)(imag))

static tensor *CV(int dtype, int n, const double *parts) {
    tensor *t = T(dtype, DIMS(n));
    for (int i = 0; i < n; i++) setc(t, i, parts[2 * i], parts[2 * i + 1]);
    return t;
}

static void test_complex_arith(void) {
    for (int dt = TC_COMPLEX64; dt <= TC_COMPLEX128; dt++) {
        tensor *a = CV(dt, 3, (double[]){1, 2, 3, -4, 0, 1}), *b = CV(dt, 3, (double[]){3, -4, 1, 1, 0, INFINITY});
        tensor *c = T(dt, DIMS(3));
        CHECK_OK(run2("mul", c, a, b));
        CHECK_C(c, 0, 11, 2, 0, "mul");
        CHECK_C(c, 1, 7, -1, 0, "mul");
        CHECK(at(c, 2) == -INFINITY && isnan(im(c, 2)), "mul without Annex G: got %g%+gj", at(c, 2), im(c, 2));
        CHECK_OK(run2s("add", c, a, b, SC(2, 1))); /* a + (2+1j) * b */
        CHECK_C(c, 0, 11, -3, 0, "add alpha");
        CHECK_C(c, 1, 4, -1, 0, "add alpha");
        CHECK_OK(run2s("sub", c, a, b, SC(2, 1)));
        CHECK_C(c, 0, -9, 7, 0, "sub alpha");
        CHECK_OK(run2("div", c, a, b));
        CHECK_C(c, 0, -0.2, 0.4, 1e-6, "div");
        tensor *z = CV(dt, 1, (double[]){0, 0}), *one = CV(dt, 1, (double[]){1, 0}), *q = T(dt, DIMS(1));
        CHECK_OK(run2("div", q, one, z));
        CHECK(isnan(at(q, 0)) && isnan(im(q, 0)), "1/0 is nan+nanj (the schoolbook formula)");
        tensor *e = T(TC_BOOL, DIMS(3));
        CHECK_OK(run2("eq", e, a, a));
        CHECK_VALUES(e, 0, "eq", 1, 1, 1);
        CHECK_OK(run2("ne", e, a, b));
        CHECK_VALUES(e, 0, "ne", 1, 1, 1);
        CHECK_OK(run1("neg", c, a));
        CHECK_C(c, 1, -3, 4, 0, "neg");
        CHECK_OK(run1("conj_physical", c, a));
        CHECK_C(c, 1, 3, 4, 0, "conj_physical");
        CHECK_OK(run1("conj_physical", a, a)); /* in place */
        CHECK_C(a, 0, 1, -2, 0, "conj_physical in place");
    }
    /* complex32 stores float16 parts and computes in float */
    tensor *h = CV(TC_COMPLEX32, 2, (double[]){1, 1, 0.5, -2}), *hc = T(TC_COMPLEX32, DIMS(2));
    CHECK_OK(run2("mul", hc, h, h));
    CHECK_C(hc, 0, 0, 2, 0, "complex32 mul");
    CHECK_C(hc, 1, -3.75, -2, 0, "complex32 mul");
    /* complex(real, imag) and polar(abs, angle) */
    tensor *re = TV(TC_FLOAT64, DIMS(2), ((double[]){1, 2})), *ang = TV(TC_FLOAT64, DIMS(2), ((double[]){0, M_PI / 2}));
    tensor *out = T(TC_COMPLEX128, DIMS(2));
    /* registered under the complex dtype they make */
    CHECK_OK(run("complex", TC_COMPLEX128, 2, (tensor *[]){re, ang}, 1, (tensor *[]){out}, 0, NULL, 0, NULL));
    CHECK_C(out, 1, 2, M_PI / 2, 0, "complex()");
    CHECK_OK(run("polar", TC_COMPLEX128, 2, (tensor *[]){re, ang}, 1, (tensor *[]){out}, 0, NULL, 0, NULL));
    CHECK_C(out, 0, 1, 0, 0, "polar");
    CHECK_C(out, 1, 2 * cos(M_PI / 2), 2, 1e-15, "polar");
}

static void test_complex_unary(void) {
    tensor *a = CV(TC_COMPLEX128, 3, (double[]){3, -4, 0, M_PI, -1, 0});
    tensor *r = T(TC_FLOAT64, DIMS(3)), *c = T(TC_COMPLEX128, DIMS(3));
    CHECK_OK(run("abs", TC_COMPLEX128, 1, (tensor *[]){a}, 1, (tensor *[]){r}, 0, NULL, 0, NULL));
    CHECK_VALUES(r, 1e-15, "abs", 5, M_PI, 1);
    CHECK_OK(run("angle", TC_COMPLEX128, 1, (tensor *[]){a}, 1, (tensor *[]){r}, 0, NULL, 0, NULL));
    CHECK_VALUES(r, 1e-15, "angle", atan2(-4, 3), M_PI / 2, M_PI);
    CHECK_OK(run1("exp", c, a));
    CHECK_C(c, 1, -1, 0, 1e-15, "exp(i pi)");
    CHECK_OK(run1("sqrt", c, a));
    CHECK_C(c, 0, 2, -1, 1e-15, "sqrt(3-4j)");
    CHECK_C(c, 2, 0, 1, 1e-15, "sqrt(-1)");
    CHECK_OK(run1("log", c, a));
    CHECK_C(c, 2, 0, M_PI, 1e-15, "log(-1)");
    CHECK_OK(run1("sigmoid", c, a));
    CHECK_C(c, 2, 1 / (1 + exp(1)), 0, 1e-15, "sigmoid(-1)");
    tensor *h = CV(TC_COMPLEX32, 1, (double[]){3, 4}), *hr = T(TC_FLOAT16, DIMS(1));
    CHECK_OK(run("abs", TC_COMPLEX32, 1, (tensor *[]){h}, 1, (tensor *[]){hr}, 0, NULL, 0, NULL));
    CHECK_VALUES(hr, 0, "complex32 abs is float16", 5);
    tensor *f = TV(TC_FLOAT32, DIMS(3), ((double[]){-2, 0, NAN})), *fa = T(TC_FLOAT32, DIMS(3));
    CHECK_OK(run1("angle", fa, f));
    CHECK(at(fa, 0) == (float)M_PI && at(fa, 1) == 0 && isnan(at(fa, 2)), "angle of reals: %g %g %g", at(fa, 0),
          at(fa, 1), at(fa, 2));
}

static void test_complex_mm(void) {
    const tc_blas_provider *providers[] = {NULL, &g_ref_blas, &g_ref_blas_1_2};
    for (int pv = 0; pv < 3; pv++) {
        g_blas = providers[pv];
        g_blas_calls = g_blas_bad_args = 0;
        for (int dt = TC_COMPLEX64; dt <= TC_COMPLEX128; dt++) {
            /* a = [[1+1j, 2], [3, 4j]]: a @ a = [[6+2j, 2+10j], [3+15j, -10]] */
            tensor *a = T(dt, DIMS(2, 2)), *c = T(dt, DIMS(2, 2));
            setc(a, 0, 1, 1), setc(a, 1, 2, 0), setc(a, 2, 3, 0), setc(a, 3, 0, 4);
            CHECK_OK(mm(c, a, a));
            CHECK_C(c, 0, 6, 2, 1e-6, "complex mm");
            CHECK_C(c, 1, 2, 10, 1e-6, "complex mm");
            CHECK_C(c, 2, 3, 15, 1e-6, "complex mm");
            CHECK_C(c, 3, -10, 0, 1e-6, "complex mm");
            tensor *at_ = V(a, 0, DIMS(2, 2), (int64_t[]){1, 2});
            CHECK_OK(mm(c, at_, a)); /* [[1+1j, 3], [2, 4j]] @ a */
            CHECK_C(c, 0, 9, 2, 1e-6, "complex mm transposed");
            CHECK_C(c, 2, 2, 14, 1e-6, "complex mm transposed");
            CHECK_C(c, 3, -12, 0, 1e-6, "complex mm transposed");
            /* a 20x20 product (above the small-size threshold): the provider's cgemm/zgemm where it has
             * them, checked against the loop */
            tensor *x = T(dt, DIMS(20, 20)), *y = T(dt, DIMS(20, 20)), *want = T(dt, DIMS(20, 20));
            for (int64_t i = 0; i < 400; i++) setc(x, i, (double)((i * 7) % 11) - 5, (double)(i % 3) - 1);
            const tc_blas_provider *keep = g_blas;
            g_blas = NULL;
            CHECK_OK(mm(want, x, x));
            g_blas = keep;
            CHECK_OK(mm(y, x, x));
            for (int64_t i = 0; i < 400; i++) CHECK_C(y, i, at(want, i), im(want, i), 1e-6, "complex mm 20x20");
        }
        CHECK(g_blas_calls == (pv == 1 ? 2 : 0) && g_blas_bad_args == 0,
              "provider %d: %d BLAS calls (%d with bad arguments)", pv, g_blas_calls, g_blas_bad_args);
    }
    g_blas = NULL;
}

/* ---- linalg_eig over fake LAPACKs --------------------------------------------------------------- */

/* A geev for 2x2 real matrices that knows one answer: eigenvalues 1 +- 2i, the pair's vector
 * (0.6 + 0.8i, 0 + 0i) packed as LAPACK packs it, VR(:,1) the real parts and VR(:,2) the imaginary
 * ones. Records its calls. */
static int g_geev_calls;
static int fake_geev(int32_t dtype, char jobvl, char jobvr, int64_t n, void *a, int64_t lda, void *wr, void *wi,
                     void *vl, int64_t ldvl, void *vr, int64_t ldvr, tc_lapack_ws *ws) {
    (void)a, (void)vl, (void)ldvl, (void)ws;
    g_geev_calls++;
    if (dtype != TC_FLOAT64 || jobvl != 'N' || n != 2 || lda < 2 || (jobvr == 'V' && ldvr < 2)) return TC_LAPACK_BADARG;
    double *w_r = wr, *w_i = wi, *v = vr;
    w_r[0] = w_r[1] = 1, w_i[0] = 2, w_i[1] = -2;
    if (jobvr == 'V') v[0] = 0.6, v[1] = 0, v[ldvr] = 0.8, v[ldvr + 1] = 0;
    return 0;
}

static void fake_ws_release(tc_lapack_ws *ws) { (void)ws; }

/* as a provider built against ABI 1.3 hands it over: no geev_complex */
static const tc_lapack g_lapack_1_3 = {.struct_size = TC_LAPACK_SIZE_1_3, .describe = "fake LAPACK 1.3",
                                       .ws_release = fake_ws_release, .geev = fake_geev};
static const tc_blas_provider g_blas_lapack_1_3 = {.struct_size = sizeof(tc_blas_provider), .name = "lapack-1.3",
                                                   .sgemm = ref_sgemm, .dgemm = ref_dgemm, .lapack = &g_lapack_1_3};

static int run_eig(tensor *a, tensor *w, tensor *v, bool vectors) {
    tc_kernel_fn fn = find_kernel("linalg_eig", TC_ANY_DTYPE);
    CHECK(fn != NULL, "no kernel linalg_eig");
    if (!fn) return TC_FAIL;
    tc_view ins[1] = {a->v}, outs[2] = {w->v, v->v};
    tc_value vals[2] = {{.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_BOOL, .v.b = vectors}};
    tc_kernel_args args = {.struct_size = sizeof args, .op = -1, .n_inputs = 1, .n_outputs = 2, .inputs = ins,
                           .outputs = outs, .n_args = 2, .args = vals};
    g_error[0] = 0;
    return fn(&args);
}

static void test_linalg_eig_providers(void) {
    tensor *a = T(TC_FLOAT64, DIMS(2, 2)), *w = T(TC_COMPLEX128, DIMS(2)), *v = T(TC_COMPLEX128, DIMS(2, 2));
    for (int i = 0; i < 4; i++) set(a, i, i + 1);
    /* a provider without LAPACK */
    g_blas = &g_ref_blas;
    CHECK(run_eig(a, w, v, true) == TC_FAIL && g_error_kind == TC_ERR_RUNTIME && strstr(g_error, "offers no LAPACK"),
          "eig without LAPACK: %s", g_error);
    /* a 1.3 LAPACK: real matrices through its geev, the pair unpacked into conjugate columns */
    g_blas = &g_blas_lapack_1_3;
    g_geev_calls = 0;
    CHECK_OK(run_eig(a, w, v, true));
    CHECK(g_geev_calls == 1, "geev called %d times", g_geev_calls);
    CHECK_C(w, 0, 1, 2, 0, "eig pair");
    CHECK_C(w, 1, 1, -2, 0, "eig pair");
    CHECK_C(v, 0, 0.6, 0.8, 0, "eig vectors");
    CHECK_C(v, 1, 0.6, -0.8, 0, "eig vectors");
    CHECK_C(v, 2, 0, 0, 0, "eig vectors");
    CHECK_C(v, 3, 0, 0, 0, "eig vectors");
    CHECK(signbit(im(v, 3)), "the conjugate of +0 is -0, as PyTorch unpacks");
    tensor *none = T(TC_COMPLEX128, DIMS(0));
    CHECK_OK(run_eig(a, w, none, false));
    CHECK_C(w, 1, 1, -2, 0, "eigvals pair");
    /* NaN never reaches LAPACK: NaN results */
    set(a, 1, NAN);
    CHECK_OK(run_eig(a, w, v, true));
    CHECK(g_geev_calls == 2 && isnan(at(w, 0)) && isnan(im(v, 3)), "NaN input: %d calls", g_geev_calls);
    /* ... but complex matrices need geev_complex, which a 1.3 LAPACK does not have: a RuntimeError */
    tensor *c = T(TC_COMPLEX128, DIMS(2, 2));
    for (int i = 0; i < 4; i++) setc(c, i, i, 1);
    CHECK(run_eig(c, w, v, true) == TC_FAIL && g_error_kind == TC_ERR_RUNTIME && strstr(g_error, "geev_complex") &&
              strstr(g_error, "lapack-1.3"),
          "complex eig on a 1.3 LAPACK: %s", g_error);
    CHECK(g_geev_calls == 2, "the real geev is not called for complex input");
    /* the complex LU kernels (inv here) need the 1.4 members getrf_complex, ... alike */
    tc_kernel_fn inv_fn = find_kernel("linalg_inv_ex", TC_ANY_DTYPE);
    tensor *ci = T(TC_COMPLEX128, DIMS(2, 2)), *info = T(TC_INT32, DIMS(1));
    tc_view inv_ins[1] = {c->v}, inv_outs[2] = {ci->v, info->v};
    tc_kernel_args inv_args = {.struct_size = sizeof inv_args, .op = -1, .n_inputs = 1, .n_outputs = 2,
                               .inputs = inv_ins, .outputs = inv_outs, .n_args = 0};
    g_error[0] = 0;
    CHECK(inv_fn && inv_fn(&inv_args) == TC_FAIL && g_error_kind == TC_ERR_RUNTIME &&
              strstr(g_error, "getrf_complex") && strstr(g_error, "lapack-1.3"),
          "complex inv on a 1.3 LAPACK: %s", g_error);
    /* ... and so does the complex matrix_exp, which solves with them */
    tc_kernel_fn mexp_fn = find_kernel("matrix_exp", TC_ANY_DTYPE);
    tc_view mexp_outs[1] = {ci->v};
    tc_kernel_args mexp_args = {.struct_size = sizeof mexp_args, .op = -1, .n_inputs = 1, .n_outputs = 1,
                                .inputs = inv_ins, .outputs = mexp_outs, .n_args = 0};
    g_error[0] = 0;
    CHECK(mexp_fn && mexp_fn(&mexp_args) == TC_FAIL && g_error_kind == TC_ERR_RUNTIME &&
              strstr(g_error, "linalg.matrix_exp") && strstr(g_error, "getrf_complex") && strstr(g_error, "lapack-1.3"),
          "complex matrix_exp on a 1.3 LAPACK: %s", g_error);
    /* the complex svd and eigh kernels need the 1.5 members gesdd_complex and heevd_complex */
    tc_kernel_fn svd_fn = find_kernel("linalg_svd", TC_ANY_DTYPE), eigh_fn = find_kernel("linalg_eigh", TC_ANY_DTYPE);
    tensor *cs = T(TC_FLOAT64, DIMS(2)), *cu = T(TC_COMPLEX128, DIMS(2, 2)), *cvh = T(TC_COMPLEX128, DIMS(2, 2));
    tc_view svd_outs[3] = {cu->v, cs->v, cvh->v};
    tc_value svd_vals[3] = {{.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_BOOL, .v.b = true}, {.tag = TC_VALUE_BOOL, .v.b = true}};
    tc_kernel_args svd_args = {.struct_size = sizeof svd_args, .op = -1, .n_inputs = 1, .n_outputs = 3,
                               .inputs = inv_ins, .outputs = svd_outs, .n_args = 3, .args = svd_vals};
    g_error[0] = 0;
    CHECK(svd_fn && svd_fn(&svd_args) == TC_FAIL && g_error_kind == TC_ERR_RUNTIME &&
              strstr(g_error, "gesdd_complex") && strstr(g_error, "ABI 1.5") && strstr(g_error, "lapack-1.3"),
          "complex svd on a 1.3 LAPACK: %s", g_error);
    tc_view eigh_outs[2] = {cs->v, cu->v};
    tc_value eigh_vals[3] = {{.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_STR, .v.s = "L"},
                             {.tag = TC_VALUE_BOOL, .v.b = true}};
    tc_kernel_args eigh_args = {.struct_size = sizeof eigh_args, .op = -1, .n_inputs = 1, .n_outputs = 2,
                                .inputs = inv_ins, .outputs = eigh_outs, .n_args = 3, .args = eigh_vals};
    g_error[0] = 0;
    CHECK(eigh_fn && eigh_fn(&eigh_args) == TC_FAIL && g_error_kind == TC_ERR_RUNTIME &&
              strstr(g_error, "heevd_complex") && strstr(g_error, "ABI 1.5") && strstr(g_error, "lapack-1.3"),
          "complex eigh on a 1.3 LAPACK: %s", g_error);
    /* dtypes LAPACK has no routine for */
    tensor *h = T(TC_FLOAT16, DIMS(2, 2)), *wh = T(TC_COMPLEX32, DIMS(2)), *vh = T(TC_COMPLEX32, DIMS(2, 2));
    CHECK(run_eig(h, wh, vh, true) == TC_FAIL && strstr(g_error, "\"linalg_eig_out_cpu\" not implemented for 'Half'"),
          "half eig: %s", g_error);
    g_blas = NULL;
}

/* Calls kernel `name` with the given views and args; 0 or TC_FAIL, with g_error cleared first. */
static int run_kernel(const char *name, int n_in, const tc_view *ins, int n_out, const tc_view *outs, int n_args,
                      const tc_value *vals, const int64_t *ints, int n_ints) {
    tc_kernel_fn fn = find_kernel(name, TC_ANY_DTYPE);
    CHECK(fn != NULL, "no kernel %s", name);
    if (!fn) return TC_FAIL;
    tc_kernel_args args = {.struct_size = sizeof args, .op = -1, .n_inputs = n_in, .n_outputs = n_out,
                           .inputs = ins, .outputs = outs, .n_ints = n_ints, .ints = ints, .n_args = n_args,
                           .args = vals};
    g_error[0] = 0;
    return fn(&args);
}

/* The complex QR, triangular and least squares kernels need the provider's ABI 1.5 members: a 1.3
 * LAPACK gives a RuntimeError naming the provider and the member (its real members are NULL here, so
 * calling one instead would crash). */
static void test_linalg_factor_providers(void) {
    g_blas = &g_blas_lapack_1_3;
    tensor *a = T(TC_COMPLEX128, DIMS(2, 2)), *q = T(TC_COMPLEX128, DIMS(2, 2)), *r = T(TC_COMPLEX128, DIMS(2, 2));
    for (int i = 0; i < 4; i++) setc(a, i, i + 1, 1);
    const tc_value qr_args[2] = {{.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_STR, .v.s = "reduced"}};
    CHECK(run_kernel("linalg_qr", 1, &a->v, 2, (tc_view[]){q->v, r->v}, 2, qr_args, NULL, 0) == TC_FAIL &&
              g_error_kind == TC_ERR_RUNTIME && strstr(g_error, "geqrf_complex") && strstr(g_error, "lapack-1.3"),
          "complex qr on a 1.3 LAPACK: %s", g_error);
    const tc_value tri_args[5] = {{.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_TENSOR},
                                  {.tag = TC_VALUE_BOOL, .v.b = true}, {.tag = TC_VALUE_BOOL, .v.b = true},
                                  {.tag = TC_VALUE_BOOL, .v.b = false}};
    CHECK(run_kernel("solve_triangular", 2, (tc_view[]){a->v, q->v}, 1, &r->v, 5, tri_args, NULL, 0) == TC_FAIL &&
              g_error_kind == TC_ERR_RUNTIME && strstr(g_error, "trsm_complex") && strstr(g_error, "lapack-1.3"),
          "complex solve_triangular on a 1.3 LAPACK: %s", g_error);
    tensor *res = T(TC_FLOAT64, DIMS(0)), *rank = T(TC_INT64, DIMS(1)), *sv = T(TC_FLOAT64, DIMS(2));
    const tc_value ls_args[4] = {{.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_TENSOR}, {.tag = TC_VALUE_NONE},
                                 {.tag = TC_VALUE_NONE}};
    const int64_t gelsd = 2;
    CHECK(run_kernel("linalg_lstsq", 2, (tc_view[]){a->v, q->v}, 4, (tc_view[]){r->v, res->v, rank->v, sv->v}, 4,
                     ls_args, &gelsd, 1) == TC_FAIL &&
              g_error_kind == TC_ERR_RUNTIME && strstr(g_error, "gelsd_complex") && strstr(g_error, "lapack-1.3"),
          "complex lstsq on a 1.3 LAPACK: %s", g_error);
    g_blas = NULL;
}

/* complex64/complex128 through the kernels that move elements (complex128 as 16 bytes), the truth
 * tests (nonzero when either part is; any/all read the real part, as PyTorch 1.13), index_put's
 * complex arithmetic and its refusal of amax, and cross products. */
static void test_complex_movement(void) {
    for (int dt = TC_COMPLEX64; dt <= TC_COMPLEX128; dt++) {
        tensor *x = CV(dt, 4, (double[]){1, 2, 0, 3, 0, 0, -4, 0}); /* [1+2j, 3j, 0, -4] */
        /* an element gather (not the rows path), a negative index wrapped by the checked loop */
        tensor *idx = T(TC_INT64, DIMS(3)), *g = T(dt, DIMS(3));
        seti(idx, 0, 3), seti(idx, 1, 1), seti(idx, 2, -4);
        const int64_t gints[] = {0, 0, 4, 1};
        tensor *xs = V(x, 0, DIMS(3), (int64_t[]){0}); /* x at the gather's shape, stride 0 */
        CHECK_OK(run("index", dt, 2, (tensor *[]){xs, idx}, 1, (tensor *[]){g}, 0, NULL, 4, gints));
        CHECK_C(g, 0, -4, 0, 0, "complex gather");
        CHECK_C(g, 1, 0, 3, 0, "complex gather");
        CHECK_C(g, 2, 1, 2, 0, "complex gather");
        /* index_put: values 1+1j, 2 land on element 0 and 1j on element 3, per mode */
        const struct {
            int64_t mode;
            int alpha;
            double want0[2], want3[2];
        } cases[] = {{1, 0, {4, 3}, {-4, 1}}, {1, 1, {8, 1}, {-3, 2}}, {2, 0, {-2, 6}, {0, -4}},
                     {3, 0, {4.0 / 3, 1}, {-2, 0.5}}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            tensor *dst = CV(dt, 4, (double[]){1, 2, 0, 3, 0, 0, -4, 0});
            tensor *vals = CV(dt, 3, (double[]){1, 1, 2, 0, 0, 1}), *dv = V(dst, 0, DIMS(3), (int64_t[]){0});
            seti(idx, 0, 0), seti(idx, 1, 0), seti(idx, 2, 3);
            const int64_t ints[] = {cases[c].mode, 1, 0, 0, 4, 1};
            const tc_scalar alpha = SC(2, -1);
            CHECK_OK(run("index_put", dt, 2, (tensor *[]){vals, idx}, 1, (tensor *[]){dv}, cases[c].alpha, &alpha, 6,
                         ints));
            CHECK_C(dst, 0, cases[c].want0[0], cases[c].want0[1], 1e-6, "complex index_put");
            CHECK_C(dst, 1, 0, 3, 0, "complex index_put (untouched)");
            CHECK_C(dst, 3, cases[c].want3[0], cases[c].want3[1], 1e-6, "complex index_put");
        }
        const int64_t amax[] = {4, 1, 1, 0, 4, 1};
        tensor *xv = V(x, 0, DIMS(3), (int64_t[]){0});
        CHECK(run("index_put", dt, 2, (tensor *[]){g, idx}, 1, (tensor *[]){xv}, 0, NULL, 6, amax) == TC_FAIL &&
                  strstr(g_error, "\"scatter_gather_tensor_cpu_reduce_amax\" not implemented for 'Complex") != NULL,
              "complex amax: %s", g_error);
        /* where with a broadcast value, flip, cat */
        tensor *cond = TV(TC_BOOL, DIMS(4), (const double[]){1, 0, 0, 1}), *w = T(dt, DIMS(4));
        CHECK_OK(run("where", dt, 3, (tensor *[]){cond, V(g, 2, DIMS(4), (int64_t[]){0}), x}, 1, (tensor *[]){w}, 0,
                     NULL, 0, NULL));
        CHECK_C(w, 0, 1, 2, 0, "complex where");
        CHECK_C(w, 1, 0, 3, 0, "complex where");
        CHECK_C(w, 3, 1, 2, 0, "complex where");
        tensor *f = T(dt, DIMS(4)), *cc = T(dt, DIMS(8));
        CHECK_OK(run("flip", dt, 1, (tensor *[]){x}, 1, (tensor *[]){f}, 0, NULL, 1, (int64_t[]){0}));
        CHECK_C(f, 0, -4, 0, 0, "complex flip");
        CHECK_C(f, 2, 0, 3, 0, "complex flip");
        CHECK_OK(run("cat", dt, 2, (tensor *[]){x, f}, 1, (tensor *[]){cc}, 0, NULL, 1, (int64_t[]){0}));
        CHECK_C(cc, 1, 0, 3, 0, "complex cat");
        CHECK_C(cc, 7, 1, 2, 0, "complex cat");
        /* truth: 3j is nonzero, but any() of [3j, 0] is false (the real part alone) */
        tensor *cnt = T(TC_INT64, DIMS(1)), *any = T(TC_BOOL, DIMS(1)), *nan = T(TC_BOOL, DIMS(3));
        tensor *c0 = V(cnt, 0, 0, (int64_t[]){0}, (int64_t[]){0}); /* 0-dim */
        CHECK_OK(run("nonzero_count", dt, 1, (tensor *[]){x}, 1, (tensor *[]){c0}, 0, NULL, 0, NULL));
        CHECK(ati(cnt, 0) == 3, "complex nonzero_count %lld", (long long)ati(cnt, 0));
        CHECK_OK(run("any", dt, 1, (tensor *[]){V(x, 1, DIMS(2), (int64_t[]){1})}, 1, (tensor *[]){any}, 0, NULL, 0,
                     NULL));
        CHECK(ati(any, 0) == 0, "complex any reads the real part");
        tensor *sp = CV(dt, 3, (double[]){1, NAN, INFINITY, 0, 1, 1});
        CHECK_OK(run("isnan", dt, 1, (tensor *[]){sp}, 1, (tensor *[]){nan}, 0, NULL, 0, NULL));
        CHECK_VALUES(nan, 0, "complex isnan", 1, 0, 0);
        CHECK_OK(run("isinf", dt, 1, (tensor *[]){sp}, 1, (tensor *[]){nan}, 0, NULL, 0, NULL));
        CHECK_VALUES(nan, 0, "complex isinf", 0, 1, 0);
        /* cross([1+2j, 3j, 0], [-4, 3j, 1+2j]) = [3j (1+2j), -(1+2j)^2, (1+2j) 3j + 12j] */
        tensor *cr = T(dt, DIMS(3));
        tensor *x3 = V(x, 0, DIMS(3), (int64_t[]){1});
        CHECK_OK(run("linalg_cross", dt, 2, (tensor *[]){x3, g}, 1, (tensor *[]){cr}, 0, NULL, 1, (int64_t[]){0}));
        CHECK_C(cr, 0, -6, 3, 0, "complex cross");
        CHECK_C(cr, 1, 3, -4, 0, "complex cross");
        CHECK_C(cr, 2, -6, 15, 0, "complex cross");
    }
    CHECK(g_live_allocs == 0, "%ld scratch allocations leaked", g_live_allocs);
}

static const test_case g_tests[] = {
    {"registration", test_registration},
    {"copy", test_copy},
    {"add_sub", test_add_sub},
    {"add_large", test_add_large},
    {"mul_div", test_mul_div},
    {"floor_divide_remainder", test_floor_divide_remainder},
    {"pow", test_pow},
    {"maximum_minimum", test_maximum_minimum},
    {"compare", test_compare},
    {"unary", test_unary},
    {"sum", test_sum},
    {"sum_large", test_sum_large},
    {"max_min", test_max_min},
    {"max_min_dim", test_max_min_dim},
    {"mm_float", test_mm_float},
    {"mm_other", test_mm_other},
    {"arange_linspace", test_arange_linspace},
    {"bmm", test_bmm},
    {"fill", test_fill},
    {"converting_inputs", test_converting_inputs},
    {"index_gather", test_index_gather},
    {"index_put_modes", test_index_put_modes},
    {"masked_and_rearranging", test_masked_and_rearranging},
    {"complex_arith", test_complex_arith},
    {"complex_unary", test_complex_unary},
    {"complex_mm", test_complex_mm},
    {"linalg_eig_providers", test_linalg_eig_providers},
    {"linalg_factor_providers", test_linalg_factor_providers},
    {"complex_movement", test_complex_movement},
    {"exp_matches_sleef", test_exp_matches_sleef},
};

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <package_dir>\n", argv[0]);
        return 2;
    }
    const struct {
        const char *file;
        int level, score;
    } variants[] = {{"libtorch_cpu.so", 2, 20}, {"libtorch_cpu_avx2.so", 3, 30}, {"libtorch_cpu_avx512.so", 4, 40}};
    int passed = 0, failed = 0, ran_variants = 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/plugins/%s", argv[1], variants[v].file);
        g_variant = variants[v].file;
        g_level = variants[v].level;
        g_test = "load";
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            printf("FAIL [%s] load: %s\n", variants[v].file, dlerror());
            failed++;
            continue;
        }
        tc_plugin_entry_fn entry = (tc_plugin_entry_fn)dlsym(h, TC_PLUGIN_ENTRY_NAME);
        const tc_plugin_desc *desc = entry ? entry() : NULL;
        g_check_failures = 0;
        CHECK(desc != NULL, "no %s", TC_PLUGIN_ENTRY_NAME);
        if (!desc) {
            failed++;
            continue;
        }
        char version[32];
        snprintf(version, sizeof version, "1.0.0 (x86-64-v%d)", variants[v].level);
        CHECK(desc->struct_size == sizeof(tc_plugin_desc) && desc->abi_major == TC_ABI_MAJOR, "descriptor header");
        CHECK(strcmp(desc->name, "cpu") == 0 && strcmp(desc->kind, TC_PLUGIN_KIND_DEVICE) == 0, "name/kind: %s/%s",
              desc->name, desc->kind);
        CHECK(strcmp(desc->version, version) == 0, "version '%s', want '%s'", desc->version, version);
        char reason[256] = "";
        const int score = desc->probe(&g_core, reason, sizeof reason);
        if (score == 0) {
            CHECK(strstr(reason, "needs x86-64-v") != NULL, "probe reason '%s'", reason);
            printf("skip [%s]: %s\n", variants[v].file, reason);
            g_check_failures ? failed++ : passed++;
            continue;
        }
        CHECK(score == variants[v].score, "probe score %d, want %d", score, variants[v].score);
        g_nkernels = 0;
        g_register_errors = 0;
        char err[256] = "";
        CHECK(desc->init(&g_core, err, sizeof err) == TC_OK, "init: %s", err);
        g_check_failures ? failed++ : passed++;
        ran_variants++;
        for (size_t t = 0; t < sizeof g_tests / sizeof g_tests[0]; t++) {
            g_test = g_tests[t].name;
            g_check_failures = 0;
            g_threads = 2;
            g_blas = NULL;
            g_tests[t].fn();
            free_tensors();
            g_check_failures ? failed++ : passed++;
        }
        if (desc->shutdown) desc->shutdown();
        /* Not dlclose'd: unloading a library whose OpenMP worker threads are alive is unsafe. */
    }
    if (ran_variants == 0) {
        printf("FAIL no CPU plugin variant could run here\n");
        failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
