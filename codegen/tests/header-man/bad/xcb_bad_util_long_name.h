/* Counts the things that the caller has made so far, in every thread, whether they were freed or not, and more. */
int xcb_bad_util_count(void);
