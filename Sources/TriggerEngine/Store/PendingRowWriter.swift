import Foundation
internal import GRDB

/// Writes pending requests into `pending` within one transaction, each shared
/// trigger once into `triggers` (`PendingTable`). Its statements are the
/// database's cached ones, so a single add does not compile them again.
struct PendingRowWriter {
    private let insert: DirectBindings, insertTrigger: Statement, findTrigger: Statement
    /// Trigger row ids found or written in this transaction (hashing the
    /// columns costs less than building the key string per row).
    private var triggerIDs: [TriggerColumns: Int64] = [:]

    init(_ db: Database) throws {
        insert = DirectBindings(try db.cachedStatement(sql: PendingTable.insert))
        insertTrigger = try db.cachedStatement(sql: PendingTable.insertTrigger)
        findTrigger = try db.cachedStatement(sql: PendingTable.findTrigger)
    }

    /// Inserts `record`, replacing a pending row with the same identifier (which
    /// moves it to the end of the add order).
    mutating func save(_ record: ScheduledRequest) throws {
        let request = record.request
        let content = request.content
        try StoreKey.check(request.identifier, "request identifier")
        try StoreKey.check(record.recipient, "recipient of '\(request.identifier)'")
        let trigger = try TriggerColumns(request.trigger)
        let triggerID = trigger.isShared ? try id(of: trigger) : nil
        let sound = content.sound.map(StoredCodes.text(of:))
        let userInfo = content.userInfo.isEmpty ? nil : try StoreJSON.encode(content.userInfo)
        let misfire = StoredCodes.code(of: request.misfirePolicy)
        // In the order of `PendingTable.columns`.
        try insert.executeRow { row in
            row.bind(request.identifier)
            row.bind(record.recipient)
            row.bind(record.nextFire?.timeIntervalSince1970)
            row.bind(request.added?.timeIntervalSince1970)
            row.bind(misfire)
            row.bind(trigger.kind)
            row.bind(trigger.repeats)
            row.bind(trigger.interval)
            row.bind(triggerID)
            row.bind(content.title)
            row.bind(content.subtitle)
            row.bind(content.body)
            row.bind(content.badge)
            row.bind(sound)
            row.bind(content.categoryIdentifier)
            row.bind(content.threadIdentifier)
            row.bind(userInfo)
        }
    }

    /// The row id of `trigger` in `triggers`, written if it is not there yet.
    private mutating func id(of trigger: TriggerColumns) throws -> Int64 {
        if let id = triggerIDs[trigger] { return id }
        let key = trigger.key
        let texts = [trigger.zone, trigger.parameters, trigger.start, trigger.exdates, trigger.rdates]
        guard !texts.contains(where: { $0?.contains("\u{1F}") == true }) else {
            throw DataError("a trigger field contains U+001F, which the store cannot write")
        }
        try insertTrigger.execute(arguments: [
            key, trigger.kind, trigger.repeats, trigger.zone, trigger.parameters, trigger.start, trigger.exdates,
            trigger.rdates,
        ])
        guard let id = try Int64.fetchOne(findTrigger, arguments: [key]) else {
            throw DataError("the store lost trigger row '\(key)' within its own transaction")
        }
        triggerIDs[trigger] = id
        return id
    }
}
