import Foundation

/// The duration of a sound file from its header: RIFF WAVE, AIFF/AIFF-C and CAF,
/// the formats Apple accepts for notification sounds.
package enum SoundFile {
    /// Seconds of audio in the file at `url`, `nil` when it is not a WAV, AIFF
    /// or CAF file this reader understands.
    package static func duration(of url: URL) -> Double? {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
        return duration(of: [UInt8](data))
    }

    /// Seconds of audio in `bytes` (a whole file).
    package static func duration(of bytes: [UInt8]) -> Double? {
        guard bytes.count >= 12 else { return nil }
        let tag = String(decoding: bytes[0..<4], as: UTF8.self)
        switch tag {
        case "RIFF": return wave(bytes)
        case "FORM": return aiff(bytes)
        case "caff": return caf(bytes)
        default: return nil
        }
    }

    static func le(_ b: [UInt8], _ at: Int, _ n: Int) -> UInt64 {
        (0..<n).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) }
    }

    static func be(_ b: [UInt8], _ at: Int, _ n: Int) -> UInt64 {
        (0..<n).reduce(0) { $0 << 8 | UInt64(b[at + $1]) }
    }

    /// WAVE: `fmt ` gives the byte rate (offset 8 in the chunk), `data` the byte count.
    static func wave(_ b: [UInt8]) -> Double? {
        var at = 12
        var byteRate: UInt64?
        while at + 8 <= b.count {
            let id = String(decoding: b[at..<at + 4], as: UTF8.self)
            let size = Int(le(b, at + 4, 4))
            if id == "fmt ", at + 20 <= b.count { byteRate = le(b, at + 16, 4) }
            if id == "data", let byteRate, byteRate > 0 { return Double(size) / Double(byteRate) }
            at += 8 + size + (size & 1)
        }
        return nil
    }

    /// AIFF: `COMM` holds the frame count and an 80-bit extended sample rate.
    static func aiff(_ b: [UInt8]) -> Double? {
        var at = 12
        while at + 8 <= b.count {
            let id = String(decoding: b[at..<at + 4], as: UTF8.self)
            let size = Int(be(b, at + 4, 4))
            if id == "COMM", at + 26 <= b.count {
                let frames = Double(be(b, at + 10, 4))
                let exponent = Int(be(b, at + 16, 2) & 0x7FFF) - 16383 - 63
                let mantissa = Double(be(b, at + 18, 8))
                let rate = mantissa * pow(2, Double(exponent))
                return rate > 0 ? frames / rate : nil
            }
            at += 8 + size + (size & 1)
        }
        return nil
    }

    /// CAF: `desc` holds the sample rate (Float64) and frames per packet; `pakt`
    /// the frame count, or `data` bytes over bytes per packet for constant-rate audio.
    static func caf(_ b: [UInt8]) -> Double? {
        var at = 8
        var rate = 0.0, bytesPerPacket: UInt64 = 0, framesPerPacket: UInt64 = 0
        while at + 12 <= b.count {
            let id = String(decoding: b[at..<at + 4], as: UTF8.self)
            let size = Int(truncatingIfNeeded: be(b, at + 4, 8))
            let body = at + 12
            if id == "desc", body + 32 <= b.count {
                rate = Double(bitPattern: be(b, body, 8))
                bytesPerPacket = be(b, body + 16, 4)
                framesPerPacket = be(b, body + 20, 4)
            } else if id == "pakt", body + 24 <= b.count, rate > 0 {
                return Double(be(b, body + 8, 8)) / rate
            } else if id == "data", rate > 0, bytesPerPacket > 0 {
                let dataBytes = size < 0 ? b.count - body - 4 : size - 4
                return Double(UInt64(max(dataBytes, 0)) / bytesPerPacket * max(framesPerPacket, 1)) / rate
            }
            guard size >= 0 else { return nil }
            at = body + size
        }
        return nil
    }
}
