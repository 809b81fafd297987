"""Assertions shared by the CLI's Python tests (as check.sh is the shell tests'): check() counts itself and prints
and keeps each failure; done() prints the tally and returns the test's exit code (0, or 1 after a failure)."""

failures = []
checks = 0


def check(ok, what):
    """Count one assertion; when ok is false, print "FAIL: what" and keep it. Returns ok."""
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL: " + what, flush=True)
    return ok


def done():
    print("%d checks, %d failures" % (checks, len(failures)))
    return 1 if failures else 0
