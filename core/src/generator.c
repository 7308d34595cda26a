/*
 * Random number generators: PyTorch's CPU generator (CPUGeneratorImpl), bit for bit, so that a
 * program seeded with torch.manual_seed draws the numbers it draws under PyTorch.
 *
 * A generator is Matsumoto and Nishimura's mt19937 seeded with the low 32 bits of a 64-bit seed (the
 * usual initialisation, state[j] = 1812433253 * (state[j-1] ^ state[j-1] >> 30) + j), the 64-bit seed
 * itself (what initial_seed reports), and the second sample of a Box-Muller pair that PyTorch's
 * normal_distribution keeps for its next call, one per precision. `left` and `next` follow
 * at::mt19937's bookkeeping (seeding leaves left = 1, so the first draw twists; afterwards
 * left + next = 625), because they are part of the state bytes users save and restore.
 *
 * Every draw happens under the generator's lock: kernels take it once around all their draws
 * (tc_core_api.generator_lock), the functions of tc_core.h take it themselves.
 */
#include "core_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define MT_N 624
#define MT_M 397

/* The seed of a generator nobody seeded (PyTorch's default_rng_seed_val). */
#define DEFAULT_SEED UINT64_C(67280421310721)

struct tc_generator {
    atomic_int_fast64_t refcount;
    tc_device device;
    bool permanent; /* a device's default generator: never freed */
    pthread_mutex_t lock;
    uint64_t seed;
    uint32_t mt[MT_N];
    int32_t left;  /* draws until the next twist, plus one: 1..624 */
    uint32_t next; /* index of the next word of mt */
    bool seeded;
    bool has_normal_f32, has_normal_f64;
    float normal_f32;
    double normal_f64;
};

/* ---- mt19937 ---- */

static void mt_seed(tc_generator *g, uint64_t seed) {
    g->seed = seed;
    g->seeded = true;
    g->mt[0] = (uint32_t)seed;
    for (uint32_t j = 1; j < MT_N; j++) g->mt[j] = 1812433253u * (g->mt[j - 1] ^ (g->mt[j - 1] >> 30)) + j;
    g->left = 1;
    g->next = 0;
    g->has_normal_f32 = g->has_normal_f64 = false;
}

static inline uint32_t mt_twist(uint32_t u, uint32_t v) {
    return (((u & 0x80000000u) | (v & 0x7fffffffu)) >> 1) ^ ((v & 1u) ? 0x9908b0dfu : 0u);
}

static inline uint32_t mt_temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* Eight words at a time (GCC's generic vectors: SSE2 pairs on the baseline, AVX2 where the CPU has
 * it, chosen once at load time by target_clones). Unaligned loads and stores go through memcpy. */
typedef uint32_t mt_v8 __attribute__((vector_size(32)));

#define V8_LOAD(v, p) memcpy(&(v), (p), sizeof(mt_v8))
#define V8_STORE(p, v) memcpy((p), &(v), sizeof(mt_v8))

/* Words j..j+7 of the next round from their neighbours and the words `far` away. */
#define V8_NEXT(mt, j, far)                                                                        \
    do {                                                                                           \
        mt_v8 u_, v_, w_;                                                                          \
        V8_LOAD(u_, (mt) + (j));                                                                   \
        V8_LOAD(v_, (mt) + (j) + 1);                                                               \
        V8_LOAD(w_, (mt) + (j) + (far));                                                           \
        w_ ^= (((u_ & 0x80000000u) | (v_ & 0x7fffffffu)) >> 1) ^ (-(v_ & 1u) & 0x9908b0dfu);      \
        V8_STORE((mt) + (j), w_);                                                                  \
    } while (0)

/* The next 624 words, in place: word j from words j and j+1 of this round and word j+397 (j < 227,
 * not yet rewritten) or j-227 (already rewritten), so each loop runs eight words at a time as long as
 * a vector's words are read before any of them is written. */
__attribute__((target_clones("avx2", "default"))) static void mt_next_state(uint32_t *mt) {
    int j = 0;
    for (; j + 8 <= MT_N - MT_M; j += 8) V8_NEXT(mt, j, MT_M);
    for (; j < MT_N - MT_M; j++) mt[j] = mt[j + MT_M] ^ mt_twist(mt[j], mt[j + 1]);
    for (; j + 8 <= MT_N - 1; j += 8) V8_NEXT(mt, j, MT_M - MT_N);
    for (; j < MT_N - 1; j++) mt[j] = mt[j + MT_M - MT_N] ^ mt_twist(mt[j], mt[j + 1]);
    mt[MT_N - 1] = mt[MT_M - 1] ^ mt_twist(mt[MT_N - 1], mt[0]);
}

__attribute__((target_clones("avx2", "default"))) static void mt_temper_run(const uint32_t *src, uint32_t *out,
                                                                           int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        mt_v8 y;
        V8_LOAD(y, src + i);
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        V8_STORE(out + i, y);
    }
    for (; i < n; i++) out[i] = mt_temper(src[i]);
}

/* The next n outputs. at::mt19937 draws one word as `if (--left == 0) twist, left = 624, next = 0;
 * return temper(mt[next++])`; this does the same in runs. A restored state whose `next` would run
 * past the end of mt before `left` says to twist (PyTorch accepts such states and then reads out of
 * bounds) twists early instead. */
static void mt_fill(tc_generator *g, uint32_t *out, int64_t n) {
    while (n > 0) {
        int64_t avail = (int64_t)g->left - 1;
        if (avail > (int64_t)MT_N - (int64_t)g->next) avail = (int64_t)MT_N - (int64_t)g->next;
        if (avail <= 0) {
            mt_next_state(g->mt);
            g->left = MT_N + 1; /* the draw that twisted has not been counted yet */
            g->next = 0;
            continue;
        }
        int64_t take = avail < n ? avail : n;
        mt_temper_run(g->mt + g->next, out, take);
        g->next += (uint32_t)take;
        g->left -= (int32_t)take;
        out += take;
        n -= take;
    }
}

/* ---- the table members for kernels (the caller holds the lock) ---- */

void tc_generator_lock(tc_generator *g) { pthread_mutex_lock(&g->lock); }
void tc_generator_unlock(tc_generator *g) { pthread_mutex_unlock(&g->lock); }

void tc_generator_fill_u32(tc_generator *g, uint32_t *out, int64_t n) { mt_fill(g, out, n); }

void tc_generator_fill_u64(tc_generator *g, uint64_t *out, int64_t n) {
    /* two outputs per value, the first in the high half: fill the second half of the buffer with
     * 32-bit words, then combine them forwards (value i reads words 2i and 2i+1, never one already
     * overwritten) */
    while (n > 0) {
        int64_t take = n < 4096 ? n : 4096;
        uint32_t words[8192];
        mt_fill(g, words, 2 * take);
        for (int64_t i = 0; i < take; i++) out[i] = ((uint64_t)words[2 * i] << 32) | words[2 * i + 1];
        out += take;
        n -= take;
    }
}

int tc_generator_take_normal(tc_generator *g, int32_t dtype, double *value) {
    if (dtype == TC_FLOAT64 && g->has_normal_f64) {
        *value = g->normal_f64;
        g->has_normal_f64 = false;
        return 1;
    }
    if (dtype == TC_FLOAT32 && g->has_normal_f32) {
        *value = g->normal_f32;
        g->has_normal_f32 = false;
        return 1;
    }
    return 0;
}

void tc_generator_put_normal(tc_generator *g, int32_t dtype, double value) {
    if (dtype == TC_FLOAT64) {
        g->normal_f64 = value;
        g->has_normal_f64 = true;
    } else if (dtype == TC_FLOAT32) {
        g->normal_f32 = (float)value;
        g->has_normal_f32 = true;
    }
}

/* ---- generators ---- */

static tc_generator *generator_alloc(tc_device device, uint64_t seed) {
    tc_generator *g = calloc(1, sizeof *g);
    if (!g) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory allocating a generator"), NULL;
    if (pthread_mutex_init(&g->lock, NULL) != 0) {
        free(g);
        return tc_set_error(TC_ERR_RUNTIME, "cannot create a generator's lock"), NULL;
    }
    g->refcount = 1;
    g->device = device;
    mt_seed(g, seed);
    return g;
}

/* 64 bits of the operating system's entropy, as PyTorch reads /dev/urandom for its default seed. */
static int entropy_u64(uint64_t *out) {
    ssize_t got = getrandom(out, sizeof *out, 0);
    if (got == (ssize_t)sizeof *out) return TC_OK;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        got = read(fd, out, sizeof *out);
        close(fd);
        if (got == (ssize_t)sizeof *out) return TC_OK;
    }
    return tc_set_error(TC_ERR_RUNTIME, "cannot read random bytes from the operating system (errno %d)", errno);
}

static tc_generator *default_cpu;
static pthread_once_t default_cpu_once = PTHREAD_ONCE_INIT;

static void default_cpu_init(void) {
    uint64_t seed;
    if (entropy_u64(&seed)) { /* a seed that differs between runs all the same */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
        tc_error_clear();
    }
    default_cpu = generator_alloc((tc_device){TC_DEVICE_CPU, 0}, seed);
    if (default_cpu) default_cpu->permanent = true;
}

tc_generator *tc_generator_default(int32_t device_type) {
    if (device_type != TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_RUNTIME, "there is no default generator for device type %s",
                            tc_device_type_name(device_type)), NULL;
    pthread_once(&default_cpu_once, default_cpu_init);
    if (!default_cpu) tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory allocating the default generator");
    return default_cpu;
}

/* PyTorch's name of a device type in the Generator constructor's message ("CUDA", "META"). */
static void upper_name(int32_t type, char *buf, size_t len) {
    const char *name = tc_device_type_name(type);
    size_t i = 0;
    for (; name[i] && i + 1 < len; i++) buf[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    buf[i] = 0;
}

tc_generator *tc_generator_new(tc_device device) {
    if (device.type != TC_DEVICE_CPU) {
        char name[64];
        upper_name(device.type, name, sizeof name);
        return tc_set_error(TC_ERR_RUNTIME, "Device type %s is not supported for torch.Generator() api.", name),
               NULL;
    }
    return generator_alloc((tc_device){TC_DEVICE_CPU, 0}, DEFAULT_SEED);
}

void tc_generator_retain(tc_generator *g) {
    if (g) atomic_fetch_add(&g->refcount, 1);
}

void tc_generator_release(tc_generator *g) {
    if (!g || g->permanent || atomic_fetch_sub(&g->refcount, 1) != 1) return;
    pthread_mutex_destroy(&g->lock);
    free(g);
}

tc_device tc_generator_device(const tc_generator *g) { return g->device; }

void tc_generator_manual_seed(tc_generator *g, uint64_t seed) {
    pthread_mutex_lock(&g->lock);
    mt_seed(g, seed);
    pthread_mutex_unlock(&g->lock);
}

int tc_generator_seed(tc_generator *g, uint64_t *seed) {
    if (entropy_u64(seed)) return TC_FAIL;
    tc_generator_manual_seed(g, *seed);
    return TC_OK;
}

uint64_t tc_generator_initial_seed(tc_generator *g) {
    pthread_mutex_lock(&g->lock);
    uint64_t seed = g->seed;
    pthread_mutex_unlock(&g->lock);
    return seed;
}

/* ---- state bytes: PyTorch's CPUGeneratorImplState (x86-64 layout, padding zeroed) ----
 *
 *      0  uint64 the_initial_seed        24  uint64 state[624] (each word zero-extended)
 *      8  int32  left                  5016  double normal_x, normal_y, normal_rho
 *     12  int32  seeded                5040  int32  normal_is_valid (4 bytes of padding follow)
 *     16  uint64 next                  5048  float  next_float_normal_sample
 *                                      5052  bool   is_next_float_normal_sample_valid (+3 padding)
 *
 * The older CPUGeneratorImplStateLegacy is the first 5048 bytes; it stored a pending normal sample
 * as the uniforms it came from (rho * sin(2 pi x)), the current layout stores the sample in normal_y. */
#define STATE_SIZE 5056
#define STATE_SIZE_LEGACY 5048
enum { AT_SEED = 0, AT_LEFT = 8, AT_SEEDED = 12, AT_NEXT = 16, AT_MT = 24, AT_NORMAL_X = 5016, AT_NORMAL_Y = 5024,
       AT_NORMAL_RHO = 5032, AT_NORMAL_VALID = 5040, AT_FLOAT_SAMPLE = 5048, AT_FLOAT_VALID = 5052 };

#define PUT(buf, at, value)                                                                        \
    do {                                                                                           \
        __typeof__(value) v_ = (value);                                                            \
        memcpy((buf) + (at), &v_, sizeof v_);                                                      \
    } while (0)
#define GET(buf, at, type) ({                                                                      \
        type v_;                                                                                   \
        memcpy(&v_, (buf) + (at), sizeof v_);                                                      \
        v_;                                                                                        \
    })

tc_tensor *tc_generator_get_state(tc_generator *g) {
    tc_tensor *t = tc_empty(1, (const int64_t[]){STATE_SIZE}, TC_UINT8, (tc_device){TC_DEVICE_CPU, 0});
    if (!t) return NULL;
    unsigned char *b = tc_tensor_data(t);
    memset(b, 0, STATE_SIZE);
    pthread_mutex_lock(&g->lock);
    PUT(b, AT_SEED, g->seed);
    PUT(b, AT_LEFT, (int32_t)g->left);
    PUT(b, AT_SEEDED, (int32_t)g->seeded);
    PUT(b, AT_NEXT, (uint64_t)g->next);
    for (int j = 0; j < MT_N; j++) PUT(b, AT_MT + 8 * j, (uint64_t)g->mt[j]);
    if (g->has_normal_f64) {
        PUT(b, AT_NORMAL_Y, g->normal_f64);
        PUT(b, AT_NORMAL_VALID, (int32_t)1);
    }
    if (g->has_normal_f32) {
        PUT(b, AT_FLOAT_SAMPLE, g->normal_f32);
        b[AT_FLOAT_VALID] = 1;
    }
    pthread_mutex_unlock(&g->lock);
    return t;
}

int tc_generator_set_state(tc_generator *g, const tc_tensor *state) {
    if (state->dtype != TC_UINT8 || state->layout != TC_STRIDED || state->device.type != TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_TYPE, "RNG state must be a torch.ByteTensor");
    int64_t n = tc_tensor_numel(state);
    if (n != STATE_SIZE && n != STATE_SIZE_LEGACY)
        return tc_set_error(TC_ERR_RUNTIME, "Expected either a CPUGeneratorImplStateLegacy of size %d or a "
                                            "CPUGeneratorImplState of size %d but found the input RNG state size to "
                                            "be %lld", STATE_SIZE_LEGACY, STATE_SIZE, (long long)n);
    unsigned char b[STATE_SIZE] = {0};
    for (int64_t i = 0; i < n; i++) { /* any strides: element i in row-major order */
        tc_scalar v;
        if (tc_tensor_get(state, i, &v)) return TC_FAIL;
        b[i] = (unsigned char)v.v.i;
    }
    int32_t left = GET(b, AT_LEFT, int32_t), seeded = GET(b, AT_SEEDED, int32_t);
    uint32_t next = (uint32_t)GET(b, AT_NEXT, uint64_t);
    if (!seeded || left <= 0 || left > MT_N || next > MT_N)
        return tc_set_error(TC_ERR_RUNTIME, "Invalid mt19937 state");
    bool has_f64 = GET(b, AT_NORMAL_VALID, int32_t) != 0, has_f32 = false;
    double sample_f64 = 0;
    float sample_f32 = 0;
    if (n == STATE_SIZE_LEGACY) {
        if (has_f64)
            sample_f64 = GET(b, AT_NORMAL_RHO, double) * sin(2.0 * M_PI * GET(b, AT_NORMAL_X, double));
    } else {
        if (has_f64) sample_f64 = GET(b, AT_NORMAL_Y, double);
        has_f32 = b[AT_FLOAT_VALID] != 0;
        if (has_f32) sample_f32 = GET(b, AT_FLOAT_SAMPLE, float);
    }
    pthread_mutex_lock(&g->lock);
    g->seed = GET(b, AT_SEED, uint64_t);
    g->left = left;
    g->seeded = true;
    g->next = next;
    for (int j = 0; j < MT_N; j++) g->mt[j] = (uint32_t)GET(b, AT_MT + 8 * j, uint64_t);
    g->has_normal_f64 = has_f64;
    g->normal_f64 = sample_f64;
    g->has_normal_f32 = has_f32;
    g->normal_f32 = sample_f32;
    pthread_mutex_unlock(&g->lock);
    return TC_OK;
}
