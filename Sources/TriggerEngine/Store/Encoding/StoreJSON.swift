import Foundation

/// The JSON coding of the stored forms (`StoredRequest`, `StoredCategory`,
/// `StoredEventFire`), shared by the SQLite and PostgreSQL
/// stores so that both write the same bytes for one value.
package enum StoreJSON {
    package static func encode(_ value: some Encodable) throws -> Data {
        try JSONEncoder().encode(value)
    }

    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }

    /// `encode` as UTF-8 text (PostgreSQL's `text` columns).
    package static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    package static func decode<Value: Decodable>(_ type: Value.Type, fromText text: String) throws -> Value {
        try decode(type, from: Data(text.utf8))
    }
}
