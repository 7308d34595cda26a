/*
 * linalg.h - what the CPU plugin's LAPACK kernels (linalg_*.c) share: the BLAS provider's LAPACK,
 * batches of matrices, and moving each matrix between a strided view and LAPACK's column-major
 * scratch.
 *
 * A kernel's views hold batches of matrices: the leading dims are the batch (the core's meta function
 * has expanded broadcast operands to the batch, zero strides), the last one or two the vector or
 * matrix. Each batch item is gathered into column-major scratch, computed by LAPACK there, and
 * scattered into the (contiguous or strided) outputs, so kernels never depend on a layout. The
 * copies are O(n^2) beside LAPACK's O(n^3).
 *
 * Items run side by side on the core's pool when there are many small ones (la_batches); a piece
 * never raises: it returns a status, the first failure by batch index is kept, and the kernel
 * raises it afterwards on its own thread (la_raise).
 */
#ifndef CPU_LINALG_H
#define CPU_LINALG_H

#include <stdbool.h>

#include "cpu.h"

/* Statuses items return beside LAPACK's own (0, positive info, TC_LAPACK_*). */
#define LA_NONFINITE (-2001) /* the input held NaN or infinity where the routine cannot take it */
#define LA_BAD_PIVOTS (-2002) /* pivots outside [1, n] */

/* The current provider's LAPACK, or NULL with a RuntimeError naming the provider (kernel's thread). */
const tc_lapack *la_lapack(const char *api);

/* Raises what `status` stands for (a negative TC_LAPACK_* or LA_* status) for `api`. */
int la_raise(int status, const char *api);

/* Raises the failure `st` of batch item `failed` of a's batch: LinAlgError for NaN or infinity
 * (LA_NONFINITE) and for LAPACK's positive info (no convergence: "too many repeated <what>"),
 * with PyTorch's "(Batch element k)" when a is a batch; la_raise otherwise. */
int la_raise_item(int st, int64_t failed, const tc_view *a, const char *api, const char *what);

/* Batch items of a view whose last `mdims` dims are the matrix (or vector). */
int64_t la_batch_count(const tc_view *v, int32_t mdims);
/* Element offset of batch item b (row-major over the view's own batch dims). */
int64_t la_offset(const tc_view *v, int32_t mdims, int64_t b);
/* Element offset in v (its batch dims right-aligned, size-1 dims broadcast) of item b of the batch
 * of `like`: for an output whose batch is smaller than the work's. */
int64_t la_offset_bcast(const tc_view *v, int32_t v_mdims, const tc_view *like, int32_t like_mdims, int64_t b);

static inline int64_t la_rows(const tc_view *v) { return v->sizes[v->ndim - 2]; }
static inline int64_t la_cols(const tc_view *v) { return v->sizes[v->ndim - 1]; }
static inline int64_t la_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t la_max1(int64_t a) { return a > 1 ? a : 1; }

/* Matrix of view v at element offset off <-> column-major scratch with leading dimension ld (the
 * view's rows x cols; `trans`: the scratch holds its transpose). Float32, float64, complex64 or
 * complex128, as v's dtype (complex elements as pairs; ld counts elements). */
void la_gather(const tc_view *v, int64_t off, void *dst, int64_t ld, bool trans);
void la_scatter(const tc_view *v, int64_t off, const void *src, int64_t ld, bool trans);
/* Vectors (the view's last dim) to and from scratch. */
void la_gather_vec(const tc_view *v, int64_t off, void *dst);
void la_scatter_vec(const tc_view *v, int64_t off, const void *src);
/* Writes value (converted to v's float dtype; both parts of a complex element) over the matrix at off. */
void la_fill(const tc_view *v, int64_t off, double value);
/* Whether every element (both parts of a complex one) of a rows x cols column-major scratch matrix is
 * finite. */
bool la_finite(int32_t dtype, const void *m, int64_t rows, int64_t cols, int64_t ld);

/* Scratch of one piece of work: a buffer that grows, and LAPACK's workspace. */
typedef struct la_scratch {
    void *buf;
    size_t bytes;
    tc_lapack_ws ws;
    const tc_lapack *lapack;
} la_scratch;
/* `bytes` of scratch (64-byte aligned; contents not kept when it grows), NULL when out of memory. */
void *la_scratch_get(la_scratch *s, size_t bytes);
/* Element counts to bytes for la_scratch_get: the sum of counts * es, each part rounded up to 64 bytes
 * (so parts laid out in order stay aligned), SIZE_MAX on overflow. */
size_t la_bytes(size_t es, int64_t count_a, int64_t count_b, int64_t count_c);

/* An item of work: returns 0, a positive info to report, or a negative status. */
typedef int (*la_item_fn)(void *ctx, int64_t b, la_scratch *s);

/* Runs fn for b in [0, count): side by side on the pool when each item is small (`work` is an
 * estimate of one item's multiply-adds), else one after another so LAPACK may thread each. Returns 0,
 * or the status of the failing item of lowest index, with that index in *failed_item. */
int la_batches(const tc_lapack *l, int64_t count, int64_t work, la_item_fn fn, void *ctx, int64_t *failed_item);

/* The element size of a LAPACK dtype. */
static inline size_t la_es(int32_t dtype) {
    return dtype == TC_FLOAT32 ? 4 : dtype == TC_FLOAT64 || dtype == TC_COMPLEX64 ? 8 : 16;
}

/* Raises a RuntimeError for a provider whose LAPACK lacks `member` (an ABI 1.4 or 1.5 complex routine,
 * e.g. "geev_complex", "gesdd_complex"), naming the provider, the ABI version and how to select another. */
int la_no_complex(const char *api, const char *member);

/* Whether dtype is complex64 or complex128 (the complex LAPACK members take it). */
static inline bool la_complex(int32_t dtype) { return dtype == TC_COMPLEX64 || dtype == TC_COMPLEX128; }

/* Whether the provider's LAPACK has `member`, a complex routine of ABI 1.4 or later: inside the
 * struct it was built with, and filled in. */
#define LA_HAS(l, member) (TC_STRUCT_HAS(l, tc_lapack, member) && (l)->member)
/* Raises a RuntimeError for a provider whose LAPACK lacks `member` (an ABI 1.5 complex routine, e.g.
 * "trsm_complex"), naming the provider and how to select another. */
int la_no_member(const char *api, const char *member);
/* Conjugates a rows x cols column-major scratch matrix in place (nothing for a real dtype): with a
 * transposing gather it makes the conjugate transposes LAPACK's options do not offer. */
void la_conj(int32_t dtype, void *m, int64_t rows, int64_t cols, int64_t ld);

/* Raises PyTorch's message for a dtype a LAPACK kernel does not take ("lu_cpu" not implemented for 'Half'). */
int la_dtype_error(const char *kernel, int32_t dtype);

#endif
