import Foundation
internal import GRDB

/// Embedded SQLite persistence for a center (GRDB): pending requests with their
/// next fire, delivered notifications, categories and authorization settings.
///
/// Durability: WAL journal with `synchronous=NORMAL`, which survives a process
/// killed at any instant (`kill -9`): a committed transaction is in the WAL file
/// the moment `COMMIT` returns, and the OS keeps it. A delivery is one
/// transaction (pending row removed or moved on, delivered row inserted), so a
/// one-shot request is never both pending and delivered.
public final class NotificationStore: Sendable {
    let database: DatabaseQueue

    /// Opens (creating if needed) the store at `path`, or an in-memory one for `nil`.
    /// - Throws: `InputFileError` when the file cannot be opened or is not a store.
    public init(path: String?) throws {
        do {
            var configuration = Configuration()
            // Wait for another connection's lock (a store still closing, with its
            // checkpoint, or a second process) instead of failing at once with
            // "database is locked": switching to WAL needs the file to itself.
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                if db.configuration.readonly == false, path != nil {
                    try db.execute(sql: "PRAGMA journal_mode=WAL")
                    try db.execute(sql: "PRAGMA synchronous=NORMAL")
                    // Read pages through a memory map (no copy into SQLite's page cache): a restart scans every row.
                    try db.execute(sql: "PRAGMA mmap_size=1073741824")
                }
            }
            database = try path.map { try DatabaseQueue(path: $0, configuration: configuration) }
                ?? DatabaseQueue(configuration: configuration)
            try database.write { db in try Self.prepareSchema(db) }
        } catch {
            throw InputFileError(path: path ?? ":memory:", reason: "cannot open the notification store: \(error)")
        }
    }

    /// Closes the file (a WAL checkpoint, every statement finalized). Any use
    /// of the store afterwards throws; close it once nothing uses it any more
    /// (after `UserNotificationCenter.run()` has returned).
    /// - Throws: `CenterError.store` (kind `.busy`) when a statement is still running.
    public func close() throws(CenterError) {
        do {
            try database.close()
        } catch {
            throw CenterError.store(StoreError(classifying: error))
        }
    }

    /// Saves (inserts or replaces) pending requests in one transaction. A
    /// replaced request goes to the end of the add order, as a new add does.
    /// - Complexity: O(n log n) in one transaction with prepared statements;
    ///   each distinct calendar, location or recurrence trigger is written once.
    @_spi(Internals) public func savePending(_ records: some Sequence<ScheduledRequest>) throws {
        try write([.savePending(Array(records))])
    }

    /// Removes pending requests by identifier.
    /// - Throws: `DataError` for an identifier with U+0000 (no stored request has one).
    package func removePending(identifiers: some Sequence<String>) throws {
        try write([.removePending(Array(identifiers))])
    }

    /// Removes every pending request.
    package func removeAllPending() throws {
        try write([.removeAllPending])
    }

    /// The pending requests in the order they were added. A row that does not
    /// decode is set aside (`NotificationStore+SetAside`), not returned.
    /// - Complexity: O(n) column reads; each distinct calendar, recurrence or
    ///   location trigger is parsed once (see `PendingRowReader`).
    @_spi(Internals) public func loadPending() throws -> [ScheduledRequest] {
        var records: [ScheduledRequest] = []
        try forEachPending(reservingCapacity: { records.reserveCapacity($0) }) { record, _ in records.append(record) }
        return records
    }

    /// Reads the pending requests in the order they were added, handing each to
    /// `body` as it is decoded, so a restart builds its dispatcher without first
    /// holding every record in an array. Then prunes trigger rows no request
    /// refers to any more.
    /// - Parameters:
    ///   - readAhead: decode rows on a thread of its own, in batches, while
    ///     `body` runs on the calling thread: a restart decodes and rebuilds on two cores.
    ///   - reservingCapacity: called once first with an upper bound of the row count.
    ///   - body: each record, and the dense index of its shared (calendar,
    ///     location or recurrence) trigger: records with the same index have equal triggers.
    ///   A row that does not decode is set aside with its error and skipped.
    /// - Throws: the database's errors, or what `body` throws.
    func forEachPending(readAhead: Bool = false, reservingCapacity: (Int) -> Void = { _ in },
                        _ body: (ScheduledRequest, _ sharedTrigger: Int32?) throws -> Void) throws {
        // max(rowid) bounds the row count and, unlike count(*), needs no scan.
        reservingCapacity(try database.read { db in try Int.fetchOne(db, sql: "SELECT max(rowid) FROM pending") ?? 0 })
        guard readAhead else { return try readPending(body) }
        typealias Batch = [(record: ScheduledRequest, sharedTrigger: Int32?)]
        let batchSize = 2_048
        try BatchChannel<Batch>.pipeline(capacity: 4, empty: [], produce: { [self] channel in
            guard var batch = channel.takeEmpty() else { return }
            batch.removeAll(keepingCapacity: true)
            try readPending { record, sharedTrigger in
                batch.append((record, sharedTrigger))
                guard batch.count == batchSize else { return }
                channel.send(.batch(batch))
                guard let next = channel.takeEmpty() else { throw BatchChannel<Batch>.Stopped() }
                batch = next
                batch.removeAll(keepingCapacity: true)
            }
            channel.send(.batch(batch))
        }, consume: { batch in
            for item in batch { try body(item.record, item.sharedTrigger) }
        })
    }

    /// `forEachPending` on the calling thread.
    private func readPending(_ body: (ScheduledRequest, _ sharedTrigger: Int32?) throws -> Void) throws {
        let (triggerRows, usedTriggers, undecodable) = try database.read { db in
            var reader = try PendingRowReader(db)
            var used = [Bool](repeating: false, count: reader.sharedTriggerCount)
            var undecodable: [(key: String, error: String)] = []
            let rows = try Row.fetchCursor(db, sql: PendingTable.select)
            while let row = try rows.next() {
                let decoded: (record: ScheduledRequest, sharedTrigger: Int32?)
                do {
                    decoded = try reader.decode(row)
                } catch {
                    undecodable.append(((row[0] as StoredText).string, "\(error)"))
                    continue
                }
                if let shared = decoded.sharedTrigger { used[Int(shared)] = true }
                try body(decoded.record, decoded.sharedTrigger)
            }
            return (reader.sharedTriggerCount, used.lazy.filter { $0 }.count, undecodable)
        }
        try setAside(undecodable, in: "pending", keyColumn: "identifier")
        if usedTriggers < triggerRows {
            try database.write { db in try db.execute(sql: PendingTable.pruneTriggers) }
        }
    }

    /// How many pending rows the store holds (set-aside ones not counted).
    package func pendingCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM pending WHERE set_aside IS NULL") ?? 0 }
    }

    /// Delivered notifications, oldest first (a row that does not decode is set aside).
    package func loadDelivered() throws -> [DeliveredNotification] {
        return try loadDecoding(sql: "SELECT id, recipient, date, json FROM delivered WHERE set_aside IS NULL ORDER BY id",
                                table: "delivered", keyColumn: "id") { row in
            DeliveredNotification(request: try StoreJSON.decode(StoredRequest.self, from: row[3] as Data).request(),
                                  date: Date(timeIntervalSince1970: row[2]), recipient: row[1])
        }
    }

    /// Event fires taken and not yet handed over, in the order they were taken.
    func loadEventFires() throws -> [EventFire] {
        return try loadDecoding(sql: "SELECT id, json FROM event_fires WHERE set_aside IS NULL ORDER BY rowid",
                                table: "event_fires", keyColumn: "id") { row in
            try StoreJSON.decode(StoredEventFire.self, from: row[1] as Data).fire()
        }
    }

    /// When the latest delivery was made, `nil` before the first.
    package func lastDeliveryDate() throws -> Date? {
        try database.read { db in
            try Double.fetchOne(db, sql: "SELECT max(date) FROM delivered").map { Date(timeIntervalSince1970: $0) }
        }
    }

    /// Removes delivered notifications by identifier (`nil`: all of them).
    package func removeDelivered(identifiers: [String]?) throws {
        try write([.removeDelivered(identifiers)])
    }

    /// Replaces the stored categories.
    package func saveCategories(_ categories: [NotificationCategory]) throws {
        try write([.saveCategories(categories)])
    }

    /// The stored categories (a row that does not decode is set aside).
    package func loadCategories() throws -> [NotificationCategory] {
        return try loadDecoding(sql: "SELECT identifier, json FROM categories WHERE set_aside IS NULL ORDER BY identifier",
                                table: "categories", keyColumn: "identifier") { row in
            try StoreJSON.decode(StoredCategory.self, from: row[1] as Data).category
        }
    }

    /// Saves one recipient's authorization.
    package func saveSettings(_ settings: NotificationSettings, for recipient: String) throws {
        try write([.saveSettings(settings, recipient: recipient)])
    }

    /// Every recipient's stored authorization.
    package func loadSettings() throws -> [String: NotificationSettings] {
        try database.read { db in
            var result: [String: NotificationSettings] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT recipient, status, options FROM authorization") {
                let status = AuthorizationStatus(rawValue: row[1]) ?? .notDetermined
                result[row[0]] = NotificationSettings(authorizationStatus: status,
                                                      options: AuthorizationOptions(rawValue: row[2]))
            }
            return result
        }
    }
}
