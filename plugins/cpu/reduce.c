/*
 * reduce.c - the reduction driver (see reduce.h): layouts, plans, threads.
 *
 * After dropping size-1 dims, sorting by input stride and merging contiguous dims, one of two plans
 * runs:
 *
 *   inner: the innermost dim is reduced (each contiguous row, or everything). Each output element
 *          reduces its rows with `row` (lanes over blocks of RED_BLOCK elements, blocks combined
 *          pairwise); rows are themselves combined pairwise. Outputs with one row each are reduced
 *          a run at a time through `rows`, and stored as a tile. With fewer outputs than threads, each
 *          output's rows (or the columns of its one long row) are split across threads and the
 *          partial results combined in order.
 *   outer: the innermost dim is kept and contiguous (sum(dim=0) of a matrix). Whole input rows are
 *          combined into a tile of accumulators (`accum`, eight rows at a time) instead of walking
 *          each column with a stride; groups of rows are combined pairwise. Tiles of columns are
 *          spread across threads, or, when there are fewer tiles than threads, the rows of each.
 *
 * Results do not depend on the thread count beyond the order partial results are combined in.
 */
#include "reduce.h"

#include "iterate.h"

#define RED_MAX_PARTS 64

typedef struct red_plan {
    const red_ops *ops;
    const red_call *cx;
    const char *in;
    char *out, *out1; /* out1: where a two-pass op writes its centres (var_mean's mean), or NULL */
    red_center_store centre_out;
    size_t in_es, out_es, out1_es;
    cpu_layout kept; /* operands (in, out, out1): dims each output element is indexed by */
    cpu_layout rows; /* operand (in): reduced dims other than the row / column dim */
    int64_t w;       /* the innermost dim: reduced (inner plan) or kept columns (outer plan) */
    int64_t w_in_stride, w_out_stride, w_out1_stride;
    int outer;
    int pass;        /* 1: the first pass of a two-pass op, which writes centres */
    double *centres; /* two-pass ops: one per output element, at k * (outer ? w : 1) + j */
} red_plan;

static const char *row_ptr(const red_plan *pl, const char *base, int64_t r) {
    return base + (size_t)cpu_layout_offset(&pl->rows, 0, r) * pl->in_es;
}

static const char *in_base(const red_plan *pl, int64_t k, int64_t j0) {
    return pl->in + (size_t)(cpu_layout_offset(&pl->kept, 0, k) + j0) * pl->in_es;
}

/* The centres of output element k's columns from j0, in the second pass; NULL otherwise. */
static const double *centres_of(const red_plan *pl, int64_t k, int64_t j0) {
    return pl->centres && pl->pass != 1 ? pl->centres + k * (pl->outer ? pl->w : 1) + j0 : NULL;
}

/* The results of output element k's columns [j0, j0 + wn): centres (first pass) or outputs. */
static void emit(const red_plan *pl, int64_t k, int64_t j0, int64_t wn, const void *acc) {
    double *c = pl->centres ? pl->centres + k * (pl->outer ? pl->w : 1) + j0 : NULL;
    if (pl->pass == 1) {
        pl->ops->center(c, acc, wn, pl->cx);
        return;
    }
    char *o = pl->out + (size_t)(cpu_layout_offset(&pl->kept, 1, k) + j0 * pl->w_out_stride) * pl->out_es;
    pl->ops->store(o, pl->w_out_stride, acc, wn, pl->cx, c);
    if (pl->out1) {
        char *o1 = pl->out1 + (size_t)(cpu_layout_offset(&pl->kept, 2, k) + j0 * pl->w_out1_stride) * pl->out1_es;
        pl->centre_out(o1, pl->w_out1_stride, c, wn);
    }
}

/* Inner plan: acc = reduction of rows [lo, hi), each over its elements [w0, w1), centre c. */
static void reduce_rows(const red_plan *pl, const char *base, int64_t lo, int64_t hi, int64_t w0, int64_t w1,
                        double c, void *acc) {
    if (hi - lo == 1) {
        const char *p = row_ptr(pl, base, lo) + (size_t)(w0 * pl->w_in_stride) * pl->in_es;
        pl->ops->row(acc, p, w1 - w0, pl->w_in_stride, pl->cx, c);
        return;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    red_acc other;
    reduce_rows(pl, base, lo, mid, w0, w1, c, acc);
    reduce_rows(pl, base, mid, hi, w0, w1, c, &other);
    pl->ops->combine(acc, &other, 1);
}

/* Outer plan: buf[0..wn) = reduction of rows [lo, hi) of the wn contiguous columns at base. */
static void reduce_cols(const red_plan *pl, const char *base, int64_t lo, int64_t hi, int64_t wn, const double *cs,
                        red_buf *buf) {
    if (hi - lo <= RED_LEAF_ROWS) {
        const char *rows[RED_LEAF_ROWS];
        for (int64_t r = lo; r < hi; r++) rows[r - lo] = row_ptr(pl, base, r);
        pl->ops->identity(buf, wn);
        pl->ops->accum(buf, rows, (int)(hi - lo), wn, pl->cx, cs);
        return;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    red_buf other;
    reduce_cols(pl, base, lo, mid, wn, cs, buf);
    reduce_cols(pl, base, mid, hi, wn, cs, &other);
    pl->ops->combine(buf, &other, wn);
}

static double centre_value(const double *c) { return c ? *c : RED_NOCENTER; }

/* The pieces each plan hands the pool: a range of output elements (or column tiles), or a range of
 * the parts one output's work was cut into. */
typedef struct red_job {
    const red_plan *pl;
    int64_t nr, ntiles;
    int64_t k;        /* parts: the output being reduced */
    int64_t j0, wn;   /* parts of the outer plan: the tile */
    int parts;
    red_acc *partial; /* parts of the inner plan */
    red_buf *bufs;    /* parts of the outer plan */
} red_job;

/* Inner plan: the results of the n output elements from k, consecutive along the innermost kept
 * dim (their centres are consecutive too). */
static void emit_run(const red_plan *pl, int64_t k, int64_t n, const void *acc) {
    const int last = pl->kept.ndim - 1;
    double *c = pl->centres ? pl->centres + k : NULL;
    if (pl->pass == 1) {
        pl->ops->center(c, acc, n, pl->cx);
        return;
    }
    char *o = pl->out + (size_t)cpu_layout_offset(&pl->kept, 1, k) * pl->out_es;
    pl->ops->store(o, last >= 0 ? pl->kept.stride[1][last] : 0, acc, n, pl->cx, c);
    if (pl->out1) {
        char *o1 = pl->out1 + (size_t)cpu_layout_offset(&pl->kept, 2, k) * pl->out1_es;
        pl->centre_out(o1, last >= 0 ? pl->kept.stride[2][last] : 0, c, n);
    }
}

/* Output elements are reduced a run at a time along the innermost kept dim, their results kept in
 * a tile and stored together: with many short rows (a sum along a dim of 64 elements), finding
 * and storing each output one by one had cost as much as reducing its row. */
static void inner_outputs(void *vjob, int64_t k0, int64_t k1) {
    const red_job *j = vjob;
    const red_plan *pl = j->pl;
    const int last = pl->kept.ndim - 1;
    const int64_t size = last >= 0 ? pl->kept.size[last] : 1;
    const int64_t step = (last >= 0 ? pl->kept.stride[0][last] : 0) * (int64_t)pl->in_es;
    const size_t acc_size = pl->ops->acc_size;
    red_buf buf;
    for (int64_t k = k0; k < k1;) {
        int64_t run = size - k % size;
        if (run > k1 - k) run = k1 - k;
        if (run > RED_TILE) run = RED_TILE;
        const char *base = in_base(pl, k, 0);
        if (j->nr == 1)
            pl->ops->rows(&buf, base, step, run, pl->w, pl->w_in_stride, pl->cx, centres_of(pl, k, 0));
        else
            for (int64_t r = 0; r < run; r++)
                reduce_rows(pl, base + r * step, 0, j->nr, 0, pl->w, centre_value(centres_of(pl, k + r, 0)),
                            (char *)&buf + (size_t)r * acc_size);
        emit_run(pl, k, run, &buf);
        k += run;
    }
}

static void inner_parts(void *vjob, int64_t p0, int64_t p1) {
    const red_job *j = vjob;
    const red_plan *pl = j->pl;
    const int64_t nr = j->nr, parts = j->parts, w = pl->w;
    const char *base = in_base(pl, j->k, 0);
    const double c = centre_value(centres_of(pl, j->k, 0));
    for (int64_t p = p0; p < p1; p++) {
        if (nr >= parts)
            reduce_rows(pl, base, nr * p / parts, nr * (p + 1) / parts, 0, w, c, &j->partial[p]);
        else
            reduce_rows(pl, base, 0, nr, w * p / parts, w * (p + 1) / parts, c, &j->partial[p]);
    }
}

static void run_inner(const red_plan *pl, int nt) {
    const int64_t nk = cpu_layout_numel(&pl->kept), nr = cpu_layout_numel(&pl->rows);
    red_job job = {.pl = pl, .nr = nr};
    if (nt <= 1 || nk >= nt) {
        cpu_parallel(nk, nt, inner_outputs, &job);
        return;
    }
    /* Few outputs, much work each: split each output's rows (or, with fewer rows than parts, its
     * columns) into parts, one per thread, and combine the parts in order. */
    const int parts = nt < RED_MAX_PARTS ? nt : RED_MAX_PARTS;
    red_acc partial[RED_MAX_PARTS];
    job.parts = parts;
    job.partial = partial;
    for (int64_t k = 0; k < nk; k++) {
        job.k = k;
        cpu_parallel(parts, parts, inner_parts, &job);
        for (int p = 1; p < parts; p++) pl->ops->combine(&partial[0], &partial[p], 1);
        emit(pl, k, 0, 1, &partial[0]);
    }
}

static void outer_tiles(void *vjob, int64_t t0, int64_t t1) {
    const red_job *j = vjob;
    const red_plan *pl = j->pl;
    for (int64_t t = t0; t < t1; t++) {
        const int64_t k = t / j->ntiles, j0 = (t % j->ntiles) * RED_TILE;
        const int64_t wn = pl->w - j0 < RED_TILE ? pl->w - j0 : RED_TILE;
        red_buf buf;
        reduce_cols(pl, in_base(pl, k, j0), 0, j->nr, wn, centres_of(pl, k, j0), &buf);
        emit(pl, k, j0, wn, &buf);
    }
}

static void outer_parts(void *vjob, int64_t p0, int64_t p1) {
    const red_job *j = vjob;
    const red_plan *pl = j->pl;
    const char *base = in_base(pl, j->k, j->j0);
    for (int64_t p = p0; p < p1; p++)
        reduce_cols(pl, base, j->nr * p / j->parts, j->nr * (p + 1) / j->parts, j->wn, centres_of(pl, j->k, j->j0),
                    &j->bufs[p]);
}

static int run_outer(const red_plan *pl, int nt) {
    const int64_t nk = cpu_layout_numel(&pl->kept), nr = cpu_layout_numel(&pl->rows);
    const int64_t ntiles = (pl->w + RED_TILE - 1) / RED_TILE, tasks = nk * ntiles;
    red_job job = {.pl = pl, .nr = nr, .ntiles = ntiles};
    if (nt <= 1 || tasks >= nt) {
        cpu_parallel(tasks, nt, outer_tiles, &job);
        return TC_OK;
    }
    /* Fewer tiles than threads: split each tile's rows across threads, one accumulator tile each. */
    int parts = nt < RED_MAX_PARTS ? nt : RED_MAX_PARTS;
    if (parts > nr) parts = (int)nr;
    red_buf *bufs = cpu_core->host_alloc(sizeof(red_buf) * (size_t)parts);
    if (!bufs) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu reduction: out of memory for %d partial tiles", parts);
    job.parts = parts;
    job.bufs = bufs;
    for (int64_t t = 0; t < tasks; t++) {
        job.k = t / ntiles;
        job.j0 = (t % ntiles) * RED_TILE;
        job.wn = pl->w - job.j0 < RED_TILE ? pl->w - job.j0 : RED_TILE;
        cpu_parallel(parts, parts, outer_parts, &job);
        for (int p = 1; p < parts; p++) pl->ops->combine(&bufs[0], &bufs[p], job.wn);
        emit(pl, job.k, job.j0, job.wn, &bufs[0]);
    }
    cpu_core->host_free(bufs, sizeof(red_buf) * (size_t)parts);
    return TC_OK;
}

/* Reducing nothing (an empty input): every output element is what the identity gives. */
static void fill_identity(const tc_kernel_args *args, const red_ops *first, const red_ops *ops, const red_plan *pl) {
    const tc_view *out = &args->outputs[0];
    red_acc id;
    double c = RED_NOCENTER;
    if (first) {
        first->identity(&id, 1);
        first->center(&c, &id, 1, pl->cx);
    }
    ops->identity(&id, 1);
    int64_t numel = 1;
    for (int d = 0; d < out->ndim; d++) numel *= out->sizes[d];
    for (int64_t i = 0; i < numel; i++) {
        int64_t off = 0, off1 = 0, rem = i;
        for (int d = out->ndim - 1; d >= 0; d--) {
            off += (rem % out->sizes[d]) * out->strides[d];
            if (pl->out1) off1 += (rem % out->sizes[d]) * args->outputs[1].strides[d];
            rem /= out->sizes[d];
        }
        ops->store(pl->out + (size_t)off * pl->out_es, 1, &id, 1, pl->cx, first ? &c : NULL);
        if (pl->out1) pl->centre_out(pl->out1 + (size_t)off1 * pl->out1_es, 1, &c, 1);
    }
}

double reduce_count(const tc_kernel_args *args) {
    double n = 1;
    for (int d = 0; d < args->inputs[0].ndim; d++)
        if (args->outputs[0].sizes[d] == 1) n *= (double)args->inputs[0].sizes[d];
    return n;
}

static int reduce_impl(const tc_kernel_args *args, const red_ops *first, const red_ops *ops,
                       red_center_store centre_out, const red_call *cx, const char *name) {
    const int nout = first && centre_out && args->n_outputs >= 2 ? 2 : 1;
    if (cpu_check_args(args, 1, nout, name) != TC_OK) return TC_FAIL;
    const tc_view *in = &args->inputs[0], *out = &args->outputs[0], *out1 = nout == 2 ? &args->outputs[1] : NULL;
    if (in->ndim != out->ndim || (out1 && out1->ndim != in->ndim))
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: output has %d dims, input %d", name, out->ndim, in->ndim);
    red_plan pl = {.ops = ops, .cx = cx, .in = in->data, .out = out->data, .out1 = out1 ? out1->data : NULL,
                   .centre_out = centre_out, .in_es = cpu_dtype_size(in->dtype), .out_es = cpu_dtype_size(out->dtype),
                   .out1_es = out1 ? cpu_dtype_size(out1->dtype) : 0};
    int64_t in_numel = 1, out_numel = 1;
    for (int d = 0; d < in->ndim; d++) {
        in_numel *= in->sizes[d];
        out_numel *= out->sizes[d];
    }
    if (out_numel == 0) return TC_OK;
    if (in_numel == 0) {
        fill_identity(args, first, ops, &pl);
        return TC_OK;
    }

    /* Operands (in, out, out1); a reduced dim has output stride 0, which also makes reduced
     * neighbours merge with each other but never with kept dims. */
    cpu_layout l = {.ndim = 0, .nops = 3};
    int any_reduced = 0;
    for (int d = 0; d < in->ndim; d++) {
        if (in->sizes[d] == 1) continue;
        const int reduced = out->sizes[d] == 1;
        const int64_t strides[3] = {in->strides[d], reduced ? 0 : out->strides[d],
                                    reduced || !out1 ? 0 : out1->strides[d]};
        any_reduced |= reduced;
        if (cpu_layout_push(&l, in->sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    cpu_layout_sort(&l, 0);
    cpu_layout_coalesce(&l);

    pl.kept = (cpu_layout){.ndim = 0, .nops = 3};
    pl.rows = (cpu_layout){.ndim = 0, .nops = 1};
    const int last = l.ndim - 1;
    pl.outer = any_reduced && last >= 0 && l.stride[1][last] != 0 && l.stride[0][last] == 1 && l.size[last] >= 16;
    int row_dim = -1; /* inner plan: the innermost reduced dim */
    if (pl.outer) {
        pl.w = l.size[last];
        pl.w_in_stride = 1;
        pl.w_out_stride = l.stride[1][last];
        pl.w_out1_stride = l.stride[2][last];
    } else {
        for (int d = last; d >= 0 && row_dim < 0; d--)
            if (l.stride[1][d] == 0) row_dim = d;
        pl.w = row_dim >= 0 ? l.size[row_dim] : 1;
        pl.w_in_stride = row_dim >= 0 ? l.stride[0][row_dim] : 1;
    }
    for (int d = 0; d < l.ndim; d++) {
        if ((pl.outer && d == last) || d == row_dim) continue;
        const int64_t strides[3] = {l.stride[0][d], l.stride[1][d], l.stride[2][d]};
        cpu_layout_push(l.stride[1][d] == 0 ? &pl.rows : &pl.kept, l.size[d], strides);
    }
    const int nt = cpu_threads_for(in_numel);
    if (!first) return pl.outer ? run_outer(&pl, nt) : (run_inner(&pl, nt), TC_OK);

    /* Two passes: centres first (one double per output element), then the op itself. */
    const size_t nbytes = sizeof(double) * (size_t)out_numel;
    pl.centres = cpu_core->host_alloc(nbytes);
    if (!pl.centres) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu %s: out of memory", name);
    int rc = TC_OK;
    for (pl.pass = 1; pl.pass <= 2 && rc == TC_OK; pl.pass++) {
        pl.ops = pl.pass == 1 ? first : ops;
        if (pl.outer) rc = run_outer(&pl, nt);
        else run_inner(&pl, nt);
    }
    cpu_core->host_free(pl.centres, nbytes);
    return rc;
}

int reduce_run(const tc_kernel_args *args, const red_ops *ops, const red_call *cx, const char *name) {
    return reduce_impl(args, NULL, ops, NULL, cx, name);
}

int reduce_run2(const tc_kernel_args *args, const red_ops *first, const red_ops *second, red_center_store centre_out,
                const red_call *cx, const char *name) {
    return reduce_impl(args, first, second, centre_out, cx, name);
}

/* ---- two exact ops over one input (aminmax) ----
 *
 * Run one after the other, two ops would each read the input from memory. Where the input is
 * contiguous and reduced over its trailing dims, its rows are instead cut into pieces that stay in
 * cache between the two ops, or given to a function that computes both in one loop. Their partial results combine in any order, which is exact only for ops
 * like min and max: that is the contract. */
#define RED_PIECE 8192

typedef struct pair_job {
    const red_ops *ops[2];
    red_pair_row fused; /* both at once, when the ops come with such a function */
    const tc_view *out[2];
    const char *in;
    size_t es;
    int64_t w, k;
    int32_t kept_ndim; /* dims [0, kept_ndim) index the rows */
    int parts;
    red_acc (*partial)[2];
} pair_job;

static const red_call pair_cx; /* min and max read no parameters */

static void pair_span(const pair_job *j, const char *p, int64_t n, red_acc acc[2]) {
    if (j->fused) {
        j->fused(acc, p, n);
        return;
    }
    for (int o = 0; o < 2; o++) j->ops[o]->identity(&acc[o], 1);
    for (int64_t i = 0; i < n; i += RED_PIECE) {
        const int64_t m = n - i < RED_PIECE ? n - i : RED_PIECE;
        for (int o = 0; o < 2; o++) {
            red_acc a;
            j->ops[o]->row(&a, p + (size_t)i * j->es, m, 1, &pair_cx, RED_NOCENTER);
            j->ops[o]->combine(&acc[o], &a, 1);
        }
    }
}

static void pair_store(const pair_job *j, int64_t k, red_acc acc[2]) {
    for (int o = 0; o < 2; o++) {
        const tc_view *v = j->out[o];
        int64_t off = 0, rem = k;
        for (int32_t d = j->kept_ndim - 1; d >= 0; d--) {
            off += rem % v->sizes[d] * v->strides[d];
            rem /= v->sizes[d];
        }
        j->ops[o]->store((char *)v->data + (size_t)off * cpu_dtype_size(v->dtype), 1, &acc[o], 1, &pair_cx, NULL);
    }
}

static void pair_rows(void *vjob, int64_t k0, int64_t k1) {
    const pair_job *j = vjob;
    for (int64_t k = k0; k < k1; k++) {
        red_acc acc[2];
        pair_span(j, j->in + (size_t)(k * j->w) * j->es, j->w, acc);
        pair_store(j, k, acc);
    }
}

static void pair_parts(void *vjob, int64_t p0, int64_t p1) {
    const pair_job *j = vjob;
    for (int64_t p = p0; p < p1; p++) {
        const int64_t lo = j->w * p / j->parts, hi = j->w * (p + 1) / j->parts;
        pair_span(j, j->in + (size_t)(j->k * j->w + lo) * j->es, hi - lo, j->partial[p]);
    }
}

/* The dim from which every dim is reduced when the input is contiguous and only trailing dims are
 * reduced, else -1. */
static int32_t trailing_reduction(const tc_view *in, const tc_view *out) {
    int64_t expect = 1;
    for (int32_t d = in->ndim - 1; d >= 0; d--) {
        if (in->sizes[d] != 1 && in->strides[d] != expect) return -1;
        expect *= in->sizes[d];
    }
    int32_t d0 = in->ndim;
    while (d0 > 0 && out->sizes[d0 - 1] == 1) d0--;
    for (int32_t d = 0; d < d0; d++)
        if (out->sizes[d] != in->sizes[d]) return -1;
    return d0;
}

int reduce_run_pair(const tc_kernel_args *args, const red_ops *first, const red_ops *second, red_pair_row fused,
                    const char *name) {
    if (cpu_check_args(args, 1, 2, name) != TC_OK) return TC_FAIL;
    const tc_view *in = &args->inputs[0];
    int32_t d0 = -1;
    if (args->outputs[0].ndim == in->ndim && args->outputs[1].ndim == in->ndim) {
        d0 = trailing_reduction(in, &args->outputs[0]);
        if (d0 >= 0 && trailing_reduction(in, &args->outputs[1]) != d0) d0 = -1;
    }
    int64_t nk = 1, w = 1;
    for (int32_t d = 0; d < in->ndim; d++) *(d < d0 ? &nk : &w) *= in->sizes[d];
    if (d0 < 0 || nk * w == 0) {
        tc_kernel_args one = *args;
        one.n_outputs = 1;
        if (reduce_run(&one, first, NULL, name)) return TC_FAIL;
        one.outputs = &args->outputs[1];
        return reduce_run(&one, second, NULL, name);
    }
    pair_job job = {.ops = {first, second}, .fused = fused, .out = {&args->outputs[0], &args->outputs[1]}, .in = in->data,
                    .es = cpu_dtype_size(in->dtype), .w = w, .kept_ndim = d0};
    const int nt = cpu_threads_for(nk * w);
    if (nt <= 1 || nk >= nt) {
        cpu_parallel(nk, nt, pair_rows, &job);
        return TC_OK;
    }
    red_acc partial[RED_MAX_PARTS][2];
    job.parts = nt < RED_MAX_PARTS ? nt : RED_MAX_PARTS;
    job.partial = partial;
    for (job.k = 0; job.k < nk; job.k++) {
        cpu_parallel(job.parts, job.parts, pair_parts, &job);
        for (int p = 1; p < job.parts; p++)
            for (int o = 0; o < 2; o++) job.ops[o]->combine(&partial[0][o], &partial[p][o], 1);
        pair_store(&job, job.k, partial[0]);
    }
    return TC_OK;
}
