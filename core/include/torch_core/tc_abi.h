/*
 * tc_abi.h - the plugin ABI of libtorch_core (ABI major 1, minor 6).
 *
 * Everything a plugin (device backend, BLAS provider, layout, third-party extension) sees of the
 * core is in this header. Plugins do not link libtorch_core.so: the core hands each plugin's init a
 * table of function pointers (tc_core_api) that only ever grows at its end. Only plain C types,
 * DLPack-like views and opaque handles cross the boundary; every struct that does has a size
 * assertion below.
 *
 * Compatibility rules (docs/plugin-abi.md has the long form):
 *   - never reorder, remove or retype a member; append members at the end and bump TC_ABI_MINOR;
 *   - structs a plugin hands to the core start with `struct_size`: the core accepts a struct from an
 *     older minor (a smaller struct_size) and reads only the members it has;
 *   - structs the core hands to a plugin (tc_kernel_args and the tc_view/tc_scalar arrays in it) are
 *     built in the layout of the minor the plugin was compiled against (its descriptor's abi_minor),
 *     so a plugin compiled against 1.0 keeps indexing 40-byte views and 16-byte scalars;
 *   - a plugin checks tc_core_api.struct_size (or abi_minor) before using a member added later than
 *     the oldest core it wants to load into;
 *   - a change that cannot be made by appending bumps TC_ABI_MAJOR, and the core then refuses plugins
 *     built for another major (they are reported as failed, with the reason).
 */
#ifndef TC_ABI_H
#define TC_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_ABI_MAJOR 1
#define TC_ABI_MINOR 6

#if defined(__GNUC__)
#define TC_EXPORT __attribute__((visibility("default")))
#else
#define TC_EXPORT
#endif

/* The most dimensions a tensor may have. */
#define TC_MAX_DIMS 64

/* ---- dtypes ---------------------------------------------------------------------------------- */

/* Values are ABI: appended to, never renumbered. TC_NUM_DTYPES is the count of the header a plugin
 * was built with: a kernel registered for TC_ANY_DTYPE may receive dtypes added later (the complex
 * ones, since 1.3, to a 1.2 plugin) and must refuse what it does not know. A complex element is
 * two values of its part's type, real part first (C's _Complex layout; complex32's parts are
 * float16). */
typedef enum tc_dtype {
    TC_BOOL = 0,
    TC_UINT8 = 1,
    TC_INT8 = 2,
    TC_INT16 = 3,
    TC_INT32 = 4,
    TC_INT64 = 5,
    TC_FLOAT16 = 6,
    TC_BFLOAT16 = 7,
    TC_FLOAT32 = 8,
    TC_FLOAT64 = 9,
    /* since 1.3 */
    TC_COMPLEX32 = 10,
    TC_COMPLEX64 = 11,
    TC_COMPLEX128 = 12,
    TC_NUM_DTYPES = 13
} tc_dtype;

/* ---- errors ---------------------------------------------------------------------------------- */

/* Every call that can fail returns an int: TC_OK (0) on success, TC_FAIL (-1) on failure with the
 * message and kind stored in the calling thread's error state (tc_core_api.set_error). */
#define TC_OK 0
#define TC_FAIL (-1)

/* Kinds map onto Python exceptions: runtime -> RuntimeError, type -> TypeError, index -> IndexError,
 * value -> ValueError, out_of_memory -> RuntimeError ("out of memory"), not_implemented ->
 * NotImplementedError, linalg -> torch.linalg.LinAlgError. */
typedef enum tc_error_kind {
    TC_ERR_NONE = 0,
    TC_ERR_RUNTIME = 1,
    TC_ERR_TYPE = 2,
    TC_ERR_INDEX = 3,
    TC_ERR_VALUE = 4,
    TC_ERR_OUT_OF_MEMORY = 5,
    TC_ERR_NOT_IMPLEMENTED = 6,
    TC_ERR_LINALG = 7 /* since 1.3: torch.linalg.LinAlgError (a RuntimeError): singular or not positive-definite */
} tc_error_kind;

/* ---- devices and layouts --------------------------------------------------------------------- */

/* Device type ids: 0 is the built-in CPU; plugins register further types by name and receive an id. */
#define TC_DEVICE_CPU 0
#define TC_MAX_DEVICE_TYPES 16

typedef struct tc_device {
    int32_t type;  /* device type id */
    int32_t index; /* device ordinal; 0 for the CPU */
} tc_device;
_Static_assert(sizeof(tc_device) == 8, "tc_device is ABI");

/* Layout ids. "strided" (0) and "sparse_coo" (1) are built in; since 1.1 plugins register further
 * layouts by name (tc_core_api.register_layout) and receive an id below TC_MAX_LAYOUTS.
 * TC_NUM_LAYOUTS is the 1.0 count, kept for source compatibility only. */
typedef enum tc_layout { TC_STRIDED = 0, TC_SPARSE_COO = 1, TC_NUM_LAYOUTS = 2 } tc_layout;
#define TC_MAX_LAYOUTS 8

/* Opaque handles. A tc_tensor is reference counted (tc_core_api.tensor_retain/release); a kernel
 * never needs one (it receives views), a plugin that calls ops does. */
typedef struct tc_tensor tc_tensor;
typedef struct tc_generator tc_generator;

/* ---- views handed to kernels ----------------------------------------------------------------- */

/* A plain, DLPack-like description of one tensor operand. `data` already includes the storage
 * offset; strides are in elements and may be 0 (broadcast), never negative. The arrays are owned by
 * the caller and valid for the kernel call only. struct_size and layout were appended in 1.1: a
 * plugin built against 1.0 receives 40-byte views without them. */
typedef struct tc_view {
    void *data;
    const int64_t *sizes;
    const int64_t *strides;
    int32_t ndim;
    int32_t dtype; /* tc_dtype */
    tc_device device;
    /* since 1.1 */
    uint32_t struct_size; /* sizeof(tc_view) of the core's layout */
    int32_t layout;       /* layout id */
} tc_view;
_Static_assert(sizeof(tc_view) == 48, "tc_view 1.1 layout is ABI");
#define TC_VIEW_SIZE_1_0 40

/* A scalar argument. `kind` says which member holds the value: integers as int64 (TC_SCALAR_INT),
 * floating values as double (TC_SCALAR_FLOAT), and since 1.1 complex ones as the double pair
 * (v.f, imag) (TC_SCALAR_COMPLEX) and booleans as int64 0 or 1 (TC_SCALAR_BOOL: read v.i, as for an
 * integer; the kind only says that Python wrote True/False). `is_float` is the 1.0 name of `kind`:
 * 1.0 plugins receive 16-byte scalars whose is_float is 1 exactly when v.f holds the value. */
#define TC_SCALAR_INT 0
#define TC_SCALAR_FLOAT 1
#define TC_SCALAR_COMPLEX 2
#define TC_SCALAR_BOOL 3
typedef struct tc_scalar {
    union {
        int32_t kind;
        int32_t is_float;
    };
    uint32_t struct_size; /* 1.0: reserved (0); since 1.1 sizeof(tc_scalar) where the core fills it */
    union {
        double f;
        int64_t i;
    } v;
    double imag; /* since 1.1 */
} tc_scalar;
_Static_assert(sizeof(tc_scalar) == 24, "tc_scalar 1.1 layout is ABI");
#define TC_SCALAR_SIZE_1_0 16

/* ---- boxed values: one argument or result of an op, tagged with its schema type --------------- */

/* Value tags, one per type of PyTorch's schema language (TC_VALUE_NONE is an absent optional). */
typedef enum tc_value_tag {
    TC_VALUE_NONE = 0,
    TC_VALUE_TENSOR = 1,        /* v.tensor */
    TC_VALUE_TENSOR_LIST = 2,   /* v.tensors (Tensor[]; in Tensor?[] an item may be NULL) */
    TC_VALUE_SCALAR = 3,        /* v.scalar */
    TC_VALUE_INT = 4,           /* v.i */
    TC_VALUE_INT_LIST = 5,      /* v.ints */
    TC_VALUE_FLOAT = 6,         /* v.f */
    TC_VALUE_FLOAT_LIST = 7,    /* v.floats */
    TC_VALUE_BOOL = 8,          /* v.b */
    TC_VALUE_BOOL_LIST = 9,     /* v.bools */
    TC_VALUE_STR = 10,          /* v.s (NUL-terminated, borrowed) */
    TC_VALUE_DTYPE = 11,        /* v.i: tc_dtype */
    TC_VALUE_LAYOUT = 12,       /* v.i: layout id */
    TC_VALUE_DEVICE = 13,       /* v.device */
    TC_VALUE_GENERATOR = 14,    /* v.generator */
    TC_VALUE_MEMORY_FORMAT = 15 /* v.i: TC_MEMORY_FORMAT_* */
} tc_value_tag;

#define TC_MEMORY_FORMAT_PRESERVE 0
#define TC_MEMORY_FORMAT_CONTIGUOUS 1
#define TC_MEMORY_FORMAT_CHANNELS_LAST 2
#define TC_MEMORY_FORMAT_CHANNELS_LAST_3D 3

/* Arguments are borrowed by the callee. Results own what they hold: a tensor result is a new
 * reference, a tensor-list result a malloc'd array of new references (values_release frees both). */
typedef struct tc_value {
    int32_t tag; /* tc_value_tag */
    int32_t reserved;
    union {
        tc_tensor *tensor;
        struct {
            tc_tensor *const *items;
            int64_t len;
        } tensors;
        struct {
            const int64_t *items;
            int64_t len;
        } ints;
        struct {
            const double *items;
            int64_t len;
        } floats;
        struct {
            const bool *items;
            int64_t len;
        } bools;
        tc_scalar scalar;
        int64_t i;
        double f;
        bool b;
        const char *s;
        tc_device device;
        tc_generator *generator;
    } v;
} tc_value;
_Static_assert(sizeof(tc_value) == 32, "tc_value is ABI");

/* ---- kernels --------------------------------------------------------------------------------- */

/* Everything one kernel invocation receives. The core has already checked shapes, promoted dtypes
 * and allocated outputs (each op's meta function); the kernel only computes. `scalars` and `ints`
 * are the values the kernel's contract names (docs/plugin-abi.md); `args` (since 1.1) are the op's
 * own arguments in schema order, so a kernel can read any of them by position (tensor arguments
 * appear there as handles: use `inputs`/`outputs` for their data). */
typedef struct tc_kernel_args {
    uint32_t struct_size;
    int32_t op; /* kernel id, as returned by tc_core_api.op_id */
    int32_t n_inputs;
    int32_t n_outputs;
    const tc_view *inputs;
    const tc_view *outputs;
    int32_t n_scalars;
    int32_t n_ints;
    const tc_scalar *scalars;
    const int64_t *ints;
    void *stream; /* device stream; NULL on the CPU */
    /* since 1.1 */
    int32_t schema_op; /* the op being run (an id of tc_core_api.op_lookup), -1 when internal */
    int32_t n_args;
    const tc_value *args;
} tc_kernel_args;
_Static_assert(sizeof(tc_kernel_args) == 80, "tc_kernel_args 1.1 layout is ABI");
#define TC_KERNEL_ARGS_SIZE_1_0 64

/* Returns TC_OK, or TC_FAIL after tc_core_api.set_error. */
typedef int (*tc_kernel_fn)(const tc_kernel_args *args);

/* Register with dtype TC_ANY_DTYPE for a kernel that handles every dtype itself; a kernel registered
 * for the exact dtype wins over it. */
#define TC_ANY_DTYPE (-1)

/* Flags of tc_core_api.register_kernel_flags (since 1.2). A kernel without flags receives every
 * input the op's meta function converts already converted (a full copy in the compute dtype).
 *   TC_KERNEL_CONVERTS_INPUTS  the kernel accepts inputs of any dtype and converts each element to
 *                              its registered dtype while loading, exactly as the `copy` kernel
 *                              converts (so `float32 + int64` needs no int64->float32 temporary);
 *                              outputs still have the dtypes the contract gives them */
#define TC_KERNEL_CONVERTS_INPUTS 1u

/* ---- allocators ------------------------------------------------------------------------------ */

typedef struct tc_allocator_stats {
    uint64_t allocated_bytes; /* live bytes handed out */
    uint64_t cached_bytes;    /* bytes held for reuse */
    uint64_t peak_allocated_bytes;
    uint64_t n_allocs;
    uint64_t n_cache_hits;
} tc_allocator_stats;
_Static_assert(sizeof(tc_allocator_stats) == 40, "tc_allocator_stats is ABI");

/* One allocator per device type. alloc returns NULL on failure (the core raises out-of-memory);
 * free receives the size and stream that alloc received. Both must be thread-safe. A storage
 * remembers the allocator that made it and frees through it, whatever is registered later. */
typedef struct tc_allocator {
    uint32_t struct_size;
    uint32_t reserved;
    void *ctx;
    void *(*alloc)(void *ctx, size_t nbytes, int32_t device_index, void *stream);
    void (*free)(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream);
    void (*empty_cache)(void *ctx);
    void (*stats)(void *ctx, tc_allocator_stats *out);
} tc_allocator;
_Static_assert(sizeof(tc_allocator) == 48, "tc_allocator is ABI");

/* ---- device types ---------------------------------------------------------------------------- */

/* What a device plugin registers for a new device type (e.g. "cuda"). */
typedef struct tc_device_type_desc {
    uint32_t struct_size;
    uint32_t reserved;
    const char *name;                /* "cuda"; static storage */
    int32_t (*device_count)(void);   /* 0 when no device is present */
    /* Copies nbytes between two devices of which at least one is of this type: the core calls the
     * copy of the non-CPU side (of dst's type when neither is the CPU). Both ranges are dense. */
    int (*copy)(void *dst, tc_device dst_device, const void *src, tc_device src_device, size_t nbytes,
                void *stream);
    int (*synchronize)(int32_t device_index);
} tc_device_type_desc;
_Static_assert(sizeof(tc_device_type_desc) == 40, "tc_device_type_desc is ABI");

/* ---- BLAS providers -------------------------------------------------------------------------- */

/* ---- LAPACK (since 1.3) -----------------------------------------------------------------------
 * The LAPACK routines a BLAS provider offers (tc_blas_provider.lapack), in LAPACK's own terms:
 * column-major matrices (element (i, j) at a[i + j * lda]), LAPACK's character options, `dtype`
 * TC_FLOAT32 or TC_FLOAT64 selecting the s or d routine (the complex members: TC_COMPLEX64 or
 * TC_COMPLEX128, the c or z routine). Sizes are int64_t; pivots and ranks are
 * int64_t and 1-based as LAPACK's. Each routine queries and allocates its own workspace, growing the
 * caller's scratch `ws` (may be NULL: a scratch of the call's own), so that a kernel running many
 * small factorisations allocates once per thread; release it with ws_release.
 *
 * Every routine returns 0, LAPACK's positive info (a zero pivot, a minor that is not positive
 * definite, no convergence), or a negative TC_LAPACK_* status. None of them sets the core's error
 * state, so they may run on pool workers; all are thread-safe. */
#define TC_LAPACK_NOMEM (-1001)     /* workspace could not be allocated */
#define TC_LAPACK_TOO_LARGE (-1002) /* a size or workspace does not fit the library's integers */
#define TC_LAPACK_BADARG (-1003)    /* the library rejected an argument (a caller's bug) */
#define TC_LAPACK_DTYPE (-1004)     /* a dtype the routine does not take */

typedef struct tc_lapack_ws {
    void *data;   /* owned by the provider's allocator; NULL when empty */
    size_t bytes; /* what data holds */
} tc_lapack_ws;

typedef struct tc_lapack {
    uint32_t struct_size;
    uint32_t reserved;
    const char *describe; /* e.g. "reference LAPACK 3.11.0 (Debian's liblapack)"; static storage */
    void (*ws_release)(tc_lapack_ws *ws);
    /* LU with partial pivoting: a = P L U; ipiv[min(m, n)] */
    int (*getrf)(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, int64_t *ipiv, tc_lapack_ws *ws);
    /* op(A) X = B from getrf's factors; trans 'N' or 'T' */
    int (*getrs)(int32_t dtype, char trans, int64_t n, int64_t nrhs, const void *a, int64_t lda, const int64_t *ipiv,
                 void *b, int64_t ldb, tc_lapack_ws *ws);
    /* the inverse from getrf's factors, in place */
    int (*getri)(int32_t dtype, int64_t n, void *a, int64_t lda, const int64_t *ipiv, tc_lapack_ws *ws);
    /* Cholesky: a = L L^T (uplo 'L') or U^T U ('U'), in the uplo triangle */
    int (*potrf)(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws);
    int (*potrs)(int32_t dtype, char uplo, int64_t n, int64_t nrhs, const void *a, int64_t lda, void *b, int64_t ldb,
                 tc_lapack_ws *ws);
    /* the inverse from potrf's factor, in the uplo triangle */
    int (*potri)(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws);
    /* BLAS trsm: op(A) X = alpha B (side 'L') or X op(A) = alpha B ('R'), X over B; never fails on a
     * singular A (infinities and NaNs follow, as PyTorch's triangular solves give) */
    int (*trsm)(int32_t dtype, char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                const void *a, int64_t lda, void *b, int64_t ldb, tc_lapack_ws *ws);
    /* QR: Householder vectors below the diagonal, R on and above; tau[min(m, n)] */
    int (*geqrf)(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, void *tau, tc_lapack_ws *ws);
    /* the first n columns of the product of k reflectors (m >= n >= k) */
    int (*orgqr)(int32_t dtype, int64_t m, int64_t n, int64_t k, void *a, int64_t lda, const void *tau,
                 tc_lapack_ws *ws);
    /* C = op(Q) C (side 'L') or C op(Q) ('R') with Q from geqrf's k reflectors */
    int (*ormqr)(int32_t dtype, char side, char trans, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                 const void *tau, void *c, int64_t ldc, tc_lapack_ws *ws);
    /* SVD by divide and conquer; jobz 'N', 'S' or 'A'; a is destroyed */
    int (*gesdd)(int32_t dtype, char jobz, int64_t m, int64_t n, void *a, int64_t lda, void *s, void *u, int64_t ldu,
                 void *vt, int64_t ldvt, tc_lapack_ws *ws);
    /* symmetric eigendecomposition by divide and conquer; jobz 'N' or 'V' (vectors over a); w ascending */
    int (*syevd)(int32_t dtype, char jobz, char uplo, int64_t n, void *a, int64_t lda, void *w, tc_lapack_ws *ws);
    /* general eigendecomposition; eigenvalues wr + i wi, vectors in LAPACK's packed real form */
    int (*geev)(int32_t dtype, char jobvl, char jobvr, int64_t n, void *a, int64_t lda, void *wr, void *wi, void *vl,
                int64_t ldvl, void *vr, int64_t ldvr, tc_lapack_ws *ws);
    /* least squares, b[max(m, n), nrhs] receives the solution; gels: full rank, by QR or LQ */
    int (*gels)(int32_t dtype, char trans, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                int64_t ldb, tc_lapack_ws *ws);
    /* gelsy: complete orthogonal factorisation; jpvt[n] (zeros: free columns); rank out */
    int (*gelsy)(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                 int64_t *jpvt, double rcond, int64_t *rank, tc_lapack_ws *ws);
    /* gelsd (divide and conquer) and gelss: by SVD; s[min(m, n)]; rank out */
    int (*gelsd)(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                 void *s, double rcond, int64_t *rank, tc_lapack_ws *ws);
    int (*gelss)(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                 void *s, double rcond, int64_t *rank, tc_lapack_ws *ws);
    /* since 1.4 (may be NULL; read it only when TC_STRUCT_HAS(l, tc_lapack, geev_complex)): the general
     * eigendecomposition of a complex matrix, cgeev or zgeev as dtype is TC_COMPLEX64 or TC_COMPLEX128.
     * a, vl, vr and w[n] hold interleaved (real, imaginary) pairs, leading dimensions count complex
     * elements; a is destroyed; vectors are normalised as LAPACK's (unit norm, largest part real). */
    int (*geev_complex)(int32_t dtype, char jobvl, char jobvr, int64_t n, void *a, int64_t lda, void *w, void *vl,
                        int64_t ldvl, void *vr, int64_t ldvr, tc_lapack_ws *ws);
    /* since 1.4 (may be NULL; read each only when TC_STRUCT_HAS says it is there): getrf, getrs and
     * getri of complex matrices (cgetrf/zgetrf, ...), as the real members with dtype TC_COMPLEX64 or
     * TC_COMPLEX128; matrices hold interleaved (real, imaginary) pairs, leading dimensions count
     * complex elements; getrs_complex's trans is 'N', 'T' or 'C' (the conjugate transpose). */
    int (*getrf_complex)(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, int64_t *ipiv, tc_lapack_ws *ws);
    int (*getrs_complex)(int32_t dtype, char trans, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                         const int64_t *ipiv, void *b, int64_t ldb, tc_lapack_ws *ws);
    int (*getri_complex)(int32_t dtype, int64_t n, void *a, int64_t lda, const int64_t *ipiv, tc_lapack_ws *ws);
    /* since 1.4 (may be NULL, as above): Cholesky of Hermitian positive-definite complex matrices
     * (cpotrf/zpotrf, ...), as the real potrf, potrs and potri: a = L L^H ('L') or U^H U ('U'). */
    int (*potrf_complex)(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws);
    int (*potrs_complex)(int32_t dtype, char uplo, int64_t n, int64_t nrhs, const void *a, int64_t lda, void *b,
                         int64_t ldb, tc_lapack_ws *ws);
    int (*potri_complex)(int32_t dtype, char uplo, int64_t n, void *a, int64_t lda, tc_lapack_ws *ws);
    /* since 1.5 (may be NULL; read each only when TC_STRUCT_HAS says it is there): the complex
     * counterparts of trsm, geqrf, orgqr (LAPACK's ungqr), ormqr (unmqr), gesdd, syevd (heevd, of a
     * Hermitian matrix), gels, gelsy, gelsd and gelss, with dtype TC_COMPLEX64 or TC_COMPLEX128 and the
     * real members' arguments. Matrices, tau and the right-hand sides hold interleaved (real,
     * imaginary) pairs and leading dimensions count complex elements; singular values s and
     * eigenvalues w are real (float for complex64, double for complex128). A trans or transa argument
     * takes 'C' (the conjugate transpose) where the real member takes 'T': trsm_complex 'N', 'T' or
     * 'C'; unmqr_complex and gels_complex 'N' or 'C'. trsm_complex's alpha is real. */
    int (*trsm_complex)(int32_t dtype, char side, char uplo, char transa, char diag, int64_t m, int64_t n,
                        double alpha, const void *a, int64_t lda, void *b, int64_t ldb, tc_lapack_ws *ws);
    int (*geqrf_complex)(int32_t dtype, int64_t m, int64_t n, void *a, int64_t lda, void *tau, tc_lapack_ws *ws);
    int (*ungqr_complex)(int32_t dtype, int64_t m, int64_t n, int64_t k, void *a, int64_t lda, const void *tau,
                         tc_lapack_ws *ws);
    int (*unmqr_complex)(int32_t dtype, char side, char trans, int64_t m, int64_t n, int64_t k, const void *a,
                         int64_t lda, const void *tau, void *c, int64_t ldc, tc_lapack_ws *ws);
    int (*gesdd_complex)(int32_t dtype, char jobz, int64_t m, int64_t n, void *a, int64_t lda, void *s, void *u,
                         int64_t ldu, void *vt, int64_t ldvt, tc_lapack_ws *ws);
    int (*heevd_complex)(int32_t dtype, char jobz, char uplo, int64_t n, void *a, int64_t lda, void *w,
                         tc_lapack_ws *ws);
    int (*gels_complex)(int32_t dtype, char trans, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b,
                        int64_t ldb, tc_lapack_ws *ws);
    int (*gelsy_complex)(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                         int64_t *jpvt, double rcond, int64_t *rank, tc_lapack_ws *ws);
    int (*gelsd_complex)(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                         void *s, double rcond, int64_t *rank, tc_lapack_ws *ws);
    int (*gelss_complex)(int32_t dtype, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                         void *s, double rcond, int64_t *rank, tc_lapack_ws *ws);
} tc_lapack;
_Static_assert(offsetof(tc_lapack, geev_complex) == 160, "tc_lapack 1.3 members end at 160");
_Static_assert(offsetof(tc_lapack, getri_complex) == 184, "tc_lapack 1.4 members are ABI");
_Static_assert(offsetof(tc_lapack, potri_complex) == 208, "tc_lapack 1.4 members are ABI");
_Static_assert(offsetof(tc_lapack, trsm_complex) == 216, "tc_lapack 1.4 members end at 216");
_Static_assert(offsetof(tc_lapack, gelss_complex) == 288, "tc_lapack 1.5 members are ABI");
_Static_assert(sizeof(tc_lapack) == 296, "tc_lapack 1.5 layout is ABI");
#define TC_LAPACK_SIZE_1_3 160

/* Row-major GEMM in the manner of cblas: C[m,n] = alpha * op(A) @ op(B) + beta * C, where op
 * transposes when trans is nonzero; lda/ldb/ldc are row strides in elements (the column stride is 1).
 * Sizes are > 0 and may be any int64_t: a provider whose library has narrower integers splits the
 * product itself. A one-row operand may have any leading dimension; beta == 0 never reads C. */
typedef struct tc_blas_provider {
    uint32_t struct_size;
    uint32_t reserved;
    const char *name;                  /* "blis", "openblas" */
    const char *(*describe)(void);     /* e.g. "BLIS 0.9.0, kernels: skx (AVX-512)"; static storage */
    void (*sgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                  int64_t ldc);
    void (*dgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                  const double *a, int64_t lda, const double *b, int64_t ldb, double beta, double *c,
                  int64_t ldc);
    void (*set_num_threads)(int n);
    int (*get_num_threads)(void);
    /* since 1.3: the provider's LAPACK, NULL when it has none */
    const tc_lapack *lapack;
    /* since 1.3 (may be NULL): complex GEMM. a, b and c point at interleaved (real, imaginary) pairs,
     * alpha and beta at one pair; lda/ldb/ldc count complex elements. trans may also be 2: the
     * conjugate transpose (cblas's ConjTrans). */
    void (*cgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const float *alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, const float *beta,
                  float *c, int64_t ldc);
    void (*zgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const double *alpha,
                  const double *a, int64_t lda, const double *b, int64_t ldb, const double *beta,
                  double *c, int64_t ldc);
} tc_blas_provider;
_Static_assert(offsetof(tc_blas_provider, lapack) == 56, "tc_blas_provider 1.0 members end at 56");
_Static_assert(offsetof(tc_blas_provider, cgemm) == 64, "tc_blas_provider 1.3 members are ABI");
_Static_assert(sizeof(tc_blas_provider) == 80, "tc_blas_provider 1.3 layout is ABI");
#define TC_BLAS_PROVIDER_SIZE_1_0 56

/* Whether a provider (or tc_lapack) handed over with its struct_size has `member`. */
#define TC_STRUCT_HAS(p, type, member) ((p)->struct_size >= offsetof(type, member) + sizeof((p)->member))
/* Whether a provider has `member`, set (one built against an older header has a smaller struct). */
#define TC_BLAS_HAS(p, member) (TC_STRUCT_HAS(p, tc_blas_provider, member) && (p)->member)

/* ---- FFT providers (since 1.6) ------------------------------------------------------------------ */

/* One dimension of a transform or of its batch, as FFTW's guru fftw_iodim64: n points, the input's
 * stride `is` and the output's stride `os`, in elements of each side's own type (complex elements
 * for complex data, real ones for real data). */
typedef struct tc_fft_dim {
    int64_t n, is, os;
} tc_fft_dim;
_Static_assert(sizeof(tc_fft_dim) == 24, "tc_fft_dim layout is ABI");

/* A batch of one-dimensional discrete Fourier transforms, unnormalised (the core scales), over
 * `batch_rank` loop dimensions `batch` (batch_rank may be 0; every n > 0). dtype is the complex side's:
 * TC_COMPLEX64 (float data) or TC_COMPLEX128 (double data), interleaved (real, imaginary) pairs.
 *   c2c  complex in -> complex out, sign -1 when forward, +1 otherwise; in == out (same strides) allowed.
 *   r2c  real in (n points) -> the first n/2+1 points of the forward transform (complex out).
 *   c2r  the first n/2+1 points of a Hermitian spectrum (complex in) -> n real points (the inverse
 *        transform); the imaginary parts of point 0 and, for even n, of point n/2 are ignored. It may
 *        overwrite its input (FFTW's multi-dimensional and fast c2r algorithms do).
 * Every member returns TC_OK, or TC_FAIL with a NUL-terminated message in err (never set_error: they may
 * run on pool threads). Thread-safe: any number of calls may run at once. */
typedef struct tc_fft_provider {
    uint32_t struct_size;
    uint32_t reserved;
    const char *name;              /* "fftw", "kissfft" */
    const char *(*describe)(void); /* e.g. "FFTW 3.3.10 (GPL), ..."; static storage */
    uint64_t dtypes;               /* bit (1 << dtype) per complex dtype it transforms */
    int (*c2c)(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, const void *in,
               void *out, int forward, char *err, size_t err_len);
    int (*r2c)(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, const void *in,
               void *out, char *err, size_t err_len);
    int (*c2r)(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, void *in,
               void *out, char *err, size_t err_len);
} tc_fft_provider;
_Static_assert(sizeof(tc_fft_provider) == 56, "tc_fft_provider 1.6 layout is ABI");
#define TC_FFT_PROVIDER_SIZE_1_6 56

/* ---- ops defined at run time (since 1.1) ------------------------------------------------------ */

/* What an op's meta function fills for each output: its sizes and dtype. */
typedef struct tc_tensor_spec {
    uint32_t struct_size;
    int32_t ndim;
    int32_t dtype;
    int32_t reserved;
    int64_t sizes[TC_MAX_DIMS];
} tc_tensor_spec;
_Static_assert(sizeof(tc_tensor_spec) == 16 + 8 * TC_MAX_DIMS, "tc_tensor_spec is ABI");

/* A meta function: from the op's arguments (tensor arguments as handles: read their sizes with
 * tc_core_api.tensor_view, whose data pointer must not be used here), the sizes and dtypes of its
 * outputs. TC_OK, or TC_FAIL after set_error (the message becomes the user's exception). */
typedef struct tc_meta_args {
    uint32_t struct_size;
    int32_t op;
    int32_t n_args;
    int32_t n_outputs;
    const tc_value *args;
    tc_tensor_spec *outputs;
} tc_meta_args;
_Static_assert(sizeof(tc_meta_args) == 32, "tc_meta_args is ABI");
typedef int (*tc_meta_fn)(const tc_meta_args *args);

/* An op added at run time. The schema uses PyTorch's schema language with a namespace:
 * "myext::scale(Tensor self, float factor) -> Tensor". Its kernels are registered with
 * register_kernel under the qualified name ("myext::scale"); they receive every tensor argument as
 * an input view, in schema order, and the outputs `meta` describes, allocated on the device of the
 * first tensor argument. With `meta` NULL each output has the sizes and dtype of the first tensor
 * argument. */
typedef struct tc_op_def {
    uint32_t struct_size;
    uint32_t reserved;
    const char *schema;
    tc_meta_fn meta;
} tc_op_def;
_Static_assert(sizeof(tc_op_def) == 24, "tc_op_def is ABI");

/* The backward of a runtime op: given the op's arguments and results as the forward call saw them
 * (kept by the core, and checked against in-place changes), and the gradients of its results
 * (grads[i] for result i, NULL when none flowed back), writes the gradients of its Tensor arguments
 * into grad_inputs (one slot per argument in schema order, NULL-initialised; new references, NULL:
 * no gradient). Computed with call_op, they are differentiable again (double backward). TC_OK or
 * TC_FAIL after set_error. */
typedef int (*tc_backward_kernel_fn)(void *ctx, int32_t op, const tc_value *args, const tc_value *results,
                                     tc_tensor *const *grads, tc_tensor **grad_inputs);

/* ---- the table of core functions handed to plugins -------------------------------------------- */

typedef struct tc_core_api {
    uint32_t struct_size; /* grows at its end; check it before using a member added after 1.0 */
    uint16_t abi_major;
    uint16_t abi_minor;

    /* Errors: record an error for the calling thread and return TC_FAIL. */
    int (*set_error)(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

    /* Kernels: id of a kernel name ("add", "mm", "myext::scale"), or -1 if there is none. */
    int32_t (*op_id)(const char *name);

    /* Registration, valid during init only, committed all together when init succeeds.
     * register_kernel takes the kernel by name so that plugins carry no numbering; it fails
     * (TC_FAIL) on an unknown kernel, an out-of-range dtype, or a slot another plugin holds. */
    int (*register_kernel)(const char *op, int32_t device_type, int32_t layout, int32_t dtype,
                           tc_kernel_fn fn);
    /* Returns the new device type id (>0) or TC_FAIL. */
    int32_t (*register_device_type)(const tc_device_type_desc *desc);
    int (*register_allocator)(int32_t device_type, const tc_allocator *allocator);
    int (*register_blas)(const tc_blas_provider *provider);

    /* The BLAS provider in use (never NULL once a provider has loaded; NULL if none has). */
    const tc_blas_provider *(*blas_current)(void);

    /* Threads: how many threads kernels may use (torch.set_num_threads, capped at a sane bound). */
    int (*get_num_threads)(void);

    /* Host scratch memory for kernels (aligned to 64 bytes); NULL on failure. */
    void *(*host_alloc)(size_t nbytes);
    void (*host_free)(void *ptr, size_t nbytes);

    /* Dtype facts. */
    size_t (*dtype_size)(int32_t dtype);
    const char *(*dtype_name)(int32_t dtype);

    /* ---- since 1.1: ops, layouts, fallbacks, boxed calls, tensor handles, threads ---- */

    /* Adds an op (see tc_op_def); returns its op id, or TC_FAIL (a malformed schema, or a name that
     * exists). Valid during init and, for ops added from a running program, at any time. */
    int32_t (*register_op)(const tc_op_def *def);
    /* A new layout by name ("sparse_csr"); its id, or TC_FAIL. During init only. */
    int32_t (*register_layout)(const char *name);
    /* A kernel run for every kernel name on (device_type, layout) that has no kernel of its own:
     * the meta device's "compute nothing". During init only. */
    int (*register_fallback)(int32_t device_type, int32_t layout, tc_kernel_fn fn);
    /* Op id of "name.overload" (or "name" for the overload-less op, "ns::name" for runtime ops),
     * -1 if none. */
    int32_t (*op_lookup)(const char *qualified_name);
    /* Runs an op through the dispatcher: args holds exactly the schema's arguments (defaults
     * already filled), outs receives its results (tensors as new references). TC_OK or TC_FAIL. */
    int (*call_op)(int32_t op, const tc_value *args, tc_value *outs);
    void (*tensor_retain)(tc_tensor *t);
    void (*tensor_release)(tc_tensor *t);
    /* Fills a view of t (borrowed; valid while t lives and is not resized). */
    int (*tensor_view)(const tc_tensor *t, tc_view *out);
    /* Device type id by name, -1 if none is registered. */
    int32_t (*device_type_id)(const char *name);
    /* Releases what results of call_op own (tensor references, arrays of tensor lists). */
    void (*values_release)(tc_value *values, int32_t n);
    /* Runs fn(ctx, b, e) on pieces [b, e) that together cover [begin, end) exactly once, on the
     * core's one thread pool (shared by every plugin, so kernels and BLAS never oversubscribe the
     * CPUs). Pieces are contiguous, at least `grain` long (the last may be shorter), at most one per
     * thread (get_num_threads); the calling thread runs pieces too. A range of less than two grains
     * runs inline on the caller without touching the pool, and so does a call made from inside a
     * piece (nested parallelism runs inline) or while another thread's call holds the pool. Returns
     * once every piece has run: TC_OK, or TC_FAIL for a NULL fn. Errors are per call: fn returns
     * nothing and must not call set_error (it may run on a worker thread, whose error state nobody
     * reads); record failures in ctx and raise them after parallel_for returns. The pool survives
     * fork(): the child recreates its threads when it first needs them. */
    int (*parallel_for)(int64_t begin, int64_t end, int64_t grain,
                        void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx);
    /* The backward of an op added at run time (see tc_backward_kernel_fn): with it, its results
     * take part in autograd (without it, differentiating through them raises). Once per op; during
     * init (for the plugin's own ops) or at any time. */
    int (*register_backward)(int32_t op, tc_backward_kernel_fn fn, void *ctx);

    /* ---- since 1.2: random number generators ---- */

    /* A tc_generator is a stream of random numbers owned by the core: a device's default one, or one
     * a program made (torch.Generator). Kernels receive an op's Generator? argument in
     * tc_kernel_args.args (TC_VALUE_GENERATOR, or TC_VALUE_NONE for the default) and draw through
     * the members below, which give the numbers PyTorch's CPU generator gives (mt19937 with its
     * seeding). A kernel must draw in PyTorch's order to reproduce its results, so random kernels
     * run serially where PyTorch's do. */
    /* The default generator of a device type (borrowed, lives as long as the core), or NULL when the
     * device type has none; CPU generators only so far (a device plugin that brings its own kind
     * will register it through a later member). */
    tc_generator *(*generator_default)(int32_t device_type);
    /* Holds g's lock (not recursive): a kernel takes it once around all of its draws, so that they
     * are one contiguous piece of g's stream even when other threads draw from g, as PyTorch's
     * kernels hold the generator's mutex. Every member below needs the lock held. */
    void (*generator_lock)(tc_generator *g);
    void (*generator_unlock)(tc_generator *g);
    /* The next n 32-bit outputs of g (PyTorch's random()), or n 64-bit values each made of two
     * outputs with the first in the high half (random64()). n >= 0. */
    void (*generator_fill_u32)(tc_generator *g, uint32_t *out, int64_t n);
    void (*generator_fill_u64)(tc_generator *g, uint64_t *out, int64_t n);
    /* The second sample of the Box-Muller pair that PyTorch's normal_distribution keeps for its next
     * call, one per precision (dtype TC_FLOAT32 or TC_FLOAT64): take returns 1 and forgets it when
     * one is kept (its value in *value), else 0; put keeps `value`. Seeding forgets both. */
    int (*generator_take_normal)(tc_generator *g, int32_t dtype, double *value);
    void (*generator_put_normal)(tc_generator *g, int32_t dtype, double value);

    /* ---- since 1.2 too: kernel flags ---- */

    /* register_kernel with TC_KERNEL_* flags saying what else the kernel accepts (inputs of any
     * dtype, converted while loading). Same rules and failures as register_kernel; unknown flag
     * bits are refused (ValueError), so a plugin can tell an older core's refusal apart. */
    int (*register_kernel_flags)(const char *op, int32_t device_type, int32_t layout, int32_t dtype,
                                 tc_kernel_fn fn, uint32_t flags);
    /* ---- since 1.2 too: outputs whose sizes depend on the data ---- */

    /* For ops whose result sizes only the data decides (unique, bincount): the op's meta function
     * leaves such an output unallocated, and the kernel receives it as a view with data and sizes
     * NULL and ndim -1 (dtype and device set). Once the kernel knows the sizes it calls this; the
     * core allocates output i (for out= calls a temporary, copied into the caller's tensor after the
     * kernel returns) and fills `out` with its view, valid until the kernel returns. Each deferred
     * output is allocated exactly once. Call it from the kernel's own thread, never from a
     * parallel_for piece. TC_OK, or TC_FAIL with the error set (negative sizes, too many elements,
     * out of memory, an output that is not deferred or already allocated). */
    int (*kernel_output)(const tc_kernel_args *args, int32_t i, int32_t ndim, const int64_t *sizes,
                         tc_view *out);

    /* ---- since 1.6: FFT providers ---- */

    /* Registers an FFT provider (kept for the life of the process; names unique). During init only. */
    int (*register_fft)(const tc_fft_provider *provider);
    /* The provider that transforms `dtype` (TC_COMPLEX64/128): the current one (TORCH_FFT,
     * torch.backends.fft.use) when it has that precision, else the first loaded one that has it
     * (KissFFT is float-only); NULL when none has. */
    const tc_fft_provider *(*fft_for)(int32_t dtype);
} tc_core_api;
_Static_assert(offsetof(tc_core_api, register_op) == 104, "tc_core_api 1.0 members are ABI");
_Static_assert(offsetof(tc_core_api, generator_default) == 200, "tc_core_api 1.1 members are ABI");
_Static_assert(offsetof(tc_core_api, register_kernel_flags) == 256, "tc_core_api 1.2 members are ABI");
_Static_assert(offsetof(tc_core_api, kernel_output) == 264, "tc_core_api 1.2 members are ABI");
_Static_assert(offsetof(tc_core_api, register_fft) == 272, "tc_core_api 1.6 members are ABI");
_Static_assert(sizeof(tc_core_api) == 288, "tc_core_api 1.6 layout is ABI");
#define TC_CORE_API_SIZE_1_0 104
#define TC_CORE_API_SIZE_1_1 200

/* Whether a core table has `member` (a plugin that may load into an older core checks before using
 * a member added after that core's minor). */
#define TC_CORE_HAS(core, member)                                                                    \
    ((core)->struct_size >= offsetof(tc_core_api, member) + sizeof((core)->member))

/* ---- the plugin descriptor ------------------------------------------------------------------- */

/* Kinds, as reported by torch.backends.plugins(). */
#define TC_PLUGIN_KIND_DEVICE "device"
#define TC_PLUGIN_KIND_BLAS "blas"
#define TC_PLUGIN_KIND_LAYOUT "layout"
#define TC_PLUGIN_KIND_FFT "fft" /* since 1.6 */
#define TC_PLUGIN_KIND_EXTENSION "extension"

typedef struct tc_plugin_desc {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    const char *name;    /* unique per plugin; candidates with the same name compete by probe score */
    const char *kind;    /* one of TC_PLUGIN_KIND_* */
    const char *version; /* the plugin's own version */
    /* Score > 0 when this machine can run the plugin (higher wins among same-named candidates);
     * 0 when it cannot, with the reason written to `reason`. May be NULL (score 1). */
    int (*probe)(const tc_core_api *core, char *reason, size_t reason_len);
    /* Registers what the plugin provides. TC_OK, or TC_FAIL with a message written to `err`. */
    int (*init)(const tc_core_api *core, char *err, size_t err_len);
    void (*shutdown)(void); /* may be NULL */
} tc_plugin_desc;
_Static_assert(sizeof(tc_plugin_desc) == 56, "tc_plugin_desc is ABI");

/* The one symbol every plugin exports. */
#define TC_PLUGIN_ENTRY_NAME "tc_plugin_entry"
typedef const tc_plugin_desc *(*tc_plugin_entry_fn)(void);

#define TC_PLUGIN_DESCRIPTOR_INIT                                                                   \
    .struct_size = sizeof(tc_plugin_desc), .abi_major = TC_ABI_MAJOR, .abi_minor = TC_ABI_MINOR

#ifdef __cplusplus
}
#endif
#endif /* TC_ABI_H */
