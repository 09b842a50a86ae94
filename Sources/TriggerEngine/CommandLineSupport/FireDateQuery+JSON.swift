import Foundation

extension FireDateQuery.Fields {
    /// The keys a `--batch` query object may have.
    package static let jsonKeys: Set<String> = ["components", "rrule", "dtstart", "rdate", "exdate", "interval",
                                               "repeats", "tz", "after", "count", "once"]

    /// Reads one `--batch` line: a JSON object with the flags' names as keys,
    /// `components` as an object (`{"components":{"hour":7},"tz":"Asia/Tokyo","count":3}`),
    /// `rdate`/`exdate` as a string or an array of strings.
    /// - Throws: `DataError` for malformed JSON, an unknown key or a value of the wrong type.
    @_spi(Internals) public init(jsonLine bytes: UnsafeBufferPointer<UInt8>) throws(DataError) {
        // The common shape straight from the bytes (the decoder was 80% of a
        // query's time); anything else, errors included, through the decoder.
        var scanner = QueryLineScanner(bytes)
        if let fields = scanner.fields() {
            self = fields
            return
        }
        try self.init(decodingJSONLine: bytes)
    }

    /// `init(jsonLine:)` through `JSONDecoder`, for every line (the scanner's
    /// differential test compares the two).
    init(decodingJSONLine bytes: UnsafeBufferPointer<UInt8>) throws(DataError) {
        let dictionary: [String: JSONValue]
        do {
            dictionary = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: bytes))
        } catch {
            throw DataError("not a JSON object (expected one query object a line)")
        }
        if let unknown = dictionary.keys.sorted().first(where: { !Self.jsonKeys.contains($0) }) {
            throw DataError("unknown key '\(unknown)' (expected \(Self.jsonKeys.sorted().joined(separator: ", ")))")
        }
        self.init()
        if let value = dictionary["components"] {
            guard case .object(let object) = value else { throw DataError("components must be an object such as {\"hour\":7}") }
            var pairs: [(name: String, value: Int)] = []
            for name in object.keys.sorted() {
                guard case .number(let number) = object[name]!, let integer = Int(exactly: number) else {
                    throw DataError("components.\(name) must be an integer")
                }
                pairs.append((name, integer))
            }
            components = pairs
        }
        rrule = try Self.string(dictionary, "rrule")
        dtstart = try Self.string(dictionary, "dtstart")
        tz = try Self.string(dictionary, "tz")
        after = try Self.string(dictionary, "after")
        rdate = try Self.strings(dictionary, "rdate")
        exdate = try Self.strings(dictionary, "exdate")
        if let value = dictionary["interval"] {
            guard case .number(let number) = value else { throw DataError("interval must be a number of seconds") }
            interval = number
        }
        if let value = dictionary["count"] {
            guard case .number(let number) = value, let integer = Int(exactly: number) else {
                throw DataError("count must be an integer")
            }
            count = integer
        }
        repeats = try Self.bool(dictionary, "repeats")
        once = try Self.bool(dictionary, "once")
    }

    private static func string(_ dictionary: [String: JSONValue], _ key: String) throws(DataError) -> String? {
        guard let value = dictionary[key] else { return nil }
        guard case .string(let text) = value else { throw DataError("\(key) must be a string") }
        return text
    }

    private static func strings(_ dictionary: [String: JSONValue], _ key: String) throws(DataError) -> [String] {
        switch dictionary[key] {
        case nil: return []
        case .string(let text)?: return [text]
        case .array(let values)?:
            var texts: [String] = []
            for value in values {
                guard case .string(let text) = value else { throw DataError("\(key) must be a string or an array of strings") }
                texts.append(text)
            }
            return texts
        default: throw DataError("\(key) must be a string or an array of strings")
        }
    }

    private static func bool(_ dictionary: [String: JSONValue], _ key: String) throws(DataError) -> Bool {
        guard let value = dictionary[key] else { return false }
        guard case .bool(let flag) = value else { throw DataError("\(key) must be true or false") }
        return flag
    }
}

/// A JSON value, decoded without losing whether a number was a Boolean.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let values = try? container.decode([JSONValue].self) { self = .array(values) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}
