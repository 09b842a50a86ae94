/// A DEFLATE (RFC 1951) decoder inside a zlib (RFC 1950) wrapper, written for the
/// tests from the RFCs, so that they can read the PNGs a real renderer makes
/// without an image library. Canonical Huffman codes are decoded one bit at a
/// time (RFC 1951 §3.2.2); slow, plain and enough for test pictures.
enum Inflate {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The data of a zlib stream (header checked, Adler-32 checked).
    static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
        guard bytes.count >= 6, bytes[0] & 0x0F == 8, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0,
              bytes[1] & 0x20 == 0 else { throw Failure(description: "not a zlib stream of DEFLATE data") }
        var reader = BitReader(bytes: bytes, position: 2)
        let out = try inflate(&reader)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in out {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let start = reader.alignedPosition
        guard start + 4 <= bytes.count else { throw Failure(description: "zlib stream without its checksum") }
        let stored = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == b << 16 | a else { throw Failure(description: "Adler-32 mismatch") }
        return out
    }

    struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var bit = 0

        mutating func next() throws -> Int {
            guard position < bytes.count else { throw Failure(description: "DEFLATE data ends early") }
            let value = Int(bytes[position] >> bit) & 1
            bit += 1
            if bit == 8 { bit = 0; position += 1 }
            return value
        }

        /// `count` bits, least significant first.
        mutating func bits(_ count: Int) throws -> Int {
            var value = 0
            for index in 0..<count { value |= try next() << index }
            return value
        }

        var alignedPosition: Int { bit == 0 ? position : position + 1 }

        mutating func align() {
            if bit != 0 { bit = 0; position += 1 }
        }
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Code {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            for length in 1...15 {
                for (symbol, l) in lengths.enumerated() where l == length { symbols.append(symbol) }
            }
        }

        func decode(_ reader: inout BitReader) throws -> Int {
            var code = 0, first = 0, index = 0
            for length in 1...15 {
                code |= try reader.next()
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Failure(description: "bad Huffman code")
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                             131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                               2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
                                13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static func inflate(_ reader: inout BitReader) throws -> [UInt8] {
        var out: [UInt8] = []
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.align()
                let at = reader.position
                guard at + 4 <= reader.bytes.count else { throw Failure(description: "stored block cut") }
                let length = Int(reader.bytes[at]) | Int(reader.bytes[at + 1]) << 8
                guard at + 4 + length <= reader.bytes.count else { throw Failure(description: "stored block cut") }
                out += reader.bytes[(at + 4)..<(at + 4 + length)]
                reader.position = at + 4 + length
            case 1:
                let lengths = Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
                    + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8)
                try block(&reader, &out, Code(lengths: lengths), Code(lengths: Array(repeating: 5, count: 30)))
            case 2:
                let literals = try reader.bits(5) + 257, distances = try reader.bits(5) + 1, codes = try reader.bits(4) + 4
                var codeLengths = [Int](repeating: 0, count: 19)
                for index in 0..<codes { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
                let lengthCode = Code(lengths: codeLengths)
                var lengths: [Int] = []
                while lengths.count < literals + distances {
                    let symbol = try lengthCode.decode(&reader)
                    switch symbol {
                    case 0...15: lengths.append(symbol)
                    case 16:
                        guard let previous = lengths.last else { throw Failure(description: "repeat with nothing before") }
                        lengths += Array(repeating: previous, count: 3 + (try reader.bits(2)))
                    case 17: lengths += Array(repeating: 0, count: 3 + (try reader.bits(3)))
                    default: lengths += Array(repeating: 0, count: 11 + (try reader.bits(7)))
                    }
                }
                try block(&reader, &out, Code(lengths: Array(lengths[..<literals])),
                          Code(lengths: Array(lengths[literals..<(literals + distances)])))
            default:
                throw Failure(description: "reserved block type")
            }
        }
        return out
    }

    static func block(_ reader: inout BitReader, _ out: inout [UInt8], _ literal: Code, _ distance: Code) throws {
        while true {
            let symbol = try literal.decode(&reader)
            if symbol < 256 { out.append(UInt8(symbol)); continue }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw Failure(description: "bad length symbol") }
            let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
            let distanceSymbol = try distance.decode(&reader)
            guard distanceSymbol < distanceBase.count else { throw Failure(description: "bad distance symbol") }
            let back = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
            guard back <= out.count else { throw Failure(description: "distance beyond the output") }
            let start = out.count - back
            for offset in 0..<length { out.append(out[start + offset]) }
        }
    }
}
