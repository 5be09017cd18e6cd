/* test_server_start_for_test() (test-server.h): apart from the rest, so
 * that a program without the test runner (tests/servers/with-server)
 * links the table without pulling in the runner's main(). */
#include "test-server.h"

#include "test-runner.h"

enum test_server_kind test_server_start_for_test(struct test_server *s, const char *name)
{
    int kind = test_server_kind(name);
    const char *why;
    int r;

    if (kind < 0)
        test_fail(__FILE__, __LINE__, "no server kind %s", name);
    r = test_server_start(s, kind, 640, 480, &why);
    if (r > 0)
        SKIP("%s", why);
    if (r < 0)
        test_fail(__FILE__, __LINE__, "%s: %s", name, why);
    return kind;
}
