import Foundation

/// A JSON value in a notification's `userInfo` (Apple's `[AnyHashable: Any]`,
/// restricted to what JSON can carry, so requests stay `Codable` and `Sendable`).
public enum UserInfoValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([UserInfoValue])
    case object([String: UserInfoValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: JSONDecoder would read `true` as 1 otherwise.
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let values = try? container.decode([UserInfoValue].self) { self = .array(values) }
        else { self = .object(try container.decode([String: UserInfoValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let values): try container.encode(values)
        case .object(let object): try container.encode(object)
        }
    }
}
