import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// The examples of RFC 5545 §3.8.5.3 (pages 123–131), as a table: the rule,
/// DTSTART in America/New_York as the RFC gives it, and the instances the RFC
/// lists, typed in from its text (its "..." runs written out as the day lists
/// they abbreviate). Bounded rules (COUNT, UNTIL) must produce exactly the
/// listed instances and no more; for unbounded ones the listed prefix is compared.
@Suite("RecurrenceTrigger: the RFC 5545 §3.8.5.3 examples in America/New_York")
struct RFC5545ExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var title: String
        var rule: String
        /// `YYYYMMDDTHHMMSS`, local time in America/New_York.
        var start: String
        var exdates: [String] = []
        /// Wall times in America/New_York, `YYYY-MM-DDTHH:MM:SS`.
        var expected: [String]

        var testDescription: String { title }
        var isBounded: Bool { rule.contains("COUNT=") || rule.contains("UNTIL=") }
    }

    /// `days` of one month at one time of day, as the RFC lists them.
    static func on(_ year: Int, _ month: Int, _ days: [Int], at time: String = "09:00") -> [String] {
        days.map { String(format: "%04d-%02d-%02dT%@:00", year, month, $0, time) }
    }

    static func on(_ year: Int, _ month: Int, _ days: StrideThrough<Int>, at time: String = "09:00") -> [String] {
        on(year, month, Array(days), at: time)
    }

    /// One day at several times, `HH:MM` each.
    static func at(_ year: Int, _ month: Int, _ day: Int, _ times: [String]) -> [String] {
        times.flatMap { on(year, month, [day], at: $0) }
    }

    static let everyTwentyMinutes = (9...16).flatMap { hour in [0, 20, 40].map { String(format: "%02d:%02d", hour, $0) } }

    static let examples: [Example] = [
        Example(title: "Daily for 10 occurrences", rule: "FREQ=DAILY;COUNT=10", start: "19970902T090000",
                expected: on(1997, 9, Array(2...11))),
        Example(title: "Daily until December 24, 1997", rule: "FREQ=DAILY;UNTIL=19971224T000000Z", start: "19970902T090000",
                expected: on(1997, 9, Array(2...30)) + on(1997, 10, Array(1...31)) + on(1997, 11, Array(1...30)) + on(1997, 12, Array(1...23))),
        Example(title: "Every other day - forever", rule: "FREQ=DAILY;INTERVAL=2", start: "19970902T090000",
                expected: on(1997, 9, stride(from: 2, through: 30, by: 2)) + on(1997, 10, stride(from: 2, through: 30, by: 2))
                    + on(1997, 11, stride(from: 1, through: 29, by: 2)) + on(1997, 12, [1, 3])),
        Example(title: "Every 10 days, 5 occurrences", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5", start: "19970902T090000",
                expected: on(1997, 9, [2, 12, 22]) + on(1997, 10, [2, 12])),
        Example(title: "Every day in January, for 3 years (YEARLY form)",
                rule: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", start: "19980101T090000",
                expected: on(1998, 1, Array(1...31)) + on(1999, 1, Array(1...31)) + on(2000, 1, Array(1...31))),
        Example(title: "Every day in January, for 3 years (DAILY form)",
                rule: "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1", start: "19980101T090000",
                expected: on(1998, 1, Array(1...31)) + on(1999, 1, Array(1...31)) + on(2000, 1, Array(1...31))),
        Example(title: "Weekly for 10 occurrences", rule: "FREQ=WEEKLY;COUNT=10", start: "19970902T090000",
                expected: on(1997, 9, [2, 9, 16, 23, 30]) + on(1997, 10, [7, 14, 21, 28]) + on(1997, 11, [4])),
        Example(title: "Weekly until December 24, 1997", rule: "FREQ=WEEKLY;UNTIL=19971224T000000Z", start: "19970902T090000",
                expected: on(1997, 9, [2, 9, 16, 23, 30]) + on(1997, 10, [7, 14, 21, 28]) + on(1997, 11, [4, 11, 18, 25])
                    + on(1997, 12, [2, 9, 16, 23])),
        Example(title: "Every other week - forever", rule: "FREQ=WEEKLY;INTERVAL=2;WKST=SU", start: "19970902T090000",
                expected: on(1997, 9, [2, 16, 30]) + on(1997, 10, [14, 28]) + on(1997, 11, [11, 25]) + on(1997, 12, [9, 23])
                    + on(1998, 1, [6, 20]) + on(1998, 2, [3, 17])),
        Example(title: "Weekly on Tuesday and Thursday for five weeks (UNTIL form)",
                rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH", start: "19970902T090000",
                expected: on(1997, 9, [2, 4, 9, 11, 16, 18, 23, 25, 30]) + on(1997, 10, [2])),
        Example(title: "Weekly on Tuesday and Thursday for five weeks (COUNT form)",
                rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", start: "19970902T090000",
                expected: on(1997, 9, [2, 4, 9, 11, 16, 18, 23, 25, 30]) + on(1997, 10, [2])),
        Example(title: "Every other week on Monday, Wednesday, and Friday until December 24, 1997",
                rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR", start: "19970901T090000",
                expected: on(1997, 9, [1, 3, 5, 15, 17, 19, 29]) + on(1997, 10, [1, 3, 13, 15, 17, 27, 29, 31])
                    + on(1997, 11, [10, 12, 14, 24, 26, 28]) + on(1997, 12, [8, 10, 12, 22])),
        Example(title: "Every other week on Tuesday and Thursday, for 8 occurrences",
                rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", start: "19970902T090000",
                expected: on(1997, 9, [2, 4, 16, 18, 30]) + on(1997, 10, [2, 14, 16])),
        Example(title: "Monthly on the first Friday for 10 occurrences", rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", start: "19970905T090000",
                expected: on(1997, 9, [5]) + on(1997, 10, [3]) + on(1997, 11, [7]) + on(1997, 12, [5]) + on(1998, 1, [2])
                    + on(1998, 2, [6]) + on(1998, 3, [6]) + on(1998, 4, [3]) + on(1998, 5, [1]) + on(1998, 6, [5])),
        Example(title: "Monthly on the first Friday until December 24, 1997",
                rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR", start: "19970905T090000",
                expected: on(1997, 9, [5]) + on(1997, 10, [3]) + on(1997, 11, [7]) + on(1997, 12, [5])),
        Example(title: "Every other month on the first and last Sunday of the month for 10 occurrences",
                rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", start: "19970907T090000",
                expected: on(1997, 9, [7, 28]) + on(1997, 11, [2, 30]) + on(1998, 1, [4, 25]) + on(1998, 3, [1, 29])
                    + on(1998, 5, [3, 31])),
        Example(title: "Monthly on the second-to-last Monday of the month for 6 months",
                rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", start: "19970922T090000",
                expected: on(1997, 9, [22]) + on(1997, 10, [20]) + on(1997, 11, [17]) + on(1997, 12, [22]) + on(1998, 1, [19])
                    + on(1998, 2, [16])),
        Example(title: "Monthly on the third-to-the-last day of the month, forever",
                rule: "FREQ=MONTHLY;BYMONTHDAY=-3", start: "19970928T090000",
                expected: on(1997, 9, [28]) + on(1997, 10, [29]) + on(1997, 11, [28]) + on(1997, 12, [29]) + on(1998, 1, [29])
                    + on(1998, 2, [26])),
        Example(title: "Monthly on the 2nd and 15th of the month for 10 occurrences",
                rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", start: "19970902T090000",
                expected: on(1997, 9, [2, 15]) + on(1997, 10, [2, 15]) + on(1997, 11, [2, 15]) + on(1997, 12, [2, 15])
                    + on(1998, 1, [2, 15])),
        Example(title: "Monthly on the first and last day of the month for 10 occurrences",
                rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", start: "19970930T090000",
                expected: on(1997, 9, [30]) + on(1997, 10, [1, 31]) + on(1997, 11, [1, 30]) + on(1997, 12, [1, 31])
                    + on(1998, 1, [1, 31]) + on(1998, 2, [1])),
        Example(title: "Every 18 months on the 10th thru 15th of the month for 10 occurrences",
                rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", start: "19970910T090000",
                expected: on(1997, 9, Array(10...15)) + on(1999, 3, Array(10...13))),
        Example(title: "Every Tuesday, every other month", rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", start: "19970902T090000",
                expected: on(1997, 9, [2, 9, 16, 23, 30]) + on(1997, 11, [4, 11, 18, 25]) + on(1998, 1, [6, 13, 20, 27])
                    + on(1998, 3, [3, 10, 17, 24, 31])),
        Example(title: "Yearly in June and July for 10 occurrences", rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", start: "19970610T090000",
                expected: (1997...2001).flatMap { on($0, 6, [10]) + on($0, 7, [10]) }),
        Example(title: "Every other year on January, February, and March for 10 occurrences",
                rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", start: "19970310T090000",
                expected: on(1997, 3, [10]) + [1999, 2001, 2003].flatMap { on($0, 1, [10]) + on($0, 2, [10]) + on($0, 3, [10]) }),
        Example(title: "Every third year on the 1st, 100th, and 200th day for 10 occurrences",
                rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", start: "19970101T090000",
                expected: on(1997, 1, [1]) + on(1997, 4, [10]) + on(1997, 7, [19]) + on(2000, 1, [1]) + on(2000, 4, [9])
                    + on(2000, 7, [18]) + on(2003, 1, [1]) + on(2003, 4, [10]) + on(2003, 7, [19]) + on(2006, 1, [1])),
        Example(title: "Every 20th Monday of the year, forever", rule: "FREQ=YEARLY;BYDAY=20MO", start: "19970519T090000",
                expected: on(1997, 5, [19]) + on(1998, 5, [18]) + on(1999, 5, [17])),
        Example(title: "Monday of week number 20 (where the default start of the week is Monday), forever",
                rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", start: "19970512T090000",
                expected: on(1997, 5, [12]) + on(1998, 5, [11]) + on(1999, 5, [17])),
        Example(title: "Every Thursday in March, forever", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", start: "19970313T090000",
                expected: on(1997, 3, [13, 20, 27]) + on(1998, 3, [5, 12, 19, 26]) + on(1999, 3, [4, 11, 18, 25])),
        Example(title: "Every Thursday, but only during June, July, and August, forever",
                rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", start: "19970605T090000",
                expected: on(1997, 6, [5, 12, 19, 26]) + on(1997, 7, [3, 10, 17, 24, 31]) + on(1997, 8, [7, 14, 21, 28])
                    + on(1998, 6, [4, 11, 18, 25]) + on(1998, 7, [2, 9, 16, 23, 30]) + on(1998, 8, [6, 13, 20, 27])
                    + on(1999, 6, [3, 10, 17, 24]) + on(1999, 7, [1, 8, 15, 22, 29]) + on(1999, 8, [5, 12, 19, 26])),
        Example(title: "Every Friday the 13th, forever", rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", start: "19970902T090000",
                exdates: ["19970902T090000"],
                expected: on(1998, 2, [13]) + on(1998, 3, [13]) + on(1998, 11, [13]) + on(1999, 8, [13]) + on(2000, 10, [13])),
        Example(title: "The first Saturday that follows the first Sunday of the month, forever",
                rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", start: "19970913T090000",
                expected: on(1997, 9, [13]) + on(1997, 10, [11]) + on(1997, 11, [8]) + on(1997, 12, [13]) + on(1998, 1, [10])
                    + on(1998, 2, [7]) + on(1998, 3, [7]) + on(1998, 4, [11]) + on(1998, 5, [9]) + on(1998, 6, [13])),
        Example(title: "Every 4 years, the first Tuesday after a Monday in November, forever (U.S. Presidential Election day)",
                rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", start: "19961105T090000",
                expected: on(1996, 11, [5]) + on(2000, 11, [7]) + on(2004, 11, [2])),
        Example(title: "The third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months",
                rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", start: "19970904T090000",
                expected: on(1997, 9, [4]) + on(1997, 10, [7]) + on(1997, 11, [6])),
        Example(title: "The second-to-last weekday of the month",
                rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", start: "19970929T090000",
                expected: on(1997, 9, [29]) + on(1997, 10, [30]) + on(1997, 11, [27]) + on(1997, 12, [30]) + on(1998, 1, [29])
                    + on(1998, 2, [26]) + on(1998, 3, [30])),
        // The RFC lists 09:00, 12:00 and 15:00, but its own UNTIL, 17:00 UTC, is
        // 13:00 EDT, so 15:00 EDT (19:00 UTC) is past it; the rule as written
        // stops after 12:00 (python-dateutil agrees). We follow the rule.
        Example(title: "Every 3 hours from 9:00 AM to 5:00 PM on a specific day (UNTIL as written)",
                rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", start: "19970902T090000",
                expected: at(1997, 9, 2, ["09:00", "12:00"])),
        Example(title: "Every 3 hours from 9:00 AM to 5:00 PM on a specific day (UNTIL at 5:00 PM EDT)",
                rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z", start: "19970902T090000",
                expected: at(1997, 9, 2, ["09:00", "12:00", "15:00"])),
        Example(title: "Every 15 minutes for 6 occurrences", rule: "FREQ=MINUTELY;INTERVAL=15;COUNT=6", start: "19970902T090000",
                expected: at(1997, 9, 2, ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15"])),
        Example(title: "Every hour and a half for 4 occurrences", rule: "FREQ=MINUTELY;INTERVAL=90;COUNT=4", start: "19970902T090000",
                expected: at(1997, 9, 2, ["09:00", "10:30", "12:00", "13:30"])),
        Example(title: "Every 20 minutes from 9:00 AM to 4:40 PM every day (DAILY form)",
                rule: "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", start: "19970902T090000",
                expected: at(1997, 9, 2, everyTwentyMinutes) + at(1997, 9, 3, everyTwentyMinutes)),
        Example(title: "Every 20 minutes from 9:00 AM to 4:40 PM every day (MINUTELY form)",
                rule: "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", start: "19970902T090000",
                expected: at(1997, 9, 2, everyTwentyMinutes) + at(1997, 9, 3, everyTwentyMinutes)),
        Example(title: "The days generated depend on WKST (WKST=MO)",
                rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", start: "19970805T090000",
                expected: on(1997, 8, [5, 10, 19, 24])),
        Example(title: "The days generated depend on WKST (WKST=SU)",
                rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", start: "19970805T090000",
                expected: on(1997, 8, [5, 17, 19, 31])),
        Example(title: "An invalid date (February 30) is ignored",
                rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", start: "20070115T090000",
                expected: on(2007, 1, [15, 30]) + on(2007, 2, [15]) + on(2007, 3, [15, 30])),
    ]


    @Test(arguments: examples)
    func instancesAreTheOnesTheRFCLists(_ example: Example) throws {
        let zone = try ZoneRules.named("America/New_York")
        let start = RFC5545Text.wall(example.start)
        let trigger = try RecurrenceTrigger(rule: try RecurrenceRule(parsing: example.rule), start: start, timeZone: .fixed(zone),
                                            exceptionDates: example.exdates.map(RFC5545Text.wall))
        // From just before DTSTART's instant; a bounded rule gets one more
        // look, which must find nothing.
        let before = Date(timeIntervalSince1970: Double(zone.instant(of: start) - 1))
        let wanted = example.isBounded ? example.expected.count + 1 : example.expected.count
        let instances = trigger.fireDates(after: before).prefix(wanted).map { date in
            zone.localTime(atUTC: Int(date.timeIntervalSince1970)).description
        }
        #expect(instances == example.expected, "\(example.rule) from \(example.start)")
    }
}
