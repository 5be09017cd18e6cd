/*
 * Counts things.
 *
 * Returns the count:
 *   a number of things
 */
int xcb_bad_util_count(void);
