#!/usr/bin/env python3
"""Peer for the cluster benchmark: scheduled jobs on PostgreSQL with PgQueuer.

usage: bench-cluster-peer.py --url postgres://postgres@127.0.0.1:PORT/triggerengine
           [--jobs N] [--workers W] [--window S] [--lead S] [--timeout S]
           [--batch-size B] [--enqueue-batch E] [--poll-interval S]

What is measured, in order, on PgQueuer's own tables (installed fresh, after
dropping any left over, and dropped again at the end, also on failure):
1. enqueue_one_per_s: min(2000, N) jobs enqueued one call (one round trip) each.
2. enqueue_per_s: N jobs enqueued in batches of E through Queries.enqueue with
   lists, each due at an instant of its own: job i at T + i*window/N, where T
   is planned to fall `lead` seconds after the enqueue ends (from a timed
   calibration batch; the lead it really got is reported as settings.lead_s).
   PgQueuer takes execute_after as an interval from the database's NOW(), so
   each batch passes (due - now), and the due instant used below is the
   job's own execute_after as stored, not the planned one.
3. W worker processes (multiprocessing, spawn), each with its own connection
   and QueueManager, are started and connected before the enqueue and let go
   when it ends. The handler records (job id, execute_after, time.time()).
   fires_per_s: executions / (last execution start - first due instant):
   with the defaults jobs fall due at 10000/s, so while the consumers keep up
   this is that rate; --window 0 (all due at once) gives their throughput.
   lateness: execution start - due instant, in ms. delivered: executions;
   duplicates: job ids executed more than once.
Prints one JSON line on stdout; failures go to stderr with a non-zero exit.
The database and this script share the host's clock (loopback server).

Settings (echoed under "settings"): QueueManager.run batch_size 100 (its
default, 10, cannot keep up with 10000 due/s), no concurrency cap, log
aggregation off, PgQueuer's own autovacuum tuning, an ANALYZE of the queue
table after the enqueue, and a 1 ms floor between polls (PgQueuer's 0.1 s
floor, min_dequeue_poll_interval, costs up to 100 ms of lateness on sparse
schedules). Wake-ups use PgQueuer's default LISTEN/NOTIFY trigger.
"""
# Needs: pip install pgqueuer asyncpg   (written against pgqueuer 1.6.0, asyncpg 0.32.0)
import argparse
import asyncio
import json
import multiprocessing
import queue
import sys
import time
from datetime import timedelta

try:
    import asyncpg
    import pgqueuer
    from pgqueuer import Queries, QueueManager
    from pgqueuer.models import Job
except ImportError as error:
    print(f"bench-cluster-peer: {error} (pip install pgqueuer asyncpg)", file=sys.stderr)
    sys.exit(3)

ENTRYPOINT = "bench"


def worker(url, settings, counter, go, stop, results):
    """One consumer process: connect, wait for go, run until stop, send records."""
    try:
        asyncio.run(consume(url, settings, counter, go, stop, results))
    except BaseException as error:  # report anything, then die
        results.put(("error", f"worker: {type(error).__name__}: {error}"))
        raise SystemExit(1)


async def consume(url, settings, counter, go, stop, results):
    connection = await asyncpg.connect(url)
    qm = QueueManager(Queries.from_asyncpg_connection(connection))
    # Minimum sleep between polls when nothing is due yet (PgQueuer: 0.1 s);
    # a dataclass field with init=False, so it is set after construction.
    qm.min_dequeue_poll_interval = timedelta(seconds=settings["min_dequeue_poll_interval_s"])
    records = []

    @qm.entrypoint(ENTRYPOINT)
    async def handler(job: Job) -> None:
        records.append((job.id, job.execute_after, time.time()))
        counter.value += 1

    async def watch_stop():
        while not stop.is_set():
            await asyncio.sleep(0.02)
        qm.shutdown.set()

    results.put(("ready", None))
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    watcher = asyncio.create_task(watch_stop())
    await qm.run(
        batch_size=settings["batch_size"],
        dequeue_timeout=timedelta(seconds=settings["dequeue_timeout_s"]),
        log_aggregation_interval=timedelta(0),  # no statistics roll-up while measuring
    )
    await watcher
    results.put(("done", [(i, due.timestamp(), t) for i, due, t in records]))


async def receive(results, procs, want):
    """The next message from the workers; raises on an error report or a dead worker."""
    while True:
        try:
            kind, detail = results.get_nowait()
        except queue.Empty:
            if any(p.exitcode not in (None, 0) for p in procs):
                raise RuntimeError("a worker died")
            await asyncio.sleep(0.01)
            continue
        if kind != want:
            raise RuntimeError(detail)
        return detail


async def reinstall(queries):
    await queries.uninstall()  # DROP ... IF EXISTS throughout: fine when absent
    await queries.install()
    await queries.optimize_autovacuum()  # PgQueuer's own tuning (`pgq autovac`)


async def enqueue_due(queries, dues, batch):
    """Enqueue one job per due instant (epoch seconds), in batches; return seconds taken."""
    start = time.perf_counter()
    for k in range(0, len(dues), batch):
        part = dues[k:k + batch]
        now = time.time()
        await queries.enqueue(
            [ENTRYPOINT] * len(part), [None] * len(part), [0] * len(part),
            [timedelta(seconds=d - now) for d in part],
        )
    return time.perf_counter() - start


def spread(base, n, window):
    return [base + i * window / n for i in range(n)]


async def run(args, state):
    n, w = args.jobs, args.workers
    settings = {
        "batch_size": args.batch_size, "enqueue_batch": args.enqueue_batch,
        "dequeue_timeout_s": 30.0, "min_dequeue_poll_interval_s": args.poll_interval,
        "heartbeat_timeout_s": 30.0,
        "log_aggregation_interval_s": 0, "max_concurrent_tasks": None,
        "durability": "durable", "notify": "default (NOTIFY trigger, workers LISTEN)",
        "autovacuum": "Queries.optimize_autovacuum", "analyze_after_enqueue": args.analyze,
        "window_s": args.window,
    }
    connection = await asyncpg.connect(args.url)
    state["connection"] = connection
    queries = Queries.from_asyncpg_connection(connection)
    await reinstall(queries)

    # 1. Single enqueues, due far away; then a fresh table.
    sample = min(2000, n)
    start = time.perf_counter()
    for _ in range(sample):
        await queries.enqueue(ENTRYPOINT, None, execute_after=timedelta(days=1))
    enqueue_one = sample / (time.perf_counter() - start)

    # Calibration batch, to plan when the due instants can start.
    await reinstall(queries)
    calib = min(n, max(1000, n // 5))
    calib_s = await enqueue_due(queries, [time.time() + 86400] * calib, args.enqueue_batch)
    await reinstall(queries)

    # Workers: spawned, imported and connected before the timed enqueue.
    ctx = multiprocessing.get_context("spawn")
    go, stop, results = ctx.Event(), ctx.Event(), ctx.Queue()
    counters = [ctx.RawValue("q", 0) for _ in range(w)]
    state["procs"] = []
    for c in counters:
        p = ctx.Process(target=worker, args=(args.url, settings, c, go, stop, results), daemon=True)
        p.start()
        state["procs"].append(p)
    for _ in range(w):
        await receive(results, state["procs"], "ready")

    # 2. The timed batch enqueue of the scheduled jobs.
    base = time.time() + 1.5 * calib_s * n / calib + args.lead
    enqueue_s = await enqueue_due(queries, spread(base, n, args.window), args.enqueue_batch)
    enqueued_at = time.time()
    if args.analyze:
        # A fresh table has no statistics, and until autovacuum gets to it
        # (a minute) the dequeue sorts every due row: ~20 ms a call at 100k.
        await connection.execute(f"ANALYZE {queries.qbe.qualified.queue_table}")
    go.set()
    settings["lead_s"] = round(base - enqueued_at, 3)
    if base < enqueued_at:
        print(f"bench-cluster-peer: enqueue ran {enqueued_at - base:.2f} s past the first due instant",
              file=sys.stderr)

    # 3. Wait for every job to run, then collect the records.
    while sum(c.value for c in counters) < n:
        if any(not p.is_alive() for p in state["procs"]):
            break
        await asyncio.sleep(0.01)
    stop.set()
    records = []
    for _ in range(w):
        records += await receive(results, state["procs"], "done")
    while any(p.is_alive() for p in state["procs"]):
        await asyncio.sleep(0.01)

    lateness = sorted((t - due) * 1000 for _, due, t in records)
    seen = {}
    for job_id, _, _ in records:
        seen[job_id] = seen.get(job_id, 0) + 1
    if len(seen) < n:
        raise RuntimeError(f"only {len(seen)} of {n} jobs ran ({len(records)} executions)")
    first_due = min(due for _, due, _ in records)
    last_start = max(t for _, _, t in records)

    def rank(q):
        return round(lateness[min(len(lateness) - 1, int(q * len(lateness)))], 3)

    return {
        "peer": "pgqueuer", "version": pgqueuer.__version__, "jobs": n, "workers": w,
        "enqueue_per_s": round(n / enqueue_s, 1), "enqueue_one_per_s": round(enqueue_one, 1),
        "fires_per_s": round(len(records) / (last_start - first_due), 1),
        "lateness_ms": {"p50": rank(0.5), "p99": rank(0.99),
                        "mean": round(sum(lateness) / len(lateness), 3),
                        "max": round(lateness[-1], 3), "min": round(lateness[0], 3)},
        "delivered": len(records), "duplicates": sum(1 for c in seen.values() if c > 1),
        "settings": settings,
    }


async def cleanup(url, state):
    """Stop workers still running, then drop PgQueuer's tables on a fresh connection."""
    for p in state.get("procs", []):
        if p.is_alive():
            p.terminate()
        p.join(5)
    if state.get("connection"):
        state["connection"].terminate()
    connection = await asyncpg.connect(url, timeout=10)
    try:
        await Queries.from_asyncpg_connection(connection).uninstall()
    finally:
        await connection.close()


async def main(args):
    state = {}
    try:
        result = await asyncio.wait_for(run(args, state), args.timeout)
    except BaseException as error:
        try:
            await cleanup(args.url, state)
        except Exception as cleanup_error:
            print(f"bench-cluster-peer: cleanup failed too: {cleanup_error}", file=sys.stderr)
        if isinstance(error, asyncio.TimeoutError):
            raise RuntimeError(f"timed out after {args.timeout} s") from None
        raise
    await cleanup(args.url, state)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--jobs", type=int, default=100000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--window", type=float, default=10.0, help="seconds the due instants span")
    parser.add_argument("--lead", type=float, default=2.0, help="seconds from enqueue end to first due")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--batch-size", type=int, default=100, help="QueueManager.run batch_size")
    parser.add_argument("--enqueue-batch", type=int, default=1000, help="jobs per enqueue call")
    parser.add_argument("--poll-interval", type=float, default=0.001,
                        help="QueueManager.min_dequeue_poll_interval in seconds")
    parser.add_argument("--no-analyze", dest="analyze", action="store_false",
                        help="leave the queue table without statistics after the enqueue")
    args = parser.parse_args()
    if args.jobs < 1 or args.workers < 1 or args.window < 0 or args.enqueue_batch < 1:
        parser.error("--jobs, --workers and --enqueue-batch must be positive, --window not negative")
    try:
        print(json.dumps(asyncio.run(main(args))))
    except Exception as error:
        print(f"bench-cluster-peer: {error}", file=sys.stderr)
        sys.exit(1)
