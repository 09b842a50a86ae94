internal import DequeModule
import Foundation

/// Committing changes: every change to the center's state goes through one
/// FIFO journal, which writes it to the store and then applies it in memory,
/// in call order. Consecutive changes that were computed when they were made
/// share one transaction (group commit): a thousand adds arriving together, or
/// the records of fires handed over one after another, cost one commit. A
/// change computed from the state (`commitLater`) waits until everything before
/// it was applied, then goes in a transaction of its own.
extension UserNotificationCenter {
    /// The queue of changes not yet committed.
    struct Journal {
        enum Work {
            /// Changes known when they were made, and how memory follows them.
            case ready([StoreChange], apply: () -> Void)
            /// Changes computed from the state once everything before them was applied.
            case later(() throws -> ([StoreChange], () -> Void))
        }

        /// How a retrying entry reports a failed attempt: the error, the attempt
        /// number and when it is tried again.
        typealias FailureReport = @Sendable (any Error, Int, Date) async -> Void

        struct Entry {
            var work: Work
            /// Who waits for it; `nil` for a record committed in the background.
            var continuation: CheckedContinuation<Void, any Error>?
            /// Set for an entry that must not be dropped (a delivery's record):
            /// a failure is reported and it is tried again, with backoff.
            var retry: FailureReport?
            var attempts = 0
        }

        /// A deque: a burst of records queues thousands, taken from the front.
        var entries: Deque<Entry> = []
        var isDraining = false
        /// The most calls one transaction takes: enough to amortise a commit,
        /// few enough to keep one transaction's latency in milliseconds.
        static let groupLimit = 4_096
    }

    /// Commits `changes` and then runs `apply`, after every change made before.
    /// - Throws: `DataError` for what the store cannot keep, `CenterError.store`
    ///   when it failed: nothing was written and `apply` did not run.
    func commit(_ changes: [StoreChange], apply: @escaping () -> Void) async throws {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(Journal.Entry(work: .ready(changes, apply: apply), continuation: continuation))
        }
    }

    /// Like `commit`, with the changes computed by `prepare` once everything
    /// before them was applied (a change that depends on the current state).
    /// - Throws: what `prepare` throws, or `CenterError.store`.
    func commitLater(_ prepare: @escaping () throws -> ([StoreChange], () -> Void)) async throws {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(Journal.Entry(work: .later(prepare), continuation: continuation))
        }
    }

    /// Commits `changes` in the background, without waiting: should the store
    /// refuse them, `report` is told and they are tried again after the retry
    /// policy's backoff, until they are written. Later entries wait behind them.
    func commitRetrying(_ changes: [StoreChange], apply: @escaping () -> Void, report: @escaping Journal.FailureReport) {
        enqueue(Journal.Entry(work: .ready(changes, apply: apply), continuation: nil, retry: report))
    }

    private func enqueue(_ entry: Journal.Entry) {
        journal.entries.append(entry)
        if !journal.isDraining {
            journal.isDraining = true
            Task { await self.drainJournal() }
        }
    }

    private func drainJournal() async {
        while !journal.entries.isEmpty {
            var group: [Journal.Entry] = []
            var changes: [StoreChange] = []
            var applies: [() -> Void] = []
            if case .later(let prepare) = journal.entries[0].work {
                let entry = journal.entries.removeFirst()
                do {
                    let (prepared, apply) = try prepare()
                    group = [entry]
                    changes = prepared
                    applies = [apply]
                } catch {
                    entry.continuation?.resume(throwing: error)
                    continue
                }
            } else {
                while group.count < Journal.groupLimit, let entry = journal.entries.first,
                      case .ready(let entryChanges, let apply) = entry.work {
                    journal.entries.removeFirst()
                    group.append(entry)
                    changes += entryChanges
                    applies.append(apply)
                }
            }
            do {
                if let store, !changes.isEmpty { try await store.write(changes) }
            } catch {
                // One change the store refuses (a key it cannot keep) must not
                // fail the others that shared its transaction: alone, each
                // gets its own answer.
                if group.count > 1 {
                    journal.entries.prepend(contentsOf: group.map(Self.alone))
                    continue
                }
                var entry = group[0]
                if let retry = entry.retry {
                    entry.attempts += 1
                    let delay = retryPolicy.delay(afterAttempt: entry.attempts)
                    journal.entries.prepend(entry)
                    await retry(error, entry.attempts, clock.now().addingTimeInterval(delay.seconds))
                    try? await Task.sleep(for: delay)
                    continue
                }
                // What the store refuses to keep (a key with U+0000) is the input's fault: a `DataError`.
                entry.continuation?.resume(throwing: error is DataError ? error : CenterError.store(StoreError(classifying: error)))
                continue
            }
            for apply in applies { apply() }
            for entry in group { entry.continuation?.resume() }
            afterJournalApplied()
        }
        journal.isDraining = false
    }

    /// An entry of a failed group, to be committed in a transaction of its own.
    private static func alone(_ entry: Journal.Entry) -> Journal.Entry {
        guard case .ready(let changes, let apply) = entry.work, entry.retry == nil else { return entry }
        var single = entry
        single.work = .later({ (changes, apply) })
        return single
    }
}
