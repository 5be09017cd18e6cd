/*
 * Percentiles of the programs' figures, by nearest rank: the p-th
 * percentile of n values is the value at rank ceil(p/100 * n) (counting
 * from 1) of the sorted values.  It is always one of the values, never
 * below a lower percentile, and p100 (and p99 of fewer than 100 values) is
 * the largest.  libxcb-present-util's statistics use the same rule.
 */
#ifndef TOOLS_PERCENTILE_H
#define TOOLS_PERCENTILE_H

#include <stddef.h>

/* Sorts v ascending. */
void tool_sort_doubles(double *v, size_t n);

/* The nearest-rank p-th percentile (p 1 to 100; 0 is taken as 1, more
 * than 100 as 100) of the n values of sorted (ascending); 0 when n is 0. */
double tool_percentile(const double *sorted, size_t n, unsigned p);

#endif
