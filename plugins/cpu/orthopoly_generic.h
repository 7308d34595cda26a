/*
 * orthopoly_generic.h - the orthogonal polynomials of orthopoly.c for one compute type C (suffix S):
 * the three-term recurrences from P0 and P1, or the trigonometric closed forms of the Chebyshev
 * polynomials inside (-1, 1) for large degrees, with PyTorch 1.13's special values at the ends of the
 * interval; a negative degree gives 0.
 */
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

static C FN(chebyshev_polynomial_t)(C x, int64_t n) {
    if (n < 0) return 0;
    if (fabs(x) == 1) return x > 0 || n % 2 == 0 ? (C)1 : (C)-1;
    if (n > 6 && fabs(x) < 1) return cos((C)n * acos(x));
    if (n == 0) return 1;
    if (n == 1) return x;
    return FN(cheb_recur)(x + x, x, n);
}

static C FN(chebyshev_polynomial_u)(C x, int64_t n) {
    if (n < 0) return 0;
    if (fabs(x) == 1) return x > 0 || n % 2 == 0 ? (C)(n + 1) : -(C)(n + 1);
    if (n > 8 && fabs(x) < 1) {
        const C t = acos(x);
        if (sin(t) != 0) return sin((C)(n + 1) * t) / sin(t);
        return (C)(n + 1) * cos((C)(n + 1) * t) / x;
    }
    if (n == 0) return 1;
    if (n == 1) return x + x;
    return FN(cheb_recur)(x + x, x + x, n);
}

static C FN(chebyshev_polynomial_v)(C x, int64_t n) {
    if (n < 0) return 0;
    if (fabs(x) == 1) {
        if (x > 0) return 1;
        return n % 2 == 0 ? (C)(n + n + 1) : -(C)(n + n + 1);
    }
    if (n > 8 && fabs(x) < 1) {
        const C t = acos(x);
        if (sin(t / (C)2) != 1) return cos(((C)n + (C)0.5) * t) / cos(t / (C)2);
        return n % 2 == 0 ? (C)(n + n + 1) : -(C)(n + n + 1);
    }
    if (n == 0) return 1;
    if (n == 1) return x + x - (C)1;
    return FN(cheb_recur)(x + x, x + x - (C)1, n);
}

static C FN(chebyshev_polynomial_w)(C x, int64_t n) {
    if (n < 0) return 0;
    if (fabs(x) == 1) {
        if (x > 0) return (C)(n + n + 1);
        return n % 2 == 0 ? (C)1 : (C)-1;
    }
    if (n > 8 && fabs(x) < 1) {
        const C t = acos(x);
        if (cos(t / (C)2) != 1) return sin(((C)n + (C)0.5) * t) / sin(t / (C)2);
        if (x > 0) return (C)(n + n + 1);
        return n % 2 == 0 ? (C)1 : (C)-1;
    }
    if (n == 0) return 1;
    if (n == 1) return x + x + (C)1;
    return FN(cheb_recur)(x + x, x + x + (C)1, n);
}

/* The shifted kinds: the Chebyshev polynomials at 2x - 1 (special values at x = 0 and 1). */
static C FN(shifted_chebyshev_polynomial_t)(C x, int64_t n) {
    if (n < 0) return 0;
    if (x == 1) return 1;
    if (x == 0) return n % 2 == 0 ? (C)1 : (C)-1;
    const C y = x + x - (C)1;
    if (n > 6 && fabs(y) < 1) return cos((C)n * acos(y));
    if (n == 0) return 1;
    if (n == 1) return y;
    return FN(cheb_recur)(y + y, y, n);
}

static C FN(shifted_chebyshev_polynomial_u)(C x, int64_t n) {
    if (n < 0) return 0;
    if (x == 1) return (C)(n + 1);
    if (x == 0) return n % 2 == 0 ? (C)(n + 1) : -(C)(n + 1);
    const C y = x + x - (C)1;
    if (n > 6 && fabs(y) < 1) {
        const C t = acos(y);
        if (sin(t) != 0) return sin((C)(n + 1) * t) / sin(t);
        return (C)(n + 1) * cos((C)(n + 1) * t) / y;
    }
    if (n == 0) return 1;
    if (n == 1) return y + y;
    return FN(cheb_recur)(y + y, y + y, n);
}

static C FN(shifted_chebyshev_polynomial_v)(C x, int64_t n) {
    if (n < 0) return 0;
    if (x == 1) return 1;
    if (x == 0) return n % 2 == 0 ? (C)(n + n + 1) : -(C)(n + n + 1);
    const C y = x + x - (C)1;
    if (n > 6 && fabs(y) < 1) {
        const C t = acos(y);
        if (sin(t / (C)2) != 1) return cos(((C)n + (C)0.5) * t) / cos(t / (C)2);
        return n % 2 == 0 ? (C)(n + n + 1) : -(C)(n + n + 1);
    }
    if (n == 0) return 1;
    if (n == 1) return y + y - (C)1;
    return FN(cheb_recur)(y + y, y + y - (C)1, n);
}

static C FN(shifted_chebyshev_polynomial_w)(C x, int64_t n) {
    if (n < 0) return 0;
    if (x == 1) return (C)(n + n + 1);
    if (x == 0) return n % 2 == 0 ? (C)1 : (C)-1;
    const C y = x + x - (C)1;
    if (n > 4 && fabs(y) < 1) {
        const C t = acos(y);
        if (cos(t / (C)2) != 1) return sin(((C)n + (C)0.5) * t) / sin(t / (C)2);
        return n % 2 == 0 ? (C)1 : (C)-1;
    }
    if (n == 0) return 1;
    if (n == 1) return y + y + (C)1;
    return FN(cheb_recur)(y + y, y + y + (C)1, n);
}

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
