/*
 * stl_select.c - libstdc++'s sorting and selection algorithms (see stl_select.h): introsort with a
 * median-of-three pivot and a final insertion sort over runs of 16, introselect, and heap
 * selection, each making the comparisons and moves libstdc++ makes, in its order.
 */
#include "stl_select.h"

enum { THRESHOLD = 16 };

static inline void swap_items(cpu_stl_item *a, cpu_stl_item *b) {
    const cpu_stl_item t = *a;
    *a = *b;
    *b = t;
}

static inline int64_t floor_log2(int64_t n) { return 63 - __builtin_clzll((unsigned long long)n); }

/* ---- heaps ---- */

static void push_heap(cpu_stl_item *first, int64_t hole, int64_t top, cpu_stl_item value, cpu_stl_less comp) {
    int64_t parent = (hole - 1) / 2;
    while (hole > top && comp(first + parent, &value)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = value;
}

static void adjust_heap(cpu_stl_item *first, int64_t hole, int64_t len, cpu_stl_item value, cpu_stl_less comp) {
    const int64_t top = hole;
    int64_t child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (comp(first + child, first + (child - 1))) child--;
        first[hole] = first[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        first[hole] = first[child - 1];
        hole = child - 1;
    }
    push_heap(first, hole, top, value, comp);
}

static void make_heap(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_less comp) {
    const int64_t len = last - first;
    if (len < 2) return;
    for (int64_t parent = (len - 2) / 2;; parent--) {
        adjust_heap(first, parent, len, first[parent], comp);
        if (parent == 0) return;
    }
}

static void pop_heap(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_item *result, cpu_stl_less comp) {
    const cpu_stl_item value = *result;
    *result = *first;
    adjust_heap(first, 0, last - first, value, comp);
}

static void heap_select(cpu_stl_item *first, cpu_stl_item *middle, cpu_stl_item *last, cpu_stl_less comp) {
    make_heap(first, middle, comp);
    for (cpu_stl_item *i = middle; i < last; i++)
        if (comp(i, first)) pop_heap(first, middle, i, comp);
}

static void sort_heap(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_less comp) {
    while (last - first > 1) {
        last--;
        pop_heap(first, last, last, comp);
    }
}

void cpu_stl_partial_sort(cpu_stl_item *first, cpu_stl_item *middle, cpu_stl_item *last, cpu_stl_less comp) {
    heap_select(first, middle, last, comp);
    sort_heap(first, middle, comp);
}

/* ---- partitions ---- */

static void move_median_to_first(cpu_stl_item *result, cpu_stl_item *a, cpu_stl_item *b, cpu_stl_item *c,
                                 cpu_stl_less comp) {
    if (comp(a, b)) {
        if (comp(b, c))
            swap_items(result, b);
        else if (comp(a, c))
            swap_items(result, c);
        else
            swap_items(result, a);
    } else if (comp(a, c)) {
        swap_items(result, a);
    } else if (comp(b, c)) {
        swap_items(result, c);
    } else {
        swap_items(result, b);
    }
}

static cpu_stl_item *unguarded_partition(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_item *pivot,
                                         cpu_stl_less comp) {
    for (;;) {
        while (comp(first, pivot)) first++;
        last--;
        while (comp(pivot, last)) last--;
        if (!(first < last)) return first;
        swap_items(first, last);
        first++;
    }
}

static cpu_stl_item *partition_pivot(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_less comp) {
    cpu_stl_item *mid = first + (last - first) / 2;
    move_median_to_first(first, first + 1, mid, last - 1, comp);
    return unguarded_partition(first + 1, last, first, comp);
}

/* ---- insertion sorts ---- */

static void unguarded_linear_insert(cpu_stl_item *last, cpu_stl_less comp) {
    const cpu_stl_item value = *last;
    cpu_stl_item *next = last - 1;
    while (comp(&value, next)) {
        *last = *next;
        last = next;
        next--;
    }
    *last = value;
}

static void insertion_sort(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_less comp) {
    if (first == last) return;
    for (cpu_stl_item *i = first + 1; i != last; i++) {
        if (comp(i, first)) {
            const cpu_stl_item value = *i;
            for (cpu_stl_item *p = i; p != first; p--) *p = p[-1];
            *first = value;
        } else {
            unguarded_linear_insert(i, comp);
        }
    }
}

/* ---- sort and nth_element ---- */

static void introsort_loop(cpu_stl_item *first, cpu_stl_item *last, int64_t depth, cpu_stl_less comp) {
    while (last - first > THRESHOLD) {
        if (depth == 0) {
            cpu_stl_partial_sort(first, last, last, comp);
            return;
        }
        depth--;
        cpu_stl_item *cut = partition_pivot(first, last, comp);
        introsort_loop(cut, last, depth, comp);
        last = cut;
    }
}

void cpu_stl_sort(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_less comp) {
    if (first == last) return;
    introsort_loop(first, last, floor_log2(last - first) * 2, comp);
    if (last - first > THRESHOLD) {
        insertion_sort(first, first + THRESHOLD, comp);
        for (cpu_stl_item *i = first + THRESHOLD; i != last; i++) unguarded_linear_insert(i, comp);
    } else {
        insertion_sort(first, last, comp);
    }
}

void cpu_stl_nth_element(cpu_stl_item *first, cpu_stl_item *nth, cpu_stl_item *last, cpu_stl_less comp) {
    if (first == last || nth == last) return;
    int64_t depth = floor_log2(last - first) * 2;
    while (last - first > 3) {
        if (depth == 0) {
            heap_select(first, nth + 1, last, comp);
            swap_items(first, nth); /* the nth element into its final place */
            return;
        }
        depth--;
        cpu_stl_item *cut = partition_pivot(first, last, comp);
        if (cut <= nth)
            first = cut;
        else
            last = cut;
    }
    insertion_sort(first, last, comp);
}
