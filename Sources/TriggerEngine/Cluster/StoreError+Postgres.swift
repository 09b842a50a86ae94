#if PostgreSQL
internal import PostgresNIO
@_spi(Internals) import TriggerEngine

/// Turning PostgresNIO's errors into `StoreError`, by SQLSTATE class
/// (PostgreSQL's Appendix A); anything else as the core classifies it.
extension StoreError {
    /// `error` classified: PostgresNIO's errors here, the others by `init(classifying:)`.
    init(classifyingPostgres error: any Error) {
        if let error = error as? PostgresTransactionError,
           let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError {
            self.init(classifyingPostgres: inner)
        } else if let error = error as? PSQLError {
            self.init(Self.kind(postgres: error), PostgresStore.describe(error), underlying: error)
        } else {
            self.init(classifying: error)
        }
    }

    /// Without a SQLSTATE the connection failed before the server answered.
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
}
#endif
