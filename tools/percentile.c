/* See percentile.h. */
#include "percentile.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

void tool_sort_doubles(double *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_double);
}

double tool_percentile(const double *sorted, size_t n, unsigned p)
{
    size_t rank;

    if (!n)
        return 0;
    p = p < 1 ? 1 : p > 100 ? 100 : p;
    /* ceil(p * n / 100) in whole numbers: no rounding of 0.99 * n */
    rank = (n * p + 99) / 100;
    return sorted[(rank ? rank : 1) - 1];
}
