/// An RFC 5545 §3.3.6 DURATION: weeks and days are nominal (wall-clock days),
/// hours, minutes and seconds exact.
public struct ICSDuration: Sendable, Hashable {
    /// Nominal days (weeks × 7 included), signed.
    public var days: Int
    /// Exact seconds, signed.
    public var seconds: Int

    /// A duration of nominal days plus exact seconds.
    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }

    /// The duration as if every day had 86,400 s (for window bounds).
    public var approximateSeconds: Int { days * 86_400 + seconds }

    /// The longest duration read, in nominal days (about 10,000 years): with it,
    /// no instant plus a duration can overflow, however many parts a value has.
    static let maximumDays = 3_652_425

    /// Parses `[+-]P(nW | [nD][T[nH][nM][nS]])` (RFC 5545 §3.3.6: each part at
    /// most once, in that order); `nil` when malformed or longer than `maximumDays`.
    public init?(parsing text: String) {
        var characters = Substring(text)
        var sign = 1
        if characters.first == "-" { sign = -1; characters.removeFirst() } else if characters.first == "+" { characters.removeFirst() }
        guard characters.first == "P" || characters.first == "p" else { return nil }
        characters.removeFirst()
        var days = 0, seconds = 0, value: Int?, inTime = false, any = false
        // The designators still allowed, in RFC order: W, D, then T, H, M, S.
        var allowed: [Character] = ["W", "D", "T", "H", "M", "S"]
        for character in characters.uppercased() {
            if let digit = character.wholeNumberValue, character.isASCII {
                value = (value ?? 0) * 10 + digit
                guard value! < 100_000_000 else { return nil }
                continue
            }
            guard let position = allowed.firstIndex(of: character) else { return nil }
            allowed.removeSubrange(...position)
            if character == "W" { allowed = [] }
            if character == "T" {
                guard value == nil else { return nil }
                inTime = true
                continue
            }
            guard let amount = value else { return nil }
            switch (character, inTime) {
            case ("W", false): days = 7 * amount
            case ("D", false): days = amount
            case ("H", true): seconds += 3600 * amount
            case ("M", true): seconds += 60 * amount
            case ("S", true): seconds += amount
            default: return nil
            }
            value = nil
            any = true
        }
        guard any, value == nil, days + seconds / 86_400 <= Self.maximumDays else { return nil }
        self.days = sign * days
        self.seconds = sign * seconds
    }

    /// `time` moved by the duration: days on the wall clock, then seconds exactly.
    func instant(after time: ICSTime) -> Int {
        time.zone.instant(of: LocalDateTime(localSeconds: time.local.localSeconds + days * 86_400)) + seconds
    }
}
