/*
 * fake_pool.h - a tc_core_api.parallel_for for the fake cores of the C tests: every piece but the
 * first runs on a thread of its own (created and joined per call), so the pieces really run
 * concurrently and a kernel or BLAS provider that is not safe to split fails its test.
 */
#ifndef TESTS_FAKE_POOL_H
#define TESTS_FAKE_POOL_H

#include <pthread.h>
#include <stdint.h>

#define FAKE_POOL_MAX 8

typedef struct fake_piece {
    void (*fn)(void *ctx, int64_t begin, int64_t end);
    void *ctx;
    int64_t begin, end;
} fake_piece;

static int fake_pool_calls, fake_pool_split_calls; /* calls, and calls that ran more than one piece */

static void *fake_piece_main(void *p) {
    fake_piece *piece = p;
    piece->fn(piece->ctx, piece->begin, piece->end);
    return NULL;
}

static int fake_parallel_for(int64_t begin, int64_t end, int64_t grain, void (*fn)(void *, int64_t, int64_t),
                             void *ctx) {
    fake_pool_calls++;
    if (end <= begin) return 0;
    if (grain < 1) grain = 1;
    int64_t n = (end - begin) / grain;
    if (n > FAKE_POOL_MAX) n = FAKE_POOL_MAX;
    if (n < 2) {
        fn(ctx, begin, end);
        return 0;
    }
    fake_pool_split_calls++;
    const int64_t chunk = (end - begin + n - 1) / n;
    fake_piece pieces[FAKE_POOL_MAX];
    pthread_t threads[FAKE_POOL_MAX];
    int started[FAKE_POOL_MAX] = {0};
    for (int64_t i = 0; i < n; i++) {
        const int64_t b = begin + i * chunk, e = end - b > chunk ? b + chunk : end;
        pieces[i] = (fake_piece){fn, ctx, b, e};
        if (i > 0 && b < e) started[i] = pthread_create(&threads[i], NULL, fake_piece_main, &pieces[i]) == 0;
        if (i > 0 && b < e && !started[i]) fn(ctx, b, e);
    }
    fn(ctx, pieces[0].begin, pieces[0].end);
    for (int64_t i = 1; i < n; i++)
        if (started[i]) pthread_join(threads[i], NULL);
    return 0;
}

#endif
