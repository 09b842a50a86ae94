import Foundation

/// Committing changes: every change to the center's state goes through one
/// FIFO journal, which writes it to the store and then applies it in memory,
/// in call order. Consecutive changes that were computed when they were made
/// share one transaction (group commit): a thousand adds arriving together
/// cost one commit. A change computed from the state (`commitLater`) waits
/// until everything before it was applied, then goes in a transaction of its own.
extension UserNotificationCenter {
    /// The queue of changes not yet committed.
    struct Journal {
        enum Work {
            /// Changes known when they were made, and how memory follows them.
            case ready([StoreChange], apply: () -> Void)
            /// Changes computed from the state once everything before them was applied.
            case later(() throws -> ([StoreChange], () -> Void))
        }

        struct Entry {
            var work: Work
            var continuation: CheckedContinuation<Void, any Error>
        }

        var entries: [Entry] = []
        var isDraining = false
        /// The most calls one transaction takes: enough to amortise a commit,
        /// few enough to keep one transaction's latency in milliseconds.
        static let groupLimit = 4_096
    }

    /// Commits `changes` and then runs `apply`, after every change made before.
    /// - Throws: `DataError` for what the store cannot keep, `CenterError.store`
    ///   when it failed: nothing was written and `apply` did not run.
    func commit(_ changes: [StoreChange], apply: @escaping () -> Void) async throws {
        try await enqueue(.ready(changes, apply: apply))
    }

    /// Like `commit`, with the changes computed by `prepare` once everything
    /// before them was applied (a change that depends on the current state).
    /// - Throws: what `prepare` throws, or `CenterError.store`.
    func commitLater(_ prepare: @escaping () throws -> ([StoreChange], () -> Void)) async throws {
        try await enqueue(.later(prepare))
    }

    private func enqueue(_ work: Journal.Work) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            journal.entries.append(Journal.Entry(work: work, continuation: continuation))
            if !journal.isDraining {
                journal.isDraining = true
                Task { await self.drainJournal() }
            }
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
                    entry.continuation.resume(throwing: error)
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
                    journal.entries.insert(contentsOf: group.map(Self.alone), at: 0)
                    continue
                }
                // What the store refuses to keep (a key with U+0000) is the input's fault: a `DataError`.
                let failure: any Error = error is DataError ? error : CenterError.store(error)
                for entry in group { entry.continuation.resume(throwing: failure) }
                continue
            }
            for apply in applies { apply() }
            for entry in group { entry.continuation.resume() }
            afterJournalApplied()
        }
        journal.isDraining = false
    }

    /// An entry of a failed group, to be committed in a transaction of its own.
    private static func alone(_ entry: Journal.Entry) -> Journal.Entry {
        guard case .ready(let changes, let apply) = entry.work else { return entry }
        return Journal.Entry(work: .later({ (changes, apply) }), continuation: entry.continuation)
    }
}
