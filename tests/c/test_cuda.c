/*
 * test_cuda.c - the CUDA plugin through the core's public API: copies both ways, fill, dtype
 * conversions, add/sub/mul/div with broadcasting and strided views, sum, mm/bmm through cuBLAS, the
 * mixed-device error and the caching allocator's reuse; then a few timings (host<->device bandwidth,
 * an elementwise add's bandwidth, a large sgemm), printed as "measure:" lines.
 *
 * Usage: test_cuda <package_dir>   (the core finds its plugins beside itself). Where the cuda plugin
 * is not loaded (no build, no driver, no device) it prints the loader's reason and "skip", and exits
 * 0, as a machine without a GPU must pass `scons test`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "torch_core/tc_ops.h"

static int failures, checks;
static tc_device cuda, cpu = {TC_DEVICE_CPU, 0};

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __func__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf(" [%s]\n", tc_last_error_message());                                            \
        }                                                                                          \
    } while (0)

static tc_tensor *host(int32_t ndim, const int64_t *sizes, int32_t dtype) {
    return tc_empty(ndim, sizes, dtype, cpu);
}

/* A float32/float64 host tensor with element i = f(i). */
static tc_tensor *host_seq(int32_t ndim, const int64_t *sizes, int32_t dtype, double scale, double offset) {
    tc_tensor *t = host(ndim, sizes, dtype);
    int64_t n = t ? tc_tensor_numel(t) : 0;
    for (int64_t i = 0; i < n; i++) {
        double v = offset + scale * (double)((i * 7) % 13) - (double)(i % 5);
        if (dtype == TC_FLOAT32) ((float *)tc_tensor_data(t))[i] = (float)v;
        else ((double *)tc_tensor_data(t))[i] = v;
    }
    return t;
}

static tc_tensor *to(tc_tensor *t, tc_device d) { return t ? tc_to_device(t, d, -1, false, false, -1) : NULL; }

/* The value of element i of a (host or device) tensor's contiguous host copy, as a double. */
static tc_tensor *fetch(tc_tensor *t) {
    tc_tensor *h = to(t, cpu);
    tc_tensor *c = h ? tc_clone(h, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL;
    tc_tensor_release(h);
    return c;
}

static double at(tc_tensor *t, int64_t i) {
    tc_scalar s;
    if (tc_tensor_get(t, i, &s)) return NAN;
    return s.kind == TC_SCALAR_FLOAT ? s.v.f : (double)s.v.i;
}

/* Compare a device tensor with a host tensor of the same shape, elementwise. */
static int same(tc_tensor *dev, tc_tensor *ref, double tol, const char *what) {
    tc_tensor *h = fetch(dev);
    int ok = h && ref && tc_tensor_numel(h) == tc_tensor_numel(ref);
    int64_t n = ok ? tc_tensor_numel(h) : 0;
    for (int64_t i = 0; i < n && ok; i++) {
        double a = at(h, i), b = at(ref, i);
        if (!(a == b || (isnan(a) && isnan(b)) || fabs(a - b) <= tol * (1 + fabs(b)))) {
            printf("  %s: element %lld is %g, want %g\n", what, (long long)i, a, b);
            ok = 0;
        }
    }
    tc_tensor_release(h);
    return ok;
}

static void sync_device(void) { /* a device->host copy waits for the default stream */
    tc_tensor *one = tc_zeros(TC_INTS(1), TC_FLOAT32, -1, &cuda, NULL);
    tc_tensor *h = to(one, cpu);
    tc_tensor_release(h);
    tc_tensor_release(one);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_copies(void) {
    int64_t sz[2] = {37, 29};
    tc_tensor *h = host_seq(2, sz, TC_FLOAT32, 0.5, 1);
    tc_tensor *d = to(h, cuda);
    CHECK(d && same(d, h, 0, "round trip"), "host -> cuda -> host");
    tc_tensor *d2 = d ? tc_clone(d, -1) : NULL; /* device -> device through the copy kernel */
    CHECK(d2 && same(d2, h, 0, "clone"), "clone on the device");
    tc_tensor *z = tc_zeros(TC_INTS(1000), TC_FLOAT64, -1, &cuda, NULL);
    tc_tensor *hz = tc_zeros(TC_INTS(1000), TC_FLOAT64, -1, NULL, NULL);
    CHECK(z && same(z, hz, 0, "zeros"), "zeros(device=cuda)");
    tc_tensor *f = z ? tc_fill__Scalar(z, TC_SCALAR_OF_FLOAT(2.5)) : NULL;
    tc_tensor *hf = hz ? tc_fill__Scalar(hz, TC_SCALAR_OF_FLOAT(2.5)) : NULL;
    CHECK(f && same(z, hz, 0, "fill"), "fill_");
    /* a transposed (strided) view, made contiguous on the device */
    tc_tensor *t = d ? tc_t(d) : NULL, *ht = tc_t(h);
    tc_tensor *tc = t ? tc_clone(t, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL, *htc = tc_clone(ht, TC_MEMORY_FORMAT_CONTIGUOUS);
    CHECK(tc && same(tc, htc, 0, "transpose"), "contiguous() of a transposed view");
    /* dtype conversions on the device, and back */
    int32_t dtypes[] = {TC_INT64, TC_INT32, TC_FLOAT64, TC_FLOAT16, TC_BFLOAT16, TC_UINT8, TC_BOOL, TC_INT8};
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
        tc_tensor *c = d ? tc_to_dtype(d, dtypes[i], false, false, -1) : NULL;
        tc_tensor *hc = tc_to_dtype(h, dtypes[i], false, false, -1);
        double tol = dtypes[i] == TC_FLOAT16 ? 1e-3 : dtypes[i] == TC_BFLOAT16 ? 1e-2 : 0;
        CHECK(c && same(c, hc, tol, tc_dtype_name(dtypes[i])), "float32 -> %s on the device", tc_dtype_name(dtypes[i]));
        tc_tensor_release(c);
        tc_tensor_release(hc);
    }
    tc_tensor *r[] = {h, d, d2, z, hz, f, hf, t, ht, tc, htc};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
}

typedef tc_tensor *(*binop)(tc_tensor *, tc_tensor *);
static tc_tensor *add2(tc_tensor *a, tc_tensor *b) { return tc_add_Tensor(a, b, TC_SCALAR_OF_INT(2)); }
static tc_tensor *sub3(tc_tensor *a, tc_tensor *b) { return tc_sub_Tensor(a, b, TC_SCALAR_OF_FLOAT(0.5)); }

static void test_elementwise(void) {
    struct { const char *name; binop fn; } ops[] = {{"add", add2}, {"sub", sub3}, {"mul", tc_mul_Tensor}, {"div", tc_div_Tensor}};
    int32_t dtypes[] = {TC_FLOAT32, TC_FLOAT64};
    for (size_t di = 0; di < 2; di++)
        for (size_t oi = 0; oi < 4; oi++) {
            int32_t dt = dtypes[di];
            int64_t sa[3] = {3, 4, 5}, sb[2] = {4, 1}, sc[2] = {5, 4};
            tc_tensor *ha = host_seq(3, sa, dt, 1, 0.25), *hb = host_seq(2, sb, dt, 1, 20);
            tc_tensor *hcs = host_seq(2, sc, dt, -1, 3), *hct = tc_t(hcs); /* a [4,5] strided view */
            tc_tensor *da = to(ha, cuda), *db = to(hb, cuda), *dcs = to(hcs, cuda), *dct = dcs ? tc_t(dcs) : NULL;
            tc_tensor *want = ops[oi].fn(ha, hb), *got = da && db ? ops[oi].fn(da, db) : NULL;
            CHECK(got && same(got, want, 1e-6, ops[oi].name), "%s %s broadcast [3,4,5] x [4,1]", ops[oi].name, tc_dtype_name(dt));
            tc_tensor *want2 = ops[oi].fn(ha, hct), *got2 = da && dct ? ops[oi].fn(da, dct) : NULL;
            CHECK(got2 && same(got2, want2, 1e-6, ops[oi].name), "%s %s with a transposed operand", ops[oi].name, tc_dtype_name(dt));
            tc_tensor *r[] = {ha, hb, hcs, hct, da, db, dcs, dct, want, got, want2, got2};
            for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
        }
    /* int64 arithmetic and a mixed float32 + int64 promotion */
    int64_t s[1] = {100};
    tc_tensor *hf = host_seq(1, s, TC_FLOAT32, 1, 0), *hi = tc_to_dtype(hf, TC_INT64, false, false, -1);
    tc_tensor *df = to(hf, cuda), *di = to(hi, cuda);
    tc_tensor *want = tc_add_Tensor(hi, hi, TC_SCALAR_OF_INT(3)), *got = di ? tc_add_Tensor(di, di, TC_SCALAR_OF_INT(3)) : NULL;
    CHECK(got && same(got, want, 0, "int64 add"), "int64 add");
    tc_tensor *want2 = tc_mul_Tensor(hf, hi), *got2 = df && di ? tc_mul_Tensor(df, di) : NULL;
    CHECK(got2 && same(got2, want2, 0, "promotion"), "float32 * int64");
    /* mixing devices raises PyTorch's error */
    tc_tensor *mixed = df ? tc_add_Tensor(df, hf, TC_SCALAR_OF_INT(1)) : NULL;
    CHECK(!mixed && strstr(tc_last_error_message(), "Expected all tensors to be on the same device"), "cuda + cpu");
    tc_error_clear();
    tc_tensor *r[] = {hf, hi, df, di, want, got, want2, got2, mixed};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
}

static void test_sum(void) {
    int64_t sizes[][3] = {{1, 1, 1}, {1, 1, 1000}, {7, 300, 500}, {3, 1, 4}};
    for (int dt = 0; dt < 2; dt++)
        for (size_t k = 0; k < 4; k++) {
            int32_t dtype = dt ? TC_FLOAT64 : TC_FLOAT32;
            tc_tensor *h = host_seq(3, sizes[k], dtype, 0.125, 0.5), *d = to(h, cuda);
            tc_tensor *want = tc_sum(h, -1), *got = d ? tc_sum(d, -1) : NULL;
            CHECK(got && same(got, want, dt ? 1e-12 : 1e-5, "sum"), "sum %s of %lld elements", tc_dtype_name(dtype),
                  (long long)tc_tensor_numel(h));
            tc_tensor *ht = tc_transpose_int(h, 0, 2), *dtr = d ? tc_transpose_int(d, 0, 2) : NULL;
            tc_tensor *want_t = tc_sum(ht, -1), *got_t = dtr ? tc_sum(dtr, -1) : NULL;
            CHECK(got_t && same(got_t, want_t, dt ? 1e-12 : 1e-5, "sum of a view"), "sum of a transposed view");
            tc_int_list dims = TC_INTS(1);
            tc_tensor *want_d = tc_sum_dim_IntList(h, &dims, false, -1), *got_d = d ? tc_sum_dim_IntList(d, &dims, false, -1) : NULL;
            CHECK(got_d && same(got_d, want_d, dt ? 1e-12 : 1e-5, "sum(dim=1)"), "sum over dim 1");
            tc_tensor *r[] = {h, d, want, got, ht, dtr, want_t, got_t, want_d, got_d};
            for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
        }
    /* a million ones: exact in float32 only with a tree reduction */
    tc_tensor *ones = tc_ones(TC_INTS(1 << 20), TC_FLOAT32, -1, &cuda, NULL);
    tc_tensor *s = ones ? tc_sum(ones, -1) : NULL, *hs = s ? fetch(s) : NULL;
    CHECK(hs && at(hs, 0) == (double)(1 << 20), "sum of 2^20 ones is %g", hs ? at(hs, 0) : NAN);
    tc_tensor_release(ones);
    tc_tensor_release(s);
    tc_tensor_release(hs);
}

static void test_matmul(void) {
    for (int dt = 0; dt < 2; dt++) {
        int32_t dtype = dt ? TC_FLOAT64 : TC_FLOAT32;
        double tol = dt ? 1e-12 : 1e-5;
        int64_t sa[2] = {64, 33}, sb[2] = {33, 47}, sbt[2] = {47, 33};
        tc_tensor *ha = host_seq(2, sa, dtype, 0.25, -0.5), *hb = host_seq(2, sb, dtype, 0.5, 0.125);
        tc_tensor *hbt = host_seq(2, sbt, dtype, 0.5, 1), *hbv = tc_t(hbt); /* [33,47] transposed view */
        tc_tensor *da = to(ha, cuda), *db = to(hb, cuda), *dbt = to(hbt, cuda), *dbv = dbt ? tc_t(dbt) : NULL;
        tc_tensor *want = tc_mm(ha, hb), *got = da && db ? tc_mm(da, db) : NULL;
        CHECK(got && same(got, want, tol, "mm"), "mm %s 64x33 . 33x47", tc_dtype_name(dtype));
        tc_tensor *want2 = tc_mm(ha, hbv), *got2 = da && dbv ? tc_mm(da, dbv) : NULL;
        CHECK(got2 && same(got2, want2, tol, "mm transposed"), "mm %s with a transposed operand", tc_dtype_name(dtype));
        int64_t s3a[3] = {5, 16, 9}, s3b[3] = {5, 9, 12};
        tc_tensor *h3a = host_seq(3, s3a, dtype, 0.5, 0), *h3b = host_seq(3, s3b, dtype, -0.25, 1);
        tc_tensor *d3a = to(h3a, cuda), *d3b = to(h3b, cuda);
        tc_tensor *want3 = tc_bmm(h3a, h3b), *got3 = d3a && d3b ? tc_bmm(d3a, d3b) : NULL;
        CHECK(got3 && same(got3, want3, tol, "bmm"), "bmm %s 5 x (16x9 . 9x12)", tc_dtype_name(dtype));
        tc_tensor *h3at = tc_transpose_int(h3a, 1, 2), *d3at = d3a ? tc_transpose_int(d3a, 1, 2) : NULL;
        tc_tensor *h3bt = tc_transpose_int(h3b, 1, 2), *d3bt = d3b ? tc_transpose_int(d3b, 1, 2) : NULL;
        tc_tensor *want4 = tc_bmm(h3bt, h3at), *got4 = d3at && d3bt ? tc_bmm(d3bt, d3at) : NULL;
        CHECK(got4 && same(got4, want4, tol, "bmm transposed"), "bmm %s of transposed views", tc_dtype_name(dtype));
        tc_tensor *r[] = {ha, hb, hbt, hbv, da, db, dbt, dbv, want, got, want2, got2, h3a, h3b, d3a, d3b, want3, got3,
                          h3at, d3at, h3bt, d3bt, want4, got4};
        for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) tc_tensor_release(r[i]);
    }
}

static void test_allocator(void) {
    int32_t type = tc_device_type_id("cuda");
    tc_allocator_stats before, after;
    CHECK(tc_device_allocator_stats(type, &before) == TC_OK, "stats");
    for (int i = 0; i < 100; i++) { /* the same shapes every step: all from the cache after the first */
        tc_tensor *x = tc_zeros(TC_INTS(256, 1024), TC_FLOAT32, -1, &cuda, NULL);
        tc_tensor *y = x ? tc_add_Tensor(x, x, TC_SCALAR_OF_INT(1)) : NULL;
        tc_tensor_release(y);
        tc_tensor_release(x);
    }
    CHECK(tc_device_allocator_stats(type, &after) == TC_OK, "stats");
    uint64_t allocs = after.n_allocs - before.n_allocs, hits = after.n_cache_hits - before.n_cache_hits;
    printf("allocator: %llu allocations, %llu from the cache, %llu bytes live, %llu cached, peak %llu\n",
           (unsigned long long)allocs, (unsigned long long)hits, (unsigned long long)after.allocated_bytes,
           (unsigned long long)after.cached_bytes, (unsigned long long)after.peak_allocated_bytes);
    CHECK(allocs == 200 && hits >= 198, "steady state reuses blocks: %llu of %llu", (unsigned long long)hits,
          (unsigned long long)allocs);
    CHECK(after.allocated_bytes == before.allocated_bytes, "no live bytes leaked");
    tc_empty_cache(type);
    CHECK(tc_device_allocator_stats(type, &after) == TC_OK && after.cached_bytes == 0, "empty_cache releases the cache");
}

static void measure(void) {
    /* host <-> device, 256 MiB */
    int64_t n = 64 << 20;
    tc_tensor *h = tc_ones(TC_INTS(n), TC_FLOAT32, -1, NULL, NULL);
    tc_tensor *d = to(h, cuda);
    tc_tensor_release(d);
    double t0 = now();
    for (int i = 0; i < 5; i++) {
        d = to(h, cuda);
        tc_tensor_release(d);
    }
    double t1 = now();
    printf("measure: host->device (pageable) %.1f GB/s\n", 5.0 * n * 4 / (t1 - t0) / 1e9);
    d = to(h, cuda);
    t0 = now();
    for (int i = 0; i < 5; i++) {
        tc_tensor *b = to(d, cpu);
        tc_tensor_release(b);
    }
    t1 = now();
    printf("measure: device->host (pageable) %.1f GB/s\n", 5.0 * n * 4 / (t1 - t0) / 1e9);
    /* elementwise add on 256M floats: 3 x 1 GiB moved */
    int64_t big = 256ll << 20;
    tc_tensor *a = tc_ones(TC_INTS(big), TC_FLOAT32, -1, &cuda, NULL), *b = a ? tc_ones(TC_INTS(big), TC_FLOAT32, -1, &cuda, NULL) : NULL;
    if (a && b) {
        tc_tensor *c = tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1));
        tc_tensor_release(c);
        sync_device();
        t0 = now();
        for (int i = 0; i < 10; i++) {
            c = tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1));
            tc_tensor_release(c);
        }
        sync_device();
        t1 = now();
        printf("measure: add of 256M float32: %.3f ms, %.0f GB/s\n", (t1 - t0) / 10 * 1e3, 10.0 * big * 12 / (t1 - t0) / 1e9);
        t0 = now();
        for (int i = 0; i < 10; i++) {
            c = tc_sum(a, -1);
            tc_tensor_release(c);
        }
        sync_device();
        t1 = now();
        printf("measure: sum of 256M float32: %.3f ms, %.0f GB/s\n", (t1 - t0) / 10 * 1e3, 10.0 * big * 4 / (t1 - t0) / 1e9);
    }
    tc_tensor_release(a);
    tc_tensor_release(b);
    /* small-op overhead: add of two 1-element tensors */
    tc_tensor *s1 = tc_ones(TC_INTS(1), TC_FLOAT32, -1, &cuda, NULL);
    if (s1) {
        sync_device();
        t0 = now();
        for (int i = 0; i < 10000; i++) {
            tc_tensor *c = tc_add_Tensor(s1, s1, TC_SCALAR_OF_INT(1));
            tc_tensor_release(c);
        }
        sync_device();
        t1 = now();
        printf("measure: add of 1-element tensors: %.2f us per op (C API, launch included)\n", (t1 - t0) / 10000 * 1e6);
    }
    tc_tensor_release(s1);
    /* sgemm / dgemm 4096^3 */
    int32_t dts[2] = {TC_FLOAT32, TC_FLOAT64};
    for (int k = 0; k < 2; k++) {
        tc_tensor *m = tc_ones(TC_INTS(4096, 4096), dts[k], -1, &cuda, NULL);
        if (!m) continue;
        tc_tensor *c = tc_mm(m, m);
        tc_tensor_release(c);
        sync_device();
        t0 = now();
        for (int i = 0; i < 10; i++) {
            c = tc_mm(m, m);
            tc_tensor_release(c);
        }
        sync_device();
        t1 = now();
        printf("measure: mm %s 4096^3: %.3f ms, %.1f TFLOP/s\n", tc_dtype_name(dts[k]), (t1 - t0) / 10 * 1e3,
               10.0 * 2 * 4096.0 * 4096 * 4096 / (t1 - t0) / 1e12);
        tc_tensor_release(m);
    }
    tc_tensor_release(h);
    tc_tensor_release(d);
}

int main(int argc, char **argv) {
    if (tc_plugins_load()) {
        printf("FAIL loading plugins: %s\n", tc_last_error_message());
        return 1;
    }
    tc_set_warning_handler(NULL);
    int32_t type = tc_device_type_id("cuda");
    if (type < 0 || tc_device_count(type) <= 0) {
        const char *why = tc_device_unavailable_reason("cuda");
        printf("test_cuda: skip (no device): %s\n", why ? why : "the cuda plugin was not built");
        return 0;
    }
    cuda = (tc_device){type, 0};
    printf("test_cuda: %d CUDA device(s)\n", tc_device_count(type));
    test_copies();
    test_elementwise();
    test_sum();
    test_matmul();
    test_allocator();
    printf("%d checks, %d failed\n", checks, failures);
    if (!failures && !(argc > 2 && strcmp(argv[2], "--no-measure") == 0)) measure();
    return failures ? 1 : 0;
}
