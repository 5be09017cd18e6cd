/*
 * Counts things.
 *
 * -----
 */
int xcb_bad_util_count(void);
