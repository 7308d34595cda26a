/*
 * stl_sort.h - the sorting and selection algorithms of GNU libstdc++ (std::sort, std::nth_element,
 * std::partial_sort), written again in C, step for step.
 *
 * PyTorch's CPU kernels call these with comparators that look at values only, so when values tie
 * the order their indices come out in is whatever these exact algorithms produce: torch.sort
 * (unstable), topk, mode and median return those indices, and so must we. Stamped per element type T
 * and strict-weak-order LESS(a, b) over two T values:
 *
 *   NAME_sort(first, n)             std::sort: introsort (median of three, unguarded partition,
 *                                   depth limit 2*floor(log2 n), then heapsort) + insertion sort
 *   NAME_nth_element(first, nth, n) std::nth_element: introselect, insertion sort below 4 elements
 *   NAME_partial_sort(first, k, n)  std::partial_sort: heap select, then sort the heap
 *
 * The "unguarded" loops of libstdc++ rely on a sentinel that a strict weak order guarantees; with a
 * comparator that is not one (PyTorch's mode compares NaN with <) they could run off the array, so
 * they stop at its ends here, which changes nothing where the order is valid.
 */
#ifndef CPU_STL_SORT_H
#define CPU_STL_SORT_H

#include <stdint.h>
#include <string.h>

/* Positions the block partition classifies at once (offsets fit a byte). */
#define STL_BLOCK 64

/* floor(log2(n)) for n > 0, std::__lg. */
static inline int64_t stl_lg(int64_t n) { return 63 - __builtin_clzll((unsigned long long)n); }

/* Each kernel file uses some of these. */
#define STL_UNUSED __attribute__((unused))

#define STL_SORT_STAMP(NAME, T, LESS)                                                              \
    static inline void NAME##_swap(T *a, T *b) {                                                   \
        T t = *a;                                                                                  \
        *a = *b;                                                                                   \
        *b = t;                                                                                    \
    }                                                                                              \
    /* Moves the median of *a, *b, *c to *result. */                                              \
    static inline void NAME##_median_to_first(T *result, T *a, T *b, T *c) {                       \
        if (LESS(*a, *b)) {                                                                        \
            if (LESS(*b, *c)) NAME##_swap(result, b);                                              \
            else if (LESS(*a, *c)) NAME##_swap(result, c);                                         \
            else NAME##_swap(result, a);                                                           \
        } else if (LESS(*a, *c)) {                                                                 \
            NAME##_swap(result, a);                                                                \
        } else if (LESS(*b, *c)) {                                                                 \
            NAME##_swap(result, c);                                                                \
        } else {                                                                                   \
            NAME##_swap(result, b);                                                                \
        }                                                                                          \
    }                                                                                              \
    static inline void NAME##_linear_insert(T *base, T *last) {                                    \
        T val = *last, *next = last - 1;                                                           \
        while (next >= base && LESS(val, *next)) {                                                 \
            *last = *next;                                                                         \
            last = next;                                                                           \
            --next;                                                                                \
        }                                                                                          \
        *last = val;                                                                               \
    }                                                                                              \
    static STL_UNUSED void NAME##_insertion(T *first, T *last) {                                              \
        if (first == last) return;                                                                 \
        for (T *i = first + 1; i != last; ++i) {                                                   \
            if (LESS(*i, *first)) {                                                                \
                T val = *i;                                                                        \
                memmove(first + 1, first, sizeof(T) * (size_t)(i - first));                        \
                *first = val;                                                                      \
            } else {                                                                               \
                NAME##_linear_insert(first, i);                                                    \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* std::__unguarded_partition, in blocks: Hoare's scans stop at the k-th element on the left   \
     * that does not order before the pivot and the k-th on the right that the pivot does not      \
     * order before, and swap them, until the two cross. Those stoppers are found here a block of   \
     * STL_BLOCK positions at a time without branches, then swapped in the same pairs, so the      \
     * result is the same permutation; the last few positions take Hoare's own loop, entered in     \
     * the state it would be in. lo/hi bound the array for the loop's guards. */                   \
    static STL_UNUSED T *NAME##_partition(T *lo, T *hi, T *first, T *last, T *pivot) {             \
        const T pv = *pivot;                                                                       \
        unsigned char offl[STL_BLOCK], offr[STL_BLOCK];                                            \
        int nl = 0, nr = 0, sl = 0, sr = 0;                                                        \
        T *bl = first, *br = last, *lb = first, *rb = last;                                        \
        while (br - bl >= 2 * STL_BLOCK) {                                                         \
            if (nl == 0) {                                                                         \
                sl = 0;                                                                            \
                for (int j = 0; j < STL_BLOCK; j++) {                                              \
                    offl[nl] = (unsigned char)j;                                                   \
                    nl += !LESS(bl[j], pv);                                                        \
                }                                                                                  \
                lb = bl;                                                                           \
                bl += STL_BLOCK;                                                                   \
            }                                                                                      \
            if (nr == 0) {                                                                         \
                sr = 0;                                                                            \
                for (int j = 0; j < STL_BLOCK; j++) {                                              \
                    offr[nr] = (unsigned char)j;                                                   \
                    nr += !LESS(pv, br[-1 - j]);                                                   \
                }                                                                                  \
                rb = br;                                                                           \
                br -= STL_BLOCK;                                                                   \
            }                                                                                      \
            const int m = nl < nr ? nl : nr;                                                       \
            for (int j = 0; j < m; j++) NAME##_swap(lb + offl[sl + j], rb - 1 - offr[sr + j]);     \
            nl -= m;                                                                               \
            nr -= m;                                                                               \
            sl += m;                                                                               \
            sr += m;                                                                               \
        }                                                                                          \
        first = nl ? lb + offl[sl] : bl;                                                           \
        last = nr ? rb - offr[sr] : br;                                                            \
        for (;;) {                                                                                 \
            while (first < hi && LESS(*first, pv)) ++first;                                        \
            --last;                                                                                \
            while (last > lo && LESS(pv, *last)) --last;                                           \
            if (!(first < last)) return first;                                                     \
            NAME##_swap(first, last);                                                              \
            ++first;                                                                               \
        }                                                                                          \
    }                                                                                              \
    static STL_UNUSED T *NAME##_partition_pivot(T *first, T *last) {                                          \
        T *mid = first + (last - first) / 2;                                                       \
        NAME##_median_to_first(first, first + 1, mid, last - 1);                                   \
        return NAME##_partition(first, last, first + 1, last, first);                              \
    }                                                                                              \
    static STL_UNUSED void NAME##_push_heap(T *first, int64_t hole, int64_t top, T value) {                   \
        int64_t parent = (hole - 1) / 2;                                                           \
        while (hole > top && LESS(first[parent], value)) {                                         \
            first[hole] = first[parent];                                                           \
            hole = parent;                                                                         \
            parent = (hole - 1) / 2;                                                               \
        }                                                                                          \
        first[hole] = value;                                                                       \
    }                                                                                              \
    static STL_UNUSED void NAME##_adjust_heap(T *first, int64_t hole, int64_t len, T value) {                 \
        const int64_t top = hole;                                                                  \
        int64_t child = hole;                                                                      \
        while (child < (len - 1) / 2) {                                                            \
            child = 2 * (child + 1);                                                               \
            if (LESS(first[child], first[child - 1])) child--;                                     \
            first[hole] = first[child];                                                            \
            hole = child;                                                                          \
        }                                                                                          \
        if ((len & 1) == 0 && child == (len - 2) / 2) {                                            \
            child = 2 * (child + 1);                                                               \
            first[hole] = first[child - 1];                                                        \
            hole = child - 1;                                                                      \
        }                                                                                          \
        NAME##_push_heap(first, hole, top, value);                                                 \
    }                                                                                              \
    static STL_UNUSED void NAME##_make_heap(T *first, T *last) {                                              \
        const int64_t len = last - first;                                                          \
        if (len < 2) return;                                                                       \
        for (int64_t parent = (len - 2) / 2;; parent--) {                                          \
            NAME##_adjust_heap(first, parent, len, first[parent]);                                 \
            if (parent == 0) return;                                                               \
        }                                                                                          \
    }                                                                                              \
    static inline void NAME##_pop_heap(T *first, T *last, T *result) {                             \
        T value = *result;                                                                         \
        *result = *first;                                                                          \
        NAME##_adjust_heap(first, 0, last - first, value);                                         \
    }                                                                                              \
    static STL_UNUSED void NAME##_heap_select(T *first, T *middle, T *last) {                                 \
        NAME##_make_heap(first, middle);                                                           \
        for (T *i = middle; i < last; ++i)                                                         \
            if (LESS(*i, *first)) NAME##_pop_heap(first, middle, i);                               \
    }                                                                                              \
    static STL_UNUSED void NAME##_sort_heap(T *first, T *last) {                                              \
        while (last - first > 1) {                                                                 \
            --last;                                                                                \
            NAME##_pop_heap(first, last, last);                                                    \
        }                                                                                          \
    }                                                                                              \
    static STL_UNUSED void NAME##_introsort_loop(T *first, T *last, int64_t depth) {                          \
        while (last - first > 16) {                                                                \
            if (depth == 0) {                                                                      \
                NAME##_heap_select(first, last, last);                                             \
                NAME##_sort_heap(first, last);                                                     \
                return;                                                                            \
            }                                                                                      \
            --depth;                                                                               \
            T *cut = NAME##_partition_pivot(first, last);                                          \
            NAME##_introsort_loop(cut, last, depth);                                               \
            last = cut;                                                                            \
        }                                                                                          \
    }                                                                                              \
    static STL_UNUSED void NAME##_sort(T *first, int64_t n) {                                                 \
        if (n <= 0) return;                                                                        \
        T *last = first + n;                                                                       \
        NAME##_introsort_loop(first, last, stl_lg(n) * 2);                                         \
        if (n > 16) {                                                                              \
            NAME##_insertion(first, first + 16);                                                   \
            for (T *i = first + 16; i != last; ++i) NAME##_linear_insert(first, i);                \
        } else {                                                                                   \
            NAME##_insertion(first, last);                                                         \
        }                                                                                          \
    }                                                                                              \
    static STL_UNUSED void NAME##_nth_element(T *first, int64_t nth, int64_t n) {                             \
        if (n <= 0 || nth >= n) return;                                                            \
        T *last = first + n, *at = first + nth;                                                    \
        int64_t depth = stl_lg(n) * 2;                                                             \
        while (last - first > 3) {                                                                 \
            if (depth == 0) {                                                                      \
                NAME##_heap_select(first, at + 1, last);                                           \
                NAME##_swap(first, at);                                                            \
                return;                                                                            \
            }                                                                                      \
            --depth;                                                                               \
            T *cut = NAME##_partition_pivot(first, last);                                          \
            if (cut <= at) first = cut;                                                            \
            else last = cut;                                                                       \
        }                                                                                          \
        NAME##_insertion(first, last);                                                             \
    }                                                                                              \
    static STL_UNUSED void NAME##_partial_sort(T *first, int64_t k, int64_t n) {                              \
        NAME##_heap_select(first, first + k, first + n);                                           \
        NAME##_sort_heap(first, first + k);                                                        \
    }

#endif
