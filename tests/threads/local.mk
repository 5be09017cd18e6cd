# Threads and load: tests that share one connection or fence between
# threads, the ThreadSanitizer list for .ci/run, and the stress script.

# The suite under load, run by hand (see the script); never by make check.
EXTRA_DIST += tests/stress-check.sh
