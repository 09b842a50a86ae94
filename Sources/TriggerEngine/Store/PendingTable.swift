/// The layout of pending requests in the store (schema version 3): the hot
/// fields in columns of `pending`, so a reload of a million rows reads integers
/// and short strings instead of running `JSONDecoder` per row, and the shared
/// triggers (calendar, location, recurrence) once each in `triggers`, which a
/// pending row refers to by id (see `TriggerColumns`). Only a non-empty
/// `userInfo` and a location trigger's region are JSON.
///
/// The add order is the `rowid` order: a replaced request is deleted and
/// inserted again, so it goes to the end, as a new add does.
enum PendingTable {
    /// The `pending` columns, in the order `PendingRowWriter` binds and `PendingRowReader` reads them.
    static let columns = ["identifier", "recipient", "next_fire", "added", "misfire", "kind", "repeats", "interval",
                          "trigger", "title", "subtitle", "body", "badge", "sound", "category", "thread", "user_info"]

    static let create = """
        CREATE TABLE triggers(
            id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, kind INTEGER NOT NULL, repeats INTEGER NOT NULL,
            zone TEXT, parameters TEXT, start TEXT, exdates TEXT, rdates TEXT);
        CREATE TABLE pending(
            identifier TEXT PRIMARY KEY NOT NULL, recipient TEXT NOT NULL, next_fire REAL, added REAL,
            misfire INTEGER NOT NULL, kind INTEGER NOT NULL, repeats INTEGER NOT NULL, interval REAL,
            trigger INTEGER REFERENCES triggers(id), title TEXT NOT NULL, subtitle TEXT NOT NULL, body TEXT NOT NULL,
            badge INTEGER, sound TEXT, category TEXT NOT NULL, thread TEXT NOT NULL, user_info BLOB);
        """

    /// A request whose identifier is pending replaces it: REPLACE deletes the old
    /// row and the new one takes a rowid past every other, the end of the add order.
    static let insert = "INSERT OR REPLACE INTO pending(\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    /// The rows a center loads: not those set aside (`NotificationStore+SetAside`).
    static let select = "SELECT \(columns.joined(separator: ", ")) FROM pending WHERE set_aside IS NULL ORDER BY rowid"

    static let insertTrigger = """
        INSERT OR IGNORE INTO triggers(key, kind, repeats, zone, parameters, start, exdates, rdates)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let findTrigger = "SELECT id FROM triggers WHERE key = ?"
    static let selectTriggers = "SELECT id, kind, repeats, zone, parameters, start, exdates, rdates FROM triggers"
    /// Trigger rows no pending request refers to any more (a reload prunes them).
    static let pruneTriggers = "DELETE FROM triggers WHERE id NOT IN (SELECT trigger FROM pending WHERE trigger IS NOT NULL)"
}
