import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `FireDateQuery.appendFireList` (the bytes `next --batch` writes) against
/// the fires listed one by one and formatted as strings, on seeded queries of
/// every trigger kind, zone and count, including the count-1 calendar shortcut.
@Suite("next --batch: the fire list bytes equal the fires formatted one by one")
struct FireListTests {
    @Test func seededQueriesWriteWhatTheirFiresFormatTo() throws {
        var random = SplitMix64(seed: 17)
        let zones = ["UTC", "Europe/Berlin", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata", "Pacific/Chatham"]
        let shapes: [[(name: String, value: Int)]] = [
            [("hour", 7), ("minute", 0)], [("hour", 2), ("minute", 30)], [("day", 31)], [("month", 2), ("day", 29)],
            [("weekday", 6), ("weekdayOrdinal", 5)], [("second", 0)], [("minute", 45)],
        ]
        var checked = 0
        for _ in 0..<3_000 {
            var fields = FireDateQuery.Fields()
            switch Int.random(in: 0..<3, using: &random) {
            case 0: fields.components = shapes.randomElement(using: &random)!
            case 1:
                fields.rrule = ["FREQ=DAILY", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=HOURLY;INTERVAL=5", "FREQ=YEARLY;COUNT=2"]
                    .randomElement(using: &random)!
                fields.dtstart = "2020-03-29T02:30:00"
            default:
                fields.interval = Double(Int.random(in: 60...100_000, using: &random))
                fields.repeats = Bool.random(using: &random)
            }
            fields.tz = zones.randomElement(using: &random)!
            fields.after = RFC3339.string(from: Date(timeIntervalSince1970: Double(Int.random(in: 946_684_800...2_208_988_800, using: &random))))
            fields.count = Int.random(in: 0...4, using: &random)
            fields.once = Int.random(in: 0..<8, using: &random) == 0
            let query = try FireDateQuery(fields)
            var bytes: [UInt8] = []
            query.appendFireList(to: &bytes)
            let expected = query.fireDates().map { "\"\(query.format($0))\"" }.joined(separator: ",")
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(fields)")
            if case .calendar(let calendar) = query.trigger {
                // The count-1 shortcut (one search) agrees with the sequence of fires.
                #expect(query.fireDates() == Array(calendar.fireDates(after: query.after, in: query.zone).prefix(query.count)))
            }
            checked += query.fireDates().count
        }
        #expect(checked > 3_000)
    }
}
