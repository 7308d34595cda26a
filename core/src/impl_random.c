/*
 * Random ops composed of others, as PyTorch 1.13 composes them (so they draw the same numbers):
 *   rand / randn / randint / randperm   empty, then uniform_ / normal_ / random_ / randperm.out
 *   *_like                              empty_like, then the fill (always the default generator)
 *   their .out forms                    the out tensor resized silently (resize_), then the fill
 *   bernoulli(p), bernoulli.p           a contiguous tensor like p, then bernoulli_
 *   normal(mean, std)                   normal_(0, std) then + mean, or normal_(0, 1) then * std + mean
 * The fills are structured ops (meta_random.c, the CPU plugin's random*.c), so every composite runs on
 * every backend that has their kernels, the meta device included.
 */
#include "core_internal.h"

#include <stdio.h>

static tc_generator *opt_generator(const tc_opcall *c, int i) {
    return c->args[i].tag == TC_VALUE_GENERATOR ? c->args[i].v.generator : NULL;
}

/* An empty tensor of `size` from the creation arguments starting at `first` (dtype, layout, device,
 * pin_memory), of `default_dtype` when dtype is None. */
static tc_tensor *empty_from(const tc_opcall *c, tc_int_list size, int first, int32_t default_dtype) {
    int32_t dtype = tc_arg_enum(c, first);
    const tc_device *device = tc_arg_none(c, first + 2) ? NULL : &c->args[first + 2].v.device;
    const bool *pin = tc_arg_none(c, first + 3) ? NULL : &c->args[first + 3].v.b;
    return tc_empty_memory_format(size, dtype < 0 ? default_dtype : dtype, tc_arg_enum(c, first + 1), device, pin, -1);
}

/* empty_like(self, dtype, layout, device, pin_memory, memory_format) from the arguments at `first`. */
static tc_tensor *empty_like_from(const tc_opcall *c, int first) {
    const tc_device *device = tc_arg_none(c, first + 2) ? NULL : &c->args[first + 2].v.device;
    const bool *pin = tc_arg_none(c, first + 3) ? NULL : &c->args[first + 3].v.b;
    return tc_empty_like(tc_arg_tensor(c, 0), tc_arg_enum(c, first), tc_arg_enum(c, first + 1), device, pin,
                         tc_arg_enum(c, first + 4));
}

/* The result of filling `t` in place (`filled` is the fill's new reference to t, or NULL): t, or
 * the failure (t released). */
static int filled(tc_opcall *c, tc_tensor *t, tc_tensor *filled) {
    tc_tensor_release(filled);
    if (!filled) {
        tc_tensor_release(t);
        return TC_FAIL;
    }
    return tc_return(c, t);
}

/* An out= tensor resized as PyTorch's resize_ does it (no warning), or NULL. */
static tc_tensor *resized(tc_tensor *out, tc_int_list size) {
    if (tc_shape_check_ndim(size.len)) return NULL;
    for (int64_t d = 0; d < size.len; d++)
        if (size.items[d] < 0) {
            char shape[256];
            tc_shape_format((int32_t)size.len, size.items, shape, sizeof shape);
            return tc_set_error(TC_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                                (long long)size.items[d], shape), NULL;
        }
    if (!tc_shape_equal(out->ndim, out->sizes, (int32_t)size.len, size.items) &&
        tc_tensor_resize(out, (int32_t)size.len, size.items))
        return NULL;
    return out;
}

/* ---- rand, randn ---- */

typedef tc_tensor *(*fill_fn)(tc_tensor *t, tc_generator *g);
static tc_tensor *fill_uniform(tc_tensor *t, tc_generator *g) { return t ? tc_uniform_(t, 0, 1, g) : NULL; }
static tc_tensor *fill_normal(tc_tensor *t, tc_generator *g) { return t ? tc_normal_(t, 0, 1, g) : NULL; }

/* rand/randn[.generator](size, *, generator?, dtype, layout, device, pin_memory) */
static int fresh(tc_opcall *c, fill_fn fill, bool gen) {
    tc_tensor *t = empty_from(c, tc_arg_ints(c, 0), 1 + gen, tc_default_dtype());
    return filled(c, t, fill(t, gen ? opt_generator(c, 1) : NULL));
}

/* rand/randn[.generator]_out(size, *, generator?, out) */
static int into(tc_opcall *c, fill_fn fill, bool gen) {
    return tc_return(c, fill(resized(tc_arg_tensor(c, 1 + gen), tc_arg_ints(c, 0)), gen ? opt_generator(c, 1) : NULL));
}

int tc_impl_rand(tc_opcall *c) { return fresh(c, fill_uniform, false); }
int tc_impl_rand_generator(tc_opcall *c) { return fresh(c, fill_uniform, true); }
int tc_impl_rand_out(tc_opcall *c) { return into(c, fill_uniform, false); }
int tc_impl_rand_generator_out(tc_opcall *c) { return into(c, fill_uniform, true); }
int tc_impl_randn(tc_opcall *c) { return fresh(c, fill_normal, false); }
int tc_impl_randn_generator(tc_opcall *c) { return fresh(c, fill_normal, true); }
int tc_impl_randn_out(tc_opcall *c) { return into(c, fill_normal, false); }
int tc_impl_randn_generator_out(tc_opcall *c) { return into(c, fill_normal, true); }

/* ---- randint: random_(low, high) ---- */

static tc_tensor *fill_range(tc_tensor *t, int64_t low, int64_t high, tc_generator *g) {
    return t ? tc_random__from(t, low, &high, g) : NULL;
}

/* randint[.low][_generator](low?, high, size, *, generator?, dtype, layout, device, pin_memory) */
static int randint(tc_opcall *c, bool low, bool gen) {
    int at = low ? 1 : 0;
    tc_tensor *t = empty_from(c, tc_arg_ints(c, at + 1), at + 2 + gen, TC_INT64);
    tc_generator *g = gen ? opt_generator(c, at + 2) : NULL;
    return filled(c, t, fill_range(t, low ? tc_arg_int(c, 0) : 0, tc_arg_int(c, at), g));
}
int tc_impl_randint(tc_opcall *c) { return randint(c, false, false); }
int tc_impl_randint_generator(tc_opcall *c) { return randint(c, false, true); }
int tc_impl_randint_low(tc_opcall *c) { return randint(c, true, false); }
int tc_impl_randint_low_generator(tc_opcall *c) { return randint(c, true, true); }

/* randint[.low][_generator]_out(low?, high, size, *, generator?, out) */
static int randint_out(tc_opcall *c, bool low, bool gen) {
    int at = low ? 1 : 0;
    tc_tensor *out = resized(tc_arg_tensor(c, at + 2 + gen), tc_arg_ints(c, at + 1));
    tc_generator *g = gen ? opt_generator(c, at + 2) : NULL;
    return tc_return(c, fill_range(out, low ? tc_arg_int(c, 0) : 0, tc_arg_int(c, at), g));
}
int tc_impl_randint_out(tc_opcall *c) { return randint_out(c, false, false); }
int tc_impl_randint_generator_out(tc_opcall *c) { return randint_out(c, false, true); }
int tc_impl_randint_low_out(tc_opcall *c) { return randint_out(c, true, false); }
int tc_impl_randint_low_generator_out(tc_opcall *c) { return randint_out(c, true, true); }

/* ---- randperm(n, *, generator?, dtype=long, ...): empty(n), then randperm.out ---- */

static int randperm(tc_opcall *c, tc_generator *g, int first) {
    int64_t n = tc_arg_int(c, 0);
    tc_tensor *t = empty_from(c, TC_INTS(n), first, TC_INT64);
    return filled(c, t, t ? tc_randperm_generator_out(n, g, t) : NULL);
}
int tc_impl_randperm(tc_opcall *c) { return randperm(c, NULL, 1); }
int tc_impl_randperm_generator(tc_opcall *c) { return randperm(c, opt_generator(c, 1), 2); }

/* ---- rand_like, randn_like, randint_like: the default generator, as PyTorch's ---- */

int tc_impl_rand_like(tc_opcall *c) {
    tc_tensor *t = empty_like_from(c, 1);
    return filled(c, t, fill_uniform(t, NULL));
}
int tc_impl_randn_like(tc_opcall *c) {
    tc_tensor *t = empty_like_from(c, 1);
    return filled(c, t, fill_normal(t, NULL));
}
int tc_impl_randint_like(tc_opcall *c) {
    tc_tensor *t = empty_like_from(c, 2);
    return filled(c, t, fill_range(t, 0, tc_arg_int(c, 1), NULL));
}
int tc_impl_randint_like_low_dtype(tc_opcall *c) {
    tc_tensor *t = empty_like_from(c, 3);
    return filled(c, t, fill_range(t, tc_arg_int(c, 1), tc_arg_int(c, 2), NULL));
}

/* ---- bernoulli ---- */

static tc_tensor *contiguous_like(tc_tensor *t) {
    return tc_empty_like(t, -1, -1, NULL, NULL, TC_MEMORY_FORMAT_CONTIGUOUS);
}

/* bernoulli(self, *, generator): self holds the probabilities */
int tc_impl_bernoulli(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *t = contiguous_like(self);
    return filled(c, t, t ? tc_bernoulli__Tensor(t, self, opt_generator(c, 1)) : NULL);
}

/* bernoulli.out(self, *, generator, out) */
int tc_impl_bernoulli_out(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_tensor *out = resized(tc_arg_tensor(c, 2), (tc_int_list){self->sizes, self->ndim});
    return tc_return(c, out ? tc_bernoulli__Tensor(out, self, opt_generator(c, 1)) : NULL);
}

/* bernoulli.p(self, p, *, generator) */
int tc_impl_bernoulli_p(tc_opcall *c) {
    tc_tensor *t = contiguous_like(tc_arg_tensor(c, 0));
    return filled(c, t, t ? tc_bernoulli__float(t, c->args[1].v.f, opt_generator(c, 2)) : NULL);
}

/* ---- normal with tensor arguments ---- */

static int check_std(double std) {
    if (std >= 0.0) return TC_OK;
    char buf[32];
    snprintf(buf, sizeof buf, "%g", std);
    return tc_set_error(TC_ERR_RUNTIME, "normal expects std >= 0.0, but found std %s", buf);
}

/* Every element of std >= 0 (a NaN is not); meta tensors hold no values to check. */
static int check_std_tensor(tc_tensor *std) {
    if (tc_tensor_numel(std) == 0 || std->device.type != TC_DEVICE_CPU) return TC_OK;
    tc_tensor *least = tc_min(std);
    tc_scalar v;
    int rc = least ? tc__local_scalar_dense(least, &v) : TC_FAIL;
    tc_tensor_release(least);
    if (rc) return TC_FAIL;
    if (tc_scalar_to_double(v) >= 0) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "normal expects all elements of std >= 0.0");
}

/* out, resized to the broadcast of `a` and `b` (PyTorch's resize_output, which warns), or NULL. */
static tc_tensor *resized_to_broadcast(tc_tensor *out, const tc_tensor *a, const tc_tensor *b) {
    int32_t ndim;
    int64_t shape[TC_MAX_DIMS];
    if (tc_shape_broadcast(a->ndim, a->sizes, b->ndim, b->sizes, &ndim, shape) || tc_resize_output(out, ndim, shape))
        return NULL;
    return out;
}

/* out <- normal_(0, std) + mean: normal.Tensor_float's arithmetic (NULL on failure; else a new
 * reference to out). */
static tc_tensor *normal_tensor_float(tc_tensor *out, tc_tensor *mean, double std, tc_generator *g) {
    if (!resized_to_broadcast(out, mean, out)) return NULL;
    tc_tensor *r = tc_normal_(out, 0, std, g);
    if (!r) return NULL;
    tc_tensor_release(r);
    return tc_add__Tensor(out, mean, TC_SCALAR_OF_INT(1));
}

/* out <- normal_(0, 1) * std + mean: the other two forms' arithmetic. */
static tc_tensor *normal_scaled(tc_tensor *out, tc_tensor *mean, tc_tensor *std, tc_generator *g) {
    tc_tensor *r = tc_normal_(out, 0, 1, g);
    if (!r) return NULL;
    tc_tensor_release(r);
    if (!(r = tc_mul__Tensor(out, std))) return NULL;
    tc_tensor_release(r);
    return tc_add__Tensor(out, mean, TC_SCALAR_OF_INT(1));
}

/* mean given as a float: a 0-dim tensor of out's dtype holding it, as PyTorch's at::full({}, mean) */
static tc_tensor *normal_float_tensor(tc_tensor *out, double mean, tc_tensor *std, tc_generator *g) {
    if (!resized_to_broadcast(out, std, std)) return NULL;
    tc_tensor *r = tc_normal_(out, 0, 1, g); /* fails first for dtypes normal_ refuses */
    if (!r) return NULL;
    tc_tensor_release(r);
    tc_tensor *m = tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(mean), out->dtype, -1, &out->device, NULL);
    if (!m) return NULL;
    if (!(r = tc_mul__Tensor(out, std))) {
        tc_tensor_release(m);
        return NULL;
    }
    tc_tensor_release(r);
    r = tc_add__Tensor(out, m, TC_SCALAR_OF_INT(1));
    tc_tensor_release(m);
    return r;
}

/* normal.Tensor_float(mean, std, *, generator) */
int tc_impl_normal_Tensor_float(tc_opcall *c) {
    tc_tensor *mean = tc_arg_tensor(c, 0);
    if (check_std(c->args[1].v.f)) return TC_FAIL;
    tc_tensor *t = contiguous_like(mean);
    return filled(c, t, t ? normal_tensor_float(t, mean, c->args[1].v.f, opt_generator(c, 2)) : NULL);
}

int tc_impl_normal_Tensor_float_out(tc_opcall *c) {
    if (check_std(c->args[1].v.f)) return TC_FAIL;
    tc_tensor *out = tc_arg_tensor(c, 3);
    return tc_return(c, normal_tensor_float(out, tc_arg_tensor(c, 0), c->args[1].v.f, opt_generator(c, 2)));
}

/* normal.float_Tensor(mean, std, *, generator) */
int tc_impl_normal_float_Tensor(tc_opcall *c) {
    tc_tensor *std = tc_arg_tensor(c, 1);
    if (check_std_tensor(std)) return TC_FAIL;
    tc_tensor *t = contiguous_like(std);
    return filled(c, t, t ? normal_float_tensor(t, c->args[0].v.f, std, opt_generator(c, 2)) : NULL);
}

int tc_impl_normal_float_Tensor_out(tc_opcall *c) {
    tc_tensor *std = tc_arg_tensor(c, 1);
    if (check_std_tensor(std)) return TC_FAIL;
    return tc_return(c, normal_float_tensor(tc_arg_tensor(c, 3), c->args[0].v.f, std, opt_generator(c, 2)));
}

/* normal.Tensor_Tensor(mean, std, *, generator) */
int tc_impl_normal_Tensor_Tensor(tc_opcall *c) {
    tc_tensor *mean = tc_arg_tensor(c, 0), *std = tc_arg_tensor(c, 1);
    if (check_std_tensor(std)) return TC_FAIL;
    int32_t ndim;
    int64_t shape[TC_MAX_DIMS];
    if (tc_shape_broadcast(mean->ndim, mean->sizes, std->ndim, std->sizes, &ndim, shape)) return TC_FAIL;
    tc_tensor *t = tc_empty_memory_format((tc_int_list){shape, ndim}, mean->dtype, -1, &mean->device, NULL, -1);
    return filled(c, t, t ? normal_scaled(t, mean, std, opt_generator(c, 2)) : NULL);
}

int tc_impl_normal_Tensor_Tensor_out(tc_opcall *c) {
    tc_tensor *mean = tc_arg_tensor(c, 0), *std = tc_arg_tensor(c, 1), *out = tc_arg_tensor(c, 3);
    if (check_std_tensor(std)) return TC_FAIL;
    if (!resized_to_broadcast(out, mean, std)) return TC_FAIL;
    return tc_return(c, normal_scaled(out, mean, std, opt_generator(c, 2)));
}

/* normal.float_float(mean, std, size, *, generator, dtype, layout, device, pin_memory) */
int tc_impl_normal_float_float(tc_opcall *c) {
    tc_tensor *t = empty_from(c, tc_arg_ints(c, 2), 4, tc_default_dtype());
    return filled(c, t, t ? tc_normal_(t, c->args[0].v.f, c->args[1].v.f, opt_generator(c, 3)) : NULL);
}

int tc_impl_normal_float_float_out(tc_opcall *c) {
    tc_tensor *out = resized(tc_arg_tensor(c, 4), tc_arg_ints(c, 2));
    return tc_return(c, out ? tc_normal_(out, c->args[0].v.f, c->args[1].v.f, opt_generator(c, 3)) : NULL);
}
