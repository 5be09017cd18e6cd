/*
 * Counts things.
 *
 * Faster than xcb_bad_util_count_slowly().
 */
int xcb_bad_util_count(void);
