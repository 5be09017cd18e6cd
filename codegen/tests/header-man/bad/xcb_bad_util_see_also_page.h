/*
 * Counts things.
 *
 * See also xcb_bad_util_counter_t().
 */
int xcb_bad_util_count(void);

/* Counters: no page, being a macro. */
#define xcb_bad_util_counter_t int
