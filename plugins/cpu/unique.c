/*
 * unique.c - unique (sorted or not, inverse, counts), unique_consecutive (flat or along a dim) and
 * unique_dim (whole slices along a dim). Their outputs' sizes depend on the data: the kernels ask
 * the core for them (tc_core_api.kernel_output) once they know.
 *
 *   unique              ints [sorted, return_inverse, return_counts] -> values, inverse, counts.
 *                       PyTorch inserts the elements (row-major) into a std::unordered_set and
 *                       returns its iteration order, std::sort-ed when sorted=True. That order is
 *                       replayed here (libstdc++'s hashes, prime bucket counts, rehashing and list
 *                       splicing), so sorted=False, and NaN placement under sorted=True, come out as
 *                       PyTorch's. NaN never equals NaN: each is its own value, with count 0 and
 *                       inverse 0 (PyTorch's maps never find it). bool counts its two values.
 *                       As in PyTorch the inverse comes out whenever counts do. A sorted unique of
 *                       integers spanning few values is counted in an array over the span instead
 *                       (sorting erases the set's order; integers have no NaN).
 *   unique_consecutive  ints [dim or -1 for the flattened input, return_inverse, return_counts].
 *   unique_dim          ints [dim, return_inverse, return_counts]: slices sorted lexicographically
 *                       (std::sort replica), equal neighbours merged; inverse and counts always.
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "lines.h"
#include "stl_sort.h"

/* ---- libstdc++'s std::unordered_set, as far as its iteration order goes ---- */

/* std::__detail::__prime_list: the bucket counts std::unordered_set grows through (64-bit). */
static const uint64_t stl_primes[] = {
    2ull, 3ull, 5ull, 7ull, 11ull, 13ull, 17ull, 19ull, 23ull, 29ull, 31ull, 37ull, 41ull, 43ull, 47ull,
    53ull, 59ull, 61ull, 67ull, 71ull, 73ull, 79ull, 83ull, 89ull, 97ull, 103ull, 109ull, 113ull, 127ull,
    137ull, 139ull, 149ull, 157ull, 167ull, 179ull, 193ull, 199ull, 211ull, 227ull, 241ull, 257ull, 277ull,
    293ull, 313ull, 337ull, 359ull, 383ull, 409ull, 439ull, 467ull, 503ull, 541ull, 577ull, 619ull, 661ull,
    709ull, 761ull, 823ull, 887ull, 953ull, 1031ull, 1109ull, 1193ull, 1289ull, 1381ull, 1493ull, 1613ull,
    1741ull, 1879ull, 2029ull, 2179ull, 2357ull, 2549ull, 2753ull, 2971ull, 3209ull, 3469ull, 3739ull,
    4027ull, 4349ull, 4703ull, 5087ull, 5503ull, 5953ull, 6427ull, 6949ull, 7517ull, 8123ull, 8783ull,
    9497ull, 10273ull, 11113ull, 12011ull, 12983ull, 14033ull, 15173ull, 16411ull, 17749ull, 19183ull,
    20753ull, 22447ull, 24281ull, 26267ull, 28411ull, 30727ull, 33223ull, 35933ull, 38873ull, 42043ull,
    45481ull, 49201ull, 53201ull, 57557ull, 62233ull, 67307ull, 72817ull, 78779ull, 85229ull, 92203ull,
    99733ull, 107897ull, 116731ull, 126271ull, 136607ull, 147793ull, 159871ull, 172933ull, 187091ull,
    202409ull, 218971ull, 236897ull, 256279ull, 277261ull, 299951ull, 324503ull, 351061ull, 379787ull,
    410857ull, 444487ull, 480881ull, 520241ull, 562841ull, 608903ull, 658753ull, 712697ull, 771049ull,
    834181ull, 902483ull, 976369ull, 1056323ull, 1142821ull, 1236397ull, 1337629ull, 1447153ull, 1565659ull,
    1693859ull, 1832561ull, 1982627ull, 2144977ull, 2320627ull, 2510653ull, 2716249ull, 2938679ull,
    3179303ull, 3439651ull, 3721303ull, 4026031ull, 4355707ull, 4712381ull, 5098259ull, 5515729ull,
    5967347ull, 6456007ull, 6984629ull, 7556579ull, 8175383ull, 8844859ull, 9569143ull, 10352717ull,
    11200489ull, 12117689ull, 13109983ull, 14183539ull, 15345007ull, 16601593ull, 17961079ull, 19431899ull,
    21023161ull, 22744717ull, 24607243ull, 26622317ull, 28802401ull, 31160981ull, 33712729ull, 36473443ull,
    39460231ull, 42691603ull, 46187573ull, 49969847ull, 54061849ull, 58488943ull, 63278561ull, 68460391ull,
    74066549ull, 80131819ull, 86693767ull, 93793069ull, 101473717ull, 109783337ull, 118773397ull,
    128499677ull, 139022417ull, 150406843ull, 162723577ull, 176048909ull, 190465427ull, 206062531ull,
    222936881ull, 241193053ull, 260944219ull, 282312799ull, 305431229ull, 330442829ull, 357502601ull,
    386778277ull, 418451333ull, 452718089ull, 489790921ull, 529899637ull, 573292817ull, 620239453ull,
    671030513ull, 725980837ull, 785430967ull, 849749479ull, 919334987ull, 994618837ull, 1076067617ull,
    1164186217ull, 1259520799ull, 1362662261ull, 1474249943ull, 1594975441ull, 1725587117ull, 1866894511ull,
    2019773507ull, 2185171673ull, 2364114217ull, 2557710269ull, 2767159799ull, 2993761039ull, 3238918481ull,
    3504151727ull, 3791104843ull, 4101556399ull, 4294967291ull, 6442450933ull, 8589934583ull, 12884901857ull,
    17179869143ull, 25769803693ull, 34359738337ull, 51539607367ull, 68719476731ull, 103079215087ull,
    137438953447ull, 206158430123ull, 274877906899ull, 412316860387ull, 549755813881ull, 824633720731ull,
    1099511627689ull, 1649267441579ull, 2199023255531ull, 3298534883309ull, 4398046511093ull,
    6597069766607ull, 8796093022151ull, 13194139533241ull, 17592186044399ull, 26388279066581ull,
    35184372088777ull, 52776558133177ull, 70368744177643ull, 105553116266399ull, 140737488355213ull,
    211106232532861ull, 281474976710597ull, 562949953421231ull, 1125899906842597ull, 2251799813685119ull,
    4503599627370449ull, 9007199254740881ull, 18014398509481951ull, 36028797018963913ull,
    72057594037927931ull, 144115188075855859ull, 288230376151711717ull, 576460752303423433ull,
    1152921504606846883ull, 2305843009213693951ull, 4611686018427387847ull, 9223372036854775783ull,
    18446744073709551557ull,
};
#define STL_NPRIMES ((int64_t)(sizeof stl_primes / sizeof stl_primes[0]) - 1)

/* _Prime_rehash_policy::_M_next_bkt (max load factor 1). */
static uint64_t stl_next_bkt(uint64_t n, uint64_t *next_resize) {
    static const unsigned char fast[] = {2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13};
    if (n < sizeof fast) {
        if (n == 0) return 1;
        *next_resize = fast[n];
        return fast[n];
    }
    int64_t lo = 6, hi = STL_NPRIMES - 1; /* lower_bound over [6, last) */
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (stl_primes[mid] < n) lo = mid + 1;
        else hi = mid;
    }
    *next_resize = lo == STL_NPRIMES - 1 ? UINT64_MAX : stl_primes[lo];
    return stl_primes[lo];
}

/* _Prime_rehash_policy::_M_need_rehash for one insertion: the new bucket count, or 0. */
static uint64_t stl_need_rehash(uint64_t nbkt, uint64_t nelt, uint64_t *next_resize) {
    if (nelt + 1 <= *next_resize) return 0;
    const uint64_t want = nelt + 1 > (*next_resize ? 0 : 11) ? nelt + 1 : (*next_resize ? 0 : 11);
    const double min_bkts = (double)want;
    if (min_bkts >= (double)nbkt) {
        const uint64_t a = (uint64_t)floor(min_bkts) + 1, b = nbkt * 2;
        return stl_next_bkt(a > b ? a : b, next_resize);
    }
    *next_resize = nbkt;
    return 0;
}

/* _Hash_bytes, libstdc++'s 64-bit Murmur variant, as std::hash<float/double> uses it. */
static uint64_t stl_hash_bytes(const void *ptr, size_t len) {
    const uint64_t mul = ((uint64_t)0xc6a4a793u << 32) + 0x5bd1e995u;
    const unsigned char *buf = ptr;
    uint64_t hash = 0xc70f6907u ^ (len * mul);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t data;
        memcpy(&data, buf + i, 8);
        data *= mul;
        data ^= data >> 47;
        hash ^= data * mul;
        hash *= mul;
    }
    if (len & 7) {
        uint64_t data = 0;
        for (size_t j = len; j > i; j--) data = (data << 8) + buf[j - 1];
        hash ^= data;
        hash *= mul;
    }
    hash ^= hash >> 47;
    hash *= mul;
    return hash ^ (hash >> 47);
}

#define SET_EMPTY (-1)
#define SET_BEFORE_BEGIN (-2)

/* The node list and buckets; node values live in the caller's array, hashes are recomputed as
 * libstdc++ does for "fast" hashes (it caches none). */
/* x % d for a fixed d: Lemire's multiply-shift for 32-bit x and d (most integer hashes), else the
 * division (libstdc++ divides every time: same result, slower). */
typedef struct stl_mod {
    uint64_t d, m; /* m = 2^64 / d rounded up, 0 when the division is used */
} stl_mod;

static stl_mod stl_mod_for(uint64_t d) {
    return (stl_mod){d, d > 1 && d < ((uint64_t)1 << 32) ? UINT64_MAX / d + 1 : 0};
}

static inline uint64_t stl_mod_of(stl_mod md, uint64_t x) {
    if (md.m == 0 || (x >> 32)) return md.d == 1 ? 0 : x % md.d;
    return (uint64_t)(((unsigned __int128)(md.m * x) * md.d) >> 64);
}

/* The node list and buckets; node values live in `vals` (grown with the node arrays), hashes are
 * recomputed as libstdc++ does for "fast" hashes (it caches none). */
typedef struct stl_set {
    void *vals;      /* per node: its value */
    int64_t *next;   /* per node: the next node of the list, -1 at the end */
    int64_t *count;  /* per node: how many inserts found it */
    int64_t *bucket; /* per bucket: the node before its first node, SET_BEFORE_BEGIN or SET_EMPTY */
    uint64_t nbkt, next_resize;
    stl_mod mod;
    int64_t head, nodes, cap, cap_bkt;
    size_t val_size;
} stl_set;

/* Room for one more node: the node arrays double when full. */
static int set_reserve(stl_set *s) {
    if (s->nodes < s->cap) return TC_OK;
    const int64_t cap = s->cap ? 2 * s->cap : 1024;
    void *vals = cpu_core->host_alloc(s->val_size * (size_t)cap);
    int64_t *next = cpu_core->host_alloc(sizeof(int64_t) * (size_t)cap);
    int64_t *count = cpu_core->host_alloc(sizeof(int64_t) * (size_t)cap);
    if (!vals || !next || !count) {
        if (vals) cpu_core->host_free(vals, s->val_size * (size_t)cap);
        if (next) cpu_core->host_free(next, sizeof(int64_t) * (size_t)cap);
        if (count) cpu_core->host_free(count, sizeof(int64_t) * (size_t)cap);
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu unique: out of memory");
    }
    if (s->cap) {
        memcpy(vals, s->vals, s->val_size * (size_t)s->nodes);
        memcpy(next, s->next, sizeof(int64_t) * (size_t)s->nodes);
        memcpy(count, s->count, sizeof(int64_t) * (size_t)s->nodes);
        cpu_core->host_free(s->vals, s->val_size * (size_t)s->cap);
        cpu_core->host_free(s->next, sizeof(int64_t) * (size_t)s->cap);
        cpu_core->host_free(s->count, sizeof(int64_t) * (size_t)s->cap);
    }
    s->vals = vals;
    s->next = next;
    s->count = count;
    s->cap = cap;
    return TC_OK;
}

static void set_free(stl_set *s) {
    if (s->cap) {
        cpu_core->host_free(s->vals, s->val_size * (size_t)s->cap);
        cpu_core->host_free(s->next, sizeof(int64_t) * (size_t)s->cap);
        cpu_core->host_free(s->count, sizeof(int64_t) * (size_t)s->cap);
    }
    if (s->cap_bkt) cpu_core->host_free(s->bucket, sizeof(int64_t) * (size_t)s->cap_bkt);
}

static void set_link_first(stl_set *s, int64_t *buckets, uint64_t b, int64_t node, uint64_t head_bkt) {
    s->next[node] = s->head;
    s->head = node;
    if (s->next[node] >= 0) buckets[head_bkt] = node;
    buckets[b] = SET_BEFORE_BEGIN;
}

static void set_link_after(stl_set *s, int64_t prev, int64_t node) {
    if (prev == SET_BEFORE_BEGIN) {
        s->next[node] = s->head;
        s->head = node;
    } else {
        s->next[node] = s->next[prev];
        s->next[prev] = node;
    }
}

#define UNIQUE_HASH_u8(v) ((uint64_t)(v))
#define UNIQUE_HASH_i8(v) ((uint64_t)(int64_t)(v))
#define UNIQUE_HASH_i16(v) ((uint64_t)(int64_t)(v))
#define UNIQUE_HASH_i32(v) ((uint64_t)(int64_t)(v))
#define UNIQUE_HASH_i64(v) ((uint64_t)(int64_t)(v))
#define UNIQUE_HASH_bf16(v) ((uint64_t)(v)) /* std::hash of its bits */
#define UNIQUE_HASH_f32(v) ((v) != 0 ? stl_hash_bytes(&(v), 4) : 0)
#define UNIQUE_HASH_f64(v) ((v) != 0 ? stl_hash_bytes(&(v), 8) : 0)
/* Values compare as their type does (bfloat16 through float): NaN equals nothing. */
#define UNIQUE_EQ_u8(a, b) ((a) == (b))
#define UNIQUE_EQ_i8 UNIQUE_EQ_u8
#define UNIQUE_EQ_i16 UNIQUE_EQ_u8
#define UNIQUE_EQ_i32 UNIQUE_EQ_u8
#define UNIQUE_EQ_i64 UNIQUE_EQ_u8
#define UNIQUE_EQ_f32 UNIQUE_EQ_u8
#define UNIQUE_EQ_f64 UNIQUE_EQ_u8
#define UNIQUE_EQ_bf16(a, b) (cpu_ld_bf16(a) == cpu_ld_bf16(b))
#define UNIQUE_LT_bf16(a, b) (cpu_ld_bf16(a) < cpu_ld_bf16(b))
#define UNIQUE_LT_u8(a, b) ((a) < (b))
#define UNIQUE_LT_i8 UNIQUE_LT_u8
#define UNIQUE_LT_i16 UNIQUE_LT_u8
#define UNIQUE_LT_i32 UNIQUE_LT_u8
#define UNIQUE_LT_i64 UNIQUE_LT_u8
#define UNIQUE_LT_f32 UNIQUE_LT_u8
#define UNIQUE_LT_f64 UNIQUE_LT_u8
/* The integer dtypes, whose sorted unique may count over their span (unique_dense_). */
#define UNIQUE_INTEGER_u8 1
#define UNIQUE_INTEGER_i8 1
#define UNIQUE_INTEGER_i16 1
#define UNIQUE_INTEGER_i32 1
#define UNIQUE_INTEGER_i64 1
#define UNIQUE_INTEGER_bf16 0
#define UNIQUE_INTEGER_f32 0
#define UNIQUE_INTEGER_f64 0
#define UNIQUE_DENSE_SPAN 65536 /* spans up to this many values count densely whatever n is */
#define UNIQUE_NOT_DENSE 2      /* neither TC_OK nor TC_FAIL */
#define UNIQUE_NAN_bf16(v) (cpu_ld_bf16(v) != cpu_ld_bf16(v))
#define UNIQUE_NAN_f32(v) ((v) != (v))
#define UNIQUE_NAN_f64(v) ((v) != (v))
#define UNIQUE_NAN_u8(v) 0
#define UNIQUE_NAN_i8(v) 0
#define UNIQUE_NAN_i16(v) 0
#define UNIQUE_NAN_i32(v) 0
#define UNIQUE_NAN_i64(v) 0

/* ---- shared by the kernels ---- */

typedef struct unique_bufs {
    void *p[8];
    size_t n[8];
    int used;
} unique_bufs;

/* Scratch from the core; NULL (error set) when it cannot be had or the size overflows. */
static void *ubuf(unique_bufs *b, int64_t count, size_t elem) {
    if (count < 0 || (uint64_t)count > SIZE_MAX / elem || b->used == 8) {
        cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu unique: out of memory");
        return NULL;
    }
    const size_t bytes = count > 0 ? (size_t)count * elem : elem;
    void *p = cpu_core->host_alloc(bytes);
    if (!p) {
        cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu unique: out of memory for %zu bytes", bytes);
        return NULL;
    }
    b->p[b->used] = p;
    b->n[b->used++] = bytes;
    return p;
}

static void ubuf_free(unique_bufs *b) {
    for (int i = 0; i < b->used; i++) cpu_core->host_free(b->p[i], b->n[i]);
    b->used = 0;
}

/* Output i of the kernel, 1-D of n elements (the core allocates it). */
static int uout(const tc_kernel_args *args, int32_t i, int64_t n, tc_view *v) {
    return cpu_core->kernel_output(args, i, 1, &n, v);
}

/* Output i with the input's sizes (inverse indices). */
static int uout_like(const tc_kernel_args *args, int32_t i, const tc_view *in, tc_view *v) {
    return cpu_core->kernel_output(args, i, in->ndim, in->sizes, v);
}

/* Row-major contiguous: the elements in the order unique() reads them. */
static int is_contiguous(const tc_view *v) {
    int64_t expect = 1;
    for (int d = v->ndim - 1; d >= 0; d--) {
        if (v->sizes[d] != 1 && v->strides[d] != expect) return 0;
        expect *= v->sizes[d];
    }
    return 1;
}

static int64_t numel_of(const tc_view *v) {
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* Writes int64 values to a (contiguous, fresh) output. */
static void put_i64(const tc_view *v, const int64_t *src, int64_t n) {
    if (n) memcpy(v->data, src, sizeof(int64_t) * (size_t)n);
}

/* ---- unique of bool: which of the two values occur ---- */

static int unique_bool(const tc_kernel_args *args, int want_inverse, int want_counts) {
    const tc_view *in = &args->inputs[0];
    const int64_t n = numel_of(in);
    unique_bufs b = {0};
    uint8_t *x = ubuf(&b, n, 1);
    if (!x) return TC_FAIL;
    cpu_gather(in, 0, x, 1, NULL);
    int64_t trues = 0;
    for (int64_t i = 0; i < n; i++) trues += x[i] != 0;
    const int64_t falses = n - trues, nout = (trues > 0) + (falses > 0), true_at = falses > 0;
    tc_view v, inv, cnt;
    int rc = uout(args, 0, nout, &v);
    if (rc == TC_OK) {
        uint8_t *o = v.data;
        if (falses) o[0] = 0;
        if (trues) o[true_at] = 1;
        rc = want_inverse ? uout_like(args, 1, in, &inv) : uout(args, 1, 0, &inv);
    }
    if (rc == TC_OK && want_inverse)
        for (int64_t i = 0; i < n; i++) ((int64_t *)inv.data)[i] = x[i] ? true_at : 0;
    if (rc == TC_OK && args->n_outputs > 2) {
        rc = uout(args, 2, want_counts ? nout : 0, &cnt);
        if (rc == TC_OK && want_counts) {
            if (falses) ((int64_t *)cnt.data)[0] = falses;
            if (trues) ((int64_t *)cnt.data)[true_at] = trues;
        }
    }
    ubuf_free(&b);
    return rc;
}

/* ---- unique: the hash set's order ---- */

#define UNIQUE_STAMP(_, S)                                                                         \
    typedef struct upair_##S {                                                                     \
        CPU_T_##S v;                                                                               \
        int64_t node;                                                                              \
    } upair_##S;                                                                                   \
    static int upair_less_##S(upair_##S a, upair_##S b) { return UNIQUE_LT_##S(a.v, b.v); }         \
    STL_SORT_STAMP(usort_##S, upair_##S, upair_less_##S)                                           \
    static inline uint64_t uhash_##S(CPU_T_##S v) { return UNIQUE_HASH_##S(v); }                   \
    static int set_rehash_##S(stl_set *s, uint64_t n) {                                            \
        if (n > (uint64_t)INT64_MAX / sizeof(int64_t))                                             \
            return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu unique: too many buckets");      \
        int64_t *nb = cpu_core->host_alloc(sizeof(int64_t) * (size_t)n);                          \
        if (!nb) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu unique: out of memory");    \
        for (uint64_t i = 0; i < n; i++) nb[i] = SET_EMPTY;                                        \
        const CPU_T_##S *vals = s->vals;                                                           \
        const stl_mod md = stl_mod_for(n);                                                         \
        int64_t p = s->head;                                                                       \
        uint64_t first_bkt = 0;                                                                    \
        s->head = -1;                                                                              \
        while (p >= 0) {                                                                           \
            const int64_t next = s->next[p];                                                       \
            const uint64_t b = stl_mod_of(md, uhash_##S(vals[p]));                                 \
            if (nb[b] == SET_EMPTY) {                                                              \
                set_link_first(s, nb, b, p, first_bkt);                                            \
                first_bkt = b;                                                                     \
            } else {                                                                               \
                set_link_after(s, nb[b], p);                                                       \
            }                                                                                      \
            p = next;                                                                              \
        }                                                                                          \
        if (s->cap_bkt) cpu_core->host_free(s->bucket, sizeof(int64_t) * (size_t)s->cap_bkt);      \
        s->bucket = nb;                                                                            \
        s->cap_bkt = (int64_t)n;                                                                   \
        s->nbkt = n;                                                                               \
        s->mod = md;                                                                               \
        return TC_OK;                                                                              \
    }                                                                                              \
    /* std::unordered_set::insert: the node holding x (found or new), -1 on failure. */          \
    static int64_t set_insert_##S(stl_set *s, CPU_T_##S x) {                                       \
        const uint64_t h = uhash_##S(x);                                                           \
        uint64_t b = stl_mod_of(s->mod, h);                                                        \
        const CPU_T_##S *vals = s->vals;                                                           \
        if (s->bucket[b] != SET_EMPTY) {                                                           \
            int64_t p = s->bucket[b] == SET_BEFORE_BEGIN ? s->head : s->next[s->bucket[b]];        \
            for (;;) {                                                                             \
                if (UNIQUE_EQ_##S(vals[p], x)) return p;                                           \
                const int64_t q = s->next[p];                                                      \
                if (q < 0 || stl_mod_of(s->mod, uhash_##S(vals[q])) != b) break;                   \
                p = q;                                                                             \
            }                                                                                      \
        }                                                                                          \
        const uint64_t grow = stl_need_rehash(s->nbkt, (uint64_t)s->nodes, &s->next_resize);      \
        if (grow) {                                                                                \
            if (set_rehash_##S(s, grow)) return -1;                                                \
            b = stl_mod_of(s->mod, h);                                                             \
        }                                                                                          \
        if (set_reserve(s)) return -1;                                                             \
        const int64_t node = s->nodes++;                                                           \
        ((CPU_T_##S *)s->vals)[node] = x;                                                          \
        s->count[node] = 0;                                                                        \
        if (s->bucket[b] != SET_EMPTY) set_link_after(s, s->bucket[b], node);                      \
        else set_link_first(s, s->bucket, b, node,                                                 \
                            s->head >= 0 ? stl_mod_of(s->mod, uhash_##S(((CPU_T_##S *)s->vals)[s->head])) : 0); \
        return node;                                                                               \
    }                                                                                              \
    /* Sorted unique of integers spanning at most max(n, UNIQUE_DENSE_SPAN) values: counted in an \
     * array over the span instead of through the hash set, whose order sorting erases (1M int64 \
     * of 100K values, one thread: 29 -> 5 ms). UNIQUE_NOT_DENSE when the span is wider. */      \
    static int unique_dense_##S(const tc_kernel_args *args, const CPU_T_##S *x, int64_t n, unique_bufs *b, \
                                int want_inverse, int want_counts) {                               \
        if (!UNIQUE_INTEGER_##S || n == 0) return UNIQUE_NOT_DENSE;                                \
        CPU_T_##S lo = x[0], hi = x[0];                                                            \
        for (int64_t i = 1; i < n; i++) {                                                          \
            lo = x[i] < lo ? x[i] : lo;                                                            \
            hi = x[i] > hi ? x[i] : hi;                                                            \
        }                                                                                          \
        const uint64_t span = (uint64_t)hi - (uint64_t)lo; /* modular: exact for any two values */ \
        if (span >= (uint64_t)(n > UNIQUE_DENSE_SPAN ? n : UNIQUE_DENSE_SPAN)) return UNIQUE_NOT_DENSE; \
        int64_t *cnt = ubuf(b, (int64_t)span + 1, sizeof(int64_t));                               \
        if (!cnt) return TC_FAIL;                                                                  \
        memset(cnt, 0, ((size_t)span + 1) * sizeof(int64_t));                                    \
        for (int64_t i = 0; i < n; i++) cnt[(uint64_t)x[i] - (uint64_t)lo]++;                      \
        int64_t u = 0;                                                                             \
        for (uint64_t r = 0; r <= span; r++) u += cnt[r] != 0;                                     \
        tc_view v, inv, c;                                                                         \
        int rc = uout(args, 0, u, &v);                                                             \
        if (rc == TC_OK) rc = want_inverse ? uout_like(args, 1, &args->inputs[0], &inv) : uout(args, 1, 0, &inv); \
        if (rc == TC_OK && args->n_outputs > 2) rc = uout(args, 2, want_counts ? u : 0, &c);      \
        if (rc != TC_OK) return rc;                                                                \
        for (uint64_t r = 0, k = 0; r <= span; r++) {                                              \
            if (!cnt[r]) continue;                                                                 \
            ((CPU_T_##S *)v.data)[k] = (CPU_T_##S)((uint64_t)lo + r);                              \
            if (want_counts && args->n_outputs > 2) ((int64_t *)c.data)[k] = cnt[r];               \
            cnt[r] = (int64_t)k++; /* from here on, the value's place in the result */             \
        }                                                                                          \
        if (want_inverse)                                                                          \
            for (int64_t i = 0; i < n; i++) ((int64_t *)inv.data)[i] = cnt[(uint64_t)x[i] - (uint64_t)lo]; \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int unique_##S(const tc_kernel_args *args, int sorted, int want_inverse, int want_counts) { \
        const tc_view *in = &args->inputs[0];                                                      \
        const int64_t n = numel_of(in);                                                            \
        unique_bufs b = {0};                                                                       \
        /* the elements in row-major order: the input itself when it is contiguous */             \
        const CPU_T_##S *x = in->data;                                                             \
        if (!is_contiguous(in)) {                                                                  \
            CPU_T_##S *copy = ubuf(&b, n, sizeof(CPU_T_##S));                                      \
            if (!copy) return TC_FAIL;                                                             \
            cpu_gather(in, 0, copy, sizeof(CPU_T_##S), NULL);                                      \
            x = copy;                                                                              \
        }                                                                                          \
        if (sorted) {                                                                              \
            const int dense = unique_dense_##S(args, x, n, &b, want_inverse, want_counts);         \
            if (dense != UNIQUE_NOT_DENSE) {                                                       \
                ubuf_free(&b);                                                                     \
                return dense;                                                                      \
            }                                                                                      \
        }                                                                                          \
        int64_t *node_of = want_inverse ? ubuf(&b, n, sizeof(int64_t)) : NULL;                     \
        int64_t single = SET_EMPTY;                                                                \
        stl_set s = {.bucket = &single, .nbkt = 1, .mod = stl_mod_for(1), .head = -1,               \
                     .val_size = sizeof(CPU_T_##S)};                                               \
        int rc = !want_inverse || node_of ? TC_OK : TC_FAIL;                                       \
        /* the lookup of values already in the set, with the set's arrays in registers; a new      \
         * value goes through set_insert (which may rehash or grow them) */                        \
        const int64_t *bucket = s.bucket, *next = s.next;                                          \
        const CPU_T_##S *vals = s.vals;                                                            \
        int64_t *count = s.count;                                                                  \
        stl_mod md = s.mod;                                                                        \
        for (int64_t i = 0; rc == TC_OK && i < n; i++) {                                           \
            const CPU_T_##S xi = x[i];                                                             \
            const uint64_t b = stl_mod_of(md, uhash_##S(xi));                                      \
            int64_t node = -1;                                                                     \
            if (bucket[b] != SET_EMPTY) {                                                          \
                for (int64_t p = bucket[b] == SET_BEFORE_BEGIN ? s.head : next[bucket[b]];;) {     \
                    if (UNIQUE_EQ_##S(vals[p], xi)) {                                              \
                        node = p;                                                                  \
                        break;                                                                     \
                    }                                                                              \
                    const int64_t q = next[p];                                                     \
                    if (q < 0 || stl_mod_of(md, uhash_##S(vals[q])) != b) break;                   \
                    p = q;                                                                         \
                }                                                                                  \
            }                                                                                      \
            if (node < 0) {                                                                        \
                if ((node = set_insert_##S(&s, xi)) < 0) {                                         \
                    rc = TC_FAIL;                                                                  \
                    break;                                                                         \
                }                                                                                  \
                bucket = s.bucket;                                                                 \
                next = s.next;                                                                     \
                vals = s.vals;                                                                     \
                count = s.count;                                                                   \
                md = s.mod;                                                                        \
            }                                                                                      \
            count[node]++;                                                                         \
            if (node_of) node_of[i] = node;                                                        \
        }                                                                                          \
        const int64_t u = s.nodes;                                                                 \
        upair_##S *order = rc == TC_OK ? ubuf(&b, u, sizeof(upair_##S)) : NULL;                    \
        if (!order) rc = TC_FAIL;                                                                  \
        if (rc == TC_OK) {                                                                         \
            int64_t k = 0;                                                                         \
            for (int64_t p = s.head; p >= 0; p = s.next[p], k++) order[k] = (upair_##S){((CPU_T_##S *)s.vals)[p], p}; \
            if (sorted) usort_##S##_sort(order, u);                                                \
        }                                                                                          \
        tc_view v, inv, cnt;                                                                       \
        if (rc == TC_OK) rc = uout(args, 0, u, &v);                                                \
        if (rc == TC_OK) {                                                                         \
            /* where each node ended up: reuse `next` (the list is walked) */                      \
            for (int64_t k = 0; k < u; k++) {                                                      \
                ((CPU_T_##S *)v.data)[k] = order[k].v;                                             \
                s.next[order[k].node] = k;                                                         \
            }                                                                                      \
            rc = want_inverse ? uout_like(args, 1, in, &inv) : uout(args, 1, 0, &inv);             \
        }                                                                                          \
        if (rc == TC_OK && want_inverse)                                                           \
            for (int64_t i = 0; i < n; i++)                                                        \
                ((int64_t *)inv.data)[i] = UNIQUE_NAN_##S(x[i]) ? 0 : s.next[node_of[i]];          \
        if (rc == TC_OK && args->n_outputs > 2) {                                                  \
            rc = uout(args, 2, want_counts ? u : 0, &cnt);                                         \
            for (int64_t k = 0; rc == TC_OK && want_counts && k < u; k++)                          \
                ((int64_t *)cnt.data)[k] = UNIQUE_NAN_##S(order[k].v) ? 0 : s.count[order[k].node]; \
        }                                                                                          \
        set_free(&s);                                                                              \
        ubuf_free(&b);                                                                             \
        return rc;                                                                                 \
    }
#define UNIQUE_DTYPES(X, A) X(A, u8) X(A, i8) X(A, i16) X(A, i32) X(A, i64) X(A, bf16) X(A, f32) X(A, f64)
UNIQUE_DTYPES(UNIQUE_STAMP, _)

/* unique / _unique: ints [sorted, return_inverse, return_counts]. As PyTorch's, the inverse is
 * computed when either is asked for (the _unique2 path), counts only when asked. */
#define UNIQUE_KERNEL(_, S)                                                                        \
    static int k_unique_##S(const tc_kernel_args *args) {                                          \
        if (cpu_check_args(args, 1, 2, "unique") != TC_OK) return TC_FAIL;                         \
        if (args->n_ints < 3) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu unique: missing arguments"); \
        const int inverse = args->ints[1] || (args->n_outputs > 2 && args->ints[2]);               \
        return unique_##S(args, (int)args->ints[0], inverse, (int)args->ints[2]);                  \
    }
UNIQUE_DTYPES(UNIQUE_KERNEL, _)

/* bool: PyTorch's own path, counting its two values. */
static int k_unique_b8(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "unique") != TC_OK) return TC_FAIL;
    if (args->n_ints < 3) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu unique: missing arguments");
    return unique_bool(args, args->ints[1] || (args->n_outputs > 2 && args->ints[2]), (int)args->ints[2]);
}

/* ---- unique_consecutive, unique_dim ---- */

/* The slices along a dim, gathered as rows of m compute-type elements, compared by a std::sort
 * replica on their indices: the comparator reads them through this thread's context. */
typedef struct udim_ctx {
    const void *rows;
    int64_t m;
} udim_ctx;
static _Thread_local udim_ctx udim;

#define UDIM_STAMP(_, S)                                                                           \
    /* Lexicographic by value; NaN neither before nor after anything, as PyTorch's comparator. */ \
    static int udim_less_##S(int64_t a, int64_t b) {                                               \
        const CPU_C_##S *x = (const CPU_C_##S *)udim.rows + a * udim.m, *y = (const CPU_C_##S *)udim.rows + b * udim.m; \
        for (int64_t i = 0; i < udim.m; i++) {                                                     \
            if (x[i] < y[i]) return 1;                                                             \
            if (x[i] > y[i]) return 0;                                                             \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    STL_SORT_STAMP(udsort_##S, int64_t, udim_less_##S)                                             \
    static int udim_equal_##S(const CPU_C_##S *x, const CPU_C_##S *y, int64_t m) {                 \
        for (int64_t i = 0; i < m; i++)                                                            \
            if (!(x[i] == y[i])) return 0;                                                         \
        return 1;                                                                                  \
    }                                                                                              \
    static void udload_##S(void *dst, const char *src) { *(CPU_C_##S *)dst = cpu_ld_##S(*(const CPU_T_##S *)src); } \
    /* The flattened input: runs of equal neighbours. */                                          \
    static int consecutive_##S(const tc_kernel_args *args, int want_inverse, int want_counts) {    \
        const tc_view *in = &args->inputs[0];                                                      \
        const int64_t n = numel_of(in);                                                            \
        unique_bufs b = {0};                                                                       \
        CPU_C_##S *x = ubuf(&b, n, sizeof(CPU_C_##S));                                             \
        int64_t *inverse = ubuf(&b, n, sizeof(int64_t)), *counts = ubuf(&b, n, sizeof(int64_t));   \
        if (!x || !inverse || !counts) {                                                           \
            ubuf_free(&b);                                                                         \
            return TC_FAIL;                                                                        \
        }                                                                                          \
        cpu_gather(in, 0, x, sizeof(CPU_C_##S), sizeof(CPU_C_##S) == sizeof(CPU_T_##S) ? NULL : udload_##S);                                       \
        int64_t u = 0, last = 0;                                                                   \
        for (int64_t i = 0; i < n; i++) {                                                          \
            if (i == 0 || x[i] != x[last]) {                                                       \
                if (i) counts[u - 1] = i - last;                                                   \
                x[u++] = x[i]; /* compacts in place: u <= i */                                     \
                last = i;                                                                          \
            }                                                                                      \
            inverse[i] = u - 1;                                                                    \
        }                                                                                          \
        if (n) counts[u - 1] = n - last;                                                           \
        tc_view v, inv, cnt;                                                                       \
        int rc = uout(args, 0, u, &v);                                                             \
        for (int64_t k = 0; rc == TC_OK && k < u; k++) ((CPU_T_##S *)v.data)[k] = cpu_st_##S(x[k]); \
        if (rc == TC_OK) rc = want_inverse ? uout_like(args, 1, in, &inv) : uout(args, 1, 0, &inv); \
        if (rc == TC_OK && want_inverse) put_i64(&inv, inverse, n);                                \
        if (rc == TC_OK) rc = uout(args, 2, want_counts ? u : 0, &cnt);                            \
        if (rc == TC_OK && want_counts) put_i64(&cnt, counts, u);                                  \
        ubuf_free(&b);                                                                             \
        return rc;                                                                                 \
    }                                                                                              \
    /* Whole slices along dim: sorted (std::sort replica) unless consecutive, equal neighbours    \
     * merged into the first of them; inverse (per slice) and counts always. */                   \
    static int slices_##S(const tc_kernel_args *args, int dim, int consecutive) {                  \
        const tc_view *in = &args->inputs[0];                                                      \
        const int64_t n = numel_of(in), d = in->sizes[dim], m = d ? n / d : 0;                     \
        /* the input with dim first, gathered row by row */                                       \
        int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];                                          \
        sizes[0] = d;                                                                              \
        strides[0] = in->strides[dim];                                                             \
        for (int k = 0, j = 1; k < in->ndim; k++)                                                  \
            if (k != dim) {                                                                        \
                sizes[j] = in->sizes[k];                                                           \
                strides[j++] = in->strides[k];                                                     \
            }                                                                                      \
        tc_view first = *in;                                                                       \
        first.sizes = sizes;                                                                       \
        first.strides = strides;                                                                   \
        unique_bufs b = {0};                                                                       \
        CPU_C_##S *rows = ubuf(&b, n, sizeof(CPU_C_##S));                                          \
        int64_t *idx = ubuf(&b, d, sizeof(int64_t)), *inverse = ubuf(&b, d, sizeof(int64_t));      \
        int64_t *counts = ubuf(&b, d, sizeof(int64_t)), *rep = ubuf(&b, d, sizeof(int64_t));       \
        if (!rows || !idx || !inverse || !counts || !rep) {                                        \
            ubuf_free(&b);                                                                         \
            return TC_FAIL;                                                                        \
        }                                                                                          \
        cpu_gather(&first, 0, rows, sizeof(CPU_C_##S), sizeof(CPU_C_##S) == sizeof(CPU_T_##S) ? NULL : udload_##S);                                \
        for (int64_t i = 0; i < d; i++) idx[i] = i;                                                \
        if (!consecutive) {                                                                        \
            udim = (udim_ctx){rows, m};                                                            \
            udsort_##S##_sort(idx, d);                                                             \
        }                                                                                          \
        int64_t u = 0, start = 0;                                                                  \
        for (int64_t k = 0; k < d; k++) {                                                          \
            if (k == 0 || !udim_equal_##S(rows + idx[k] * m, rows + rep[u - 1] * m, m)) {          \
                if (k) counts[u - 1] = k - start;                                                  \
                rep[u++] = idx[k];                                                                 \
                start = k;                                                                         \
            }                                                                                      \
            inverse[idx[k]] = u - 1;                                                               \
        }                                                                                          \
        if (d) counts[u - 1] = d - start;                                                          \
        /* the output: the input's sizes with u along dim, contiguous */                          \
        int64_t osizes[TC_MAX_DIMS];                                                               \
        for (int k = 0; k < in->ndim; k++) osizes[k] = k == dim ? u : in->sizes[k];                \
        tc_view v, inv, cnt;                                                                       \
        int rc = cpu_core->kernel_output(args, 0, in->ndim, osizes, &v);                           \
        if (rc == TC_OK) {                                                                         \
            CPU_T_##S *o = v.data;                                                                 \
            int64_t at[TC_MAX_DIMS] = {0};                                                         \
            for (int64_t e = 0; e < m; e++) { /* each element of a slice, row-major over the other dims */ \
                int64_t off = 0;                                                                   \
                for (int k = 0, j = 1; k < in->ndim; k++)                                          \
                    if (k != dim) off += at[j++] * v.strides[k];                                   \
                for (int64_t g = 0; g < u; g++) o[off + g * v.strides[dim]] = cpu_st_##S(rows[rep[g] * m + e]); \
                for (int j = in->ndim - 1; j >= 1; j--) {                                          \
                    if (++at[j] < sizes[j]) break;                                                 \
                    at[j] = 0;                                                                     \
                }                                                                                  \
            }                                                                                      \
            rc = uout(args, 1, d, &inv);                                                           \
        }                                                                                          \
        if (rc == TC_OK) {                                                                         \
            put_i64(&inv, inverse, d);                                                             \
            rc = uout(args, 2, u, &cnt);                                                           \
        }                                                                                          \
        if (rc == TC_OK) put_i64(&cnt, counts, u);                                                 \
        ubuf_free(&b);                                                                             \
        return rc;                                                                                 \
    }                                                                                              \
    static int k_unique_consecutive_##S(const tc_kernel_args *args) {                              \
        if (cpu_check_args(args, 1, 3, "unique_consecutive") != TC_OK) return TC_FAIL;             \
        if (args->n_ints < 3) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu unique: missing arguments"); \
        if (args->ints[0] < 0) return consecutive_##S(args, (int)args->ints[1], (int)args->ints[2]); \
        return slices_##S(args, (int)args->ints[0], 1);                                            \
    }                                                                                              \
    static int k_unique_dim_##S(const tc_kernel_args *args) {                                      \
        if (cpu_check_args(args, 1, 3, "unique_dim") != TC_OK) return TC_FAIL;                     \
        if (args->n_ints < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu unique: missing arguments"); \
        return slices_##S(args, (int)args->ints[0], 0);                                            \
    }
CPU_DTYPES_ALL(UDIM_STAMP, _)

#define ENTRY_UNIQUE(_, S) {"unique", CPU_DT_##S, k_unique_##S},
#define ENTRY_DIM(_, S)                                                                            \
    {"unique_consecutive", CPU_DT_##S, k_unique_consecutive_##S}, {"unique_dim", CPU_DT_##S, k_unique_dim_##S},
static const cpu_kernel_entry kernels[] = {{"unique", TC_BOOL, k_unique_b8}, UNIQUE_DTYPES(ENTRY_UNIQUE, _)
                                               CPU_DTYPES_ALL(ENTRY_DIM, _)};
CPU_KERNEL_TABLE(kernels);
