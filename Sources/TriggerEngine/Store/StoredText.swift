internal import GRDB
internal import GRDBSQLite

/// Text the store keeps byte for byte, U+0000 included.
///
/// GRDB binds a `String` as a C string (length -1) and reads one back with
/// `String(cString:)`, so a title holding U+0000 would come back cut short,
/// silently. The bulk save binds with an explicit length (`DirectBindings`),
/// and this column type reads the whole value (`sqlite3_column_bytes`).
///
/// Keys are another matter: identifiers and recipients are matched in SQL
/// through GRDB's arguments by many statements, where U+0000 would end the key
/// early and match another request's row ("a\0b" would remove "a"). The store
/// refuses such keys instead (`StoreKey`).
struct StoredText: DatabaseValueConvertible, StatementColumnConvertible {
    let string: String

    init(_ string: String) { self.string = string }

    init(sqliteStatement: SQLiteStatement, index: CInt) {
        // sqlite3_column_text first: it settles the value's UTF-8 form, whose
        // length sqlite3_column_bytes then gives.
        guard let text = sqlite3_column_text(sqliteStatement, index) else {
            string = ""
            return
        }
        let length = Int(sqlite3_column_bytes(sqliteStatement, index))
        string = String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
    }

    /// For GRDB's protocol only: bound through GRDB this would be cut like any
    /// `String`; the store binds content through `DirectBindings`.
    var databaseValue: DatabaseValue { string.databaseValue }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredText? {
        String.fromDatabaseValue(dbValue).map(StoredText.init)
    }
}
