/*
 * Counts things.
 *
 * See also the other functions.
 */
int xcb_bad_util_count(void);
