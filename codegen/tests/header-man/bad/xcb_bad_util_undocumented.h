#include <stdint.h>

int xcb_bad_util_count(void);
