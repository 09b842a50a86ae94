import Foundation
internal import GRDB
internal import GRDBSQLite

/// Binds a row's values straight to a GRDB statement's SQLite handle, then
/// executes it through GRDB, which still runs the statement and turns a failed
/// step into a `DatabaseError`.
///
/// Why not `StatementArguments`: a bulk save binds 17 values per row, and GRDB
/// builds each argument list as an array of existentials, boxing every value:
/// about 2 of the 12 seconds a million rows took. Here each value goes to its
/// `sqlite3_bind_*` function directly.
///
/// The statement is marked as having valid bound arguments once
/// (`setUncheckedArguments` with none), so GRDB's `execute()` only resets it
/// and steps; `bindRow` must then bind every placeholder of every row.
struct DirectBindings {
    private let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }
    /// SQLite copies the bytes before the bind call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: Statement) {
        self.statement = statement
        statement.setUncheckedArguments(StatementArguments())
    }

    /// Binds one row through `bind` (placeholders from 1), then executes the statement.
    /// - Throws: `DatabaseError` when a value cannot be bound (over SQLite's
    ///   size limit) or the step fails (a constraint, a full disk).
    func executeRow(_ bind: (inout Row) -> Void) throws {
        // A statement that was stepped refuses bindings until it is reset. The
        // reset's result is the previous step's, which GRDB already reported.
        sqlite3_reset(handle)
        var row = Row(handle: handle)
        bind(&row)
        guard row.result == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: row.result), message: String(cString: sqlite3_errstr(row.result)),
                                sql: statement.sql)
        }
        try statement.execute()
    }

    /// The placeholders of the row being bound, in order.
    struct Row {
        fileprivate let handle: SQLiteStatement
        private var index: Int32 = 1
        /// The first failed bind's result code, `SQLITE_OK` when all succeeded.
        fileprivate private(set) var result = SQLITE_OK

        fileprivate init(handle: SQLiteStatement) { self.handle = handle }

        /// Binds the next placeholder with `body` (given the statement and the
        /// placeholder's index), keeping the first failure.
        private mutating func next(_ body: (SQLiteStatement, Int32) -> Int32) {
            let code = body(handle, index)
            if result == SQLITE_OK { result = code }
            index += 1
        }

        mutating func bind(_ value: String?) {
            guard let value else { return next { sqlite3_bind_null($0, $1) } }
            let length = value.utf8.count
            guard length <= Int32.max else { return next { _, _ in SQLITE_TOOBIG } }
            // A native string is stored NUL-terminated, so this does not copy; the
            // explicit length keeps a string with U+0000 whole.
            value.withCString { text in next { sqlite3_bind_text($0, $1, text, Int32(length), DirectBindings.transient) } }
        }

        mutating func bind(_ value: Double?) {
            next { statement, at in value.map { sqlite3_bind_double(statement, at, $0) } ?? sqlite3_bind_null(statement, at) }
        }

        mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

        mutating func bind(_ value: Int64?) {
            next { statement, at in value.map { sqlite3_bind_int64(statement, at, $0) } ?? sqlite3_bind_null(statement, at) }
        }

        mutating func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

        mutating func bind(_ value: Data?) {
            guard let value else { return next { sqlite3_bind_null($0, $1) } }
            guard value.count <= Int32.max else { return next { _, _ in SQLITE_TOOBIG } }
            value.withUnsafeBytes { bytes in
                next { statement, at in
                    // A zero-length blob has no bytes to point at; a NULL pointer would bind NULL.
                    guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(statement, at, 0) }
                    return sqlite3_bind_blob(statement, at, base, Int32(bytes.count), DirectBindings.transient)
                }
            }
        }
    }
}
