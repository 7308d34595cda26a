/*
 * The process's one thread pool, shared by the kernels and the BLAS providers through
 * tc_core_api.parallel_for (ABI 1.1), so they never oversubscribe the CPUs with pools of their own.
 *
 * tc_parallel_for(begin, end, grain, fn, ctx) cuts [begin, end) into chunks of at least `grain`
 * indices, at most one per thread, and runs fn on each. The calling thread takes part: it publishes
 * the job, wakes as many sleeping workers as there are chunks beyond its own, and claims chunks
 * itself until none are left, so a chunk never waits for a worker to wake up. It then waits only for
 * the workers that did take a chunk. Work that fits in one chunk runs inline on the caller and never
 * touches the pool (or its lock), and so does a call made from inside a chunk (nested) or while
 * another thread's job holds the pool (two Python threads running ops).
 *
 * A worker that finishes a job spins for a short while (POOL_SPIN_NS) before it sleeps: waking a
 * sleeping thread costs tens to hundreds of microseconds (far more in a virtual machine, whose idle
 * vCPU must be scheduled again), longer than a whole mid-sized op, so back-to-back ops would otherwise
 * run on the caller alone. OpenMP runtimes spin for the same reason.
 *
 * Workers are created lazily, the first time a job needs them. fork() copies only the calling thread,
 * so the child's pool has no workers: an atfork handler resets the pool in the child, which then
 * creates workers again when it first needs them. That is what lets a process that ran parallel ops
 * fork DataLoader workers or a multiprocessing.Pool (OpenMP's pool hangs in the child instead).
 */
#include "core_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define POOL_SPIN_NS 500000 /* how long an idle worker keeps looking for the next job before sleeping */

typedef struct pool_job {
    void (*fn)(void *ctx, int64_t begin, int64_t end);
    void *ctx;
    int64_t begin, end, chunk, n_chunks;
    _Atomic int64_t next; /* the next chunk to claim */
    int attached;         /* workers that joined this job and have not yet left it (under the lock) */
} pool_job;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* workers wait here for a job */
    pthread_cond_t left; /* the caller waits here for attached workers to leave */
    pool_job *job;       /* the job accepting workers, or NULL */
    int n_workers;       /* created (alive) workers */
    int idle;            /* workers waiting on `wake` */
    int wakeups;         /* wake-ups granted and not yet consumed */
    bool busy;           /* a caller's job holds the pool */
    _Atomic uint64_t published; /* jobs published so far: spinning workers watch it */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .left = PTHREAD_COND_INITIALIZER};

static _Thread_local bool inside_job; /* this thread is running a chunk: nested calls run inline */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void run_chunks(pool_job *job) {
    for (;;) {
        const int64_t c = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
        if (c >= job->n_chunks) return;
        const int64_t b = job->begin + c * job->chunk; /* c < n_chunks: within [begin, end) */
        const int64_t e = job->end - b > job->chunk ? b + job->chunk : job->end;
        job->fn(job->ctx, b, e);
    }
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits, without the lock, until a job newer than `seen` is published or POOL_SPIN_NS pass; true if
 * one was. */
static bool spin_for_job(uint64_t seen) {
    const int64_t deadline = now_ns() + POOL_SPIN_NS;
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&pool.published, memory_order_relaxed) != seen) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (i % 64 == 0 && now_ns() > deadline) return false;
    }
}

static void *worker_main(void *unused) {
    inside_job = true; /* everything a worker runs is inside some job */
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        if (!(pool.wakeups > 0 && pool.job)) {
            const uint64_t seen = atomic_load_explicit(&pool.published, memory_order_relaxed);
            pthread_mutex_unlock(&pool.lock);
            const bool published = spin_for_job(seen);
            pthread_mutex_lock(&pool.lock);
            if (published) continue;
        }
        while (!(pool.wakeups > 0 && pool.job)) {
            pool.idle++;
            pthread_cond_wait(&pool.wake, &pool.lock);
            pool.idle--;
        }
        pool.wakeups--;
        pool_job *job = pool.job;
        job->attached++;
        pthread_mutex_unlock(&pool.lock);
        run_chunks(job);
        pthread_mutex_lock(&pool.lock);
        if (--job->attached == 0) pthread_cond_signal(&pool.left);
    }
    return NULL;
}

/* In the child of fork() the workers do not exist, and the lock may have been taken by a thread that
 * does not exist either: start from scratch. */
static void atfork_child(void) {
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.left, NULL);
    pool.job = NULL;
    pool.n_workers = pool.idle = pool.wakeups = 0;
    pool.busy = false;
}

static void atfork_prepare(void) { pthread_mutex_lock(&pool.lock); }
static void atfork_parent(void) { pthread_mutex_unlock(&pool.lock); }
static void register_atfork(void) { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); }

/* Registered when the core loads, before any thread of the program can run an op: glibc lets
 * pthread_atfork() succeed while another thread is inside fork() and then skips the late handler in
 * that fork's child, so a pool that registered on its first job, in a thread racing a fork, left the
 * child a pool lock held by nobody. */
void tc_thread_pool_configure(void) { pthread_once(&atfork_once, register_atfork); }

/* Makes sure `want` workers exist; fewer when threads cannot be created (the caller does the rest).
 * Called with the lock held. */
static void ensure_workers(int want) {
    while (pool.n_workers < want) {
        pthread_attr_t attr;
        pthread_t thread;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&thread, &attr, worker_main, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0) return;
        pool.n_workers++;
    }
}

int tc_parallel_for(int64_t begin, int64_t end, int64_t grain, void (*fn)(void *ctx, int64_t begin, int64_t end),
                    void *ctx) {
    if (!fn) return tc_set_error(TC_ERR_VALUE, "parallel_for: no function");
    if (end <= begin) return TC_OK;
    if (grain < 1) grain = 1;
    int64_t range;
    const int threads = tc_threads_effective();
    int64_t n_chunks = __builtin_sub_overflow(end, begin, &range) ? 1 : range / grain; /* each >= grain */
    if (n_chunks > threads) n_chunks = threads;
    if (n_chunks <= 1 || inside_job) {
        fn(ctx, begin, end);
        return TC_OK;
    }
    tc_thread_pool_configure(); /* done at load already; here for programs that use the pool alone */
    pthread_mutex_lock(&pool.lock);
    if (pool.busy) { /* another thread's job: no waiting behind it, no deadlock */
        pthread_mutex_unlock(&pool.lock);
        fn(ctx, begin, end);
        return TC_OK;
    }
    pool_job job = {.fn = fn, .ctx = ctx, .begin = begin, .end = end,
                    .chunk = range / n_chunks + (range % n_chunks != 0), .n_chunks = 0};
    job.n_chunks = range / job.chunk + (range % job.chunk != 0);
    atomic_init(&job.next, 0);
    pool.busy = true;
    pool.job = &job;
    ensure_workers((int)job.n_chunks - 1);
    pool.wakeups = (int)job.n_chunks - 1;
    atomic_fetch_add_explicit(&pool.published, 1, memory_order_relaxed); /* under the lock: spinners re-check */
    for (int i = 0; i < pool.wakeups && i < pool.idle; i++) pthread_cond_signal(&pool.wake);
    pthread_mutex_unlock(&pool.lock);

    inside_job = true;
    run_chunks(&job);
    inside_job = false;

    pthread_mutex_lock(&pool.lock);
    pool.job = NULL; /* no worker joins from here on; late ones go back to sleep */
    pool.wakeups = 0;
    while (job.attached > 0) pthread_cond_wait(&pool.left, &pool.lock);
    pool.busy = false;
    pthread_mutex_unlock(&pool.lock);
    return TC_OK;
}
