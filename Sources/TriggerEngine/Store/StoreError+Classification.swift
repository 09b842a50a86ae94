internal import GRDB
#if PostgreSQL
internal import PostgresNIO
#endif

/// Turning the database libraries' errors into `StoreError`: SQLite result
/// codes (through GRDB) and PostgreSQL SQLSTATE classes (through PostgresNIO).
extension StoreError {
    /// `error` classified: a `StoreError` (also inside a `CenterError`) stays as it is.
    package init(classifying error: any Error) {
        if let error = error as? StoreError {
            self = error
        } else if case .store(let error)? = error as? CenterError {
            self = error
        } else if case .interrupted(_, let error)? = error as? CenterError {
            self = error
        } else if let error = error as? DatabaseError {
            self.init(Self.kind(sqlite: error.resultCode.primaryResultCode), error.message ?? "\(error)", underlying: error)
        } else {
            #if PostgreSQL
            if let error = error as? PostgresTransactionError,
               let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError {
                self.init(classifying: inner)
                return
            }
            if let error = error as? PSQLError {
                self.init(Self.kind(postgres: error), PostgresStore.describe(error), underlying: error)
                return
            }
            #endif
            self.init(.other, "\(error)", underlying: error)
        }
    }

    private static func kind(sqlite code: ResultCode) -> Kind {
        switch code {
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_FULL: .full
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: .corrupt
        case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_NOLFS: .unavailable
        case .SQLITE_CONSTRAINT, .SQLITE_TOOBIG, .SQLITE_MISMATCH, .SQLITE_RANGE: .refused
        // GRDB reports a statement on a closed connection as misuse.
        case .SQLITE_MISUSE: .closed
        default: .other
        }
    }

    #if PostgreSQL
    /// By SQLSTATE class (PostgreSQL's Appendix A); without one, the
    /// connection failed before the server answered.
    private static func kind(postgres error: PSQLError) -> Kind {
        guard let state = error.serverInfo?[.sqlState] else {
            return error.code == .clientClosedConnection ? .closed : .unavailable
        }
        switch state.prefix(2) {
        case "40", "55": return .busy           // serialization failure, deadlock, lock not available
        case "53": return .full                 // insufficient resources (disk full, out of memory)
        case "08", "57": return .unavailable    // connection exception, operator intervention
        case "XX": return .corrupt              // internal error, data corrupted
        case "22", "23": return .refused        // data exception, integrity constraint violation
        default: return .other
        }
    }
    #endif
}
