/*
 * fftw_provider.c - the "fftw" FFT provider: batches of 1-D transforms through FFTW3's guru64
 * interface (one plan covers the transform dim and every batch dim with its strides), float
 * (fftwf_) and double (fftw_).
 *
 * Plans: FFTW_ESTIMATE (planning never touches the arrays, and costs microseconds, not the seconds
 * FFTW_MEASURE would take on a first call), cached by their whole problem: kind, precision, the dims
 * with their strides, in-place or not, and the arrays' SIMD alignment (fftw_alignment_of), which the
 * new-array execute functions require to match the plan's. FFTW's planner is not thread-safe: every
 * planner call and every change to the cache holds one mutex; executing a plan is thread-safe and runs
 * outside it, on a plan the cache cannot destroy meanwhile (a use count).
 */
#include <fftw3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "torch_core/tc_abi.h"

_Static_assert(sizeof(fftw_iodim64) == sizeof(tc_fft_dim), "tc_fft_dim is fftw_iodim64");
_Static_assert(offsetof(fftw_iodim64, is) == offsetof(tc_fft_dim, is), "tc_fft_dim is fftw_iodim64");
_Static_assert(offsetof(fftw_iodim64, os) == offsetof(tc_fft_dim, os), "tc_fft_dim is fftw_iodim64");

enum { KIND_C2C_FORWARD, KIND_C2C_BACKWARD, KIND_R2C, KIND_C2R };

#define CACHE_SIZE 64

typedef struct plan_entry {
    /* the key */
    int kind, dtype, batch_rank, in_place, in_align, out_align;
    tc_fft_dim dim;
    tc_fft_dim *batch; /* batch_rank dims, owned */
    /* the plan */
    void *plan; /* fftw_plan or fftwf_plan */
    int uses;   /* calls executing it now; it is destroyed only at 0 */
    unsigned long last_used;
    int cached; /* in the table; 0 for an overflow plan destroyed after its one use */
} plan_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static plan_entry *cache[CACHE_SIZE];
static unsigned long tick;

static int same_problem(const plan_entry *e, const plan_entry *k) {
    return e->kind == k->kind && e->dtype == k->dtype && e->batch_rank == k->batch_rank && e->in_place == k->in_place &&
           e->in_align == k->in_align && e->out_align == k->out_align && memcmp(&e->dim, &k->dim, sizeof k->dim) == 0 &&
           (k->batch_rank == 0 || memcmp(e->batch, k->batch, sizeof(tc_fft_dim) * (size_t)k->batch_rank) == 0);
}

static void destroy_plan(plan_entry *e) {
    if (e->plan) {
        if (e->dtype == TC_COMPLEX128) fftw_destroy_plan(e->plan);
        else fftwf_destroy_plan(e->plan);
    }
    free(e->batch);
    free(e);
}

/* FFTW's planner, with the lock held. The arrays are only recorded (FFTW_ESTIMATE never writes them). */
static void *make_plan(const plan_entry *k, void *in, void *out) {
    const unsigned flags = FFTW_ESTIMATE | (k->kind == KIND_C2R ? FFTW_DESTROY_INPUT : 0);
    const fftw_iodim64 *d = (const fftw_iodim64 *)&k->dim, *b = (const fftw_iodim64 *)k->batch;
    if (k->dtype == TC_COMPLEX128) {
        switch (k->kind) {
        case KIND_C2C_FORWARD:
        case KIND_C2C_BACKWARD:
            return fftw_plan_guru64_dft(1, d, k->batch_rank, b, in, out,
                                        k->kind == KIND_C2C_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD, flags);
        case KIND_R2C: return fftw_plan_guru64_dft_r2c(1, d, k->batch_rank, b, in, out, flags);
        default: return fftw_plan_guru64_dft_c2r(1, d, k->batch_rank, b, in, out, flags);
        }
    }
    const fftwf_iodim64 *df = (const fftwf_iodim64 *)d, *bf = (const fftwf_iodim64 *)b;
    switch (k->kind) {
    case KIND_C2C_FORWARD:
    case KIND_C2C_BACKWARD:
        return fftwf_plan_guru64_dft(1, df, k->batch_rank, bf, in, out,
                                     k->kind == KIND_C2C_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD, flags);
    case KIND_R2C: return fftwf_plan_guru64_dft_r2c(1, df, k->batch_rank, bf, in, out, flags);
    default: return fftwf_plan_guru64_dft_c2r(1, df, k->batch_rank, bf, in, out, flags);
    }
}

static int alignment_of(int dtype, void *p) {
    return dtype == TC_COMPLEX128 ? fftw_alignment_of(p) : fftwf_alignment_of(p);
}

/* A plan for the problem, marked in use: from the cache, or made (and cached when a slot is free or
 * holds an unused plan: the least recently used goes). NULL with a message in err. */
static plan_entry *acquire(int kind, int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch,
                           void *in, void *out, char *err, size_t len) {
    plan_entry key = {.kind = kind, .dtype = dtype, .batch_rank = batch_rank, .in_place = in == out,
                      .in_align = alignment_of(dtype, in), .out_align = alignment_of(dtype, out), .dim = *dim,
                      .batch = (tc_fft_dim *)batch};
    pthread_mutex_lock(&lock);
    tick++;
    for (int i = 0; i < CACHE_SIZE; i++) {
        plan_entry *e = cache[i];
        if (e && same_problem(e, &key)) {
            e->uses++;
            e->last_used = tick;
            pthread_mutex_unlock(&lock);
            return e;
        }
    }
    plan_entry *e = calloc(1, sizeof *e);
    tc_fft_dim *b = batch_rank ? malloc(sizeof(tc_fft_dim) * (size_t)batch_rank) : NULL;
    if (!e || (batch_rank && !b)) {
        pthread_mutex_unlock(&lock);
        free(e);
        free(b);
        snprintf(err, len, "fftw: out of memory for a plan");
        return NULL;
    }
    *e = key;
    e->batch = b;
    if (batch_rank) memcpy(b, batch, sizeof(tc_fft_dim) * (size_t)batch_rank);
    e->plan = make_plan(e, in, out);
    if (!e->plan) {
        pthread_mutex_unlock(&lock);
        destroy_plan(e);
        snprintf(err, len, "fftw: the planner found no plan for a transform of %lld points", (long long)dim->n);
        return NULL;
    }
    e->uses = 1;
    e->last_used = tick;
    int slot = -1;
    for (int i = 0; i < CACHE_SIZE && slot < 0; i++)
        if (!cache[i]) slot = i;
    for (int i = 0; i < CACHE_SIZE && slot < 0; i++)
        if (cache[i]->uses == 0 && (slot < 0 || cache[i]->last_used < cache[slot]->last_used)) slot = i;
    if (slot >= 0) {
        if (cache[slot]) destroy_plan(cache[slot]);
        cache[slot] = e;
        e->cached = 1;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

static void release(plan_entry *e) {
    pthread_mutex_lock(&lock);
    e->uses--;
    const int drop = !e->cached && e->uses == 0;
    if (drop) {
        if (e->dtype == TC_COMPLEX128) fftw_destroy_plan(e->plan);
        else fftwf_destroy_plan(e->plan);
        e->plan = NULL;
    }
    pthread_mutex_unlock(&lock);
    if (drop) destroy_plan(e);
}

static int run(int kind, int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, void *in,
               void *out, char *err, size_t len) {
    if (dtype != TC_COMPLEX64 && dtype != TC_COMPLEX128) {
        snprintf(err, len, "fftw: unsupported dtype %d", (int)dtype);
        return TC_FAIL;
    }
    plan_entry *e = acquire(kind, dtype, dim, batch_rank, batch, in, out, err, len);
    if (!e) return TC_FAIL;
    if (dtype == TC_COMPLEX128) {
        switch (kind) {
        case KIND_R2C: fftw_execute_dft_r2c(e->plan, in, out); break;
        case KIND_C2R: fftw_execute_dft_c2r(e->plan, in, out); break;
        default: fftw_execute_dft(e->plan, in, out);
        }
    } else {
        switch (kind) {
        case KIND_R2C: fftwf_execute_dft_r2c(e->plan, in, out); break;
        case KIND_C2R: fftwf_execute_dft_c2r(e->plan, in, out); break;
        default: fftwf_execute_dft(e->plan, in, out);
        }
    }
    release(e);
    return TC_OK;
}

static int fftw_c2c(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, const void *in,
                    void *out, int forward, char *err, size_t len) {
    /* FFTW's c2c plans preserve their input; the cast only fits its prototypes */
    return run(forward ? KIND_C2C_FORWARD : KIND_C2C_BACKWARD, dtype, dim, batch_rank, batch, (void *)in, out, err,
               len);
}

static int fftw_r2c(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, const void *in,
                    void *out, char *err, size_t len) {
    return run(KIND_R2C, dtype, dim, batch_rank, batch, (void *)in, out, err, len);
}

static int fftw_c2r(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, void *in,
                    void *out, char *err, size_t len) {
    return run(KIND_C2R, dtype, dim, batch_rank, batch, in, out, err, len);
}

static char description[192]; /* written by init, before the provider is registered */

static const char *fftw_describe(void) { return description; }

static const tc_fft_provider provider = {
    .struct_size = sizeof(tc_fft_provider),
    .name = "fftw",
    .describe = fftw_describe,
    .dtypes = (1ull << TC_COMPLEX64) | (1ull << TC_COMPLEX128),
    .c2c = fftw_c2c,
    .r2c = fftw_r2c,
    .c2r = fftw_c2r,
};

static int fftw_init(const tc_core_api *core, char *err, size_t len) {
    if (!TC_CORE_HAS(core, register_fft)) {
        snprintf(err, len, "this core has no FFT providers (ABI %d.%d; 1.6 added them)", core->abi_major,
                 core->abi_minor);
        return TC_FAIL;
    }
    snprintf(description, sizeof description, "%s (GPL-2.0+), float and double, guru64 plans (FFTW_ESTIMATE), "
             "up to %d cached", fftw_version, CACHE_SIZE);
    return core->register_fft(&provider);
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "fft-fftw",
    .kind = TC_PLUGIN_KIND_FFT,
    .version = "1.0",
    .init = fftw_init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
