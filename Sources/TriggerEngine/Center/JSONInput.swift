import Foundation

/// JSON decoding that reports a `DataError` naming the key path and the problem,
/// instead of Foundation's `DecodingError` dumps.
package enum JSONInput {
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data,
                                             using decoder: JSONDecoder = JSONDecoder()) throws(DataError) -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DataError {
            throw error
        } catch let error as DecodingError {
            throw DataError(describe(error))
        } catch {
            throw DataError("not valid JSON")
        }
    }

    package static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as? DataError { return underlying.message }
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not valid JSON"
        }
    }
}
