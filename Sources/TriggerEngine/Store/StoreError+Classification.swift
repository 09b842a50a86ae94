internal import GRDB

/// Turning SQLite's errors (through GRDB) into `StoreError`; PostgreSQL's are
/// classified in `TriggerEngineCluster` (`StoreError+Postgres`).
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
}
