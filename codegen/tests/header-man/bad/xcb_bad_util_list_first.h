/*
 *   - counts things
 */
int xcb_bad_util_count(void);
