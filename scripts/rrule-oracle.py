#!/usr/bin/env python3
"""The python-dateutil oracle of the recurrence differential test.

Reads one JSON batch on stdin:
    {"cases": [{"rule": "FREQ=...", "dtstart": "YYYYMMDDTHHMMSS",
                "limit": K, "cap": "YYYYMMDDTHHMMSS"}, ...]}
and prints one JSON object:
    {"dateutil": "2.9.0", "results": [["YYYYMMDDTHHMMSS", ...] | {"error": "..."} | {"partial": [...]}, ...]}
with, for each case, the rule's first `limit` instances from DTSTART (floating
wall times) that are no later than `cap`. The cap keeps rules that rarely or
never match from running to year 9999: COUNT only truncates, so the instances
up to the cap are the same with COUNT replaced by the cap as UNTIL.

Exit status 3, with a message on stderr, when python-dateutil is missing.
"""
import itertools
import json
import signal
import sys

try:
    import dateutil
    from dateutil.rrule import rrulestr
except ImportError:
    print("python-dateutil is not installed (scripts/bootstrap installs it)", file=sys.stderr)
    sys.exit(3)

from datetime import datetime

FORMAT = "%Y%m%dT%H%M%S"

# dateutil compares UNTIL only with the instances it finds, so a rule that
# never matches (again) walks period by period to year 9999 whatever the cap;
# such a case answers {"partial": [the instances found so far]} after this long.
SECONDS_PER_CASE = 0.2


class Timeout(Exception):
    pass


# The alarm interrupts only the case it was set for: it can go off after the
# case has returned and before the timer is cleared, and must then do nothing
# (raised there, it escaped every handler and failed the whole batch).
computing = False


def on_alarm(signum, frame):
    if computing:
        raise Timeout()


def instances(case, found):
    start = datetime.strptime(case["dtstart"], FORMAT)
    cap = datetime.strptime(case["cap"], FORMAT)
    rule = rrulestr(case["rule"], dtstart=start)
    limit = case["limit"]
    if rule._count is not None:
        limit = min(limit, rule._count)
    until = cap if rule._until is None else min(cap, rule._until)
    bounded = rule.replace(count=None, until=until)
    for moment in itertools.islice(bounded, limit):
        found.append(moment.strftime(FORMAT))
    return found


def main():
    batch = json.load(sys.stdin)
    results = []
    signal.signal(signal.SIGALRM, on_alarm)
    # A parent may start us with signals blocked (Foundation's Process does).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
    for case in batch["cases"]:
        results.append(answer(case))
    json.dump({"dateutil": dateutil.__version__, "results": results}, sys.stdout)


def answer(case):
    """One case's result; a timeout gives the instances found before it."""
    global computing
    found = []
    try:
        try:
            computing = True
            signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_CASE)
            return instances(case, found)
        finally:
            # An alarm can raise only before this line, so always inside the
            # outer try; after it, the handler ignores the alarm.
            computing = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Timeout:
        # Also when the alarm went off just after the last instance: `found`
        # is then complete, and a complete list is a correct prefix too.
        return {"partial": found}
    except Exception as error:  # a rule dateutil refuses: reported, not fatal
        return {"error": "%s: %s" % (type(error).__name__, error)}


if __name__ == "__main__":
    main()
