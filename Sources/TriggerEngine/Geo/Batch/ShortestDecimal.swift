/// `Double.description`'s text for the coordinates events carry, written
/// straight into a byte buffer.
///
/// Encoding an event printed its latitude and longitude through
/// `Double.description` and a `String` each: about a fifth of a geofence run's
/// instructions on the hard benchmark. Coordinates read from logs have few
/// digits, and for those the shortest round-trip decimal can be found directly:
/// with at most 15 significant digits a decimal is the only one of that length
/// or shorter that parses to its double (15 = `DBL_DIG`: two such decimals
/// parsing to one double could not both come back from it at 15 digits), so the
/// 15-digit decimal that parses back to the value, less its trailing zeros,
/// is exactly what `description` chooses. Anything else (more
/// digits, magnitudes `description` writes with an exponent, zero, infinities,
/// NaN) is left to `description`.
enum ShortestDecimal {
    /// The most bytes `write(_:to:)` writes (`description`'s longest text,
    /// `-2.2250738585072014e-308`, has 24).
    static let maximumLength = 32

    /// Writes `value.description`'s bytes at `target`, which has room for
    /// `maximumLength`; returns how many.
    @inline(__always)
    static func write(_ value: Double, to target: UnsafeMutablePointer<UInt8>) -> Int {
        if let count = writeFast(value, to: target) { return count }
        var text = value.description
        return text.withUTF8 { utf8 in
            // (Never more than 24: the bound only keeps a mistake here inside the caller's room.)
            let count = min(utf8.count, maximumLength)
            target.initialize(from: utf8.baseAddress!, count: count)
            return count
        }
    }

    /// Writes the text when `value` has at most 15 significant digits and a
    /// magnitude in 0.001 ..< 10^15 (which `description` writes without an
    /// exponent), and returns its length; returns `nil`, writing nothing, otherwise.
    ///
    /// With n fraction digits such that p = magnitude × 10^n is in 10^14 ..< 10^15,
    /// the only decimal c / 10^n of at most 15 digits that can parse back to the
    /// value is c = p rounded: p is within p × 2^-53 of the exact product, and a
    /// c that parses back is within about p × 2^-53 of it too (half an ulp of
    /// the value, times 10^n), so within 0.23 of p; a neighbour of the rounded p
    /// is at least 0.5 from p. c / 10^n parses (correctly rounded, as c < 2^53
    /// and 10^n is exact: Clinger) to exactly the quotient compared. A shorter
    /// decimal that parses back would, with zeros appended, be that same c (there
    /// is only one), so the shortest is c without its trailing zeros.
    @inline(__always)
    static func writeFast(_ value: Double, to target: UnsafeMutablePointer<UInt8>) -> Int? {
        let magnitude = value.magnitude
        // `!(… >= …)` also refuses NaN.
        guard magnitude >= 0.001, magnitude < 1e15 else { return nil }
        // n from the binary exponent (log10 2 ≈ 1233 / 4096), then corrected:
        // the estimate is off by at most one.
        var digits = min(17, max(0, 14 - (Int(magnitude.exponent) * 1233) >> 12))
        while digits > 0 && magnitude * DecimalParsing.powersOfTen[digits] >= 1e15 { digits -= 1 }
        while digits < 17 && magnitude * DecimalParsing.powersOfTen[digits + 1] < 1e15 { digits += 1 }
        let scale = DecimalParsing.powersOfTen[digits]
        let scaled = magnitude * scale
        // Rounded to an integer without a call: below 2^52, adding 2^52 leaves no fraction bits.
        let nearest = (scaled + 0x1p52) - 0x1p52
        guard nearest < 1e15, nearest / scale == magnitude else { return nil }
        var number = UInt64(nearest)
        // Trailing zeros off, eight, four, two, one (c has at most 14), then one at a time.
        if digits >= 8 && number % 100_000_000 == 0 { number /= 100_000_000; digits -= 8 }
        if digits >= 4 && number % 10_000 == 0 { number /= 10_000; digits -= 4 }
        if digits >= 2 && number % 100 == 0 { number /= 100; digits -= 2 }
        while digits > 0 && number % 10 == 0 {
            number /= 10
            digits -= 1
        }
        return write(number, fractionDigits: digits, negative: value < 0, to: target)
    }

    /// "00", "01", … "99": two digits per division.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { (pair: Int) -> [UInt8] in
        [UInt8(48 + pair / 10), UInt8(48 + pair % 10)]
    }

    /// Writes c / 10^fractionDigits as `[-]integer.fraction` (fraction "0" when
    /// there are no fraction digits, as `description` writes integral values);
    /// returns its length (at most 15 digits, a leading 0, a point and a sign).
    @inline(__always)
    private static func write(_ number: UInt64, fractionDigits: Int, negative: Bool,
                              to target: UnsafeMutablePointer<UInt8>) -> Int {
        // Integer digits: at least one (0.005).
        var integer = number / DecimalParsing.integerPowersOfTen[fractionDigits], integerDigits = 1
        while integer >= 10 {
            integer /= 10
            integerDigits += 1
        }
        let sign = negative ? 1 : 0
        let length = sign + integerDigits + 1 + max(fractionDigits, 1)
        if negative { target.pointee = 0x2D }
        let point = target + sign + integerDigits
        point.pointee = 0x2E
        // Right to left, two digits at a time: the fraction after the point, then the integer before it.
        digitPairs.withUnsafeBufferPointer { pairs in
            var rest = number
            var position = target + length
            if fractionDigits == 0 { (position - 1).pointee = 48 }
            var left = fractionDigits
            while left >= 2 {
                let pair = Int(rest % 100)
                rest /= 100
                position -= 2
                position[0] = pairs[2 * pair]
                position[1] = pairs[2 * pair + 1]
                left -= 2
            }
            if left == 1 {
                position -= 1
                position.pointee = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            }
            position = point
            repeat {
                position -= 1
                position.pointee = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            } while rest > 0
        }
        return length
    }
}
