#!/usr/bin/env python3
"""Peer for `trigger-bench ics` and the corpus differential test:
expands calendars with recurring-ical-events.

usage: bench-ics-peer.py FILE FROM TO RUNS
       bench-ics-peer.py --occurrences FROM TO FILE...
FROM/TO are epoch seconds (UTC).

The first form prints JSON: seconds per run (parse + expand), the number of
occurrences, and an FNV-1a 64 hash of the sorted "uid|start" lines (start:
YYYY-MM-DD for all-day, epoch seconds otherwise) - the same key ours hashes.

The second form (ICSCorpusDifferentialTests) prints JSON
{"version": V, "files": {NAME: {"occurrences": [LINE, ...]} | {"error": TEXT}}}
where each LINE is "uid|start|end" for a VEVENT or VTODO occurrence between FROM
and TO, sorted, STATUS:CANCELLED ones left out (the command-line contract drops
them); start and end are YYYY-MM-DD for dates and UTC RFC 3339 otherwise
(floating times read as UTC). Exit status 3 when recurring-ical-events is missing.
"""
import datetime
import importlib.metadata
import json
import sys
import time

try:
    import icalendar
    import recurring_ical_events
except ImportError:
    print("recurring-ical-events is not installed (scripts/bootstrap --bench installs it)", file=sys.stderr)
    sys.exit(3)


def key(event):
    start = event["DTSTART"].dt
    if isinstance(start, datetime.datetime):
        if start.tzinfo is None:
            start = start.replace(tzinfo=datetime.timezone.utc)
        text = str(int(start.timestamp()))
    else:
        text = start.isoformat()
    return str(event["UID"]) + "|" + text


def fnv1a(lines):
    value = 0xCBF29CE484222325
    for line in lines:
        for byte in (line + "\n").encode():
            value ^= byte
            value = (value * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def moment(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def occurrences(low, high, paths):
    import os
    import warnings
    warnings.simplefilter("ignore")
    start = datetime.datetime.fromtimestamp(low, datetime.timezone.utc)
    end = datetime.datetime.fromtimestamp(high, datetime.timezone.utc)
    files = {}
    for path in paths:
        # icalendar caches every VTIMEZONE it reads, process-wide, by TZID: a
        # file read earlier would lend its zones to the next one. Start afresh.
        icalendar.timezone.tzp.use_default()
        try:
            with open(path, "rb") as handle:
                calendar = icalendar.Calendar.from_ical(handle.read())
            lines = []
            for event in recurring_ical_events.of(calendar, components=["VEVENT", "VTODO"]).between(start, end):
                if str(event.get("STATUS", "")).upper() == "CANCELLED":
                    continue
                lines.append("%s|%s|%s" % (event.get("UID", ""), moment(event.start), moment(event.end)))
            files[os.path.basename(path)] = {"occurrences": sorted(lines)}
        except Exception as error:  # a file the peer refuses: reported, not fatal
            files[os.path.basename(path)] = {"error": "%s: %s" % (type(error).__name__, str(error)[:200])}
    print(json.dumps({"version": importlib.metadata.version("recurring-ical-events"), "files": files},
                     indent=1, sort_keys=True))


def main():
    if sys.argv[1] == "--occurrences":
        occurrences(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
        return
    path, low, high, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    start = datetime.datetime.fromtimestamp(low, datetime.timezone.utc)
    end = datetime.datetime.fromtimestamp(high, datetime.timezone.utc)
    with open(path, "rb") as handle:
        text = handle.read()
    seconds = []
    events = []
    for _ in range(runs):
        began = time.perf_counter()
        calendar = icalendar.Calendar.from_ical(text)
        events = recurring_ical_events.of(calendar).between(start, end)
        seconds.append(time.perf_counter() - began)
    lines = sorted(key(event) for event in events)
    print(json.dumps({"seconds": seconds, "count": len(lines), "hash": "%016x" % fnv1a(lines),
                      "version": importlib.metadata.version("recurring-ical-events")}))


if __name__ == "__main__":
    main()
