import Foundation
@_spi(Internals) import TriggerEngine

/// One command line of `trigger-eval run`: an object
/// with one key naming the command.
enum RunCommand: Decodable {
    case add(NotificationRequest, recipient: String)
    case remove([String])
    case removeDelivered([String])
    case category(NotificationCategory)
    case fix(LocationFix, recipient: String)
    case push(payload: Data, identifier: String?, recipient: String)
    case respond(identifier: String, action: String, text: String?)
    case pending
    /// Sets a recipient's authorization (`authorized`, `denied`, `provisional`, …).
    case authorize(recipient: String, status: AuthorizationStatus)

    private typealias Key = NamedKey

    private struct Fix: Decodable {
        var device: String
        var time: Instant
        var lat: Double
        var lon: Double
        var accuracy: Double?
    }

    /// An instant as RFC 3339 text or epoch seconds.
    private struct Instant: Decodable {
        var date: Date
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) {
                guard InstantBounds.seconds.contains(seconds) else {
                    throw DataError("time \(seconds) is outside years 1–9999")
                }
                date = Date(timeIntervalSince1970: seconds)
                return
            }
            let text = try container.decode(String.self)
            guard let parsed = RFC3339.date(from: text) else {
                throw DataError("time '\(text)' is not an RFC 3339 instant (e.g. 2026-11-22T09:30:00Z)")
            }
            date = parsed
        }
    }

    private struct Push: Decodable {
        var payload: UserInfoValue
        var identifier: String?
    }

    private struct Respond: Decodable {
        var identifier: String
        var action: String
        var text: String?
    }

    private struct Authorize: Decodable {
        var recipient: String?
        var status: String
    }

    private static let names = ["add", "remove", "removeDelivered", "category", "fix", "push", "respond", "pending", "authorize"]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let keys = Set(container.allKeys.map(\.stringValue))
        let recipient = try container.decodeIfPresent(String.self, forKey: Key("recipient")) ?? ""
        let commands = keys.subtracting(["recipient"])
        guard commands.count == 1, let name = commands.first, Self.names.contains(name) else {
            throw DataError("a command is an object with one of the keys \(Self.names.joined(separator: ", ")) (got \(keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")))")
        }
        let key = Key(name)
        switch name {
        case "add": self = .add(try container.decode(NotificationRequest.self, forKey: key), recipient: recipient)
        case "remove": self = .remove(try container.decode([String].self, forKey: key))
        case "removeDelivered": self = .removeDelivered(try container.decode([String].self, forKey: key))
        case "category": self = .category(try container.decode(NotificationCategory.self, forKey: key))
        case "fix":
            let fix = try container.decode(Fix.self, forKey: key)
            self = .fix(LocationFix(device: fix.device, time: fix.time.date,
                                    coordinate: Coordinate(latitude: fix.lat, longitude: fix.lon), accuracy: fix.accuracy),
                        recipient: recipient)
        case "push":
            let push = try container.decode(Push.self, forKey: key)
            self = .push(payload: try JSONEncoder().encode(push.payload), identifier: push.identifier, recipient: recipient)
        case "respond":
            let respond = try container.decode(Respond.self, forKey: key)
            self = .respond(identifier: respond.identifier, action: respond.action, text: respond.text)
        case "authorize":
            let authorize = try container.decode(Authorize.self, forKey: key)
            guard let status = AuthorizationStatus(rawValue: authorize.status) else {
                throw DataError("authorize: status '\(authorize.status)' must be one of \(AuthorizationStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .authorize(recipient: authorize.recipient ?? recipient, status: status)
        default:
            guard try container.decode(Bool.self, forKey: key) else { throw DataError("pending: expected true") }
            self = .pending
        }
    }

    /// The command on one line of input.
    /// - Throws: `DataError` saying what is wrong with it.
    init(line: Data, using decoder: JSONDecoder = JSONDecoder()) throws(DataError) {
        self = try JSONInput.decode(RunCommand.self, from: line, using: decoder)
    }
}
