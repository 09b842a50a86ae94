#!/usr/bin/env python3
"""Peer for `trigger-eval bench ics`: expands a calendar with recurring-ical-events.

usage: bench-ics-peer.py FILE FROM TO RUNS
FROM/TO are epoch seconds (UTC). Prints JSON: seconds per run (parse + expand),
the number of occurrences, and an FNV-1a 64 hash of the sorted "uid|start" lines
(start: YYYY-MM-DD for all-day, epoch seconds otherwise) - the same key ours hashes.
"""
import datetime
import importlib.metadata
import json
import sys
import time

import icalendar
import recurring_ical_events


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


def main():
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
