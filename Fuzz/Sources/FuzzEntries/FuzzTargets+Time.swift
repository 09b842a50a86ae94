import Foundation
@_spi(Internals) @testable import TriggerEngine

/// Recurrence rules and RFC 3339 instants, with properties any answer must have.
extension FuzzTargets {
    /// Instances taken from one rule (a rule is infinite; its prefix is what we check).
    static let instancesPerRule = 200

    static let recurrenceRule = FuzzTarget(
        name: "rrule",
        summary: "RecurrenceRule(parsing:) (line 1), DTSTART (line 2, optional) in Berlin: round trip, instances, seeking, next fires",
        format: "rrule"
    ) { bytes in
        FuzzOutcome.catching {
            let text = String(decoding: bytes, as: UTF8.self)
            let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let rule = try RecurrenceRule(parsing: String(lines[0]))
            // RecurrenceRule+Description promises this round trip.
            guard let again = try? RecurrenceRule(parsing: rule.description), again == rule else {
                return .violated("RecurrenceRule(parsing: \"\(rule.description)\") does not give back the rule read from \"\(lines[0])\"")
            }
            var start = LocalDateTime.valid(year: 2026, month: 1, day: 30, hour: 9)!
            var zone = try ZoneRules.named("Europe/Berlin")
            if lines.count > 1 {
                let (wall, utc) = try LocalDateTime.parsing(String(lines[1]), field: "dtstart")
                start = wall
                if utc { zone = .utc }
            }
            // Instances: strictly increasing, none before DTSTART.
            var instances: [LocalDateTime] = []
            for instance in rule.instances(startingAt: start, in: zone) {
                if let last = instances.last, instance <= last {
                    return .violated("instance \(instance) does not follow \(last)")
                }
                if instance < start { return .violated("instance \(instance) before DTSTART \(start)") }
                instances.append(instance)
                if instances.count == instancesPerRule { break }
            }
            // Seeking to a lower bound gives the first instance at or after it,
            // as walking from DTSTART does (checked where the walk reaches it).
            if instances.count >= 3 {
                let bound = LocalDateTime(localSeconds: instances[instances.count / 2].localSeconds - 1)
                let expected = instances.first { $0 >= bound }
                var seeker = rule.instances(startingAt: start, in: zone, from: bound).makeIterator()
                let sought = seeker.next()
                if sought != expected {
                    return .violated("instances(from: \(bound)) starts at \(sought.map { "\($0)" } ?? "nothing"), walking gives \(expected.map { "\($0)" } ?? "nothing")")
                }
            }
            // Next fires of the trigger: strictly increasing instants.
            let trigger = try RecurrenceTrigger(rule: rule, start: start, timeZone: .fixed(zone))
            var after = Date(timeIntervalSince1970: Double(zone.instant(of: start) - 86_400))
            var fires = 0
            while fires < instancesPerRule / 4, let next = trigger.nextTriggerDate(after: after) {
                guard next > after else { return .violated("next fire \(next) is not after \(after)") }
                _ = RFC3339.string(from: next, utcOffset: zone.offset(atUTC: Int(next.timeIntervalSince1970.rounded(.down))))
                after = next
                fires += 1
            }
            return .accepted(count: instances.count + fires)
        }
    }

    static let rfc3339 = FuzzTarget(
        name: "rfc3339",
        summary: "RFC3339 parse/format round trips, the CSV time field, DTSTART wall times",
        format: "rfc3339"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let bound = bytes.bindMemory(to: UInt8.self)
        let parsed = RFC3339.date(fromBytes: bound)
        let field = FieldParsing.instant(bound, zone: berlin)
        _ = try? LocalDateTime.parsing(text, field: "dtstart")
        guard let parsed else { return .rejected(DataError("not an RFC 3339 instant")) }
        // Formatting keeps microseconds: the round trip is exact to the microsecond,
        // or to a Double's resolution where that is coarser (30 µs in year 9999), with any offset.
        let seconds = parsed.timeIntervalSince1970
        let tolerance = max(1e-6, 4 * seconds.ulp)
        for offset in [nil, 0, 3600, -34_200, 50_400] as [Int?] {
            let written = RFC3339.string(from: parsed, utcOffset: offset)
            guard let again = RFC3339.date(from: written) else { return .violated("RFC3339 cannot read back \(written) (from \(text))") }
            guard abs(again.timeIntervalSince1970 - seconds) <= tolerance else {
                return .violated("\(text) → \(written) → \(again.timeIntervalSince1970), not \(seconds)")
            }
        }
        // The CSV reader's own parser agrees wherever it reads an instant with an offset.
        if let field, abs(field - parsed.timeIntervalSince1970) > 1e-3 {
            return .violated("CSV time field reads \(text) as \(field), RFC3339 as \(parsed.timeIntervalSince1970)")
        }
        return .accepted(count: 1)
    }

    private static let berlin = try! ZoneRules.named("Europe/Berlin")
}
