import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

@Suite("Request JSON")
struct NotificationTriggerJSONTests {
    static func decode(_ json: String) throws(DataError) -> NotificationRequest {
        try NotificationRequest(json: Data(json.utf8))
    }

    @Test func everyTriggerFormRoundTrips() throws {
        let lines = [
            #"{"identifier":"a","content":{"title":"T","badge":3,"userInfo":{"k":[1,true,null,"x"]}},"trigger":{"calendar":{"dateMatching":{"hour":7,"minute":0},"repeats":true,"timeZone":"UTC"}}}"#,
            #"{"identifier":"b","content":{},"trigger":{"timeInterval":{"interval":600,"repeats":false}}}"#,
            #"{"identifier":"c","content":{},"trigger":{"location":{"region":{"center":{"lat":45.7,"lon":14.3},"radius":100},"notifyOnEntry":true,"notifyOnExit":false,"repeats":true}}}"#,
            #"{"identifier":"d","content":{},"trigger":{"recurrence":{"rrule":"FREQ=MONTHLY;BYDAY=-1FR","dtstart":"2026-01-30T09:00:00","tz":"Europe/Berlin","exdates":["2026-02-27T09:00:00"]}}}"#,
        ]
        for line in lines {
            let request = try Self.decode(line)
            let again = try NotificationRequest(json: try JSONEncoder().encode(request))
            #expect(again == request)
        }
        let calendar = try Self.decode(lines[0])
        #expect(calendar.content.userInfo["k"] == .array([.number(1), .bool(true), .null, .string("x")]))
        guard case .calendar(let trigger)? = calendar.trigger else { Issue.record("not calendar"); return }
        #expect(trigger.dateComponents.hour == 7 && trigger.repeats)
        #expect(trigger.nextTriggerDate(after: RFC3339.date(from: "2026-11-22T12:00:00Z")!) == RFC3339.date(from: "2026-11-23T07:00:00Z"))
        let recurrence = try Self.decode(lines[3])
        // Last Friday of the month at 09:00 Berlin: January 30 (+01:00), February 27 excluded, March 27.
        var fires: [Date] = []
        var cursor = RFC3339.date(from: "2026-01-01T00:00:00Z")!
        while fires.count < 2, let next = recurrence.trigger!.nextTriggerDate(after: cursor, addedAt: cursor, in: .utc) {
            fires.append(next)
            cursor = next
        }
        #expect(fires == [RFC3339.date(from: "2026-01-30T08:00:00Z")!, RFC3339.date(from: "2026-03-27T08:00:00Z")!])
    }

    @Test(arguments: [
        (#"{"identifier":"x","trigger":{"calendar":{"dateMatching":{"hour":7},"zone":"UTC"}}}"#, "unknown key 'zone'"),
        (#"{"identifier":"x","trigger":{"calendar":{"dateMatching":{"hour":7},"timeZone":"Mars/Olympus"}}}"#, "Mars/Olympus"),
        (#"{"identifier":"x","trigger":{"timeInterval":{"interval":30,"repeats":true}}}"#, "60"),
        (#"{"identifier":"x","trigger":{"clock":{}}}"#, "one key"),
        (#"{"identifier":"x","trigger":{"recurrence":{"rrule":"FREQ=SOMETIMES","dtstart":"2026-01-01T00:00:00"}}}"#, "FREQ"),
        (#"{"content":{}}"#, "identifier"),
        (#"{"identifier":"x","trigger":{"location":{"region":{"center":{"lat":95,"lon":0},"radius":10}}}}"#, "latitude"),
    ])
    func badJSONNamesWhatIsWrong(json: String, fragment: String) {
        do {
            _ = try Self.decode(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }
}
