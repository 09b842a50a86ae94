import Foundation
internal import GRDB

/// One change to the store. A center commits the changes of one or several
/// operations in one transaction (`NotificationStore.write`), so a delivery
/// (its pending row moved on, its delivered row added) is atomic, and adds
/// that arrive together are group-committed.
package enum StoreChange: Sendable {
    /// Inserts or replaces pending requests (a replaced one goes to the end of the add order).
    case savePending([ScheduledRequest])
    case removePending([String])
    case removeAllPending
    /// A fire of pending request `identifier`, due at `due`, was handed over:
    /// its row moves to `nextFire`, or goes when `nextFire` is `nil`. Only the
    /// row of that very request and fire changes: one replaced, removed or
    /// already moved on meanwhile is left as it is.
    case firedPending(identifier: String, added: Date?, due: Date, nextFire: Date?)
    case insertDelivered(DeliveredNotification)
    /// `nil`: all of them.
    case removeDelivered([String]?)
    case saveCategories([NotificationCategory])
    case saveSettings(NotificationSettings, recipient: String)
    case saveDeviceTokens(Set<String>, recipient: String)
    /// An event's fire, taken and not yet handed over.
    case insertEventFire(EventFire)
    /// An event's fire, handed over.
    case deleteEventFire(DeliveryID)
    /// The event fires of these requests, not handed over yet: dropped with
    /// the request (removed or replaced before its fire was handed over).
    case dropEventFires([String])

    /// Refuses what the store cannot keep, before any of a transaction is written.
    /// - Throws: `DataError` for a key with U+0000 (see `StoreKey.check`).
    package func validate() throws(DataError) {
        switch self {
        case .savePending(let records):
            for record in records {
                try StoreKey.check(record.request.identifier, "request identifier")
                try StoreKey.check(record.recipient, "recipient of '\(record.request.identifier)'")
            }
        case .removePending(let identifiers), .removeDelivered(let identifiers?), .dropEventFires(let identifiers):
            for identifier in identifiers { try StoreKey.check(identifier, "request identifier") }
        case .firedPending(let identifier, _, _, _):
            try StoreKey.check(identifier, "request identifier")
        case .insertDelivered(let notification):
            try StoreKey.check(notification.request.identifier, "request identifier")
            try StoreKey.check(notification.recipient, "recipient of '\(notification.request.identifier)'")
        case .saveSettings(_, let recipient), .saveDeviceTokens(_, let recipient):
            try StoreKey.check(recipient, "recipient")
        case .insertEventFire(let fire):
            try StoreKey.check(fire.request.identifier, "request identifier")
            try StoreKey.check(fire.recipient, "recipient of '\(fire.request.identifier)'")
        case .removeAllPending, .removeDelivered(nil), .saveCategories, .deleteEventFire:
            break
        }
    }

    /// Writes the change inside the caller's transaction.
    func apply(_ db: Database, writer: inout PendingRowWriter?) throws {
        switch self {
        case .savePending(let records):
            if writer == nil { writer = try PendingRowWriter(db) }
            for record in records { try writer!.save(record) }
        case .removePending(let identifiers):
            let delete = try db.cachedStatement(sql: "DELETE FROM pending WHERE identifier = ?")
            for identifier in identifiers { try delete.execute(arguments: [identifier]) }
        case .removeAllPending:
            try db.execute(sql: "DELETE FROM pending; DELETE FROM triggers")
        case .firedPending(let identifier, let added, let due, let nextFire):
            let match = "identifier = ? AND added IS ? AND next_fire = ?"
            let arguments: StatementArguments = [identifier, added?.timeIntervalSince1970, due.timeIntervalSince1970]
            if let nextFire {
                try db.cachedStatement(sql: "UPDATE pending SET next_fire = ? WHERE \(match)")
                    .execute(arguments: [nextFire.timeIntervalSince1970] + arguments)
            } else {
                try db.cachedStatement(sql: "DELETE FROM pending WHERE \(match)").execute(arguments: arguments)
            }
        case .insertDelivered(let notification):
            try db.cachedStatement(sql: "INSERT INTO delivered(identifier, recipient, date, json) VALUES (?, ?, ?, ?)")
                .execute(arguments: [notification.request.identifier, notification.recipient,
                                     notification.date.timeIntervalSince1970, try StoreJSON.encode(StoredRequest(notification.request))])
        case .removeDelivered(let identifiers):
            guard let identifiers else { return try db.execute(sql: "DELETE FROM delivered") }
            let delete = try db.cachedStatement(sql: "DELETE FROM delivered WHERE identifier = ?")
            for identifier in identifiers { try delete.execute(arguments: [identifier]) }
        case .saveCategories(let categories):
            try db.execute(sql: "DELETE FROM categories")
            for category in categories {
                try db.execute(sql: "INSERT INTO categories(identifier, json) VALUES (?, ?)",
                               arguments: [category.identifier, try StoreJSON.encode(StoredCategory(category))])
            }
        case .saveSettings(let settings, let recipient):
            try db.execute(sql: "INSERT OR REPLACE INTO authorization(recipient, status, options) VALUES (?, ?, ?)",
                           arguments: [recipient, settings.authorizationStatus.rawValue, settings.options.rawValue])
        case .saveDeviceTokens(let tokens, let recipient):
            try db.execute(sql: "DELETE FROM device_tokens WHERE recipient = ?", arguments: [recipient])
            let insert = try db.cachedStatement(sql: "INSERT INTO device_tokens(recipient, token) VALUES (?, ?)")
            for token in tokens.sorted() { try insert.execute(arguments: [recipient, token]) }
        case .insertEventFire(let fire):
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO event_fires(id, identifier, due, json) VALUES (?, ?, ?, ?)")
                .execute(arguments: [fire.id.rawValue, fire.request.identifier, fire.due.timeIntervalSince1970,
                                     try StoreJSON.encode(StoredEventFire(fire))])
        case .deleteEventFire(let id):
            try db.cachedStatement(sql: "DELETE FROM event_fires WHERE id = ?").execute(arguments: [id.rawValue])
        case .dropEventFires(let identifiers):
            let delete = try db.cachedStatement(sql: "DELETE FROM event_fires WHERE identifier = ?")
            for identifier in identifiers { try delete.execute(arguments: [identifier]) }
        }
    }
}

extension NotificationStore {
    /// Writes `changes` in one transaction: all or none.
    /// - Throws: `DataError` for something the store cannot keep (nothing is
    ///   written), or the database's error.
    package func write(_ changes: [StoreChange]) throws {
        for change in changes { try change.validate() }
        try database.write { db in try Self.apply(changes, db) }
    }

    /// `write` on GRDB's own writer thread: the caller's task is suspended,
    /// not blocked, while SQLite works or waits for a lock.
    package func write(_ changes: [StoreChange]) async throws {
        for change in changes { try change.validate() }
        try await database.write { db in try Self.apply(changes, db) }
    }

    private static func apply(_ changes: [StoreChange], _ db: Database) throws {
        var writer: PendingRowWriter?
        for change in changes { try change.apply(db, writer: &writer) }
    }
}
