/// A scanned `next --batch` line with holes where its `after` and `count`
/// values were: a later line with the same bytes around the holes and other
/// values in them asks about the same trigger, and is read by filling the
/// holes, without scanning it or building its fields.
///
/// Batch files usually ask many times about one trigger (the fires after each
/// of many instants): there, building each line's `FireDateQuery.Fields` (its
/// strings, its components array) and comparing it with the last line's was
/// most of the CLI's time per line, and the engine's answer a tenth.
///
/// Why filling the holes reads what `QueryLineScanner` would: the scanner's
/// every decision depends on the bytes it has reached. The template's bytes
/// were scanned as a whole line; a new `after` content is printable ASCII
/// without a quote or a backslash, so the scanner's string ends at the same
/// closing quote; a new `count` is one of the scanner's own integers, and the
/// template's next byte, which ended the old one, ends it too. Everything else
/// is the same bytes, so the scanner would take the same path and read the
/// same fields, but for those two values. Lines of another shape, or with any
/// byte changed outside the holes, are scanned as before.
struct QueryLineTemplate {
    /// The template line's bytes, holes included (their old values).
    private var bytes: [UInt8] = []
    /// The holes in line order: (is it `count`, its range in `bytes`).
    private var first: (isCount: Bool, range: Range<Int>)?
    private var second: (isCount: Bool, range: Range<Int>)?
    /// The template line's `once`: it bounds `count` (`FireDateQuery.start`).
    private(set) var once = false
    /// Whether there is a template line to match.
    private(set) var isSet = false
    /// Bytes of the template line.
    var byteCount: Int { isSet ? bytes.count : 0 }

    /// No template: nothing matches.
    init() {}

    /// Makes `line` the template: it was read by `scanner.fields()` into
    /// `fields` (its holes are where the scanner found `after` and `count`).
    /// A time-interval trigger counts from its `after`, so its line is no
    /// template (as `FireDateQuery.reask` does not move one).
    mutating func set(_ line: UnsafeBufferPointer<UInt8>, scannedBy scanner: QueryLineScanner, fields: FireDateQuery.Fields) {
        guard fields.interval == nil else { return clear() }
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: line)
        let after = scanner.afterValue.map { (isCount: false, range: $0) }
        let count = scanner.countValue.map { (isCount: true, range: $0) }
        if let a = after, let c = count, c.range.lowerBound < a.range.lowerBound {
            (first, second) = (c, a)
        } else {
            (first, second) = after == nil ? (count, nil) : (after, count)
        }
        once = fields.once
        isSet = true
    }

    /// Forgets the template line.
    mutating func clear() {
        isSet = false
    }

    /// The values `line` puts in the holes when it is the template line with
    /// other values there: the `after` string's content (a range of `line`;
    /// nil when the template has no `after`) and the `count` (nil when the
    /// template has none). `nil` when `line` differs anywhere else.
    /// - Complexity: O(line).
    func values(of line: UnsafeBufferPointer<UInt8>) -> (after: Range<Int>?, count: Int?)? {
        guard isSet else { return nil }
        var after: Range<Int>?
        var count: Int?
        var position = 0
        var templatePosition = 0
        // The bytes before a hole, then the new value in it.
        func fill(_ hole: (isCount: Bool, range: Range<Int>)) -> Bool {
            guard sameBytes(line, at: position, asTemplateIn: templatePosition..<hole.range.lowerBound) else { return false }
            position += hole.range.lowerBound - templatePosition
            templatePosition = hole.range.upperBound
            if hole.isCount {
                var scanner = QueryLineScanner(line, at: position)
                guard let value = scanner.integer() else { return false }
                count = value
                position = scanner.index
                return true
            }
            // The string from its opening quote (the template's last byte
            // before the hole), read by the scanner's own rule.
            var scanner = QueryLineScanner(line, at: position - 1)
            guard let content = scanner.string() else { return false }
            after = content.startIndex..<content.endIndex
            position = content.endIndex
            return true
        }
        if let first, !fill(first) { return nil }
        if let second, !fill(second) { return nil }
        guard line.count - position == bytes.count - templatePosition,
              sameBytes(line, at: position, asTemplateIn: templatePosition..<bytes.count) else { return nil }
        return (after, count)
    }

    /// Whether `line` holds the template's bytes `range` from `position` on.
    private func sameBytes(_ line: UnsafeBufferPointer<UInt8>, at position: Int, asTemplateIn range: Range<Int>) -> Bool {
        guard line.count - position >= range.count else { return false }
        if range.isEmpty { return true }
        return bytes.withUnsafeBufferPointer { template in
            ShortBytes.equal(line.baseAddress! + position, template.baseAddress! + range.lowerBound, count: range.count)
        }
    }
}
