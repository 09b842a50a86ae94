import Foundation

/// Date components by name (`hour=7,minute=0`), as the command line, the
/// request JSON and the store write them.
extension CalendarTrigger {
    /// `DateComponents` from name/value pairs; each name one of
    /// `CalendarTrigger.componentNames`, at most once.
    package static func dateComponents(named pairs: [(name: String, value: Int)]) throws(DataError) -> DateComponents {
        var components = DateComponents()
        // Which units were given, as bits (a `Set` of names cost a tenth of a `--batch` query).
        var seen = 0
        for (name, value) in pairs {
            guard let unit = CalendarUnit.allCases.first(where: { $0.name == name }) else {
                throw DataError("unknown date component '\(name)' (expected one of \(CalendarTrigger.componentNames.joined(separator: ", ")))")
            }
            let bit = 1 << unit.rawValue
            guard seen & bit == 0 else { throw DataError("date component '\(name)' is given twice") }
            seen |= bit
            components.setValue(value, for: unit.component)
        }
        return components
    }

    /// Parses `hour=7,minute=0` (spaces allowed around the parts).
    package static func componentPairs(parsing text: String) throws(DataError) -> [(name: String, value: Int)] {
        var pairs: [(name: String, value: Int)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingCharacters(in: .whitespaces)
            guard pieces.count == 2, !name.isEmpty,
                  let value = Int(pieces[1].trimmingCharacters(in: .whitespaces)) else {
                throw DataError("components: '\(part)' is not NAME=INTEGER (e.g. hour=7,minute=0)")
            }
            pairs.append((name, value))
        }
        return pairs
    }
}
