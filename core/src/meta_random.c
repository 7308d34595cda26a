/*
 * Meta functions of the random ops: PyTorch 1.13's argument checks, in its order and words, then
 * the kernel's contract (docs/plugin-abi.md). Every random kernel learns where the op's Generator?
 * argument sits from ints[0]; the in-place fills write their first argument directly (its dtype is the
 * kernel's, so no temporary ever holds random values).
 */
#include "core_internal.h"
#include "torch_core/tc_convert.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- shared pieces ---- */

/* The index of the op's Generator? argument, -1 when it has none. */
static int64_t generator_arg(const tc_opcall *c) {
    for (int32_t i = 0; i < c->op->schema.n_args; i++)
        if (c->op->schema.args[i].type == TC_VALUE_GENERATOR) return i;
    return -1;
}

/* A generator of another device type than the call's (a CUDA generator handed to a CPU op). */
static int check_generator(const tc_opcall *c, int64_t at) {
    if (at < 0 || c->args[at].tag != TC_VALUE_GENERATOR || c->device.type != TC_DEVICE_CPU) return TC_OK;
    tc_device d = tc_generator_device(c->args[at].v.generator);
    if (d.type == c->device.type) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "Expected a '%s' device type for generator but found '%s'",
                        tc_device_type_name(c->device.type), tc_device_type_name(d.type));
}

/* ints[0] of every random kernel: where its generator is. */
static int plan_generator(tc_opcall *c, tc_plan *p) {
    int64_t at = generator_arg(c);
    return check_generator(c, at) || tc_plan_int(p, at) ? TC_FAIL : TC_OK;
}

/* The written first argument is the kernel's output, in its own dtype. */
static int plan_inplace(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    return plan_generator(c, p);
}

static int not_implemented(const char *what, int32_t dtype) {
    return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", what, tc_dtype_scalar_name(dtype));
}

/* A double as C++'s ostream writes it in PyTorch's messages (6 significant digits). */
static const char *num(double v, char *buf, size_t len) {
    snprintf(buf, len, "%g", v);
    return buf;
}

/* std::numeric_limits<T>::lowest() and max() of a floating dtype, as doubles. */
static double float_max(int32_t dtype) {
    switch (dtype) {
    case TC_FLOAT16: return 65504.0;
    case TC_BFLOAT16: return 3.3895313892515355e38;
    case TC_FLOAT32: return FLT_MAX;
    default: return DBL_MAX;
    }
}

/* Mantissa digits (std::numeric_limits<T>::digits) of a floating dtype. */
static int float_digits(int32_t dtype) {
    switch (dtype) {
    case TC_FLOAT16: return 11;
    case TC_BFLOAT16: return 8;
    case TC_FLOAT32: return 24;
    default: return 53;
    }
}

static int64_t int_min(int32_t dtype) {
    switch (dtype) {
    case TC_BOOL:
    case TC_UINT8: return 0;
    case TC_INT8: return INT8_MIN;
    case TC_INT16: return INT16_MIN;
    case TC_INT32: return INT32_MIN;
    default: return INT64_MIN;
    }
}

static int64_t int_max(int32_t dtype) {
    switch (dtype) {
    case TC_BOOL: return 1;
    case TC_UINT8: return UINT8_MAX;
    case TC_INT8: return INT8_MAX;
    case TC_INT16: return INT16_MAX;
    case TC_INT32: return INT32_MAX;
    default: return INT64_MAX;
    }
}

/* ---- uniform_(self, from, to, *, generator) ---- */

/* PyTorch fills a complex tensor's parts as a real tensor (view_as_real): a real dtype's checks */
int tc_meta_uniform_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    double from = c->args[1].v.f, to = c->args[2].v.f;
    char a[32], b[32];
    int32_t dtype = tc_dtype_to_real(self->dtype);
    if (!tc_dtype_is_floating(dtype)) return not_implemented("check_uniform_bounds", self->dtype);
    double max = float_max(dtype), min = -max;
    if (!(from >= min && from <= max))
        return tc_set_error(TC_ERR_RUNTIME, "from is out of bounds for %s", tc_dtype_cpp_name(dtype));
    if (!(to >= min && to <= max))
        return tc_set_error(TC_ERR_RUNTIME, "to is out of bounds for %s", tc_dtype_cpp_name(dtype));
    if (!(from <= to))
        return tc_set_error(TC_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=%s > to=%s",
                            num(from, a, sizeof a), num(to, b, sizeof b));
    if (!(to - from <= max))
        return tc_set_error(TC_ERR_RUNTIME, "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found "
                                            "to=%s and from=%s which result in to-from to exceed the limit",
                            tc_dtype_scalar_name(dtype), num(to, a, sizeof a), num(from, b, sizeof b));
    if (plan_inplace(c, p) || (tc_dtype_is_complex(self->dtype) && tc_plan_complex_parts(p))) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(from)) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(to)) ? TC_FAIL : TC_OK;
}

/* ---- normal_(self, mean, std, *, generator) ---- */

int tc_meta_normal_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    double mean = c->args[1].v.f, std = c->args[2].v.f;
    char a[32];
    if (!(std >= 0.0))
        return tc_set_error(TC_ERR_RUNTIME, "normal expects std >= 0.0, but found std %s", num(std, a, sizeof a));
    if (!tc_dtype_is_floating(tc_dtype_to_real(self->dtype))) return not_implemented("normal_kernel_cpu", self->dtype);
    if (plan_inplace(c, p)) return TC_FAIL;
    if (tc_dtype_is_complex(self->dtype)) { /* each part with the variance halved, as PyTorch */
        if (tc_plan_complex_parts(p)) return TC_FAIL;
        std /= sqrt(2.0);
    }
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(mean)) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(std)) ? TC_FAIL : TC_OK;
}

/* ---- random_(self), random_.to(self, to), random_.from(self, from, to?) ----
 * Contract: ints = {generator, mode, range, base}: mode 0 draws each dtype's default range, 1 draws
 * [base, base + range) (range as the bits of a uint64), 2 the whole int64 range. */

/* PyTorch's update_from/update_to: a bound that T cannot hold exactly moves to the nearest value
 * inside the range that T holds, so that [from, to) never draws an out-of-range value. */
static int64_t float_round_trip(int64_t v, int32_t dtype) {
    double d;
    switch (dtype) {
    case TC_FLOAT16: { /* c10::Half is built from a float */
        _Float16 h = (_Float16)(float)v;
        d = (double)(float)h;
        break;
    }
    case TC_BFLOAT16: {
        tc_scalar s = tc_scalar_cast(TC_SCALAR_OF_FLOAT((double)(float)v), TC_BFLOAT16);
        d = s.v.f;
        break;
    }
    case TC_FLOAT32: d = (double)(float)v; break;
    default: d = (double)v;
    }
    return tc_cvtt_i64(d);
}

static int log2_floor(uint64_t v) {
    int n = 0;
    while (v >>= 1) n++;
    return n;
}

static int64_t update_from(int64_t from, int32_t dtype) {
    int64_t plus1 = (int64_t)((uint64_t)from + 1), rounded = float_round_trip(plus1, dtype);
    if (rounded < from) {
        uint64_t mag = plus1 < 0 ? (uint64_t)0 - (uint64_t)plus1 : (uint64_t)plus1;
        from = (int64_t)((uint64_t)rounded + ((uint64_t)1 << (log2_floor(mag) - float_digits(dtype) + 1)));
    }
    return from;
}

static int64_t update_to(int64_t to, int32_t dtype) {
    int64_t minus1 = (int64_t)((uint64_t)to - 1), rounded = float_round_trip(minus1, dtype);
    if (rounded >= to) {
        uint64_t mag = minus1 < 0 ? (uint64_t)0 - (uint64_t)minus1 : (uint64_t)minus1;
        to = (int64_t)((uint64_t)rounded - ((uint64_t)1 << (log2_floor(mag) - float_digits(dtype) + 1)));
    }
    return to;
}

/* PyTorch's check_from_to_in_range: the bounds must fit T, and floats warn beyond 2^digits. */
static int check_range(int64_t from, int64_t to_inc, int32_t dtype) {
    if (tc_dtype_is_floating(dtype)) {
        double max = float_max(dtype);
        if (!((double)from >= -max && (double)from <= max))
            return tc_set_error(TC_ERR_RUNTIME, "from is out of bounds for %s", tc_dtype_cpp_name(dtype));
        if (!((double)to_inc >= -max && (double)to_inc <= max))
            return tc_set_error(TC_ERR_RUNTIME, "to - 1 is out of bounds for %s", tc_dtype_cpp_name(dtype));
        int digits = float_digits(dtype);
        int64_t limit = (int64_t)1 << digits;
        const char *names[2] = {"from", "to - 1"};
        int64_t values[2] = {from, to_inc};
        for (int i = 0; i < 2; i++)
            if (values[i] < -limit || values[i] > limit)
                tc_warn("%s is out of bounds [-(2^%d), 2^%d]. Due to precision limitations %s can support discrete "
                        "uniform distribution only within this range. This warning will become an error in version "
                        "1.7 release, please fix the code in advance", names[i], digits, digits, tc_dtype_cpp_name(dtype));
        return TC_OK;
    }
    if (from < int_min(dtype) || from > int_max(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "from is out of bounds for %s", tc_dtype_cpp_name(dtype));
    if (to_inc < int_min(dtype) || to_inc > int_max(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "to - 1 is out of bounds for %s", tc_dtype_cpp_name(dtype));
    return TC_OK;
}

enum { RANDOM_DEFAULT = 0, RANDOM_RANGE = 1, RANDOM_FULL = 2 };

int tc_meta_random_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype = self->dtype;
    if (plan_inplace(c, p)) return TC_FAIL; /* PyTorch builds its iterator (the overlap check) first */
    int32_t n_args = c->op->schema.n_args;
    int mode = RANDOM_DEFAULT;
    uint64_t range = 0;
    int64_t from = 0;
    if (n_args == 4) { /* random_.from(self, from, to?, *, generator) */
        from = tc_arg_int(c, 1);
        mode = tc_arg_none(c, 2) ? -1 : RANDOM_RANGE;
    } else if (n_args == 3) { /* random_.to(self, to, *, generator) */
        mode = RANDOM_RANGE;
    }
    if (mode == RANDOM_RANGE) {
        int64_t to = tc_arg_int(c, n_args - 2);
        if (!(from < to))
            return tc_set_error(TC_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=%lld >= "
                                                "to=%lld", (long long)from, (long long)to);
        if (tc_dtype_is_floating(dtype)) {
            from = update_from(from, dtype);
            to = update_to(to, dtype);
            if (!(from < to))
                return tc_set_error(TC_ERR_RUNTIME, "random_ expects 'from' casted to dtype to be less than 'to' "
                                                    "casted to dtype, but got from=%lld >= to=%lld",
                                    (long long)from, (long long)to);
        }
        if (check_range(from, to - 1, dtype)) return TC_FAIL;
        range = (uint64_t)to - (uint64_t)from;
    } else if (mode < 0 && from != INT64_MIN) { /* [from, the largest value T holds] */
        int64_t to_inc;
        if (tc_dtype_is_floating(dtype)) {
            int digits = float_digits(dtype);
            to_inc = digits >= 63 ? INT64_MAX : (int64_t)1 << digits;
            from = update_from(from, dtype);
            if (!(from < to_inc))
                return tc_set_error(TC_ERR_RUNTIME, "random_ expects 'from' casted to dtype to be less than or equal "
                                                    "to 'to_inc' casted to dtype, but got from=%lld > to_inc=%lld",
                                    (long long)from, (long long)to_inc);
        } else {
            to_inc = int_max(dtype);
        }
        if (check_range(from, to_inc, dtype)) return TC_FAIL;
        range = (uint64_t)to_inc - (uint64_t)from + 1;
        mode = RANDOM_RANGE;
    } else if (mode < 0) { /* [INT64_MIN, INT64_MAX] */
        if (dtype == TC_BOOL || dtype == TC_FLOAT16)
            return not_implemented("random_full_64_bits_range_kernel_cpu", dtype);
        if (dtype != TC_INT64 && dtype != TC_FLOAT64 && dtype != TC_FLOAT32 && dtype != TC_BFLOAT16)
            return tc_set_error(TC_ERR_RUNTIME,
                                "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
        mode = RANDOM_FULL;
    }
    if (tc_plan_int(p, mode) || tc_plan_int(p, (int64_t)range) || tc_plan_int(p, from)) return TC_FAIL;
    return TC_OK;
}

/* ---- exponential_, geometric_, cauchy_, log_normal_ ---- */

int tc_meta_exponential_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    double lambda = c->args[1].v.f;
    char a[32];
    if (!(lambda >= 0.0))
        return tc_set_error(TC_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but found lambda=%s",
                            num(lambda, a, sizeof a));
    if (!tc_dtype_is_floating(self->dtype)) return not_implemented("exponential_cpu", self->dtype);
    if (plan_inplace(c, p)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(lambda));
}

int tc_meta_geometric_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    double prob = c->args[1].v.f;
    char a[32];
    if (!(prob > 0 && prob < 1))
        return tc_set_error(TC_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got p=%s",
                            num(prob, a, sizeof a));
    if (self->dtype == TC_BOOL) return not_implemented("geometric_cpu", self->dtype);
    if (plan_inplace(c, p)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(prob));
}

int tc_meta_cauchy_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_floating(self->dtype)) return not_implemented("cauchy_cpu", self->dtype);
    if (plan_inplace(c, p)) return TC_FAIL;
    double median = c->args[1].v.f, sigma = c->args[2].v.f;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(median)) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(sigma)) ? TC_FAIL : TC_OK;
}

int tc_meta_log_normal_(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    double mean = c->args[1].v.f, std = c->args[2].v.f;
    char a[32];
    if (!(std > 0.0))
        return tc_set_error(TC_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=%s", num(std, a, sizeof a));
    if (!tc_dtype_is_floating(self->dtype)) return not_implemented("log_normal_cpu", self->dtype);
    if (plan_inplace(c, p)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(mean)) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(std)) ? TC_FAIL : TC_OK;
}

/* ---- bernoulli_.float(self, p) and bernoulli_.Tensor(self, p) ---- */

int tc_meta_bernoulli_float(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    double prob = c->args[1].v.f;
    char a[32];
    if (!(prob >= 0 && prob <= 1))
        return tc_set_error(TC_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%s",
                            num(prob, a, sizeof a));
    if (tc_check_internal_overlap(self)) return TC_FAIL;
    if (self->dtype == TC_FLOAT16) return not_implemented("bernoulli_scalar_cpu_", self->dtype);
    if (plan_inplace(c, p)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(prob));
}

/* PyTorch's expand error names the tensor by its legacy type ("torch.FloatTensor{[2, 3]}"). */
static int expand_refused(const tc_tensor *t, const tc_tensor *to) {
    char have[256], want[256];
    tc_shape_format(t->ndim, t->sizes, have, sizeof have);
    tc_shape_format(to->ndim, to->sizes, want, sizeof want);
    return tc_set_error(TC_ERR_RUNTIME, "expand(torch.%sTensor{%s}, size=%s): the number of sizes provided (%d) "
                                        "must be greater or equal to the number of dimensions in the tensor (%d)",
                        tc_dtype_scalar_name(t->dtype), have, want, to->ndim, t->ndim);
}

int tc_meta_bernoulli_tensor(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *prob = tc_arg_tensor(c, 1);
    if (tc_check_internal_overlap(self)) return TC_FAIL;
    if (self->dtype == TC_FLOAT16) return not_implemented("bernoulli_tensor_cpu_self_", self->dtype);
    if (prob->ndim > self->ndim) return expand_refused(prob, self);
    tc_tensor *expanded = tc_expand_to(prob, self->ndim, self->sizes);
    if (!expanded) return TC_FAIL;
    int rc = TC_OK;
    if (prob->dtype != TC_FLOAT32 && prob->dtype != TC_FLOAT64 && prob->dtype != TC_BFLOAT16)
        rc = not_implemented("bernoulli_tensor_cpu_p_", prob->dtype);
    if (!rc) rc = plan_inplace(c, p);
    if (!rc) rc = tc_plan_input(p, expanded, -1);
    tc_tensor_release(expanded);
    return rc;
}

/* ---- multinomial(self, num_samples, replacement, *, generator[, out]) ----
 * Contract: input the probabilities (1-D or 2-D, T), output int64 [n] or [rows, n]; ints =
 * {generator, num_samples, replacement}. */

/* out= tensors are resized the way PyTorch's resize_ does it: silently. */
static int resize_silently(tc_opcall *c, int32_t ndim, const int64_t *sizes) {
    if (c->op->variant != TC_VARIANT_OUT) return TC_OK;
    tc_tensor *out = c->args[c->op->schema.n_args - 1].v.tensor;
    if (tc_shape_equal(out->ndim, out->sizes, ndim, sizes)) return TC_OK;
    return tc_tensor_resize(out, ndim, sizes);
}

int tc_meta_multinomial(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t n_sample = tc_arg_int(c, 1);
    bool replacement = tc_arg_bool(c, 2);
    if (self->ndim < 1 || self->ndim > 2) return tc_set_error(TC_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
    if (!tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                            tc_dtype_scalar_name(self->dtype));
    if (c->op->variant == TC_VARIANT_OUT) {
        tc_tensor *out = c->args[c->op->schema.n_args - 1].v.tensor;
        if (out->dtype != TC_INT64)
            return tc_set_error(TC_ERR_RUNTIME, "multinomial expects Long tensor out, got: %s",
                                tc_dtype_scalar_name(out->dtype));
    }
    if (n_sample <= 0) return tc_set_error(TC_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
    int64_t n_categories = self->sizes[self->ndim - 1];
    if (!replacement && n_sample > n_categories)
        return tc_set_error(TC_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    if (n_categories > (1 << 24)) return tc_set_error(TC_ERR_RUNTIME, "number of categories cannot exceed 2^24");
    if (self->dtype == TC_FLOAT16)
        return tc_set_error(TC_ERR_RUNTIME, "multinomial is not implemented for half on CPU");
    int64_t sizes[2] = {self->sizes[0], n_sample};
    int32_t ndim = self->ndim;
    if (ndim == 1) sizes[0] = n_sample;
    if (resize_silently(c, ndim, sizes) || tc_plan_output(p, 0, ndim, sizes, TC_INT64)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1) || plan_generator(c, p)) return TC_FAIL;
    return tc_plan_int(p, n_sample) || tc_plan_int(p, replacement) ? TC_FAIL : TC_OK;
}

/* ---- poisson(self, generator): rates in, counts out, both T ---- */

int tc_meta_poisson(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_floating(self->dtype) || self->dtype == TC_FLOAT16)
        return not_implemented("poisson_cpu", self->dtype);
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    return tc_plan_input(p, self, -1) || plan_generator(c, p) ? TC_FAIL : TC_OK;
}

/* ---- randperm.out(n, *, out), randperm.generator_out(n, *, generator, out) ---- */

/* The C++ name in c10's checked conversion message ("value cannot be converted to type uint8_t"). */
static const char *checked_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool", "uint8_t", "int8_t", "int16_t", "int", "int64_t",
                                               "at::Half", "at::BFloat16", "float", "double"};
    return names[dtype];
}

int tc_meta_randperm(tc_opcall *c, tc_plan *p) {
    int64_t n = tc_arg_int(c, 0);
    tc_tensor *out = c->args[c->op->schema.n_args - 1].v.tensor;
    int32_t dtype = out->dtype;
    if (n < 0) return tc_set_error(TC_ERR_RUNTIME, "n must be non-negative, got%lld", (long long)n);
    if (check_generator(c, generator_arg(c))) return TC_FAIL;
    /* n - 1 must be a value of the dtype, and the floats must hold every integer up to it */
    tc_scalar last = TC_SCALAR_OF_INT(n > 0 ? n - 1 : n);
    if (dtype != TC_BOOL && !tc_scalar_fits(last, dtype))
        return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                            checked_name(dtype));
    if (dtype == TC_FLOAT16 && n > (1 << 11) + 1)
        return tc_set_error(TC_ERR_RUNTIME, "n cannot be greater than 2049 for Half type.");
    if (dtype == TC_FLOAT32 && n > (1 << 24) + 1)
        return tc_set_error(TC_ERR_RUNTIME, "n cannot be greater than 2^24+1 for Float type.");
    if (dtype == TC_FLOAT64 && n > ((int64_t)1 << 53) + 1)
        return tc_set_error(TC_ERR_RUNTIME, "n cannot be greater than 2^53+1 for Double type.");
    if (resize_silently(c, 1, &n)) return TC_FAIL;
    if (dtype == TC_BOOL) return not_implemented("randperm", dtype);
    if (tc_plan_output(p, 0, 1, &n, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return plan_generator(c, p);
}

/* ---- the gamma family: _standard_gamma(self, generator) and _sample_dirichlet(self, generator),
 * shapes in, draws out, both T; binomial(count, prob, generator), count and prob broadcast, counts
 * out in count's T (prob must have it too). float32 and float64, as PyTorch's CPU kernels. ---- */

static int meta_float_sampler(tc_opcall *c, tc_plan *p, const char *what) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (self->dtype != TC_FLOAT32 && self->dtype != TC_FLOAT64) return not_implemented(what, self->dtype);
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    return tc_plan_input(p, self, -1) || plan_generator(c, p) ? TC_FAIL : TC_OK;
}

int tc_meta_standard_gamma(tc_opcall *c, tc_plan *p) { return meta_float_sampler(c, p, "gamma_cpu"); }

int tc_meta_sample_dirichlet(tc_opcall *c, tc_plan *p) { return meta_float_sampler(c, p, "dirichlet"); }

int tc_meta_binomial(tc_opcall *c, tc_plan *p) {
    tc_tensor *ts[2] = {tc_arg_tensor(c, 0), tc_arg_tensor(c, 1)};
    const int32_t dtype = ts[0]->dtype;
    if (ts[1]->dtype != dtype) /* PyTorch's TensorIterator wants one dtype */
        return tc_set_error(TC_ERR_RUNTIME, "Found dtype %s but expected %s", tc_dtype_scalar_name(ts[1]->dtype),
                            tc_dtype_scalar_name(dtype));
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64) return not_implemented("binomial_cpu", dtype);
    return tc_meta_elementwise_as(p, ts, 2, dtype, dtype) || plan_generator(c, p) ? TC_FAIL : TC_OK;
}

/* ---- the reparameterized gradients: _standard_gamma_grad(self, output) and _dirichlet_grad(x,
 * alpha, total), elementwise in the first operand's float32 or float64 ---- */

static int meta_float_elementwise(tc_opcall *c, tc_plan *p, int n, const char *what) {
    tc_tensor *ts[3] = {tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), n > 2 ? tc_arg_tensor(c, 2) : NULL};
    const int32_t dtype = ts[0]->dtype;
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64) return not_implemented(what, dtype);
    return tc_meta_elementwise_as(p, ts, n, dtype, dtype);
}

int tc_meta_standard_gamma_grad(tc_opcall *c, tc_plan *p) {
    return meta_float_elementwise(c, p, 2, "_standard_gamma_grad_cpu");
}

int tc_meta_dirichlet_grad(tc_opcall *c, tc_plan *p) { return meta_float_elementwise(c, p, 3, "_dirichlet_grad_cpu"); }
