import CICal
import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// VTIMEZONEs expanded by our recurrence engine (`ICSVTimeZone`): against
/// libical's own reading of the same components on every VTIMEZONE of the test
/// corpus, against the system's rules for Outlook's 1601 zones far into the
/// future, the system's rules before a short VTIMEZONE's first observance, and
/// rules dense enough to be an attack.
@Suite struct ICSVTimeZoneTests {
    /// The VTIMEZONE components of a file, as our reader hands them over.
    static func vtimezones(_ path: String) throws -> [ICSComponentText] {
        var found: [ICSComponentText] = []
        try ICSFileReader.read(path: path, warn: { _ in }, calendarProperty: { _ in }, component: { component in
            if component.name == "VTIMEZONE" { found.append(component) }
        })
        return found
    }

    /// Our table for a component, without the system's rules before it.
    static func ours(_ component: ICSComponentText, limits: ICSLimits = .standard) -> (rules: ZoneRules?, warnings: [ICSWarning.Kind]) {
        var warnings: [ICSWarning.Kind] = []
        let tzid = component.first("TZID")?.value ?? ""
        let rules = ICSVTimeZone(component, tzid: tzid) { kind, _ in warnings.append(kind) }
            .rules(system: nil, limits: limits) { kind, _ in warnings.append(kind) }
        return (rules, warnings)
    }

    static let year1900 = -2_208_988_800, year2100 = 4_102_444_800

    @Test func everyCorpusVTimeZoneAgreesWithLibical() throws {
        let folders = [ICSCorpusDifferentialTests.folder, ICSCorpusDifferentialTests.folder.deletingLastPathComponent()]
        var compared = 0, instants = 0
        var disagreements: [String] = []
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".ics") }).sorted() {
                let path = folder.appendingPathComponent(name).path
                guard let components = try? Self.vtimezones(path), !components.isEmpty,
                      let text = try? String(contentsOfFile: path, encoding: .utf8),
                      let root = try? ICalComponent.parse(text) else { continue }
                let calendars = root.kind == ICAL_VCALENDAR_COMPONENT ? [root] : root.children(ICAL_VCALENDAR_COMPONENT)
                var libical: [String: ICalTimeZone] = [:]
                for calendar in calendars {
                    for child in calendar.children(ICAL_VTIMEZONE_COMPONENT) {
                        if let zone = try? ICalTimeZone.from(vtimezone: child) { libical[zone.tzid] = libical[zone.tzid] ?? zone }
                    }
                }
                for component in components {
                    let tzid = component.first("TZID")?.value ?? ""
                    guard let rules = Self.ours(component).rules, let zone = libical[tzid] else { continue }
                    // From the first onset (before it, libical and RFC 5545 say nothing
                    // definite) to 2100: each of our transitions ±1 s, and every 9 days.
                    let first = max(rules.transitionTable.transitions.first?.at ?? Self.year1900, Self.year1900)
                    var samples = rules.transitions(between: first, and: Self.year2100).flatMap { [$0.at - 1, $0.at, $0.at + 1] }
                    samples += stride(from: first, to: Self.year2100, by: 9 * 86_400)
                    compared += 1
                    for instant in samples where instant >= first {
                        instants += 1
                        let theirs = zone.utcOffset(atEpochSeconds: instant), mine = rules.offset(atUTC: instant)
                        if theirs != mine {
                            disagreements.append("\(name) \(tzid) at \(RFC3339.string(epochSeconds: instant)): ours \(mine), libical \(theirs)")
                            break
                        }
                    }
                }
            }
        }
        #expect(compared >= 40, "only \(compared) VTIMEZONEs compared")
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(compared) zones differ from libical; first:\n\(disagreements.prefix(10).joined(separator: "\n"))")
        print("VTIMEZONE: \(compared) zones, \(instants) instants compared with libical")
    }

    @Test func outlookZoneFrom1601MatchesTheSystemRulesFrom1996To2500() throws {
        // "W. Europe Standard Time" from outlook-export.ics: the EU rule (last Sunday of March and
        // October, 01:00 UTC), Europe/Berlin's since 1996. Past the table's 800 years it repeats by
        // 400-year cycles, which the rule does too.
        let component = try #require(try Self.vtimezones(ICSCalendarTests.path("outlook-export.ics")).first)
        let rules = try #require(Self.ours(component).rules)
        let system = try ZoneRules.named("Europe/Berlin")
        let from = 820_454_400, to = 16_725_225_600  // 1996 … 2500
        var differing: [String] = []
        for instant in stride(from: from, to: to, by: 3 * 3600 + 17) where rules.offset(atUTC: instant) != system.offset(atUTC: instant) {
            differing.append(RFC3339.string(epochSeconds: instant))
            if differing.count == 5 { break }
        }
        #expect(differing.isEmpty, "\(differing)")
        // 2 changes a year for two 400-year cycles past 1601 (the two DTSTART onsets of 1 January
        // 1601 fall on one instant, and the first March onset changes nothing).
        #expect(rules.transitionTable.transitions.count == 2 * 800 - 1)
    }

    @Test func shortVTimeZoneFollowsTheSystemZoneBeforeItsFirstObservance() throws {
        // Both zones start on 25 March 2018. Europe/Berlin is a system name: before that, the system's
        // rules (CEST in July 2017: 10:00+02:00 = 08:00Z; CET in December: 09:00Z). "Custom Short" is not:
        // before its first onset, that onset's TZOFFSETFROM, +01:00, all year (09:00Z in July too).
        // From 2018 both follow the file: 2019-07-15 08:00Z, 2019-12-15 09:00Z.
        let calendar = try ICSCalendar.load(path: ICSCalendarTests.path("vtimezone-short.ics"))
        #expect(calendar.warnings.isEmpty)
        var warnings: [ICSWarning] = []
        let items = calendar.occurrences(from: ICSCalendarTests.instant("2017-01-01T00:00:00Z"), to: ICSCalendarTests.instant("2020-01-01T00:00:00Z"), warnings: &warnings)
        #expect(items.map { "\($0.uid) \(RFC3339.string(epochSeconds: $0.startInstant))" } == [
            "berlin 2017-07-15T08:00:00Z", "custom 2017-07-15T09:00:00Z", "berlin 2017-12-15T09:00:00Z", "custom 2017-12-15T09:00:00Z",
            "berlin 2019-07-15T08:00:00Z", "custom 2019-07-15T08:00:00Z", "berlin 2019-12-15T09:00:00Z", "custom 2019-12-15T09:00:00Z",
        ])
    }

    /// A VTIMEZONE of one STANDARD observance with `rules` (RRULE values) from `start`, and a
    /// DAYLIGHT with the EU spring rule.
    static func zone(standardRules rules: [String], start: String = "16010101T030000", copies: Int = 1) -> ICSComponentText {
        var component = ICSComponentText(name: "VTIMEZONE", line: 1)
        component.properties = [try! ICSContentLine(parsing: "TZID:Dense", line: 2, file: "t")]
        for copy in 0..<copies {
            var standard = ICSComponentText(name: "STANDARD", line: 3 + copy)
            standard.properties = [try! ICSContentLine(parsing: "DTSTART:\(start)", line: 4, file: "t"),
                                   try! ICSContentLine(parsing: "TZOFFSETFROM:+0200", line: 5, file: "t"),
                                   try! ICSContentLine(parsing: "TZOFFSETTO:+0100", line: 6, file: "t")]
                + rules.map { try! ICSContentLine(parsing: "RRULE:\($0)", line: 7, file: "t") }
            if copies > 1 {
                // Copies that differ (another minute each), so that none is merged away.
                standard.properties[0] = try! ICSContentLine(parsing: "DTSTART:\(start.prefix(11))\(String(format: "%02d", copy % 60))00", line: 4, file: "t")
            }
            component.children.append(standard)
        }
        var daylight = ICSComponentText(name: "DAYLIGHT", line: 90)
        daylight.properties = [try! ICSContentLine(parsing: "DTSTART:16010101T020000", line: 91, file: "t"),
                               try! ICSContentLine(parsing: "TZOFFSETFROM:+0100", line: 92, file: "t"),
                               try! ICSContentLine(parsing: "TZOFFSETTO:+0200", line: 93, file: "t"),
                               try! ICSContentLine(parsing: "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", line: 94, file: "t")]
        component.children.append(daylight)
        return component
    }

    @Test(arguments: ["FREQ=HOURLY", "FREQ=DAILY", "FREQ=DAILY;BYHOUR=1,2,3", "FREQ=MINUTELY;INTERVAL=7", "FREQ=WEEKLY;BYDAY=SU"])
    func denseObservanceRuleIsLeftOutNotExpanded(rule: String) throws {
        // The STANDARD rule changes the offset more than 12 times a year: left out, so the zone keeps
        // its DTSTART onset and the DAYLIGHT rule only (from 1601 on, +02:00 after the first March).
        let (rules, warnings) = Self.ours(Self.zone(standardRules: [rule]))
        #expect(warnings.count == 1)
        guard case .badTimeZone("Dense", let reason)? = warnings.first else { Issue.record("\(warnings)"); return }
        #expect(reason.hasPrefix("the RRULE of the observance of line 3 changes the offset more than 12 times in 1601"))
        #expect(rules?.offset(atUTC: ICSCalendarTests.instant("2026-01-15T00:00:00Z")) == 7200)
    }

    @Test func repeatedRulesCountOnceAndTooManyChangesFallBack() throws {
        // 1,000 copies of one yearly rule in one observance are one rule.
        let repeated = Self.ours(Self.zone(standardRules: Array(repeating: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", count: 1_000)))
        #expect(repeated.warnings.isEmpty)
        #expect(repeated.rules?.transitionTable.transitions.count == 2 * 800 - 1)
        // 200 distinct yearly observances from 1601: 200 × 800 years of changes, past the table's limit.
        let many = Self.ours(Self.zone(standardRules: ["FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"], copies: 200))
        #expect(many.rules == nil)
        #expect(many.warnings == [.badTimeZone("Dense", reason: "more than 100000 offset changes; used the system zone of that name, if any, else floating time")])
        // With a smaller limit the same holds sooner.
        var limits = ICSLimits()
        limits.maximumZoneChanges = 500
        #expect(Self.ours(Self.zone(standardRules: ["FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"]), limits: limits).rules == nil)
    }

    @Test func offsetsAndObservancesThatCannotBeReadAreLeftOut() throws {
        // TZOFFSETFROM:+5744 (57 hours) in parsing_error_in_UTC_offset.ics: that observance is left out;
        // Europe/Prague has no other, so the system zone of that name stands in.
        let path = ICSCorpusDifferentialTests.folder.appendingPathComponent("parsing_error_in_UTC_offset.ics").path
        let calendar = try ICSCalendar.load(path: path)
        #expect(calendar.warnings.map(\.kind) == [
            .badTimeZone("Europe/Prague", reason: "no usable STANDARD or DAYLIGHT; used the system zone of that name"),
            .badTimeZone("Europe/Prague", reason: "STANDARD of line 4 has no TZOFFSETFROM and TZOFFSETTO of the form ±HHMM[SS]; skipped it"),
        ])
        #expect(calendar.warnings.map { $0.location.line } == [2, 4])
        #expect(ICSVTimeZone.offset("+0530") == 19_800 && ICSVTimeZone.offset("-000030") == -30 && ICSVTimeZone.offset("+2400") == nil)
    }
}
