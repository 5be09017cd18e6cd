/* Counts things. */
int xcb_bad_util_count(void);

/* Counts things again. */
int xcb_bad_util_count(void);
