/*
 * stamp_float_double.h - the compute type of a generic source included once per type (bessel_generic.h,
 * orthopoly_generic.h, igamma_generic.h): C float and suffix S f32, or C double and S f64 where the
 * includer defined CPU_STAMP_DOUBLE. The generic source includes this first and undefines C and S at
 * its end; its includer names it literally each time, so that the build sees the dependency. No
 * include guard.
 */
#ifdef CPU_STAMP_DOUBLE
#define C double
#define S f64
#else
#define C float
#define S f32
#endif
