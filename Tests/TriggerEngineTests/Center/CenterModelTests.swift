import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("Center model")
struct CenterModelTests {
    static func actions(_ ids: [String]) -> [NotificationAction] { ids.map { NotificationAction(identifier: $0, title: $0) } }

    @Test func optionSetsPrintTheirNamesAndRoundTripThroughJSON() throws {
        #expect("\(PresentationOptions([.banner, .list, .sound, .badge]))" == "[badge, sound, list, banner]")
        #expect("\(PresentationOptions())" == "[]")
        #expect("\(NotificationAction.Options([.foreground, .destructive]))" == "[destructive, foreground]")
        let options: PresentationOptions = [.list, .banner]
        let json = try JSONEncoder().encode(options)
        #expect(String(decoding: json, as: UTF8.self) == #"["list","banner"]"#)
        #expect(try JSONDecoder().decode(PresentationOptions.self, from: json) == options)
        #expect(throws: DataError.self) { try JSONDecoder().decode(PresentationOptions.self, from: Data(#"["loud"]"#.utf8)) }
    }

    @Test func aFifthActionIsRefused() {
        let category = NotificationCategory(identifier: "C", actions: Self.actions(["a", "b", "c", "d", "e"]))
        #expect(throws: DataError.self) { try NotificationCategory.validate([category]) }
        #expect(throws: Never.self) { try NotificationCategory.validate([NotificationCategory(identifier: "C", actions: Self.actions(["a", "b", "c", "d"]))]) }
    }

    @Test func anActionIdentifierInTwoCategoriesIsRefused() {
        let first = NotificationCategory(identifier: "A", actions: Self.actions(["reply"]))
        let second = NotificationCategory(identifier: "B", actions: Self.actions(["open", "reply"]))
        do {
            try NotificationCategory.validate([first, second])
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("'reply'") && error.message.contains("'A'") && error.message.contains("'B'"))
        }
    }

    @Test func pushPayloadMapsAPSAndCustomKeys() throws {
        let json = #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"},"badge":4,"sound":"chime.caf","category":"MSG","thread-id":"t1"},"orderID":17}"#
        let content = try PushPayload(data: Data(json.utf8)).content
        #expect(content.title == "T" && content.subtitle == "S" && content.body == "B")
        #expect(content.badge == 4 && content.sound == .named("chime.caf"))
        #expect(content.categoryIdentifier == "MSG" && content.threadIdentifier == "t1")
        #expect(content.userInfo == ["orderID": .number(17)])
    }

    @Test func pushPayloadOver4096BytesIsRejected() throws {
        func payload(bodyLength: Int) -> Data {
            Data(#"{"aps":{"alert":"\#(String(repeating: "x", count: bodyLength))"}}"#.utf8)
        }
        let overhead = payload(bodyLength: 0).count
        #expect(throws: Never.self) { try PushPayload(data: payload(bodyLength: 4096 - overhead)) }
        #expect(throws: DataError.self) { try PushPayload(data: payload(bodyLength: 4097 - overhead)) }
    }

    @Test func deviceTokensOfAnyEvenHexLengthRegisterUpdateAndUnregister() throws {
        var registry = DeviceTokenRegistry()
        try registry.register("AB12", for: "ann")
        try registry.register(String(repeating: "f0", count: 100), for: "ann")
        try registry.register("cd34", for: "ann", replacing: "ab12")
        #expect(registry.tokens["ann"] == ["cd34", String(repeating: "f0", count: 100)])
        #expect(throws: DataError.self) { try registry.register("abc", for: "ann") }
        #expect(throws: DataError.self) { try registry.register("zz", for: "ann") }
        registry.unregister(for: "ann")
        #expect(registry.tokens["ann"] == nil)
    }

    /// A WAV header: 44.1 kHz 16-bit stereo has a byte rate of 176,400, so
    /// `seconds × 176,400` data bytes last `seconds`.
    static func wav(seconds: Double) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let dataBytes = Int(seconds * 176_400)
        return Array("RIFF".utf8) + le(36 + dataBytes, 4) + Array("WAVE".utf8) + Array("fmt ".utf8) + le(16, 4)
            + le(1, 2) + le(2, 2) + le(44_100, 4) + le(176_400, 4) + le(4, 2) + le(16, 2)
            + Array("data".utf8) + le(dataBytes, 4) + [UInt8](repeating: 0, count: dataBytes)
    }

    /// AIFF: 80-bit extended 44,100 Hz = exponent 16398 (0x400E), mantissa 0xAC44 << 48, as real files store it.
    static func aiff(frames: Int) -> [UInt8] {
        func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let comm = Array("COMM".utf8) + be(18, 4) + be(1, 2) + be(frames, 4) + be(16, 2)
            + be(16_398, 2) + [0xAC, 0x44, 0, 0, 0, 0, 0, 0]
        return Array("FORM".utf8) + be(4 + comm.count, 4) + Array("AIFF".utf8) + comm
    }

    @Test func soundDurationsFromWAVAndAIFFHeaders() {
        #expect(SoundFile.duration(of: Self.wav(seconds: 2.5)) == 2.5)
        #expect(SoundFile.duration(of: Self.aiff(frames: 44_100 * 31)) == 31)
        #expect(SoundFile.duration(of: Array("not a sound file".utf8)) == nil)
    }

    @Test func customSoundOver30SecondsFallsBackToDefault() async throws {
        let folder = ScratchFolder.path("sounds-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.wav(seconds: 29)).write(to: folder.appendingPathComponent("short.wav"))
        try Data(Self.aiff(frames: 44_100 * 31)).write(to: folder.appendingPathComponent("long.aiff"))
        let start = Date(timeIntervalSince1970: 0)
        let center = try UserNotificationCenter(now: start)
        await center.setSoundDirectory(folder)
        try await center.requestAuthorization(options: [.alert, .sound])
        for name in ["short.wav", "long.aiff"] {
            try await center.add(NotificationRequest(identifier: name, content: NotificationContent(sound: .named(name)),
                                                     trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 10, repeats: false))))
        }
        let sounds = try await center.advance(to: start.addingTimeInterval(60)).map(\.notification.request.content.sound)
        #expect(sounds == [.named("short.wav"), .default])
    }
}
