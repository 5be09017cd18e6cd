/* Counts things. */
int xcb_bad_util_count(void);

typedef struct {
    int n;
} xcb_bad_util_counter_t;
