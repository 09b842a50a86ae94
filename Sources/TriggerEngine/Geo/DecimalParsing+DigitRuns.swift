/// Runs of decimal digits read eight bytes at a time.
///
/// The readers of region files and location logs spend most of their time on
/// coordinates: 16 or 17 digits each in a GeoJSON file written by a program,
/// 6 to 8 in a log. Byte by byte that was about ten instructions a digit; here
/// one word is loaded, its leading digits found with a few masks, and their
/// value formed by three multiplications, whatever their count. On the hard geofence
/// benchmark's 41.8 MB region file the GeoJSON number reading took 880 M
/// instructions before, 595 M after (cachegrind; the whole run 6.72 → 6.48 G).
extension DecimalParsing {
    /// The decimal digits at the start of `word` (low byte first): how many
    /// (0…8) and their value.
    ///
    /// A byte is a digit when its high nibble is 3 and stays 3 after adding 6
    /// (0x30…0x39). Adding 6 to every byte at once can carry out of a byte of
    /// 0xFA or more into the next, but only out of a byte that is not a digit,
    /// so only into bytes after the first that is not: the count is exact.
    /// The digits are then moved to the top of the word (the bytes below act
    /// as leading zeros) and combined in pairs, fours and eights.
    @inline(__always)
    static func leadingDigits(of word: UInt64) -> (count: Int, value: UInt64) {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        let notDigit = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
        let count = notDigit.trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        var value = (word & 0x0F0F_0F0F_0F0F_0F0F) &<< UInt64(8 * (8 - count))
        value = (value &* 10 &+ (value >> 8)) & 0x00FF_00FF_00FF_00FF
        value = (value &* 100 &+ (value >> 16)) & 0x0000_FFFF_0000_FFFF
        value = (value &* 10_000 &+ (value >> 32)) & 0xFFFF_FFFF
        return (count, value)
    }

    /// Reads the run of digits at `bytes[index...]` into `mantissa` (× 10 per
    /// digit, plus the digit, wrapping past 2⁶⁴: callers count the digits and
    /// refuse more than 19) and moves `index` past it; returns how many there were.
    /// Eight bytes at a time; the last few through the buffer's last eight
    /// bytes (byte by byte only in a buffer shorter than eight).
    @inline(__always)
    static func appendDigits(_ bytes: UnsafePointer<UInt8>, count: Int, at index: inout Int, to mantissa: inout UInt64) -> Int {
        let start = index
        let base = UnsafeRawPointer(bytes)
        while count &- index >= 8 {
            let (digits, value) = leadingDigits(of: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            mantissa = mantissa &* integerPowersOfTen[digits] &+ value
            index &+= digits
            if digits < 8 { return index &- start }
        }
        let left = count &- index
        if left > 0 && count >= 8 {
            // Under eight bytes left: the buffer's last eight, shifted down so
            // that `bytes[index]` is the low byte (zeros, not digits, come in above).
            let last = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            let (digits, value) = leadingDigits(of: last &>> UInt64(8 &* (8 &- left)))
            mantissa = mantissa &* integerPowersOfTen[digits] &+ value
            index &+= digits
            return index &- start
        }
        while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index &+= 1
        }
        return index &- start
    }
}
