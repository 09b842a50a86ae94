import Foundation

/// How a trigger's zone is written (request JSON, the store) so that every zone
/// a trigger can be built with reads back as the same rules: an IANA name for
/// IANA zones, `UTC` or `UTC±Ns` for fixed offsets (`ZoneRules.fixed`), and the
/// whole transition table for any other hand-built zone (a VTIMEZONE's).
extension ZoneRules {
    /// A zone's table as JSON: `{"identifier":…,"initialOffset":…,"transitions":[[at,offset],…],"coverageEnd":…}`.
    struct Table: Codable, Sendable {
        var identifier: String
        var initialOffset: Int
        var transitions: [[Int]]
        var coverageEnd: Int?
    }

    /// The rules `name` stands for: a fixed offset written as `ZoneRules.fixed`
    /// names it (`UTC`, `UTC+3600s`, `UTC-16200s`), else an IANA zone.
    /// - Throws: `DataError` for a name that is neither.
    static func decoded(name: String) throws(DataError) -> ZoneRules {
        if name == "UTC" { return .utc }
        if name.hasPrefix("UTC"), name.hasSuffix("s"), name.count > 5 {
            let digits = name.dropFirst(3).dropLast()
            if let sign = digits.first, sign == "+" || sign == "-", let seconds = Int(digits.dropFirst()),
               digits.dropFirst().allSatisfy(\.isASCIIDigit), seconds < 86_400 {
                return .fixed(offset: sign == "-" ? -seconds : seconds)
            }
        }
        return try named(name)
    }

    /// The name these rules are written as, when `decoded(name:)` of it gives
    /// them back; `nil` for a hand-built zone, which is written as its table.
    var encodedName: String? {
        guard let back = try? Self.decoded(name: identifier), back == self, back.coverageEnd == coverageEnd else {
            return nil
        }
        return identifier
    }

    /// The table of a hand-built zone.
    var table: Table {
        let table = transitionTable
        return Table(identifier: identifier, initialOffset: table.initialOffset,
                     transitions: table.transitions.map { [$0.at, $0.offset] },
                     coverageEnd: coverageEnd == Int.max ? nil : coverageEnd)
    }

    /// The rules of a table read back.
    /// - Throws: `DataError` for a transition that is not an `[instant, offset]` pair
    ///   or an offset of a day or more.
    init(table: Table) throws(DataError) {
        var transitions: [(at: Int, offset: Int)] = []
        for pair in table.transitions {
            guard pair.count == 2, abs(pair[1]) < 86_400 else {
                throw DataError("zone '\(table.identifier)': transition \(pair) is not [instant, offset] with an offset under a day")
            }
            transitions.append((pair[0], pair[1]))
        }
        guard abs(table.initialOffset) < 86_400 else {
            throw DataError("zone '\(table.identifier)': initial offset \(table.initialOffset) is a day or more")
        }
        self.init(identifier: table.identifier, initialOffset: table.initialOffset, transitions: transitions,
                  coverageEnd: table.coverageEnd)
    }

    /// The zone as one text: its name, or its table's JSON (which starts with `{`).
    var encodedText: String {
        if let name = encodedName { return name }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A table of integers and a string always encodes.
        return String(decoding: (try? encoder.encode(table)) ?? Data(), as: UTF8.self)
    }

    /// The zone written as `encodedText`.
    /// - Throws: `DataError` for an unknown name or a table that does not read.
    static func decoded(text: String) throws(DataError) -> ZoneRules {
        guard text.hasPrefix("{") else { return try decoded(name: text) }
        do {
            return try ZoneRules(table: try JSONDecoder().decode(Table.self, from: Data(text.utf8)))
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError("zone table does not read: \(error)")
        }
    }
}

extension Character {
    /// `0` … `9` only (not other scripts' digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
