/// Decimal digits to the nearest `Double`, exactly as `strtod` rounds (to nearest,
/// ties to even), without `strtod`: the readers of GeoJSON coordinates and log
/// fields hold up to 17 significant digits, past Clinger's fast path (≤ 15
/// digits: one exact division) and slow through the C library (its arbitrary
/// precision path).
package enum DecimalParsing {
    // Literal tables, which the compiler lays out in the binary: built by a
    // closure, each read went through a lazy initialisation check (`swift_once`,
    // 3 % of parsing a large region file). `ShortestDecimal` reads them too.
    /// 10^0 … 10^22, each exact in a double.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^0 … 10^19.
    static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]

    /// The double nearest to `mantissa` × 10^(−`scale`), or `nil` when this
    /// function does not handle the case (then ask `strtod`): it handles every
    /// mantissa below 2^64 with `scale` in 0…19, and small integers times a power
    /// of ten up to 10^22.
    ///
    /// With at most 53 significant bits and a power of ten that a double holds
    /// exactly, one IEEE division or multiplication rounds correctly (Clinger).
    /// Otherwise the quotient is taken in integers: the mantissa shifted left so
    /// that mantissa · 2^s ÷ 10^scale has 63 or 64 bits, one 128-by-64-bit
    /// division, and rounding on the dropped bits and the remainder.
    /// - Complexity: O(1).
    @inline(__always)
    package static func nearestDouble(mantissa: UInt64, scale: Int) -> Double? {
        if mantissa == 0 { return 0 }
        if mantissa <= 1 << 53 {
            if scale >= 0 && scale <= 22 { return Double(mantissa) / powersOfTen[scale] }
            if scale < 0 && scale >= -22 {
                let product = Double(mantissa) * powersOfTen[-scale]
                // Exact only while the product stays an integer a double holds.
                return product <= 9_007_199_254_740_992 ? product : nil
            }
            return nil
        }
        guard scale >= 0 && scale <= 19 else { return nil }
        return dividing(mantissa, byPowerOfTen: scale)
    }

    /// mantissa ÷ 10^scale rounded to nearest, ties to even; mantissa > 2^53.
    @inline(__always)
    private static func dividing(_ mantissa: UInt64, byPowerOfTen scale: Int) -> Double {
        let divisor = integerPowersOfTen[scale]
        let mantissaBits = 64 - mantissa.leadingZeroBitCount
        let divisorBits = 64 - divisor.leadingZeroBitCount
        // mantissa · 2^shift < divisor · 2^64 (so the quotient fits 64 bits) and
        // ≥ 2^62 · divisor (so it has at least 63 bits).
        let shift = 64 + divisorBits - mantissaBits - 1
        let high: UInt64, low: UInt64
        if shift >= 64 {
            high = mantissa << UInt64(shift - 64)
            low = 0
        } else if shift == 0 {
            high = 0
            low = mantissa
        } else {
            high = mantissa >> UInt64(64 - shift)
            low = mantissa << UInt64(shift)
        }
        let (quotient, remainder) = divisor.dividingFullWidth((high: high, low: low))
        let dropped = (64 - quotient.leadingZeroBitCount) - 53
        var significand = quotient >> UInt64(dropped)
        let rest = quotient & ((1 << UInt64(dropped)) - 1)
        let half: UInt64 = 1 << UInt64(dropped - 1)
        var exponent = dropped - shift
        if rest > half || (rest == half && (remainder != 0 || significand & 1 == 1)) {
            significand += 1
            if significand == 1 << 53 {
                significand = 1 << 52
                exponent += 1
            }
        }
        return Double(sign: .plus, exponent: exponent, significand: Double(significand))
    }
}
