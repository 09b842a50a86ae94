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
    /// 10^0 … 10^17, each exact (every power of ten up to 10^22 is a double).
    private static let powers: [Double] = (0...17).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Appends `value.description`'s bytes to `out`.
    @inline(__always)
    static func append(_ value: Double, to out: inout [UInt8]) {
        if !appendFast(value, to: &out) { out += value.description.utf8 }
    }

    /// Appends the text when `value` has at most 15 significant digits and a
    /// magnitude in 0.001 ..< 10^15 (which `description` writes without an
    /// exponent); returns `false`, writing nothing, otherwise.
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
    static func appendFast(_ value: Double, to out: inout [UInt8]) -> Bool {
        let magnitude = value.magnitude
        // `!(… >= …)` also refuses NaN.
        guard magnitude >= 0.001, magnitude < 1e15 else { return false }
        // n from the binary exponent (log10 2 ≈ 1233 / 4096), then corrected:
        // the estimate is off by at most one.
        var digits = min(17, max(0, 14 - (Int(magnitude.exponent) * 1233) >> 12))
        while digits > 0 && magnitude * powers[digits] >= 1e15 { digits -= 1 }
        while digits < 17 && magnitude * powers[digits + 1] < 1e15 { digits += 1 }
        let scale = powers[digits]
        let scaled = magnitude * scale
        // Rounded to an integer without a call: below 2^52, adding 2^52 leaves no fraction bits.
        let nearest = (scaled + 0x1p52) - 0x1p52
        guard nearest < 1e15, nearest / scale == magnitude else { return false }
        var number = UInt64(nearest)
        // Trailing zeros off, eight, four, two, one (c has at most 14), then one at a time.
        if digits >= 8 && number % 100_000_000 == 0 { number /= 100_000_000; digits -= 8 }
        if digits >= 4 && number % 10_000 == 0 { number /= 10_000; digits -= 4 }
        if digits >= 2 && number % 100 == 0 { number /= 100; digits -= 2 }
        while digits > 0 && number % 10 == 0 {
            number /= 10
            digits -= 1
        }
        write(number, fractionDigits: digits, negative: value < 0, to: &out)
        return true
    }

    /// Writes c / 10^fractionDigits as `[-]integer.fraction` (fraction "0" when
    /// there are no fraction digits, as `description` writes integral values).
    @inline(__always)
    private static func write(_ number: UInt64, fractionDigits: Int, negative: Bool, to out: inout [UInt8]) {
        // At most 15 digits, a leading 0 (0.005), a point and a sign: the text is
        // built right to left in 24 bytes and appended at once.
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { bytes in
            var position = 24
            var rest = number
            if fractionDigits == 0 {
                position -= 2
                bytes[22] = 0x2E
                bytes[23] = 48
            } else {
                for _ in 0..<fractionDigits {
                    position -= 1
                    bytes[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                    rest /= 10
                }
                position -= 1
                bytes[position] = 0x2E
            }
            repeat {
                position -= 1
                bytes[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            } while rest > 0
            if negative {
                position -= 1
                bytes[position] = 0x2D
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...]))
        }
    }
}
