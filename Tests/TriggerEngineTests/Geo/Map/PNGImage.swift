import Foundation

/// An 8-bit RGB or RGBA PNG (what `rsvg-convert` writes), decoded for the tests:
/// chunks, zlib data (`Inflate`) and the five row filters of PNG §9.
struct PNGImage {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Pixel: Equatable, CustomStringConvertible {
        var red, green, blue, alpha: Int

        var description: String { String(format: "#%02x%02x%02x/%d", red, green, blue, alpha) }

        /// The largest difference of a channel.
        func distance(to other: Pixel) -> Int {
            max(abs(red - other.red), abs(green - other.green), abs(blue - other.blue), abs(alpha - other.alpha))
        }
    }

    let width: Int, height: Int
    private let channels: Int
    private let pixels: [UInt8]

    init(contentsOf url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Failure(description: "\(url.path) is not a PNG")
        }
        var position = 8
        var header: [UInt8] = []
        var data: [UInt8] = []
        while position + 8 <= bytes.count {
            let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            guard position + 12 + length <= bytes.count else { throw Failure(description: "chunk \(type) cut") }
            let body = Array(bytes[position + 8..<position + 8 + length])
            if type == "IHDR" { header = body }
            if type == "IDAT" { data += body }
            position += 12 + length
            if type == "IEND" { break }
        }
        guard header.count == 13 else { throw Failure(description: "no IHDR") }
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard header[8] == 8, header[12] == 0, header[9] == 6 || header[9] == 2 else {
            throw Failure(description: "only 8-bit RGB(A), not interlaced: depth \(header[8]), type \(header[9]), interlace \(header[12])")
        }
        channels = header[9] == 6 ? 4 : 3
        let raw = try Inflate.zlib(data)
        let stride = width * channels
        guard raw.count == height * (stride + 1) else { throw Failure(description: "\(raw.count) bytes of image data") }
        var out = [UInt8](repeating: 0, count: height * stride)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            for column in 0..<stride {
                let x = Int(raw[row * (stride + 1) + 1 + column])
                let a = column >= channels ? Int(out[row * stride + column - channels]) : 0
                let b = row > 0 ? Int(out[(row - 1) * stride + column]) : 0
                let c = row > 0 && column >= channels ? Int(out[(row - 1) * stride + column - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Failure(description: "filter \(filter) on row \(row)")
                }
                out[row * stride + column] = UInt8((x + predicted) & 0xFF)
            }
        }
        pixels = out
    }

    /// The pixel whose square holds the point (x, y) of the picture.
    func pixel(atX x: Double, y: Double) -> Pixel {
        let column = min(max(Int(x.rounded(.down)), 0), width - 1), row = min(max(Int(y.rounded(.down)), 0), height - 1)
        let at = (row * width + column) * channels
        return Pixel(red: Int(pixels[at]), green: Int(pixels[at + 1]), blue: Int(pixels[at + 2]),
                     alpha: channels == 4 ? Int(pixels[at + 3]) : 255)
    }
}

extension PNGImage.Pixel {
    /// A CSS colour `#rrggbb`, opaque.
    init(css: String) {
        let value = Int(css.dropFirst(), radix: 16)!
        self.init(red: value >> 16, green: value >> 8 & 0xFF, blue: value & 0xFF, alpha: 255)
    }

    /// `top` at `opacity` over this colour (source-over), rounded.
    func under(_ top: PNGImage.Pixel, opacity: Double) -> PNGImage.Pixel {
        func mix(_ below: Int, _ above: Int) -> Int { Int((Double(below) + (Double(above) - Double(below)) * opacity).rounded()) }
        return PNGImage.Pixel(red: mix(red, top.red), green: mix(green, top.green), blue: mix(blue, top.blue), alpha: 255)
    }
}
