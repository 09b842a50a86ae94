/// `Double.description`'s text for the coordinates events carry, written
/// straight into a byte buffer.
///
/// Encoding an event printed its latitude and longitude through
/// `Double.description` and a `String` each: about a third of a geofence run's
/// instructions on the hard benchmark. Coordinates read from logs have few
/// digits, and for those the shortest round-trip decimal can be found directly:
/// with at most 15 significant digits a decimal is the only one of that length
/// or shorter that parses to its double (15 = `DBL_DIG`: two such decimals
/// parsing to one double could not both come back from it at 15 digits), so the
/// first number of fraction digits at which some decimal parses back to the
/// value gives exactly the digits `description` chooses. Anything else (more
/// digits, magnitudes `description` writes with an exponent, zero, infinities,
/// NaN) is left to `description`.
enum ShortestDecimal {
    /// Appends `value.description`'s bytes to `out`.
    @inline(__always)
    static func append(_ value: Double, to out: inout [UInt8]) {
        if !appendFast(value, to: &out) { out += value.description.utf8 }
    }

    /// Appends the text when `value` has at most 15 significant digits and a
    /// magnitude in 0.001 ..< 10^15 (which `description` writes without an
    /// exponent); returns `false`, writing nothing, otherwise.
    ///
    /// For n = 0, 1, 2 … fraction digits, the only decimal c / 10^n that can
    /// parse back to the value is c = magnitude × 10^n rounded: the product is
    /// below 10^15, so it is within 0.12 of the exact product, and a c that parses
    /// back is within 0.12 of the exact product too; a neighbour of the rounded
    /// product is at least 0.5 from it. c / 10^n parses (correctly rounded, as
    /// c < 2^53 and 10^n is exact: Clinger) to exactly the quotient compared.
    static func appendFast(_ value: Double, to out: inout [UInt8]) -> Bool {
        let magnitude = value.magnitude
        // `!(… >= …)` also refuses NaN.
        guard magnitude >= 0.001, magnitude < 1e15 else { return false }
        // 10^n, exact all the way (every power of ten up to 10^22 is a double).
        var scale = 1.0
        for digits in 0...16 {
            defer { scale *= 10 }
            let scaled = magnitude * scale
            if !(scaled < 1e15) { return false }
            // Rounded to an integer without a call: below 2^52, adding 2^52 leaves no fraction bits.
            let nearest = (scaled + 0x1p52) - 0x1p52
            // Far from an integer: no decimal with this many digits (saves the division).
            if (scaled - nearest).magnitude > 0.25 { continue }
            if nearest / scale == magnitude {
                write(UInt64(nearest), fractionDigits: digits, negative: value < 0, to: &out)
                return true
            }
        }
        return false
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
