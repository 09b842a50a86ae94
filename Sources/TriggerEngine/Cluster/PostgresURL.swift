#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine

/// Where a PostgreSQL store lives: `postgres://user[:password]@host[:port]/database`
/// (also `postgresql://`). TLS is not spoken: the store is for a database on
/// the nodes' own network (`sslmode=disable`, the only mode accepted).
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    /// Parses `text`.
    /// - Throws: `DataError` saying what is wrong with it.
    public init(_ text: String) throws(DataError) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw DataError("'\(text)' is not a postgres:// URL (postgres://user@host:port/database)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw DataError("'\(text)': the URL names no user (postgres://user@host:port/database)")
        }
        guard let host = components.host, !host.isEmpty else { throw DataError("'\(text)': the URL names no host") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw DataError("'\(text)': the URL names no database (postgres://user@host:port/database)")
        }
        if let port = components.port, !(1...65_535).contains(port) { throw DataError("'\(text)': port \(port) out of range") }
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", item.value == "disable" else {
                throw DataError("'\(text)': parameter '\(item.name)' is not supported (only sslmode=disable)")
            }
        }
        self.user = user
        password = components.password
        self.host = host
        port = components.port ?? 5432
        self.database = database
    }

    /// The URL without its password.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
#endif
