/*
 * bessel_generic.h - the Bessel and Airy functions of bessel.c for one compute type: included once per
 * type with C (float or double) and S (its suffix) defined, so that float32 computes in float and
 * float64 in double, as PyTorch's kernels do. Cephes' algorithms (S. L. Moshier, 3-clause BSD), in the
 * order PyTorch 1.13 evaluates them; the coefficient lists are bessel.c's.
 */
#include "stamp_float_double.h"

#define FN(name) CPU_CAT(name##_, S)

/* A polynomial, highest coefficient first; with a leading 1 left out of the list (Cephes' p1evl) when
 * `monic`. */
static C FN(poly)(C x, const C *coef, int n, bool monic) {
    C r = monic ? (C)1 : coef[0];
    for (int i = monic ? 0 : 1; i < n; i++) r = fma(r, x, coef[i]);
    return r;
}

/* Cephes' chbevl: a Chebyshev series at x (the variable already mapped to [-2, 2]). */
static C FN(chbevl)(C x, const C *coef, int n) {
    C b0 = coef[0], b1 = 0, b2 = 0;
    for (int i = 1; i < n; i++) {
        b2 = b1;
        b1 = b0;
        b0 = fma(x, b1, -b2) + coef[i];
    }
    return (C)0.5 * (b0 - b2);
}

static const C FN(j0_pp)[] = {J0_PP}, FN(j0_pq)[] = {J0_PQ}, FN(j0_qp)[] = {J0_QP}, FN(j0_qq)[] = {J0_QQ};
static const C FN(j0_rp)[] = {J0_RP}, FN(j0_rq)[] = {J0_RQ}, FN(y0_yp)[] = {Y0_YP}, FN(y0_yq)[] = {Y0_YQ};
static const C FN(j1_pp)[] = {J1_PP}, FN(j1_pq)[] = {J1_PQ}, FN(j1_qp)[] = {J1_QP}, FN(j1_qq)[] = {J1_QQ};
static const C FN(j1_rp)[] = {J1_RP}, FN(j1_rq)[] = {J1_RQ}, FN(y1_yp)[] = {Y1_YP}, FN(y1_yq)[] = {Y1_YQ};
static const C FN(i0_a)[] = {I0_A}, FN(i0_b)[] = {I0_B}, FN(i1_a)[] = {I1_A}, FN(i1_b)[] = {I1_B};
static const C FN(k0_a)[] = {K0_A}, FN(k0_b)[] = {K0_B}, FN(k1_a)[] = {K1_A}, FN(k1_b)[] = {K1_B};
static const C FN(ai_an)[] = {AI_AN}, FN(ai_ad)[] = {AI_AD}, FN(ai_afn)[] = {AI_AFN}, FN(ai_afd)[] = {AI_AFD};
static const C FN(ai_agn)[] = {AI_AGN}, FN(ai_agd)[] = {AI_AGD};
#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* PyTorch 1.13 evaluates the denominators of Cephes' J0, J1, Y0 and Y1 without their leading 1 (QQ,
 * RQ, YQ): 5e-8 relative below 5, up to 4e-5 beyond, and its results are those. */

/* The Hankel asymptotic form beyond 5 of J (sine false) or Y (sine true) of order 0 or 1, phase
 * x - pi/4 or x - 3pi/4. */
static C FN(hankel)(C x, const C *pp, const C *pq, const C *qp, const C *qq, C phase, bool y) {
    const C z = (C)25 / (x * x);
    const C p = FN(poly)(z, pp, 7, false) / FN(poly)(z, pq, 7, false);
    const C q = FN(poly)(z, qp, 8, false) / FN(poly)(z, qq, 7, false);
    const C xn = x - phase;
    const C v = y ? fma(p, sin(xn), (C)5 / x * q * cos(xn)) : fma(p, cos(xn), -((C)5 / x * q * sin(xn)));
    return v * (C)0.797884560802865355879892119868763737 / sqrt(x);
}

static C FN(bessel_j0)(C x) {
    if (x < 0) x = -x;
    if (x <= 5) {
        const C z = x * x;
        if (x < (C)1e-5) return (C)1 - z / (C)4;
        return (z - (C)5.78318596294678452118) * (z - (C)30.4712623436620863991) * FN(poly)(z, FN(j0_rp), 4, false) /
               FN(poly)(z, FN(j0_rq), 8, false);
    }
    return FN(hankel)(x, FN(j0_pp), FN(j0_pq), FN(j0_qp), FN(j0_qq), (C)0.785398163397448309615660845819875721, false);
}

static C FN(bessel_j1)(C x) {
    if (x < 0) return -FN(bessel_j1)(-x);
    if (x <= 5) {
        const C z = x * x;
        return FN(poly)(z, FN(j1_rp), 4, false) / FN(poly)(z, FN(j1_rq), 8, false) * x * (z - (C)14.6819706421238932572) *
               (z - (C)49.2184563216946036703);
    }
    return FN(hankel)(x, FN(j1_pp), FN(j1_pq), FN(j1_qp), FN(j1_qq), (C)2.356194490192344928846982537459627163, false);
}

static C FN(bessel_y0)(C x) {
    if (x <= 5) {
        if (x == 0) return -(C)INFINITY;
        if (x < 0) return (C)NAN;
        const C z = x * x;
        return fma((C)0.636619772367581343075535053490057448 * log(x), FN(bessel_j0)(x),
                   FN(poly)(z, FN(y0_yp), 8, false) / FN(poly)(z, FN(y0_yq), 7, false));
    }
    return FN(hankel)(x, FN(j0_pp), FN(j0_pq), FN(j0_qp), FN(j0_qq), (C)0.785398163397448309615660845819875721, true);
}

static C FN(bessel_y1)(C x) {
    if (x <= 5) {
        if (x == 0) return -(C)INFINITY;
        if (x <= 0) return (C)NAN;
        const C z = x * x;
        return fma(x, FN(poly)(z, FN(y1_yp), 6, false) / FN(poly)(z, FN(y1_yq), 8, false),
                   (C)0.636619772367581343075535053490057448 * fma(FN(bessel_j1)(x), log(x), -((C)1 / x)));
    }
    return FN(hankel)(x, FN(j1_pp), FN(j1_pq), FN(j1_qp), FN(j1_qq), (C)2.356194490192344928846982537459627163, true);
}

/* I0 and exp(-|x|) I0(x) (i0, special_i0e, modified_bessel_i0): a Chebyshev series of exp(-x) I0(x)
 * up to 8, of exp(-x) sqrt(x) I0(x) beyond. */
static C FN(i0)(C x) {
    const C ax = fabs(x);
    if (ax <= 8) return exp(ax) * FN(chbevl)(ax / (C)2 - (C)2, FN(i0_a), LEN(FN(i0_a)));
    return exp(ax) * FN(chbevl)((C)32 / ax - (C)2, FN(i0_b), LEN(FN(i0_b))) / sqrt(ax);
}

static C FN(i0e)(C x) {
    const C ax = fabs(x);
    if (ax <= 8) return FN(chbevl)(ax / (C)2 - (C)2, FN(i0_a), LEN(FN(i0_a)));
    return FN(chbevl)((C)32 / ax - (C)2, FN(i0_b), LEN(FN(i0_b))) / sqrt(ax);
}

static C FN(modified_bessel_i0)(C x) { return FN(i0)(x); }

static C FN(modified_bessel_i1)(C x) {
    const C ax = fabs(x);
    const C r = ax <= 8 ? FN(chbevl)(ax / (C)2 - (C)2, FN(i1_a), LEN(FN(i1_a))) * ax * exp(ax)
                        : exp(ax) * FN(chbevl)((C)32 / ax - (C)2, FN(i1_b), LEN(FN(i1_b))) / sqrt(ax);
    return x < 0 ? -r : r;
}

/* special_i1 and special_i1e (PyTorch's calc_i1, calc_i1e: the same series, another order of the
 * factors). */
static C FN(i1)(C x) {
    const C ax = fabs(x);
    const C r = ax <= 8 ? exp(ax) * ax * FN(chbevl)(ax / (C)2 - (C)2, FN(i1_a), LEN(FN(i1_a)))
                        : exp(ax) * FN(chbevl)((C)32 / ax - (C)2, FN(i1_b), LEN(FN(i1_b))) / sqrt(ax);
    return x < 0 ? -r : r;
}

static C FN(i1e)(C x) {
    const C ax = fabs(x);
    const C r = ax <= 8 ? FN(chbevl)(ax / (C)2 - (C)2, FN(i1_a), LEN(FN(i1_a))) * ax
                        : FN(chbevl)((C)32 / ax - (C)2, FN(i1_b), LEN(FN(i1_b))) / sqrt(ax);
    return x < 0 ? -r : r;
}

/* K0 and K1 below 2 (unscaled), from the series for K + log(x/2) I. */
static C FN(k0_small)(C x) {
    return FN(chbevl)(x * x - (C)2, FN(k0_a), LEN(FN(k0_a))) - log((C)0.5 * x) * FN(modified_bessel_i0)(x);
}
static C FN(k1_small)(C x) {
    return log((C)0.5 * x) * FN(modified_bessel_i1)(x) + FN(chbevl)(x * x - (C)2, FN(k1_a), LEN(FN(k1_a))) / x;
}

/* K0 (one false) or K1, times exp(x) when scaled. */
static C FN(bessel_k)(C x, bool one, bool scaled) {
    if (x == 0) return (C)INFINITY;
    if (x < 0) return (C)NAN;
    if (x <= 2) {
        const C k = one ? FN(k1_small)(x) : FN(k0_small)(x);
        return scaled ? k * exp(x) : k;
    }
    const C r = FN(chbevl)((C)8 / x - (C)2, one ? FN(k1_b) : FN(k0_b), 25);
    return scaled ? r / sqrt(x) : exp(-x) * r / sqrt(x);
}

static C FN(modified_bessel_k0)(C x) { return FN(bessel_k)(x, false, false); }
static C FN(modified_bessel_k1)(C x) { return FN(bessel_k)(x, true, false); }
static C FN(scaled_modified_bessel_k0)(C x) { return FN(bessel_k)(x, false, true); }
static C FN(scaled_modified_bessel_k1)(C x) { return FN(bessel_k)(x, true, true); }

/* sin(x) / x, by its Taylor series below 1/2. */
static C FN(spherical_bessel_j0)(C x) {
    if (isinf(x)) return 0;
    if (fabs(x) < (C)0.5) {
        const C z = x * x;
        return (C)1 +
               z * ((C)-1 / (C)6 +
                    z * ((C)1 / (C)120 +
                         z * ((C)-1 / (C)5040 +
                              z * ((C)1 / (C)362880 + z * ((C)-1 / (C)39916800 + z * ((C)1 / (C)6227020800))))));
    }
    return sin(x) / x;
}

/* Ai(x): asymptotic forms below -2.09 and from 2.09, the Maclaurin series between. */
static C FN(airy_ai)(C x) {
    const C sqpii = (C)5.64189583547756286948e-1;
    if (isinf(x)) return (C)NAN;
    if (x > (C)103.892) return 0;
    if (x < (C)-2.09) {
        const C zeta = (C)-2 * x * sqrt(-x) / (C)3;
        const C z = (C)1 / zeta, zz = z * z;
        /* as PyTorch's, without the leading 1 of Cephes' AFD and AGD */
        const C uf = (C)1 + zz * FN(poly)(zz, FN(ai_afn), 9, false) / FN(poly)(zz, FN(ai_afd), 9, false);
        const C ug = z * FN(poly)(zz, FN(ai_agn), 11, false) / FN(poly)(zz, FN(ai_agd), 10, false);
        const C theta = zeta + (C)0.25 * (C)M_PI;
        return sqpii / sqrt(sqrt(-x)) * (sin(theta) * uf - cos(theta) * ug);
    }
    if (x >= (C)2.09) {
        const C zeta = (C)2 * x * sqrt(x) / (C)3;
        const C z = (C)1 / zeta;
        const C f = FN(poly)(z, FN(ai_an), 8, false) / FN(poly)(z, FN(ai_ad), 8, false);
        return sqpii * f / ((C)2 * sqrt(sqrt(x)) * exp(zeta));
    }
    C f = 1, g = x, uf = 1, ug = x, k = 1, t = 1;
    const C z = x * x * x;
    const C eps = sizeof(C) == sizeof(float) ? (C)FLT_EPSILON : (C)DBL_EPSILON;
    while (t > eps) {
        uf *= z;
        k += 1;
        uf /= k;
        ug *= z;
        k += 1;
        ug /= k;
        uf /= k;
        f += uf;
        k += 1;
        ug /= k;
        g += ug;
        t = fabs(uf / f);
    }
    return (C)0.355028053887817239260 * f - (C)0.258819403792806798405 * g;
}

#undef LEN
#undef FN
#undef C
#undef S
