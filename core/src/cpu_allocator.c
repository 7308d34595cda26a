/*
 * The CPU allocator. Small blocks come from malloc (aligned); large blocks are mmap'd, advised to
 * use huge pages, and kept in a bounded cache when freed, because faulting in fresh pages costs far
 * more than the arithmetic of a large elementwise op (docs/architecture.md, "CPU memory").
 *
 * A cached block may serve a request up to a quarter smaller than itself, and free() is told only
 * the size that was asked for, so every live large block's real size is kept in a block map: a block
 * always goes back to the cache, or to munmap, with its own size.
 *
 * The bound is 1/8 of the memory the process may use: RAM, or its cgroup's limit when that is smaller
 * (a container's), unless TORCH_CPU_CACHE_LIMIT_MB says otherwise. A cached block that sits unused
 * for IDLE_NS goes back to the system, so a program that made and dropped gigabytes of tensors does
 * not keep them: there is no background thread, the allocator's own calls check the oldest block (the
 * large ones every time, the small ones every IDLE_CHECK_CALLS-th call, a coarse clock read). A
 * training loop reuses its blocks every step and never lets them sit that long.
 *
 * TORCH_CPU_ALLOC_FILL=nan (a debugging switch, read once at start-up) fills every block, small or
 * large, with 0xFF bytes when it is handed out and again when it is freed: a NaN in every float32,
 * float64 and complex element, -1 in every integer. A kernel that reads memory before writing it (an
 * output it accumulates into, a workspace it assumes to be zero, as a fresh mmap'd block is) then
 * gives NaNs every time, instead of whatever the block held last. Off, it costs one predictable
 * branch per call.
 */
#include "core_internal.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define ALIGNMENT 64
#define LARGE_BLOCK (1u << 20)      /* below: malloc; at or above: cached mmap */
#define HUGE_PAGE (2u << 20)
#define CACHE_SLOTS 64
#define IDLE_NS ((uint64_t)1000000000) /* a cached block unused for a second goes back to the system */
#define IDLE_CHECK_CALLS 64            /* small-block calls between two looks at the cache's oldest block */
#define FILL_BYTE 0xFF                 /* TORCH_CPU_ALLOC_FILL=nan: NaN in every float, -1 in every integer */

typedef struct cached_block {
    void *ptr;
    size_t size;
    uint64_t since; /* when it was cached (coarse monotonic ns) */
} cached_block;

static struct {
    pthread_mutex_t lock;
    cached_block blocks[CACHE_SLOTS]; /* oldest first */
    int n_blocks;
    size_t cached_bytes;
    size_t cache_limit;
    size_t memory;       /* what the default bound is 1/8 of */
    uint64_t cgroup_limit;
    uint32_t small_calls; /* since the last idle check */
    uint64_t n_idle_releases, idle_released_bytes;
    tc_blockmap live; /* large blocks handed out: address -> mapped size */
    tc_allocator_stats stats;
    bool fill; /* TORCH_CPU_ALLOC_FILL=nan */
} cpu = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A coarse clock (a few ms of resolution, no system call): plenty for a one-second idle time. */
static uint64_t now_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Moves the blocks that sat unused for IDLE_NS out of the cache into out[] (room for CACHE_SLOTS),
 * for the caller to unmap once the lock is released. Called with the lock held. */
static int take_idle(cached_block *out) {
    if (cpu.n_blocks == 0) return 0;
    uint64_t now = now_ns();
    int n = 0;
    while (n < cpu.n_blocks && now >= cpu.blocks[n].since && now - cpu.blocks[n].since >= IDLE_NS) n++;
    if (n == 0) return 0;
    memcpy(out, cpu.blocks, sizeof(cached_block) * (size_t)n);
    memmove(cpu.blocks, cpu.blocks + n, sizeof(cached_block) * (size_t)(cpu.n_blocks - n));
    cpu.n_blocks -= n;
    for (int i = 0; i < n; i++) {
        cpu.cached_bytes -= out[i].size;
        cpu.idle_released_bytes += out[i].size;
    }
    cpu.n_idle_releases += (uint64_t)n;
    return n;
}

static void unmap_blocks(const cached_block *blocks, int n) {
    for (int i = 0; i < n; i++) munmap(blocks[i].ptr, blocks[i].size);
}

/* The small-block paths look at the cache every IDLE_CHECK_CALLS-th call; this is the look, out of
 * their way. Called with the lock held; releases it. */
static __attribute__((noinline)) void unlock_releasing_idle(void) {
    cached_block idle[CACHE_SLOTS];
    cpu.small_calls = 0;
    int n = take_idle(idle);
    pthread_mutex_unlock(&cpu.lock);
    unmap_blocks(idle, n);
}

static inline void unlock_small(void) {
    if (cpu.n_blocks && ++cpu.small_calls >= IDLE_CHECK_CALLS) {
        unlock_releasing_idle();
        return;
    }
    pthread_mutex_unlock(&cpu.lock);
}

static pthread_once_t configure_once = PTHREAD_ONCE_INIT;

/* fork() while another thread allocates (it may run a kernel with the GIL released): the child
 * must not inherit the lock taken, nor the cache half-updated. */
static void fork_prepare(void) { pthread_mutex_lock(&cpu.lock); }
static void fork_parent(void) { pthread_mutex_unlock(&cpu.lock); }
static void fork_child(void) { pthread_mutex_unlock(&cpu.lock); }

/* TORCH_CPU_CACHE_LIMIT_MB: a decimal count of MiB, nothing else ("0" disables the cache). */
static bool parse_limit_mb(const char *s, size_t *bytes) {
    if (!*s) return false;
    size_t mb = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        if (__builtin_mul_overflow(mb, (size_t)10, &mb) || __builtin_add_overflow(mb, (size_t)(*p - '0'), &mb))
            return false;
    }
    if (mb > (SIZE_MAX >> 20)) return false;
    *bytes = mb << 20;
    return true;
}

/* The memory the process may use: RAM, or its cgroup's limit when that is smaller. */
static size_t usable_memory(uint64_t *cgroup_limit) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t total;
    if (pages <= 0 || page <= 0 || __builtin_mul_overflow((size_t)pages, (size_t)page, &total))
        total = (size_t)4 << 30;
    *cgroup_limit = tc_cgroup_memory_limit("");
    if (*cgroup_limit && *cgroup_limit < total) total = (size_t)*cgroup_limit;
    return total;
}

/* TORCH_CPU_ALLOC_FILL: "nan" fills blocks with FILL_BYTE; unset, empty or "0" leaves them as they are. */
static void configure_fill(void) {
    const char *env = getenv("TORCH_CPU_ALLOC_FILL");
    if (!env || !*env || strcmp(env, "0") == 0) return;
    if (strcmp(env, "nan") == 0)
        cpu.fill = true;
    else
        tc_warn("TORCH_CPU_ALLOC_FILL='%s' is not 'nan' (or '0'); blocks are not filled", env);
}

static void configure(void) {
    configure_fill();
    size_t total = usable_memory(&cpu.cgroup_limit);
    cpu.memory = total;
    cpu.cache_limit = total / 8;
    const char *env = getenv("TORCH_CPU_CACHE_LIMIT_MB");
    if (env && !parse_limit_mb(env, &cpu.cache_limit)) {
        cpu.cache_limit = total / 8;
        tc_warn("TORCH_CPU_CACHE_LIMIT_MB='%s' is not a whole number of MiB (0 or more); using the "
                "default, %zu MiB (1/8 of %s)", env, cpu.cache_limit >> 20,
                cpu.cgroup_limit && cpu.cgroup_limit == total ? "the cgroup's memory limit" : "RAM");
    }
    /* Blocks below LARGE_BLOCK come from malloc. glibc's dynamic thresholds would otherwise mmap some
     * of them, or trim the heap top under them, on every free, so that each new tensor of a few
     * hundred KiB faulted its pages in again (~10 ms for 1 MiB on a loaded machine): keep them in the
     * heap, which is bounded by what the program holds at its peak. */
    mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK);
    mallopt(M_TRIM_THRESHOLD, 64 * LARGE_BLOCK);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void tc_alloc_cpu_configure(void) { pthread_once(&configure_once, configure); }

static size_t round_large(size_t n) { return (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1); }

static void *map_large(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, size, MADV_HUGEPAGE);
    return p;
}

/* Best fit among cached blocks no more than 1/4 larger than asked, so a small request does not pin
 * a huge block. Called with the lock held; *got is the block's own size. */
static void *take_cached(size_t size, size_t *got) {
    int best = -1;
    for (int i = 0; i < cpu.n_blocks; i++) {
        size_t s = cpu.blocks[i].size;
        if (s >= size && s - size <= size / 4 && (best < 0 || s < cpu.blocks[best].size)) best = i;
    }
    if (best < 0) return NULL;
    void *p = cpu.blocks[best].ptr;
    *got = cpu.blocks[best].size;
    cpu.cached_bytes -= cpu.blocks[best].size;
    /* the rest stay oldest first */
    memmove(cpu.blocks + best, cpu.blocks + best + 1, sizeof(cached_block) * (size_t)(cpu.n_blocks - best - 1));
    cpu.n_blocks--;
    return p;
}

static void account_alloc(size_t size) {
    cpu.stats.n_allocs++;
    cpu.stats.allocated_bytes += size;
    if (cpu.stats.allocated_bytes > cpu.stats.peak_allocated_bytes)
        cpu.stats.peak_allocated_bytes = cpu.stats.allocated_bytes;
}

static void *alloc_small(size_t nbytes) {
    size_t rounded = (nbytes + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1);
    if (rounded < nbytes) return NULL; /* rounding overflowed */
    void *p = aligned_alloc(ALIGNMENT, rounded);
    if (p) {
        pthread_mutex_lock(&cpu.lock);
        account_alloc(nbytes);
        unlock_small();
    }
    return p;
}

static void *alloc_large(size_t nbytes) {
    size_t size = round_large(nbytes), got = 0;
    if (size < nbytes) return NULL; /* rounding overflowed */
    cached_block idle[CACHE_SLOTS];
    pthread_mutex_lock(&cpu.lock);
    void *p = take_cached(size, &got);
    if (p) cpu.stats.n_cache_hits++;
    int n_idle = take_idle(idle);
    pthread_mutex_unlock(&cpu.lock);
    unmap_blocks(idle, n_idle);
    if (!p) {
        if (!(p = map_large(size))) return NULL;
        got = size;
    }
    pthread_mutex_lock(&cpu.lock);
    int rc = tc_blockmap_put(&cpu.live, p, got);
    if (rc == TC_OK) account_alloc(got);
    pthread_mutex_unlock(&cpu.lock);
    if (rc != TC_OK) {
        munmap(p, got);
        return NULL;
    }
    return p;
}

static void *cpu_alloc(void *ctx, size_t nbytes, int32_t device_index, void *stream) {
    if (nbytes == 0) nbytes = 1;
    void *p = nbytes < LARGE_BLOCK ? alloc_small(nbytes) : alloc_large(nbytes);
    if (__builtin_expect(cpu.fill, 0) && p) memset(p, FILL_BYTE, nbytes);
    return p;
}

/* Caches a freed large block, evicting the oldest ones to stay under the bound (into evicted[], room
 * for CACHE_SLOTS); returns what to munmap instead when the block itself does not fit. Called with
 * the lock held. */
static void cache_block(void *ptr, size_t size, cached_block *evicted, int *n_evicted, cached_block *rejected) {
    if (size > cpu.cache_limit) {
        *rejected = (cached_block){ptr, size, 0};
        return;
    }
    int n = 0;
    size_t kept = cpu.cached_bytes;
    while (n < cpu.n_blocks && (cpu.n_blocks - n == CACHE_SLOTS || size > cpu.cache_limit - kept)) /* kept <= limit */
        kept -= cpu.blocks[n++].size;
    if (n) {
        memcpy(evicted + *n_evicted, cpu.blocks, sizeof(cached_block) * (size_t)n);
        memmove(cpu.blocks, cpu.blocks + n, sizeof(cached_block) * (size_t)(cpu.n_blocks - n));
        cpu.n_blocks -= n;
        cpu.cached_bytes = kept;
        *n_evicted += n;
    }
    cpu.blocks[cpu.n_blocks++] = (cached_block){ptr, size, now_ns()};
    cpu.cached_bytes += size;
}

static void cpu_free(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream) {
    if (!ptr) return;
    if (nbytes == 0) nbytes = 1;
    if (__builtin_expect(cpu.fill, 0)) memset(ptr, FILL_BYTE, nbytes);
    if (nbytes < LARGE_BLOCK) {
        free(ptr);
        pthread_mutex_lock(&cpu.lock);
        cpu.stats.allocated_bytes -= nbytes;
        unlock_small();
        return;
    }
    tc_alloc_cpu_configure();
    /* idle blocks first, then those the bound evicts: at most CACHE_SLOTS in all */
    cached_block evicted[CACHE_SLOTS], rejected = {NULL, 0, 0};
    pthread_mutex_lock(&cpu.lock);
    int n_evicted = take_idle(evicted);
    size_t size = tc_blockmap_take(&cpu.live, ptr);
    if (size == 0) size = round_large(nbytes); /* not ours to cache: unmap what the caller says */
    cpu.stats.allocated_bytes -= size;
    cache_block(ptr, size, evicted, &n_evicted, &rejected);
    pthread_mutex_unlock(&cpu.lock);
    unmap_blocks(evicted, n_evicted);
    if (rejected.ptr) munmap(rejected.ptr, rejected.size);
}

static void cpu_empty_cache(void *ctx) {
    pthread_mutex_lock(&cpu.lock);
    cached_block blocks[CACHE_SLOTS];
    int n = cpu.n_blocks;
    memcpy(blocks, cpu.blocks, sizeof(cached_block) * (size_t)n);
    cpu.n_blocks = 0;
    cpu.cached_bytes = 0;
    pthread_mutex_unlock(&cpu.lock);
    for (int i = 0; i < n; i++) munmap(blocks[i].ptr, blocks[i].size);
}

void tc_cpu_cache_info_get(tc_cpu_cache_info *out) {
    tc_alloc_cpu_configure();
    pthread_mutex_lock(&cpu.lock);
    *out = (tc_cpu_cache_info){
        .limit_bytes = cpu.cache_limit,
        .memory_bytes = cpu.memory,
        .cgroup_limit_bytes = cpu.cgroup_limit,
        .cached_bytes = cpu.cached_bytes,
        .cached_blocks = (uint64_t)cpu.n_blocks,
        .idle_ms = IDLE_NS / 1000000,
        .n_idle_releases = cpu.n_idle_releases,
        .idle_released_bytes = cpu.idle_released_bytes,
    };
    pthread_mutex_unlock(&cpu.lock);
}

static void cpu_stats(void *ctx, tc_allocator_stats *out) {
    pthread_mutex_lock(&cpu.lock);
    *out = cpu.stats;
    out->cached_bytes = cpu.cached_bytes;
    pthread_mutex_unlock(&cpu.lock);
}

static const tc_allocator cpu_allocator = {
    .struct_size = sizeof(tc_allocator),
    .alloc = cpu_alloc,
    .free = cpu_free,
    .empty_cache = cpu_empty_cache,
    .stats = cpu_stats,
};

const tc_allocator *tc_alloc_cpu(void) { return &cpu_allocator; }
