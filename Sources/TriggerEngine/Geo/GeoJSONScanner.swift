#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte scanner behind `GeoJSONFeatureCollection(parsing:)`: JSON (RFC 8259)
/// checked as strictly as `JSONSerialization` checks it, read into the few values
/// a region file needs. Every way out of the plain shape throws `Declined`, which
/// only means "take the general path"; nothing here is a message for the user.
///
/// No recursion: coordinates have fixed depths, and values passed over are
/// skipped with an explicit stack of at most 64 levels (`JSONSerialization`
/// allows 512; deeper input is declined and the general path reports it).
struct GeoJSONScanner {
    struct Declined: Error {}

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var index = 0
    static let maximumDepth = 64
    /// Guessed feature starts and the parse of the features from each, by
    /// another thread and this one (`GeoJSONChunkParse`): taken when this
    /// scanner, going feature by feature, arrives at exactly one of them.
    var chunks: GeoJSONChunkParse?

    /// A scanner over `count` bytes from `bytes`.
    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// The member names the region reader acts on; everything else is `other`.
    private enum Key: Int {
        case type, features, id, geometry, properties, coordinates, name, radius, notifyOnEntry, notifyOnExit, repeats, other
    }

    /// The `type` values the reader acts on.
    private enum TypeName {
        case featureCollection, feature, point, polygon, multiPolygon, other
    }

    // MARK: - The document

    /// The whole input: one FeatureCollection object and nothing after it but spaces.
    mutating func featureCollection() throws(Declined) -> [GeoJSONFeatureCollection.Feature] {
        try consume(UInt8(ascii: "{"))
        var sawType = false
        var features: [GeoJSONFeatureCollection.Feature]?
        if !consumeIf(UInt8(ascii: "}")) {
            repeat {
                let key = try memberName()
                switch key {
                case .type:
                    guard !sawType, try typeName() == .featureCollection else { throw Declined() }
                    sawType = true
                case .features:
                    guard features == nil else { throw Declined() }
                    features = try featureArray()
                default:
                    try skipValue()
                }
            } while consumeIf(UInt8(ascii: ","))
            try consume(UInt8(ascii: "}"))
        }
        skipSpace()
        guard sawType, let features, index == count else { throw Declined() }
        return features
    }

    private mutating func featureArray() throws(Declined) -> [GeoJSONFeatureCollection.Feature] {
        try consume(UInt8(ascii: "["))
        var features: [GeoJSONFeatureCollection.Feature] = []
        if consumeIf(UInt8(ascii: "]")) { return features }
        // The next chunk start this loop may arrive at.
        var nextChunk = 0
        repeat {
            skipSpace()
            if let chunks, let chunk = arrivedAtChunk(of: chunks.starts, next: &nextChunk) {
                // A feature starts exactly where a chunk's parse began, so that
                // parse is the one this loop would make from here: take it.
                let (rest, end) = try chunks.features(from: chunk)
                features += rest
                index = end
                return features
            }
            features.append(try feature())
        } while consumeIf(UInt8(ascii: ","))
        try consume(UInt8(ascii: "]"))
        return features
    }

    /// The index in `starts` of the current offset, if it is one; `next` is
    /// the first start not yet passed (the offset only grows).
    @inline(__always)
    private func arrivedAtChunk(of starts: [Int], next: inout Int) -> Int? {
        while next < starts.count && starts[next] < index { next += 1 }
        return next < starts.count && starts[next] == index ? next : nil
    }

    /// How a chunk's parse ended: at another chunk's start, or after the
    /// features array's closing bracket (at that offset).
    enum ChunkEnd {
        case chunk(Int)
        case arrayEnd(Int)
    }

    /// A chunk's features and where its parse ended.
    struct Chunk {
        var features: [GeoJSONFeatureCollection.Feature]
        var end: ChunkEnd
    }

    /// From `starts[chunk]`, taken as the start of a feature in the features
    /// array: that feature and those after it, up to the first that starts at
    /// another of `starts` or through the array's closing bracket (what
    /// `featureArray` would have read from the same place).
    mutating func chunk(from chunk: Int, of starts: [Int]) throws(Declined) -> Chunk {
        index = starts[chunk]
        var features: [GeoJSONFeatureCollection.Feature] = []
        var nextChunk = chunk + 1
        while true {
            features.append(try feature())
            guard consumeIf(UInt8(ascii: ",")) else { break }
            skipSpace()
            if let following = arrivedAtChunk(of: starts, next: &nextChunk) {
                return Chunk(features: features, end: .chunk(following))
            }
        }
        try consume(UInt8(ascii: "]"))
        return Chunk(features: features, end: .arrayEnd(index))
    }

    /// A likely feature start at or after `offset`: a `{` whose previous
    /// non-space byte is a comma (in GeoJSON, nearly always an object in the
    /// features array). Only a guess: `featureArray` takes a chunk's parse only when
    /// it meets the same offset itself.
    static func likelyFeatureStart(_ bytes: UnsafePointer<UInt8>, count: Int, after offset: Int) -> Int? {
        var position = max(offset, 1)
        while position < count {
            if bytes[position] == UInt8(ascii: "{") {
                var before = position - 1
                while before > 0 && isSpace(bytes[before]) { before -= 1 }
                if bytes[before] == UInt8(ascii: ",") { return position }
            }
            position += 1
        }
        return nil
    }

    private mutating func feature() throws(Declined) -> GeoJSONFeatureCollection.Feature {
        try consume(UInt8(ascii: "{"))
        var sawType = false, sawID = false
        var id: GeoJSONFeatureCollection.Scalar?
        var geometry: GeoJSONFeatureCollection.Geometry?
        var properties: GeoJSONFeatureCollection.Properties?
        repeat {
            switch try memberName() {
            case .type:
                guard !sawType, try typeName() == .feature else { throw Declined() }
                sawType = true
            case .id:
                guard !sawID else { throw Declined() }
                sawID = true
                id = try scalar()
            case .geometry:
                guard geometry == nil else { throw Declined() }
                geometry = try self.geometry()
            case .properties:
                guard properties == nil else { throw Declined() }
                properties = try consumeNull() ? GeoJSONFeatureCollection.Properties() : try self.properties()
            default:
                try skipValue()
            }
        } while consumeIf(UInt8(ascii: ","))
        try consume(UInt8(ascii: "}"))
        guard sawType, let geometry else { throw Declined() }
        return GeoJSONFeatureCollection.Feature(id: id, geometry: geometry,
                                                properties: properties ?? GeoJSONFeatureCollection.Properties())
    }

    private mutating func properties() throws(Declined) -> GeoJSONFeatureCollection.Properties {
        try consume(UInt8(ascii: "{"))
        var properties = GeoJSONFeatureCollection.Properties()
        var seen = 0
        if consumeIf(UInt8(ascii: "}")) { return properties }
        repeat {
            let key = try memberName()
            if key != .other {
                // A repeated member the monitor reads: which one counts is the general path's business.
                guard seen & 1 << key.rawValue == 0 else { throw Declined() }
                seen |= 1 << key.rawValue
            }
            switch key {
            case .id: properties.id = try scalar()
            case .name: properties.name = try scalar()
            case .radius: properties.radius = try consumeNull() ? nil : try number()
            case .notifyOnEntry: properties.notifyOnEntry = try flag()
            case .notifyOnExit: properties.notifyOnExit = try flag()
            case .repeats: properties.repeats = try flag()
            default: try skipValue()
            }
        } while consumeIf(UInt8(ascii: ","))
        try consume(UInt8(ascii: "}"))
        return properties
    }

    /// A string or a number; other values are passed over and count as absent,
    /// as the general path treats them.
    private mutating func scalar() throws(Declined) -> GeoJSONFeatureCollection.Scalar? {
        skipSpace()
        guard index < count else { throw Declined() }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default:
            try skipValue()
            return nil
        }
    }

    /// `true` or `false`; `null` counts as absent (the default applies).
    private mutating func flag() throws(Declined) -> Bool? {
        skipSpace()
        if literal("true") { return true }
        if literal("false") { return false }
        if literal("null") { return nil }
        throw Declined()
    }

    private mutating func consumeNull() throws(Declined) -> Bool {
        skipSpace()
        return literal("null")
    }

    // MARK: - Geometry

    private mutating func geometry() throws(Declined) -> GeoJSONFeatureCollection.Geometry {
        try consume(UInt8(ascii: "{"))
        var type: TypeName?
        var coordinates: GeoJSONFeatureCollection.Geometry?
        repeat {
            switch try memberName() {
            case .type:
                guard type == nil else { throw Declined() }
                type = try typeName()
            case .coordinates:
                guard coordinates == nil else { throw Declined() }
                coordinates = try self.coordinates()
            default:
                try skipValue()
            }
        } while consumeIf(UInt8(ascii: ","))
        try consume(UInt8(ascii: "}"))
        // The member order is free: coordinates are read by their depth, then matched with the type.
        guard let type, let coordinates else { throw Declined() }
        switch (type, coordinates) {
        case (.point, .point), (.polygon, .polygon), (.multiPolygon, .multiPolygon): return coordinates
        default: throw Declined()
        }
    }

    /// Nested arrays of numbers, read by their depth: 1 a position, 3 a polygon's
    /// rings, 4 a MultiPolygon's polygons. Empty arrays are declined.
    private mutating func coordinates() throws(Declined) -> GeoJSONFeatureCollection.Geometry {
        skipSpace()
        var probe = index
        var depth = 0
        while probe < count {
            let byte = bytes[probe]
            if byte == UInt8(ascii: "[") { depth += 1 } else if !Self.isSpace(byte) { break }
            probe += 1
        }
        switch depth {
        case 1: return .point(try position())
        case 3: return .polygon(try rings())
        case 4:
            try consume(UInt8(ascii: "["))
            var polygons: [[[XY]]] = []
            repeat { polygons.append(try rings()) } while consumeIf(UInt8(ascii: ","))
            try consume(UInt8(ascii: "]"))
            return .multiPolygon(polygons)
        default:
            throw Declined()
        }
    }

    private mutating func rings() throws(Declined) -> [[XY]] {
        try consume(UInt8(ascii: "["))
        var rings: [[XY]] = []
        repeat {
            try consume(UInt8(ascii: "["))
            var ring: [XY] = []
            repeat { ring.append(try position()) } while consumeIf(UInt8(ascii: ","))
            try consume(UInt8(ascii: "]"))
            rings.append(ring)
        } while consumeIf(UInt8(ascii: ","))
        try consume(UInt8(ascii: "]"))
        return rings
    }

    /// `[longitude, latitude]` with optional further numbers (altitude) after them.
    @inline(__always)
    private mutating func position() throws(Declined) -> XY {
        try consume(UInt8(ascii: "["))
        let x = try number()
        try consume(UInt8(ascii: ","))
        let y = try number()
        while consumeIf(UInt8(ascii: ",")) { _ = try number() }
        try consume(UInt8(ascii: "]"))
        return XY(x, y)
    }

    // MARK: - Tokens

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    private mutating func skipSpace() {
        while index < count && Self.isSpace(bytes[index]) { index += 1 }
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8) throws(Declined) {
        skipSpace()
        guard index < count, bytes[index] == byte else { throw Declined() }
        index += 1
    }

    @inline(__always)
    private mutating func consumeIf(_ byte: UInt8) -> Bool {
        skipSpace()
        if index < count && bytes[index] == byte {
            index += 1
            return true
        }
        return false
    }

    /// Consumes `word` (a JSON literal) when it is next.
    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard count - index >= length, memcmp(bytes + index, word.utf8Start, length) == 0 else { return false }
        index += length
        return true
    }

    /// A member name and the colon after it. Names with escapes are declined:
    /// `"typ\u0065"` is `type` to JSON, and matching it byte by byte would miss that.
    private mutating func memberName() throws(Declined) -> Key {
        guard let (start, length) = try plainString() else { throw Declined() }
        try consume(UInt8(ascii: ":"))
        return Self.key(bytes + start, length)
    }

    /// Scans a string up to its closing quote and returns where its content is,
    /// UTF-8 checked; `nil` when it holds an escape, with the cursor left at the
    /// content's first byte for `escapedString(from:)`.
    private mutating func plainString() throws(Declined) -> (start: Int, length: Int)? {
        try consume(UInt8(ascii: "\""))
        let start = index
        var ascii = true
        while true {
            guard index < count else { throw Declined() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                index = start
                return nil
            }
            if byte < 0x20 { throw Declined() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        let length = index - start
        index += 1
        if !ascii { try validateUTF8(start, length) }
        return (start, length)
    }

    private static func key(_ name: UnsafePointer<UInt8>, _ length: Int) -> Key {
        func matches(_ word: StaticString) -> Bool {
            word.utf8CodeUnitCount == length && memcmp(name, word.utf8Start, length) == 0
        }
        switch length {
        case 2: return matches("id") ? .id : .other
        case 4: return matches("type") ? .type : matches("name") ? .name : .other
        case 6: return matches("radius") ? .radius : .other
        case 7: return matches("repeats") ? .repeats : .other
        case 8: return matches("features") ? .features : matches("geometry") ? .geometry : .other
        case 10: return matches("properties") ? .properties : .other
        case 11: return matches("coordinates") ? .coordinates : .other
        case 12: return matches("notifyOnExit") ? .notifyOnExit : .other
        case 13: return matches("notifyOnEntry") ? .notifyOnEntry : .other
        default: return .other
        }
    }

    /// A `type` member's value, compared as bytes (a value with escapes is `other`
    /// only if it decodes to something else: it is decoded first).
    private mutating func typeName() throws(Declined) -> TypeName {
        switch try string() {
        case "FeatureCollection": return .featureCollection
        case "Feature": return .feature
        case "Point": return .point
        case "Polygon": return .polygon
        case "MultiPolygon": return .multiPolygon
        default: return .other
        }
    }

    /// A string value, escapes decoded (RFC 8259 §7), UTF-8 checked.
    private mutating func string() throws(Declined) -> String {
        guard let (start, length) = try plainString() else { return try escapedString(from: index) }
        return String(decoding: UnsafeBufferPointer(start: bytes + start, count: length), as: UTF8.self)
    }

    /// The rest of a string that holds an escape, from its first byte at `start`.
    private mutating func escapedString(from start: Int) throws(Declined) -> String {
        var decoded = Array(UnsafeBufferPointer(start: bytes + start, count: index - start))
        while true {
            guard index < count else { throw Declined() }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw Declined() }
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                continue
            }
            guard index < count else { throw Declined() }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard literal("\\u") else { throw Declined() }
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw Declined() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw Declined()
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Declined() }
                decoded += Array(String(Character(unicode)).utf8)
            default:
                throw Declined()
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw Declined() }
        return text
    }

    private mutating func hexQuad() throws(Declined) -> UInt32 {
        guard count - index >= 4 else { throw Declined() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Declined()
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func validateUTF8(_ start: Int, _ length: Int) throws(Declined) {
        guard String(validating: UnsafeBufferPointer(start: bytes + start, count: length), as: UTF8.self) != nil else {
            throw Declined()
        }
    }

    /// A JSON number (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`) rounded to
    /// the nearest double as `strtod` rounds it. Integers of more than 18 digits and
    /// exponents beyond ±300 are declined (the general path decides what they are).
    @inline(__always)
    private mutating func number() throws(Declined) -> Double {
        skipSpace()
        let start = index
        var negative = false
        if index < count && bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var integerDigits = 0
        // Integer part: 0, or a non-zero digit and more digits.
        guard index < count else { throw Declined() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            integerDigits = 1
        } else {
            integerDigits = digits(&mantissa, &significant)
            guard integerDigits > 0 else { throw Declined() }
        }
        var fractionDigits = 0
        var isInteger = true
        if index < count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            fractionDigits = digits(&mantissa, &significant)
            guard fractionDigits > 0 else { throw Declined() }
        }
        var exponent = 0
        if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponentDigits = 0
            while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                exponent = exponent * 10 + Int(digit)
                exponentDigits += 1
                guard exponent <= 300 else { throw Declined() }
                index += 1
            }
            guard exponentDigits > 0 else { throw Declined() }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger {
            guard integerDigits <= 18 else { throw Declined() }
            return negative ? -Double(mantissa) : Double(mantissa)
        }
        var value: Double
        if significant <= 19, let nearest = DecimalParsing.nearestDouble(mantissa: mantissa, scale: fractionDigits - exponent) {
            value = nearest
        } else {
            value = try Self.strtodValue(bytes + start, index - start)
        }
        if negative { value = -value }
        return value
    }

    /// Consumes decimal digits and returns how many; the significant ones (from the
    /// first non-zero digit on) go into `mantissa`, counted in `significant` (past
    /// 19 the mantissa wraps, and the caller goes to `strtod`).
    @inline(__always)
    private mutating func digits(_ mantissa: inout UInt64, _ significant: inout Int) -> Int {
        let start = index
        // Zeros before the first significant digit only move the point.
        if significant == 0 {
            while index < count && bytes[index] == UInt8(ascii: "0") { index += 1 }
        }
        significant += DecimalParsing.appendDigits(bytes, count: count, at: &index, to: &mantissa)
        return index - start
    }

    /// The C library's reading of a number already checked against JSON's grammar.
    private static func strtodValue(_ text: UnsafePointer<UInt8>, _ length: Int) throws(Declined) -> Double {
        guard length < 128 else { throw Declined() }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer -> Double in
            for offset in 0..<length { buffer[offset] = CChar(bitPattern: text[offset]) }
            buffer[length] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        guard value.isFinite else { throw Declined() }
        return abs(value)
    }

    // MARK: - Passing over values

    /// Checks and passes over one value of any kind, without recursion.
    private mutating func skipValue() throws(Declined) {
        // Bit i of `objects`: whether the container at depth i + 1 is an object.
        var objects: UInt64 = 0
        var depth = 0
        while true {
            skipSpace()
            guard index < count else { throw Declined() }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                if !consumeIf(UInt8(ascii: "}")) {
                    guard depth < Self.maximumDepth else { throw Declined() }
                    objects |= 1 << UInt64(depth)
                    depth += 1
                    try skipString()
                    try consume(UInt8(ascii: ":"))
                    continue
                }
            case UInt8(ascii: "["):
                index += 1
                if !consumeIf(UInt8(ascii: "]")) {
                    guard depth < Self.maximumDepth else { throw Declined() }
                    objects &= ~(1 << UInt64(depth))
                    depth += 1
                    continue
                }
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"):
                guard literal("true") else { throw Declined() }
            case UInt8(ascii: "f"):
                guard literal("false") else { throw Declined() }
            case UInt8(ascii: "n"):
                guard literal("null") else { throw Declined() }
            default:
                _ = try number()
            }
            // A value is complete: close the containers it completes.
            while depth > 0 {
                let isObject = objects & (1 << UInt64(depth - 1)) != 0
                if consumeIf(UInt8(ascii: ",")) {
                    if isObject {
                        try skipString()
                        try consume(UInt8(ascii: ":"))
                    }
                    break
                }
                try consume(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                depth -= 1
            }
            if depth == 0 { return }
        }
    }

    /// Checks and passes over a string (escapes, control characters, UTF-8).
    private mutating func skipString() throws(Declined) {
        if try plainString() == nil { _ = try escapedString(from: index) }
    }
}
