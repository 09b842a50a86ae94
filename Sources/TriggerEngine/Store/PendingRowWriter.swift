import Foundation
import GRDB

/// Writes pending requests into `pending` within one transaction, each shared
/// trigger once into `triggers` (`PendingTable`). Its statements are the
/// database's cached ones, so a single add does not compile them again.
struct PendingRowWriter {
    private let delete: Statement, insert: Statement, insertTrigger: Statement, findTrigger: Statement
    private let encoder = JSONEncoder()
    /// Trigger row ids found or written in this transaction (hashing the
    /// columns costs less than building the key string per row).
    private var triggerIDs: [TriggerColumns: Int64] = [:]

    init(_ db: Database) throws {
        delete = try db.cachedStatement(sql: "DELETE FROM pending WHERE identifier = ?")
        insert = try db.cachedStatement(sql: PendingTable.insert)
        insertTrigger = try db.cachedStatement(sql: PendingTable.insertTrigger)
        findTrigger = try db.cachedStatement(sql: PendingTable.findTrigger)
    }

    /// Inserts `record`, replacing a pending row with the same identifier (which
    /// moves it to the end of the add order).
    mutating func save(_ record: NotificationStore.PendingRecord) throws {
        let request = record.request
        let content = request.content
        let trigger = try TriggerColumns(request.trigger)
        let triggerID = trigger.isShared ? try id(of: trigger) : nil
        let sound: String? = switch content.sound {
        case nil: nil
        case .default?: "default"
        case .named(let name)?: name
        }
        let userInfo = content.userInfo.isEmpty ? nil : try encoder.encode(content.userInfo)
        let misfire = MisfirePolicy.allCases.firstIndex(of: request.misfirePolicy) ?? 0
        let values: [(any DatabaseValueConvertible)?] = [
            request.identifier, record.recipient, record.nextFire?.timeIntervalSince1970,
            request.added?.timeIntervalSince1970, misfire, trigger.kind, trigger.repeats, trigger.interval, triggerID,
            content.title, content.subtitle, content.body, content.badge, sound, content.categoryIdentifier,
            content.threadIdentifier, userInfo,
        ]
        try delete.execute(arguments: [request.identifier])
        // The values match the statement's placeholders by construction: no validation per row.
        insert.setUncheckedArguments(StatementArguments(values))
        try insert.execute()
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
