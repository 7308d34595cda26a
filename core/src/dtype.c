/* Dtype facts and PyTorch's type promotion lattice. */
#include "core_internal.h"

static const struct {
    const char *name;
    size_t size;
} dtype_info[TC_NUM_DTYPES] = {
    [TC_BOOL] = {"bool", 1},         [TC_UINT8] = {"uint8", 1},     [TC_INT8] = {"int8", 1},
    [TC_INT16] = {"int16", 2},       [TC_INT32] = {"int32", 4},     [TC_INT64] = {"int64", 8},
    [TC_FLOAT16] = {"float16", 2},   [TC_BFLOAT16] = {"bfloat16", 2},
    [TC_FLOAT32] = {"float32", 4},   [TC_FLOAT64] = {"float64", 8},
    [TC_COMPLEX32] = {"complex32", 4}, [TC_COMPLEX64] = {"complex64", 8}, [TC_COMPLEX128] = {"complex128", 16},
};

static atomic_int default_dtype = TC_FLOAT32;

static bool valid(int32_t d) { return d >= 0 && d < TC_NUM_DTYPES; }

size_t tc_dtype_size(int32_t dtype) { return valid(dtype) ? dtype_info[dtype].size : 0; }

const char *tc_dtype_name(int32_t dtype) { return valid(dtype) ? dtype_info[dtype].name : "invalid"; }

bool tc_dtype_is_floating(int32_t d) {
    return d == TC_FLOAT16 || d == TC_BFLOAT16 || d == TC_FLOAT32 || d == TC_FLOAT64;
}

bool tc_dtype_is_integral(int32_t d) { return d >= TC_UINT8 && d <= TC_INT64; }

bool tc_dtype_is_signed(int32_t d) { return d != TC_BOOL && d != TC_UINT8; }

bool tc_dtype_is_complex(int32_t d) { return d == TC_COMPLEX32 || d == TC_COMPLEX64 || d == TC_COMPLEX128; }

int32_t tc_dtype_to_real(int32_t d) {
    return d == TC_COMPLEX32 ? TC_FLOAT16 : d == TC_COMPLEX64 ? TC_FLOAT32 : d == TC_COMPLEX128 ? TC_FLOAT64 : d;
}

int32_t tc_dtype_to_complex(int32_t d) {
    if (tc_dtype_is_complex(d)) return d;
    if (d == TC_FLOAT16) return TC_COMPLEX32;
    if (d == TC_BFLOAT16 || d == TC_FLOAT32) return TC_COMPLEX64; /* bfloat16 has float's range */
    return d == TC_FLOAT64 ? TC_COMPLEX128 : -1;
}

/* PyTorch's lattice: a complex operand makes the result complex, with parts as wide as the wider
 * floating (or complex part) type; integers and bool take the complex type as it is. */
static int32_t promote_complex(int32_t a, int32_t b) {
    int32_t ra = tc_dtype_is_integral(a) || a == TC_BOOL ? b : tc_dtype_to_real(a);
    int32_t rb = tc_dtype_is_integral(b) || b == TC_BOOL ? a : tc_dtype_to_real(b);
    return tc_dtype_to_complex(tc_promote_types(tc_dtype_to_real(ra), tc_dtype_to_real(rb)));
}

/* Rank within the integer and floating families; the lattice joins the two families at the
 * floating operand, and mixes of uint8 with a signed type need a wider signed type. */
int32_t tc_promote_types(int32_t a, int32_t b) {
    if (a == b) return a;
    if (a == TC_BOOL) return b;
    if (b == TC_BOOL) return a;
    if (tc_dtype_is_complex(a) || tc_dtype_is_complex(b)) return promote_complex(a, b);
    bool fa = tc_dtype_is_floating(a), fb = tc_dtype_is_floating(b);
    if (fa && !fb) return a;
    if (fb && !fa) return b;
    if (fa && fb) {
        if ((a == TC_FLOAT16 && b == TC_BFLOAT16) || (a == TC_BFLOAT16 && b == TC_FLOAT16))
            return TC_FLOAT32;
        return a > b ? a : b;
    }
    if (a == TC_UINT8 || b == TC_UINT8) {
        int32_t other = a == TC_UINT8 ? b : a;
        return other == TC_INT8 ? TC_INT16 : other;
    }
    return a > b ? a : b;
}

int32_t tc_default_dtype(void) { return atomic_load(&default_dtype); }

int32_t tc_default_complex_dtype(void) {
    int32_t d = tc_default_dtype();
    return d == TC_FLOAT16 ? TC_COMPLEX32 : d == TC_FLOAT64 ? TC_COMPLEX128 : TC_COMPLEX64;
}

int tc_set_default_dtype(int32_t dtype) {
    if (!valid(dtype) || !tc_dtype_is_floating(dtype)) /* bfloat16 included, as PyTorch 1.13 allows */
        return tc_set_error(TC_ERR_TYPE, "only floating-point types are supported as the default type");
    atomic_store(&default_dtype, dtype);
    return TC_OK;
}

bool tc_can_cast(int32_t from, int32_t to) {
    if (tc_dtype_is_complex(from) && !tc_dtype_is_complex(to)) return false;
    if (tc_dtype_is_floating(from) && !tc_dtype_is_floating(to) && !tc_dtype_is_complex(to)) return false;
    if (from != TC_BOOL && to == TC_BOOL) return false;
    return true;
}

const char *tc_dtype_cpp_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool", "unsigned char", "signed char", "short int", "int",
                                               "long int", "c10::Half", "c10::BFloat16", "float", "double",
                                               "c10::complex<c10::Half>", "c10::complex<float>",
                                               "c10::complex<double>"};
    return valid(dtype) ? names[dtype] : "?";
}

const char *tc_dtype_legacy_name(int32_t dtype) {
    static const char *names[] = {"torch.BoolTensor", "torch.ByteTensor", "torch.CharTensor",
                                               "torch.ShortTensor", "torch.IntTensor", "torch.LongTensor",
                                               "torch.HalfTensor", "torch.BFloat16Tensor", "torch.FloatTensor",
                                               "torch.DoubleTensor", "torch.ComplexHalfTensor",
                                               "torch.ComplexFloatTensor", "torch.ComplexDoubleTensor"};
    _Static_assert(sizeof names / sizeof *names == TC_NUM_DTYPES, "a name for every dtype");
    return valid(dtype) ? names[dtype] : "?";
}

const char *tc_dtype_scalar_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"Bool", "Byte", "Char", "Short", "Int", "Long",
                                               "Half", "BFloat16", "Float", "Double", "ComplexHalf",
                                               "ComplexFloat", "ComplexDouble"};
    return valid(dtype) ? names[dtype] : "Undefined";
}
