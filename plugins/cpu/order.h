/*
 * order.h - what the sorting and selection kernels share: a (value, index) pair per dtype and the
 * orders PyTorch's CPU kernels compare with.
 *
 *   ASC   ascending, NaN after everything (sort, kthvalue, topk smallest)
 *   DESC  descending, NaN before everything (sort descending, topk largest)
 * NaN ties with NaN and -0.0 with 0.0 under both, as in PyTorch.
 */
#ifndef CPU_ORDER_H
#define CPU_ORDER_H

#include <stdint.h>

#include "dtype.h"

#define ORD_ISNAN_KB(x) 0
#define ORD_ISNAN_KU(x) 0
#define ORD_ISNAN_KI(x) 0
#define ORD_ISNAN_KF(x) ((x) != (x))
#define ORD_ISNAN(S, x) CPU_CAT(ORD_ISNAN_, CPU_K_##S)(x)

/* One element of a line and where it came from. */
#define ORD_PAIR_TYPE(_, S)                                                                        \
    typedef struct ord_pair_##S {                                                                  \
        CPU_C_##S v;                                                                               \
        int64_t i;                                                                                 \
    } ord_pair_##S;
CPU_DTYPES_ALL(ORD_PAIR_TYPE, _)

#define ORD_ASC(S, a, b) ((!ORD_ISNAN(S, (a).v) && ORD_ISNAN(S, (b).v)) || (a).v < (b).v)
#define ORD_DESC(S, a, b) ((ORD_ISNAN(S, (a).v) && !ORD_ISNAN(S, (b).v)) || (a).v > (b).v)

#endif
