/*
 * orthopoly_generic.h - the orthogonal polynomials of orthopoly.c for one compute type C (suffix S):
 * the three-term recurrences from P0 and P1, or the trigonometric closed forms of the Chebyshev
 * polynomials inside (-1, 1) for large degrees, with PyTorch 1.13's special values at the ends of the
 * interval; a negative degree gives 0.
 */
#include "stamp_float_double.h"

#define FN(name) CPU_CAT(name##_, S)

/* The recurrence r = (a x) q - p from p = 1, q = first, n - 1 times (every Chebyshev kind). */
static C FN(cheb_recur)(C two_x, C first, int64_t n) {
    C p = 1, q = first, r = first;
    for (int64_t k = 2; k <= n; k++) {
        r = fma(two_x, q, -p);
        p = q;
        q = r;
    }
    return r;
}

/* The four kinds at y with their trigonometric forms for n > trig_after inside (-1, 1): T, U, V, W
 * themselves at y = x, the shifted kinds at y = 2x - 1 (PyTorch's special cases at x = 1 and x = 0 are
 * those at y = 1 and -1; its bound trig_after differs between the two, and the shifted W returns
 * +-1 where cos(acos(y) / 2) rounds to 1, the unshifted 2n + 1). */
static C FN(cheb_t)(C y, int64_t n, int64_t trig_after) {
    if (n < 0) return 0;
    if (fabs(y) == 1) return y > 0 || n % 2 == 0 ? (C)1 : (C)-1;
    if (n > trig_after && fabs(y) < 1) return cos((C)n * acos(y));
    if (n == 0) return 1;
    if (n == 1) return y;
    return FN(cheb_recur)(y + y, y, n);
}

static C FN(cheb_u)(C y, int64_t n, int64_t trig_after) {
    if (n < 0) return 0;
    if (fabs(y) == 1) return y > 0 || n % 2 == 0 ? (C)(n + 1) : -(C)(n + 1);
    if (n > trig_after && fabs(y) < 1) {
        const C t = acos(y);
        if (sin(t) != 0) return sin((C)(n + 1) * t) / sin(t);
        return (C)(n + 1) * cos((C)(n + 1) * t) / y;
    }
    if (n == 0) return 1;
    if (n == 1) return y + y;
    return FN(cheb_recur)(y + y, y + y, n);
}

static C FN(cheb_v)(C y, int64_t n, int64_t trig_after) {
    if (n < 0) return 0;
    const C odd_end = n % 2 == 0 ? (C)(n + n + 1) : -(C)(n + n + 1);
    if (fabs(y) == 1) return y > 0 ? (C)1 : odd_end;
    if (n > trig_after && fabs(y) < 1) {
        const C t = acos(y);
        if (sin(t / (C)2) != 1) return cos(((C)n + (C)0.5) * t) / cos(t / (C)2);
        return odd_end;
    }
    if (n == 0) return 1;
    if (n == 1) return y + y - (C)1;
    return FN(cheb_recur)(y + y, y + y - (C)1, n);
}

static C FN(cheb_w)(C y, int64_t n, int64_t trig_after, bool shifted) {
    if (n < 0) return 0;
    const C sign = n % 2 == 0 ? (C)1 : (C)-1;
    if (fabs(y) == 1) return y > 0 ? (C)(n + n + 1) : sign;
    if (n > trig_after && fabs(y) < 1) {
        const C t = acos(y);
        if (cos(t / (C)2) != 1) return sin(((C)n + (C)0.5) * t) / sin(t / (C)2);
        return y > 0 && !shifted ? (C)(n + n + 1) : sign;
    }
    if (n == 0) return 1;
    if (n == 1) return y + y + (C)1;
    return FN(cheb_recur)(y + y, y + y + (C)1, n);
}

static C FN(chebyshev_polynomial_t)(C x, int64_t n) { return FN(cheb_t)(x, n, 6); }
static C FN(chebyshev_polynomial_u)(C x, int64_t n) { return FN(cheb_u)(x, n, 8); }
static C FN(chebyshev_polynomial_v)(C x, int64_t n) { return FN(cheb_v)(x, n, 8); }
static C FN(chebyshev_polynomial_w)(C x, int64_t n) { return FN(cheb_w)(x, n, 8, false); }
static C FN(shifted_chebyshev_polynomial_t)(C x, int64_t n) { return FN(cheb_t)(x + x - (C)1, n, 6); }
static C FN(shifted_chebyshev_polynomial_u)(C x, int64_t n) { return FN(cheb_u)(x + x - (C)1, n, 6); }
static C FN(shifted_chebyshev_polynomial_v)(C x, int64_t n) { return FN(cheb_v)(x + x - (C)1, n, 6); }
static C FN(shifted_chebyshev_polynomial_w)(C x, int64_t n) { return FN(cheb_w)(x + x - (C)1, n, 4, true); }

/* Physicists' Hermite: H(k+1) = 2x H(k) - 2k H(k-1). */
static C FN(hermite_polynomial_h)(C x, int64_t n) {
    if (n < 0) return 0;
    if (n == 0) return 1;
    if (n == 1) return x + x;
    C p = 1, q = x + x, r = 0;
    for (int64_t k = 2; k < n + n; k += 2) {
        r = fma(x + x, q, -((C)k * p));
        p = q;
        q = r;
    }
    return r;
}

/* Probabilists' Hermite: He(k+1) = x He(k) - k He(k-1). */
static C FN(hermite_polynomial_he)(C x, int64_t n) {
    if (n < 0) return 0;
    if (n == 0) return 1;
    if (n == 1) return x;
    C p = 1, q = x, r = 0;
    for (int64_t k = 1; k < n; k++) {
        r = fma(x, q, -((C)k * p));
        p = q;
        q = r;
    }
    return r;
}

/* Laguerre: (k+1) L(k+1) = (2k + 1 - x) L(k) - k L(k-1). */
static C FN(laguerre_polynomial_l)(C x, int64_t n) {
    if (n < 0) return 0;
    if (fabs(x) == 0) return 1;
    if (n == 0) return 1;
    if (n == 1) return (C)1 - x;
    C p = 1, q = (C)1 - x, r = 0;
    for (int64_t k = 1; k < n; k++) {
        r = fma((C)(k + k) + ((C)1 - x), q, -((C)k * p)) / (C)(k + 1);
        p = q;
        q = r;
    }
    return r;
}

/* Legendre: (k+1) P(k+1) = (2k + 1) x P(k) - k P(k-1). */
static C FN(legendre_polynomial_p)(C x, int64_t n) {
    if (n < 0) return 0;
    if (fabs(x) == 1) return x > 0 || n % 2 == 0 ? (C)1 : (C)-1;
    if (n == 0) return 1;
    if (n == 1) return x;
    C p = 1, q = x, r = 0;
    for (int64_t k = 1; k < n; k++) {
        r = fma((C)(k + k + 1) * x, q, -((C)k * p)) / (C)(k + 1);
        p = q;
        q = r;
    }
    return r;
}

#undef FN
#undef C
#undef S
