/*
 * Counts things.
 *
 * See also xcb_bad_util_count().
 *
 * See also malloc(3).
 */
int xcb_bad_util_count(void);
