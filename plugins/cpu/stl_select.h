/*
 * stl_select.h - GNU libstdc++'s std::sort, std::nth_element and std::partial_sort (GCC 12), step
 * for step, on (value, index) pairs.
 *
 * PyTorch's CPU topk selects with these, so where values tie, which index comes first is decided
 * by the exact sequence of swaps those algorithms make. A kernel that must give PyTorch's indices
 * for tied values (multinomial without replacement picks its samples with topk) runs the same
 * algorithms with the same comparator.
 */
#ifndef CPU_STL_SELECT_H
#define CPU_STL_SELECT_H

#include <stdint.h>

typedef struct cpu_stl_item {
    double value;
    int64_t index;
} cpu_stl_item;

/* comp(a, b): whether a goes before b (a strict weak order on the values). */
typedef int (*cpu_stl_less)(const cpu_stl_item *a, const cpu_stl_item *b);

void cpu_stl_sort(cpu_stl_item *first, cpu_stl_item *last, cpu_stl_less comp);
void cpu_stl_nth_element(cpu_stl_item *first, cpu_stl_item *nth, cpu_stl_item *last, cpu_stl_less comp);
void cpu_stl_partial_sort(cpu_stl_item *first, cpu_stl_item *middle, cpu_stl_item *last, cpu_stl_less comp);

#endif
