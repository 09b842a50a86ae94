import CICal
import Testing
@_spi(Internals) @testable import TriggerEngine

@Suite("libical handles: one owner each, errors as Swift errors")
struct ICalOwnershipTests {
    static let calendar = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//TriggerEngine//Tests//EN
        BEGIN:VTIMEZONE
        TZID:Custom/Berlin
        BEGIN:STANDARD
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        UID:one@example.com
        DTSTART;TZID=Custom/Berlin:20260301T090000
        RRULE:FREQ=WEEKLY;COUNT=3
        SUMMARY:Stand-up
        END:VEVENT
        END:VCALENDAR
        """

    @Test func thousandsOfParseCloneFreeCycles() throws {
        for _ in 0..<3_000 {
            let root = try ICalComponent.parse(Self.calendar)
            let events = root.children(ICAL_VEVENT_COMPONENT)
            #expect(events.count == 1)
            #expect(events[0].propertyValues(ICAL_SUMMARY_PROPERTY) == ["Stand-up"])
            let copy = try events[0].clone()
            #expect(copy.propertyValues(ICAL_UID_PROPERTY) == ["one@example.com"])
            let zone = try ICalTimeZone.from(vtimezone: root.children(ICAL_VTIMEZONE_COMPONENT)[0])
            #expect(zone.tzid == "Custom/Berlin")
            // 2026-07-01T00:00:00Z is summer time (+2 h); 2026-01-01T00:00:00Z winter (+1 h).
            #expect(zone.utcOffset(atEpochSeconds: 1_782_864_000) == 7200)
            #expect(zone.utcOffset(atEpochSeconds: 1_767_225_600) == 3600)
        }
    }

    @Test func brokenLinesBecomeParseErrorsNotCrashes() throws {
        let root = try ICalComponent.parse("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:2026-99-99\nthis is not a property\nEND:VEVENT\nEND:VCALENDAR\n")
        #expect(!root.parseErrors().isEmpty)
    }

    @Test func unknownBuiltinZoneIsAnError() {
        #expect(throws: ICalError.self) { try ICalTimeZone.builtin(named: "Mars/Olympus_Mons") }
    }

    @Test func firstUseOfBuiltinZonesFromManyTasksAtOnce() async throws {
        // libical fills its built-in zone cache on first use; every task here
        // races for it. The lock in ICalLibrary makes it safe (run with --sanitize=thread).
        let names = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
                     "Pacific/Apia", "Asia/Kathmandu", "America/Sao_Paulo", "Europe/London"]
        let offsets = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for round in 0..<4 {
                for name in names {
                    group.addTask {
                        let zone = try ICalTimeZone.builtin(named: name)
                        // 2026-01-15T12:00:00Z, plus a little per round so lookups differ.
                        return (name, zone.utcOffset(atEpochSeconds: 1_768_478_400 + round))
                    }
                }
            }
            return try await group.reduce(into: [String: Set<Int>]()) { $0[$1.0, default: []].insert($1.1) }
        }
        #expect(offsets["Europe/Berlin"] == [3600])
        #expect(offsets["Asia/Kolkata"] == [19_800])
        #expect(offsets["Asia/Kathmandu"] == [20_700])
        #expect(offsets["Australia/Lord_Howe"] == [39_600])
        #expect(offsets["America/New_York"] == [-18_000])
    }
}
