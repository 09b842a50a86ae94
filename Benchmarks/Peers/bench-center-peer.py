#!/usr/bin/env python3
"""Peer for `trigger-bench center`: APScheduler 3.x with its SQLAlchemy job
store on SQLite, on the same workload as ours: N one-shot date jobs.

  adds:  N add_job calls (each committed by the job store), timed.
  fires: N jobs due at the same spread-out instants from a start a moment
         ahead; the scheduler runs them on a thread pool; timed from the
         first due instant to the last job's execution. Lateness per job is
         its execution time minus its run_date.

Prints one JSON object: {"seconds": [...], "adds_per_second": …,
"fires_per_second": …, "lateness_ms": [...]}.
"""
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy import create_engine, event

lock = threading.Lock()
fired = []


def job(due):
    now = time.time()
    with lock:
        fired.append(now - due)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    spread = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    folder = tempfile.mkdtemp(prefix="apscheduler-bench-")
    path = os.path.join(folder, "jobs.sqlite")
    engine = create_engine(f"sqlite:///{path}")

    # The same durability as TriggerEngine's store: WAL, synchronous=NORMAL
    # (SQLite's default, a sync per commit, makes APScheduler ten times slower).
    @event.listens_for(engine, "connect")
    def pragmas(connection, _):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    store = SQLAlchemyJobStore(engine=engine)
    scheduler = BackgroundScheduler(jobstores={"default": store},
                                    executors={"default": ThreadPoolExecutor(20)},
                                    job_defaults={"misfire_grace_time": 3600, "coalesce": False})
    scheduler.start(paused=True)
    # Adds: due far enough ahead that nothing fires while they are added.
    start = time.time() + 3600
    begin = time.perf_counter()
    for index in range(count):
        due = start + spread * index / count
        scheduler.add_job(job, "date", run_date=datetime.fromtimestamp(due, timezone.utc), args=[due],
                          id=f"job-{index}")
    add_seconds = time.perf_counter() - begin
    # Fires: move every job to a spread starting one second from now.
    scheduler.remove_all_jobs()
    first = time.time() + 1.0
    for index in range(count):
        due = first + spread * index / count
        scheduler.add_job(job, "date", run_date=datetime.fromtimestamp(due, timezone.utc), args=[due],
                          id=f"job-{index}")
    scheduler.resume()
    deadline = time.time() + 600
    while time.time() < deadline:
        with lock:
            if len(fired) >= count:
                break
        time.sleep(0.01)
    last = time.time()
    scheduler.shutdown(wait=False)
    engine.dispose()
    shutil.rmtree(folder, ignore_errors=True)
    fire_seconds = max(last - first, 1e-9)
    with lock:
        done = len(fired)
        lateness = sorted(x * 1000 for x in fired)
    print(json.dumps({
        "seconds": [add_seconds, fire_seconds],
        "adds_per_second": count / add_seconds,
        "fires": done,
        "fires_per_second": done / fire_seconds,
        "lateness_ms": [lateness[len(lateness) // 2], lateness[min(len(lateness) - 1, int(len(lateness) * 0.99))],
                        lateness[-1]] if lateness else [],
    }))


if __name__ == "__main__":
    main()
