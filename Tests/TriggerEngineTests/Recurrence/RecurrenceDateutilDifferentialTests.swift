import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

@Suite("RecurrenceTrigger: differential against python-dateutil's rrule")
struct RecurrenceDateutilDifferentialTests {
    /// Rules in one batch, and instances compared per rule.
    static let rules = 2_000
    static let instancesPerRule = 8

    /// How far from DTSTART instances are compared, in seconds: dateutil steps
    /// period by period through periods without instances, so a rule whose
    /// parts rarely meet would otherwise run to year 9999 in the oracle.
    static func horizon(_ frequency: RecurrenceRule.Frequency) -> Int {
        switch frequency {
        case .secondly: return 15 * 60
        case .minutely: return 12 * 3600
        case .hourly: return 10 * 86_400
        case .daily: return 2 * 365 * 86_400
        case .weekly, .monthly: return 10 * 365 * 86_400
        case .yearly: return 40 * 365 * 86_400
        }
    }

    /// Where RFC 5545 departs from dateutil, the rule as dateutil must be
    /// given it to mean what RFC 5545 means, and which case that was:
    /// §3.3.10, "Information, not contained in the rule, necessary to determine
    /// the various recurrence instance start time and dates are derived from the
    /// Start Time ("DTSTART")". dateutil instead expands a YEARLY rule's
    /// BYMONTHDAY to every month and its BYWEEKNO to every day of the week; ours
    /// (as libical does) takes DTSTART's month, and DTSTART's weekday, so
    /// dateutil is given them explicitly.
    static func dateutilForm(of text: String, rule: RecurrenceRule, start: LocalDateTime) -> (text: String, adjusted: Bool) {
        guard rule.frequency == .yearly, rule.byYearDay.isEmpty else { return (text, false) }
        if !rule.byWeekNo.isEmpty, rule.byDay.isEmpty, rule.byMonthDay.isEmpty {
            return (text + ";BYDAY=" + RecurrenceRule.Weekday(rawValue: start.weekday)!.code, true)
        }
        if rule.byWeekNo.isEmpty, !rule.byMonthDay.isEmpty, rule.byMonth.isEmpty {
            return (text + ";BYMONTH=\(start.fields.month)", true)
        }
        return (text, false)
    }

    /// A YEARLY rule with BYWEEKNO whose answer depends on where its periods
    /// begin: RFC 5545's period is then the week-numbering year (weeks from
    /// WKST, week 1 holding 4 January), dateutil's the calendar year, so
    /// INTERVAL > 1 and BYSETPOS pick other weeks. These are compared with
    /// Foundation's ISO week calendar instead (`RecurrenceWeekNumberTests`).
    static func dependsOnWeekYearPeriods(_ rule: RecurrenceRule) -> Bool {
        rule.frequency == .yearly && !rule.byWeekNo.isEmpty && (rule.interval > 1 || !rule.bySetPos.isEmpty)
    }

    /// Whether a rule's BYDAY has an ordinal (`2MO`, `-1FR`).
    static func hasOrdinalWeekday(_ rule: String) -> Bool {
        guard let part = rule.split(separator: ";").first(where: { $0.hasPrefix("BYDAY=") }) else { return false }
        return part.dropFirst(6).split(separator: ",").contains { $0.count > 2 }
    }

    /// Seeded random rules (every FREQ and BY-part, BYSETPOS, BYWEEKNO with
    /// WKST, negative values, INTERVAL, COUNT and UNTIL) from DTSTARTs in
    /// 1995–2030, floating wall time (dateutil has no DST-gap semantics, so the
    /// trigger is evaluated in UTC): the first instances agree with dateutil's,
    /// up to a horizon that keeps rules that
    /// rarely match from running to year 9999 in the oracle (`horizon`).
    @Test func randomRulesAgreeWithDateutil() throws {
        var generator = RandomRuleGenerator(seed: 0x5545_2026)
        var cases: [RRuleOracle.Case] = []
        var triggers: [RecurrenceTrigger] = []
        var adjusted = 0, weekYearRules = 0
        while cases.count < Self.rules {
            let (text, start) = generator.next()
            // Skip the combinations RFC 5545 forbids, which our parser rejects
            // (BYDAY ordinals with BYWEEKNO, BYSETPOS alone…).
            guard let rule = try? RecurrenceRule(parsing: text) else { continue }
            if Self.dependsOnWeekYearPeriods(rule) {
                weekYearRules += 1
                continue
            }
            let wall = RFC5545Text.wall(start)
            let (oracleText, wasAdjusted) = Self.dateutilForm(of: text, rule: rule, start: wall)
            if wasAdjusted { adjusted += 1 }
            let cap = LocalDateTime(localSeconds: wall.localSeconds + Self.horizon(rule.frequency))
            triggers.append(try RecurrenceTrigger(rule: rule, start: wall, timeZone: .fixed(.utc)))
            cases.append(RRuleOracle.Case(rule: oracleText, dtstart: start, limit: Self.instancesPerRule, cap: RFC5545Text.text(cap)))
        }
        let outcome = try RRuleOracle.run(cases)
        guard case .answers(let answers, let version) = outcome else {
            if case .unavailable(let why) = outcome {
                try Test.cancel("python-dateutil oracle unavailable (\(why)); scripts/bootstrap installs python3 and python-dateutil")
            }
            return
        }
        var mismatches: [String] = []
        var partial = 0
        var excluded = 0
        for (index, answer) in answers.enumerated() {
            let theirs: [String]
            switch answer {
            case .instances(let instances): theirs = instances
            case .partial(let instances):
                // dateutil gave up looking past these: compare what it found.
                theirs = instances
                partial += 1
            case .error(let error) where error.contains("generates an empty set"):
                // dateutil refuses a sub-daily rule whose INTERVAL never reaches
                // its BYHOUR/BYMINUTE/BYSECOND values from DTSTART; such a rule
                // has no instance, which is what ours must answer.
                theirs = []
            case .error(let error) where error.hasPrefix("IndexError") && Self.hasOrdinalWeekday(cases[index].rule):
                // Known dateutil deviation: an ordinal BYDAY past the number of
                // such weekdays in the month or year (17SU with BYMONTH, -50TH)
                // raises IndexError, where RFC 5545 just has no such day and the
                // rule's other parts still produce instances. Not comparable.
                excluded += 1
                continue
            case .error(let error):
                mismatches.append("\(cases[index].rule) DTSTART \(cases[index].dtstart): dateutil refused it: \(error)")
                continue
            }
            let cap = RFC5545Text.wall(cases[index].cap).localSeconds
            let wanted = answer.isPartial ? theirs.count : Self.instancesPerRule
            var ours: [String] = []
            var after = RFC5545Text.wall(cases[index].dtstart).localSeconds - 1
            while ours.count < wanted, let next = triggers[index].nextTriggerInstant(after: after), next <= cap {
                ours.append(RFC5545Text.text(LocalDateTime(localSeconds: next)))
                after = next
            }
            if ours != theirs {
                mismatches.append("\(cases[index].rule) DTSTART \(cases[index].dtstart):\n    ours     \(ours)\n    dateutil \(theirs)")
            }
        }
        print("dateutil \(version): \(Self.rules) rules, \(partial) compared only as far as dateutil got, "
              + "\(excluded) excluded (dateutil IndexError), \(adjusted) given DTSTART's month or weekday explicitly, "
              + "\(weekYearRules) BYWEEKNO rules left to the week-year test, \(mismatches.count) mismatches")
        // The departures must stay a minority, or the test would stop testing.
        #expect(adjusted <= Self.rules / 10, "\(adjusted) of \(Self.rules) rules needed DTSTART's month or weekday spelt out")
        #expect(weekYearRules <= Self.rules / 20, "\(weekYearRules) BYWEEKNO rules depend on week-year periods")
        // Rules dateutil gave up on are compared only on the instances it found;
        // a few are expected (rules whose parts never meet), many would hollow the test out.
        #expect(partial <= Self.rules / 10, "dateutil gave up on \(partial) of \(Self.rules) rules")
        #expect(excluded <= Self.rules / 50, "dateutil's IndexError excluded \(excluded) of \(Self.rules) rules")
        #expect(mismatches.isEmpty,
                "\(mismatches.count) of \(Self.rules) rules differ from dateutil \(version) (\(partial) compared only as far as dateutil got); first:\n\(mismatches.prefix(12).joined(separator: "\n"))")
    }
}
