/*
 * masked.c - the condition-driven kernels: where (out = cond ? a : b, masked_fill's too),
 * nonzero_count (the core's count before it allocates a data-dependent result), nonzero,
 * masked_select (self's elements, or trailing blocks, where a leading mask is true) and
 * masked_scatter (source's elements, in order, where a mask is true).
 *
 * Results that depend on the order elements are met in walk them row-major: the layout's dims are
 * merged where every operand allows but never reordered. masked_select splits the mask into pieces
 * counted first, so each thread knows where its rows land.
 */
#include "complex.h"
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"

#include <string.h>

/* ---- where ---------------------------------------------------------------------------------------- */

#define WHERE_LOOP(T)                                                                               \
    static void loop_where_##T(int64_t n, char *const *p, const int64_t *s, void *ctx) {            \
        T *o = (T *)p[0];                                                                          \
        const uint8_t *c = (const uint8_t *)p[1];                                                  \
        const T *a = (const T *)p[2], *b = (const T *)p[3];                                        \
        (void)ctx;                                                                                 \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1 && s[3] == 1) {                                    \
            for (int64_t i = 0; i < n; i++) o[i] = c[i] ? a[i] : b[i];                             \
        } else if (s[0] == 1 && s[1] == 1 && s[2] == 0 && s[3] == 1) { /* masked_fill */           \
            const T v = a[0];                                                                      \
            for (int64_t i = 0; i < n; i++) o[i] = c[i] ? v : b[i];                                \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) o[i * s[0]] = c[i * s[1]] ? a[i * s[2]] : b[i * s[3]]; \
        }                                                                                          \
    }
WHERE_LOOP(uint8_t)
WHERE_LOOP(uint16_t)
WHERE_LOOP(uint32_t)
WHERE_LOOP(uint64_t)
WHERE_LOOP(cpu_bits16)

/* inputs: condition (bool or uint8), a, b (T), all at out's sizes. */
static int k_where(const tc_kernel_args *args) {
    if (cpu_check_args(args, 3, 1, "where") != TC_OK) return TC_FAIL;
    if (cpu_dtype_size(args->inputs[0].dtype) != 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu where: the condition must be bool or uint8");
    const size_t es = cpu_dtype_size(args->outputs[0].dtype);
    cpu_loop_fn loop = es == 1 ? loop_where_uint8_t : es == 2 ? loop_where_uint16_t : es == 4 ? loop_where_uint32_t
                     : es == 8 ? loop_where_uint64_t : loop_where_cpu_bits16;
    const tc_view *views[4] = {&args->outputs[0], &args->inputs[0], &args->inputs[1], &args->inputs[2]};
    return cpu_iterate(views, 4, loop, NULL);
}

/* ---- counting ------------------------------------------------------------------------------------- */

/* Whether an element is nonzero, per kind: floats compare as values (-0.0 is zero, NaN is not), a
 * complex value is nonzero when either part is. */
#define NZ_KB(S, x) ((x) != 0)
#define NZ_KU NZ_KB
#define NZ_KI NZ_KB
#define NZ_KF(S, x) (cpu_ld_##S(x) != 0)
#define NZ_KC(S, x) ((x).re != 0 || (x).im != 0)
#define NONZERO(S, x) CPU_CAT(NZ_, CPU_K_##S)(S, x)

#define COUNT_STAMP(_, S)                                                                          \
    static void loop_count_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {          \
        const CPU_T_##S *x = (const CPU_T_##S *)p[0];                                              \
        int64_t c = 0;                                                                             \
        if (s[0] == 1)                                                                             \
            for (int64_t i = 0; i < n; i++) c += NONZERO(S, x[i]);                                 \
        else                                                                                       \
            for (int64_t i = 0; i < n; i++) c += NONZERO(S, x[i * s[0]]);                          \
        __atomic_fetch_add((int64_t *)vctx, c, __ATOMIC_RELAXED);                                  \
    }                                                                                              \
    static int k_nonzero_count_##S(const tc_kernel_args *args) {                                   \
        if (cpu_check_args(args, 1, 1, "nonzero_count") != TC_OK) return TC_FAIL;                 \
        int64_t count = 0;                                                                         \
        const tc_view *views[1] = {&args->inputs[0]};                                              \
        if (cpu_iterate(views, 1, loop_count_##S, &count)) return TC_FAIL;                         \
        *(int64_t *)args->outputs[0].data = count;                                                 \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_ALL(COUNT_STAMP, _)
CPU_DTYPES_COMPLEX_FULL(COUNT_STAMP, _)

/* ---- nonzero -------------------------------------------------------------------------------------- */

/* The coordinates of the nonzero elements, row-major, into a [count, ndim] int64 result: a counter
 * over the outer dims and a scan of each row of the last dim. */
#define NONZERO_STAMP(_, S)                                                                        \
    static int k_nonzero_##S(const tc_kernel_args *args) {                                         \
        if (cpu_check_args(args, 1, 1, "nonzero") != TC_OK) return TC_FAIL;                        \
        const tc_view *in = &args->inputs[0], *out = &args->outputs[0];                            \
        const int32_t nd = in->ndim;                                                               \
        const int64_t rows = out->sizes[0], s0 = out->strides[0], s1 = nd ? out->strides[1] : 0;   \
        int64_t idx[TC_MAX_DIMS] = {0}, row = 0;                                                   \
        for (int32_t d = 0; d < nd; d++)                                                           \
            if (in->sizes[d] == 0) return TC_OK;                                                   \
        const CPU_T_##S *base = (const CPU_T_##S *)in->data;                                       \
        int64_t *o = (int64_t *)out->data;                                                         \
        const int64_t inner = nd ? in->sizes[nd - 1] : 1, is = nd ? in->strides[nd - 1] : 0;       \
        for (;;) {                                                                                 \
            int64_t off = 0;                                                                       \
            for (int32_t d = 0; d + 1 < nd; d++) off += idx[d] * in->strides[d];                   \
            for (int64_t j = 0; j < inner; j++) {                                                  \
                if (!NONZERO(S, base[off + j * is])) continue;                                     \
                if (row == rows) /* the data changed since it was counted */                       \
                    return cpu_core->set_error(TC_ERR_RUNTIME, "nonzero: more elements than counted"); \
                for (int32_t d = 0; d + 1 < nd; d++) o[row * s0 + d * s1] = idx[d];                \
                if (nd) o[row * s0 + (nd - 1) * s1] = j;                                           \
                row++;                                                                             \
            }                                                                                      \
            int32_t d = nd - 2;                                                                    \
            for (; d >= 0; d--) {                                                                  \
                if (++idx[d] < in->sizes[d]) break;                                                \
                idx[d] = 0;                                                                        \
            }                                                                                      \
            if (d < 0) break;                                                                      \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_ALL(NONZERO_STAMP, _)
CPU_DTYPES_COMPLEX_FULL(NONZERO_STAMP, _)

/* ---- row-major layouts ------------------------------------------------------------------------------ */

/* The first `ndim` dims of two operands' views in row-major order, neighbours merged where both
 * allow; one dim of size 1 when there are none. */
static void rowmajor_layout(cpu_layout *l, const tc_view *a, const tc_view *b, int32_t ndim) {
    l->ndim = 0;
    l->nops = 2;
    for (int32_t d = 0; d < ndim; d++) {
        if (a->sizes[d] == 1) continue;
        int64_t strides[2] = {a->strides[d], b->strides[d]};
        cpu_layout_push(l, a->sizes[d], strides); /* cannot fail: at most TC_MAX_DIMS dims */
    }
    if (l->ndim == 0) {
        int64_t ones[2] = {1, 1};
        cpu_layout_push(l, 1, ones);
    }
    cpu_layout_coalesce(l);
}

/* ---- masked_select ---------------------------------------------------------------------------------- */

/* One piece of the mask: its count, then where its blocks land. */
typedef struct select_piece {
    int64_t count;
    int64_t row; /* the result row its first block goes to */
} select_piece;

typedef struct select_job {
    cpu_layout l; /* mask (operand 0) and self's leading dims (operand 1) */
    char *data[2];
    size_t elsize[2];
    int64_t numel, piece_len;
    select_piece *pieces;
    /* blocks: self's trailing dims, copied to a result row */
    const tc_view *self, *out;
    int32_t lead; /* the mask's dims */
    size_t es;
    int64_t block; /* elements per block */
    int contiguous;  /* self's block and the result's rows are dense */
} select_job;

static void loop_select_count(int64_t n, char *const *p, const int64_t *s, void *vctx) {
    select_piece *piece = vctx;
    const uint8_t *m = (const uint8_t *)p[0];
    int64_t c = 0;
    if (s[0] == 1)
        for (int64_t i = 0; i < n; i++) c += m[i] != 0;
    else
        for (int64_t i = 0; i < n; i++) c += m[i * s[0]] != 0;
    piece->count += c;
}

/* Copies one block of self's trailing dims (at src) to the result row at dst. */
static void copy_block(const select_job *j, char *dst, const char *src) {
    if (j->contiguous) {
        memcpy(dst, src, j->es * (size_t)j->block);
        return;
    }
    const tc_view *self = j->self, *out = j->out;
    const int32_t nt = self->ndim - j->lead;
    int64_t idx[TC_MAX_DIMS] = {0};
    for (int64_t e = 0; e < j->block; e++) {
        int64_t so = 0, oo = 0;
        for (int32_t d = 0; d < nt; d++) {
            so += idx[d] * self->strides[j->lead + d];
            oo += idx[d] * out->strides[1 + d];
        }
        memcpy(dst + (ptrdiff_t)oo * (ptrdiff_t)j->es, src + (ptrdiff_t)so * (ptrdiff_t)j->es, j->es);
        for (int32_t d = nt - 1; d >= 0 && ++idx[d] == self->sizes[j->lead + d]; d--) idx[d] = 0;
    }
}

typedef struct select_run {
    select_job *job;
    char *out_row;
} select_run;

/* Single elements into a dense result: a branch-free compress (every element is stored into a small
 * buffer and the position advances only past the selected ones, so a random mask costs no
 * mispredicted branches), the buffer then copied out. */
#define COMPRESS(T)                                                                                 \
    static char *compress_##T(int64_t n, const uint8_t *m, int64_t ms, const T *src, int64_t ss, char *out) { \
        T buf[256];                                                                                \
        for (int64_t i = 0; i < n; i += 256) {                                                     \
            const int64_t len = n - i < 256 ? n - i : 256;                                         \
            int64_t k = 0;                                                                         \
            for (int64_t e = 0; e < len; e++) {                                                    \
                buf[k] = src[(i + e) * ss];                                                        \
                k += m[(i + e) * ms] != 0;                                                         \
            }                                                                                      \
            memcpy(out, buf, (size_t)k * sizeof(T));                                               \
            out += k * (int64_t)sizeof(T);                                                         \
        }                                                                                          \
        return out;                                                                                \
    }
COMPRESS(uint8_t)
COMPRESS(uint16_t)
COMPRESS(uint32_t)
COMPRESS(uint64_t)
COMPRESS(cpu_bits16)

static void loop_select_copy(int64_t n, char *const *p, const int64_t *s, void *vctx) {
    select_run *r = vctx;
    const select_job *j = r->job;
    const uint8_t *m = (const uint8_t *)p[0];
    const char *src = p[1];
    const ptrdiff_t row_bytes = (ptrdiff_t)j->out->strides[0] * (ptrdiff_t)j->es;
    const ptrdiff_t step = (ptrdiff_t)s[1] * (ptrdiff_t)j->elsize[1];
    if (j->block == 1 && j->out->strides[0] == 1) {
        switch (j->es) {
        case 1: r->out_row = compress_uint8_t(n, m, s[0], (const uint8_t *)src, s[1], r->out_row); return;
        case 2: r->out_row = compress_uint16_t(n, m, s[0], (const uint16_t *)src, s[1], r->out_row); return;
        case 4: r->out_row = compress_uint32_t(n, m, s[0], (const uint32_t *)src, s[1], r->out_row); return;
        case 8: r->out_row = compress_uint64_t(n, m, s[0], (const uint64_t *)src, s[1], r->out_row); return;
        default: r->out_row = compress_cpu_bits16(n, m, s[0], (const cpu_bits16 *)src, s[1], r->out_row); return;
        }
    }
    if (j->block == 1) {
        for (int64_t i = 0; i < n; i++) {
            if (!m[i * s[0]]) continue;
            memcpy(r->out_row, src + i * step, j->es);
            r->out_row += row_bytes;
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        if (!m[i * s[0]]) continue;
        copy_block(j, r->out_row, src + i * step);
        r->out_row += row_bytes;
    }
}

static void select_count_pieces(void *vjob, int64_t begin, int64_t end) {
    select_job *j = vjob;
    for (int64_t k = begin; k < end; k++) {
        int64_t b = k * j->piece_len, e = b + j->piece_len < j->numel ? b + j->piece_len : j->numel;
        j->pieces[k].count = 0;
        cpu_layout_run(&j->l, j->data, j->elsize, b, e, loop_select_count, &j->pieces[k]);
    }
}

static void select_copy_pieces(void *vjob, int64_t begin, int64_t end) {
    select_job *j = vjob;
    for (int64_t k = begin; k < end; k++) {
        int64_t b = k * j->piece_len, e = b + j->piece_len < j->numel ? b + j->piece_len : j->numel;
        select_run r = {j, (char *)j->out->data + (ptrdiff_t)j->pieces[k].row * j->out->strides[0] * (ptrdiff_t)j->es};
        cpu_layout_run(&j->l, j->data, j->elsize, b, e, loop_select_copy, &r);
    }
}

/* inputs: self (T), mask (one byte per element) over self's leading dims; output [count, self's
 * trailing sizes...]. */
static int k_masked_select(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "masked_select") != TC_OK) return TC_FAIL;
    const tc_view *self = &args->inputs[0], *mask = &args->inputs[1], *out = &args->outputs[0];
    if (mask->ndim > self->ndim || out->ndim != self->ndim - mask->ndim + 1 || cpu_dtype_size(mask->dtype) != 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu masked_select: bad operands");
    select_job j = {.self = self, .out = out, .lead = mask->ndim, .es = cpu_dtype_size(self->dtype), .block = 1};
    tc_view lead = *self;
    lead.ndim = mask->ndim;
    rowmajor_layout(&j.l, mask, &lead, mask->ndim);
    j.data[0] = mask->data;
    j.data[1] = self->data;
    j.elsize[0] = 1;
    j.elsize[1] = j.es;
    j.numel = cpu_layout_numel(&j.l);
    int dense = 1;
    int64_t expect = 1;
    for (int32_t d = self->ndim - 1; d >= mask->ndim; d--) {
        const int64_t size = self->sizes[d];
        j.block *= size;
        if (size != 1 && (self->strides[d] != expect || out->strides[1 + d - mask->ndim] != expect)) dense = 0;
        expect *= size;
    }
    j.contiguous = dense;
    if (j.numel == 0 || j.block == 0 || out->sizes[0] == 0) return TC_OK;
    /* pieces of at least a grain of mask elements, a few per thread for balance */
    const int nt = cpu_threads_for(j.numel * (j.block > 1 ? 2 : 1));
    int64_t n_pieces = nt > 1 ? 4 * (int64_t)nt : 1;
    j.piece_len = (j.numel + n_pieces - 1) / n_pieces;
    n_pieces = (j.numel + j.piece_len - 1) / j.piece_len;
    select_piece one, *pieces = n_pieces == 1 ? &one : cpu_core->host_alloc(sizeof(select_piece) * (size_t)n_pieces);
    if (!pieces) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in masked_select");
    j.pieces = pieces;
    cpu_parallel(n_pieces, nt, select_count_pieces, &j);
    int64_t total = 0;
    for (int64_t k = 0; k < n_pieces; k++) {
        pieces[k].row = total;
        total += pieces[k].count;
    }
    int rc = TC_OK;
    if (total != out->sizes[0]) /* the mask changed since the core counted it */
        rc = cpu_core->set_error(TC_ERR_RUNTIME, "masked_select: the mask has %lld true elements, not the %lld counted",
                                 (long long)total, (long long)out->sizes[0]);
    else
        cpu_parallel(n_pieces, nt, select_copy_pieces, &j);
    if (pieces != &one) cpu_core->host_free(pieces, sizeof(select_piece) * (size_t)n_pieces);
    return rc;
}

/* ---- masked_scatter ------------------------------------------------------------------------------- */

typedef struct scatter_ctx {
    const char *src;
    int64_t stride, count, taken;
    size_t es;
    int short_source;
} scatter_ctx;

static void loop_masked_scatter(int64_t n, char *const *p, const int64_t *s, void *vctx) {
    scatter_ctx *c = vctx;
    const uint8_t *m = (const uint8_t *)p[1];
    for (int64_t i = 0; i < n; i++) {
        if (!m[i * s[1]]) continue;
        if (c->taken == c->count) {
            c->short_source = 1;
            return;
        }
        const ptrdiff_t es = (ptrdiff_t)c->es;
        memcpy(p[0] + (ptrdiff_t)i * s[0] * es, c->src + (ptrdiff_t)c->taken * c->stride * es, c->es);
        c->taken++;
    }
}

/* inputs: mask (one byte per element, at out's sizes), source (T, 1-D); output: self. */
static int k_masked_scatter(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "masked_scatter") != TC_OK) return TC_FAIL;
    const tc_view *out = &args->outputs[0], *mask = &args->inputs[0], *source = &args->inputs[1];
    if (mask->ndim != out->ndim || source->ndim != 1 || cpu_dtype_size(mask->dtype) != 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu masked_scatter: bad operands");
    scatter_ctx c = {.src = source->data, .stride = source->strides[0], .count = source->sizes[0],
                     .es = cpu_dtype_size(out->dtype)};
    cpu_layout l;
    rowmajor_layout(&l, out, mask, out->ndim);
    char *data[2] = {out->data, mask->data};
    size_t elsize[2] = {c.es, 1};
    for (int32_t d = 0; d < out->ndim; d++)
        if (out->sizes[d] == 0) return TC_OK;
    cpu_layout_run(&l, data, elsize, 0, cpu_layout_numel(&l), loop_masked_scatter, &c);
    if (c.short_source)
        return cpu_core->set_error(TC_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
    return TC_OK;
}

#define ENTRY(_, S)                                                                                \
    {"where", CPU_DT_##S, k_where}, {"nonzero_count", CPU_DT_##S, k_nonzero_count_##S},             \
    {"nonzero", CPU_DT_##S, k_nonzero_##S}, {"masked_select", CPU_DT_##S, k_masked_select},         \
    {"masked_scatter", CPU_DT_##S, k_masked_scatter},
/* complex64/complex128: where, masked_select and masked_scatter move them by size; counts and
 * nonzero test both parts */
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
