/// Reads the common shape of a `next --batch` line straight from its bytes:
/// one flat JSON object of the query keys, ASCII strings without escapes,
/// plain integers, `true`/`false`, `components` as an object of integers.
///
/// It is a fast path, not a second parser: it answers only where it is sure
/// to read what `JSONDecoder` reads, and `nil` for anything else (an escape, a
/// non-ASCII byte, a duplicate or unknown key, `null`, a number with a fraction
/// where an integer goes, malformed JSON), which then takes the general path
/// with its error messages. `FireDateQueryJSONTests` checks the two agree.
struct QueryLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0
    /// Where `fields()` found the `after` string's content (inside its quotes)
    /// and the `count` integer (sign and digits), for `QueryLineTemplate`.
    private(set) var afterValue: Range<Int>?
    private(set) var countValue: Range<Int>?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// A scanner reading `bytes` from `index` on (`QueryLineTemplate` reads one value with it).
    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) {
        self.bytes = bytes
        self.index = index
    }

    /// The query keys (`FireDateQuery.Fields.jsonKeys`), each marked as seen by
    /// the bit of its raw value.
    enum Key: Int, CaseIterable {
        case after, components, count, dtstart, exdate, interval, once, rdate, repeats, rrule, tz

        /// The key as a line spells it.
        var name: StaticString {
            switch self {
            case .after: "after"
            case .components: "components"
            case .count: "count"
            case .dtstart: "dtstart"
            case .exdate: "exdate"
            case .interval: "interval"
            case .once: "once"
            case .rdate: "rdate"
            case .repeats: "repeats"
            case .rrule: "rrule"
            case .tz: "tz"
            }
        }

        /// The key spelled by `bytes`, or nil: compared as bytes, without a
        /// `String` (four keys a line made four strings, and a switch over
        /// them compared each with the names in turn).
        init?(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            // By first byte, then the whole name (at most three share one).
            func spells(_ key: Key) -> Bool { QueryLineScanner.equal(bytes, key.name) }
            switch bytes.first {
            case UInt8(ascii: "a") where spells(.after): self = .after
            case UInt8(ascii: "c") where spells(.components): self = .components
            case UInt8(ascii: "c") where spells(.count): self = .count
            case UInt8(ascii: "d") where spells(.dtstart): self = .dtstart
            case UInt8(ascii: "e") where spells(.exdate): self = .exdate
            case UInt8(ascii: "i") where spells(.interval): self = .interval
            case UInt8(ascii: "o") where spells(.once): self = .once
            case UInt8(ascii: "r") where spells(.rdate): self = .rdate
            case UInt8(ascii: "r") where spells(.repeats): self = .repeats
            case UInt8(ascii: "r") where spells(.rrule): self = .rrule
            case UInt8(ascii: "t") where spells(.tz): self = .tz
            default: return nil
            }
        }
    }

    /// Integers longer than this go to the general path (it reads them as a `Double` first).
    private static let maximumDigits = 15

    /// The query, or `nil` when the line is not of the common shape.
    mutating func fields() -> FireDateQuery.Fields? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var fields = FireDateQuery.Fields()
        if take(UInt8(ascii: "}")) { return atEnd() ? fields : nil }
        var seen = 0
        repeat {
            guard let spelled = string(), let key = Key(spelled),
                  seen & (1 << key.rawValue) == 0, take(UInt8(ascii: ":")) else { return nil }
            seen |= 1 << key.rawValue
            switch key {
            case .components:
                guard let pairs = components() else { return nil }
                fields.components = pairs
            case .rrule: guard let text = text() else { return nil }; fields.rrule = text
            case .dtstart: guard let text = text() else { return nil }; fields.dtstart = text
            case .tz: guard let text = text() else { return nil }; fields.tz = text
            case .after:
                guard let content = string() else { return nil }
                fields.after = String(decoding: content, as: UTF8.self)
                afterValue = content.startIndex..<content.endIndex
            case .rdate: guard let texts = texts() else { return nil }; fields.rdate = texts
            case .exdate: guard let texts = texts() else { return nil }; fields.exdate = texts
            case .interval: guard let seconds = number() else { return nil }; fields.interval = seconds
            case .count:
                skipSpace()
                let start = index
                guard let count = integer() else { return nil }
                fields.count = count
                countValue = start..<index
            case .repeats: guard let flag = boolean() else { return nil }; fields.repeats = flag
            case .once: guard let flag = boolean() else { return nil }; fields.once = flag
            }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) && atEnd() ? fields : nil
    }

    // MARK: Values

    /// `{"name": integer, …}`, sorted by name as the general path sorts them.
    private mutating func components() -> [(name: String, value: Int)]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var pairs: [(name: String, value: Int)] = []
        pairs.reserveCapacity(4)
        if take(UInt8(ascii: "}")) { return pairs }
        // Each name's bytes, to check for repeats and order as bytes rather than
        // as strings (printable ASCII: the same order as the strings').
        var names: [Slice<UnsafeBufferPointer<UInt8>>] = []
        names.reserveCapacity(4)
        var ordered = true
        repeat {
            guard let name = string(), take(UInt8(ascii: ":")), let value = integer(),
                  !names.contains(where: { Self.equal($0, name) }) else { return nil }
            if let last = names.last, !last.lexicographicallyPrecedes(name) { ordered = false }
            names.append(name)
            pairs.append((String(decoding: name, as: UTF8.self), value))
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        // Usually written in order already ("hour" before "minute"): then no sorted copy.
        if ordered { return pairs }
        return pairs.sorted { $0.name < $1.name }
    }

    /// A string, or an array of strings.
    private mutating func texts() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return text().map { [$0] } }
        var texts: [String] = []
        if take(UInt8(ascii: "]")) { return texts }
        repeat {
            guard let text = text() else { return nil }
            texts.append(text)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? texts : nil
    }

    private mutating func text() -> String? {
        string().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a string of printable ASCII without escapes.
    mutating func string() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return bytes[start..<(index - 1)]
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// `-?(0|[1-9][0-9]*)` of at most `maximumDigits` digits, not followed by a fraction or exponent.
    mutating func integer() -> Int? {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            // Past `maximumDigits` the line goes to the general path: stop before
            // `value` could overflow (19 digits trapped, a fuzz finding).
            guard index - start < Self.maximumDigits else { return nil }
            value = value * 10 + digit
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0"),
              index == bytes.count || Self.endsAValue(bytes[index]) else { return nil }
        return negative ? -value : value
    }

    /// A JSON number, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, read
    /// as the standard library reads it (correctly rounded, as the decoder is).
    private mutating func number() -> Double? {
        skipSpace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0, index - integerStart == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.count || Self.endsAValue(bytes[index]) else { return nil }
        return Double(String(decoding: bytes[start..<index], as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
        return index - start
    }

    private mutating func boolean() -> Bool? {
        skipSpace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return false }
        guard index + length == bytes.count || Self.endsAValue(bytes[index + length]) else { return false }
        index += length
        return true
    }

    // MARK: Bytes

    /// Whether two byte strings are the same (`ShortBytes`).
    static func equal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ other: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard bytes.count == other.count else { return false }
        if bytes.isEmpty { return true }
        return ShortBytes.equal(bytes.base.baseAddress! + bytes.startIndex, other.base.baseAddress! + other.startIndex,
                                count: bytes.count)
    }

    /// Whether `bytes` spell `name` (`ShortBytes`).
    static func equal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        if bytes.isEmpty { return true }
        return ShortBytes.equal(bytes.base.baseAddress! + bytes.startIndex, name.utf8Start, count: bytes.count)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    /// Whether `byte` may follow a number or a literal: white space, `,`, `}`, `]`
    /// (anything else means what came before was not all of the value).
    private static func endsAValue(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    /// Skips white space, then takes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }
}
