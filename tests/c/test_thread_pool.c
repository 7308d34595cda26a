/*
 * test_thread_pool.c - the core's thread pool through tc_core_api.parallel_for, the way plugins use it.
 *
 * Usage: test_thread_pool <package_dir>   (links libtorch_core; the argument is unused)
 *
 * Checks that every index is covered exactly once whatever the range, grain and thread count; that
 * small ranges and nested calls run inline on the caller; that several threads may call at once; that
 * a thread count of 65536 is accepted but capped; and that a child process made by fork() after
 * parallel work runs parallel work itself (OpenMP's pool hangs there).
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pthread.h>

#include "torch_core/tc_core.h"

#include "check.h"

static const tc_core_api *core;

/* ---- coverage ---- */

typedef struct cover {
    _Atomic int *hits;
    int64_t base;
    _Atomic int pieces, short_pieces;
    int64_t grain, end;
    pthread_t caller;
    _Atomic int on_caller;
} cover;

static void mark(void *ctx, int64_t b, int64_t e) {
    cover *c = ctx;
    atomic_fetch_add(&c->pieces, 1);
    if (e - b < c->grain && e != c->end) atomic_fetch_add(&c->short_pieces, 1);
    if (pthread_equal(pthread_self(), c->caller)) atomic_fetch_add(&c->on_caller, 1);
    for (int64_t i = b; i < e; i++) atomic_fetch_add(&c->hits[i - c->base], 1);
}

static int cover_range(int64_t begin, int64_t end, int64_t grain, int *pieces, int *on_caller) {
    const int64_t n = end > begin ? end - begin : 0;
    cover c = {.hits = calloc((size_t)n + 1, sizeof(_Atomic int)), .base = begin, .grain = grain, .end = end,
               .caller = pthread_self()};
    CHECK(core->parallel_for(begin, end, grain, mark, &c) == TC_OK, "parallel_for failed");
    int bad = 0;
    for (int64_t i = 0; i < n; i++) bad += c.hits[i] != 1;
    CHECK(bad == 0, "[%lld, %lld) grain %lld: %d indices not covered exactly once", (long long)begin,
          (long long)end, (long long)grain, bad);
    CHECK(c.short_pieces == 0, "[%lld, %lld) grain %lld: a piece shorter than the grain", (long long)begin,
          (long long)end, (long long)grain);
    free((void *)c.hits);
    if (pieces) *pieces = c.pieces;
    if (on_caller) *on_caller = c.on_caller;
    return bad;
}

static void test_coverage(void) {
    static const int64_t ranges[][2] = {{0, 0}, {0, 1}, {5, 6}, {0, 7}, {-3, 100}, {0, 1000}, {10, 100003}};
    static const int64_t grains[] = {1, 2, 7, 64, 1000, 0, -5};
    for (int threads = 1; threads <= 5; threads += 2) {
        tc_set_num_threads(threads);
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
            for (size_t g = 0; g < sizeof grains / sizeof grains[0]; g++)
                cover_range(ranges[r][0], ranges[r][1], grains[g], NULL, NULL);
    }
    tc_set_num_threads(2);
}

static void test_small_ranges_stay_on_the_caller(void) {
    tc_set_num_threads(4);
    int pieces, on_caller;
    cover_range(0, 100, 64, &pieces, &on_caller); /* less than two grains */
    CHECK(pieces == 1 && on_caller == 1, "100 indices, grain 64: %d pieces, %d on the caller", pieces, on_caller);
    cover_range(0, 1 << 20, 1 << 10, &pieces, &on_caller); /* the caller claims pieces too, if any are left */
    CHECK(pieces >= 2 && pieces <= 4, "1M indices on 4 threads: %d pieces", pieces);
    tc_set_num_threads(2);
}

static void inner(void *ctx, int64_t b, int64_t e) {
    cover *c = ctx;
    if (!pthread_equal(pthread_self(), c->caller)) atomic_fetch_add(&c->short_pieces, 1);
    atomic_fetch_add(&c->pieces, 1);
}

static void outer(void *ctx, int64_t b, int64_t e) {
    cover nested = {.caller = pthread_self()};
    core->parallel_for(0, 1 << 20, 1, inner, &nested);
    cover *c = ctx;
    if (nested.pieces != 1 || nested.short_pieces) atomic_fetch_add(&c->short_pieces, 1);
}

static void test_nested_calls_run_inline(void) {
    tc_set_num_threads(4);
    cover c = {0};
    core->parallel_for(0, 8, 1, outer, &c);
    CHECK(c.short_pieces == 0, "a nested parallel_for was split or left its thread");
    tc_set_num_threads(2);
}

static void *concurrent_caller(void *arg) {
    for (int i = 0; i < 200; i++) cover_range(0, 5000 + i, 100, NULL, NULL);
    return arg;
}

static void test_concurrent_callers(void) {
    tc_set_num_threads(3);
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, concurrent_caller, NULL);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    tc_set_num_threads(2);
}

static int threads_in_process(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int n = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0) n = atoi(line + 8);
    if (f) fclose(f);
    return n;
}

static void test_huge_thread_count_is_capped(void) {
    CHECK(tc_set_num_threads(0) == TC_FAIL && tc_set_num_threads(-1) == TC_FAIL, "0 or -1 threads accepted");
    tc_error_clear();
    CHECK(tc_set_num_threads(65536) == TC_OK, "65536 threads refused");
    CHECK(tc_get_num_threads() == 65536, "get_num_threads() = %d, want what was asked", tc_get_num_threads());
    CHECK(core->get_num_threads() <= 256, "plugins are handed %d threads", core->get_num_threads());
    cover_range(0, 1 << 22, 1, NULL, NULL);
    const int n = threads_in_process();
    CHECK(n > 0 && n <= 260, "%d threads in the process after asking for 65536", n);
    tc_set_num_threads(2);
}

static void test_fork_after_parallel_work(void) {
    tc_set_num_threads(3);
    int pieces = 0;
    cover_range(0, 1 << 20, 1, &pieces, NULL); /* the workers exist now */
    CHECK(pieces >= 2, "no parallel work before fork (%d pieces)", pieces);
    for (int round = 0; round < 2; round++) {
        pid_t pid = fork();
        if (pid == 0) {
            alarm(20); /* a hang becomes SIGALRM */
            current_failures = 0;
            int p = 0;
            cover_range(0, 1 << 20, 1, &p, NULL);
            cover_range(0, 77777, 3, NULL, NULL);
            _exit(current_failures == 0 && p >= 2 ? 0 : 1);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork/waitpid failed");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child after fork: %s %d",
              WIFSIGNALED(status) ? "killed by signal" : "exit status",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        cover_range(0, 1 << 20, 1, NULL, NULL); /* and the parent's pool still works */
    }
    tc_set_num_threads(2);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    core = tc_core_api_table();
    if (core->struct_size < sizeof(tc_core_api) || !core->parallel_for) {
        printf("FAIL the core's table has no parallel_for\n");
        return 1;
    }
    run("coverage", test_coverage);
    run("small ranges stay on the caller", test_small_ranges_stay_on_the_caller);
    run("nested calls run inline", test_nested_calls_run_inline);
    run("concurrent callers", test_concurrent_callers);
    run("huge thread count is capped", test_huge_thread_count_is_capped);
    run("fork after parallel work", test_fork_after_parallel_work);
    printf("%d passed, %d failed\n", n_passed, n_failed);
    return n_failed ? 1 : 0;
}
