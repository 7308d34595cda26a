/*
 * stamp_float_double.h - includes CPU_STAMP_FILE twice, with C float and S f32, then C double and S
 * f64: a generic source written once over its compute type (bessel_generic.h, orthopoly_generic.h)
 * stamped for float32 and float64. No include guard: each includer defines CPU_STAMP_FILE first.
 */
#define C float
#define S f32
#include CPU_STAMP_FILE
#undef C
#undef S
#define C double
#define S f64
#include CPU_STAMP_FILE
#undef C
#undef S
#undef CPU_STAMP_FILE
