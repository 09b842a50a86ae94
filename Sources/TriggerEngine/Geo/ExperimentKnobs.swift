import Foundation
enum ExperimentKnobs {
    static let bandDivisor = Int(ProcessInfo.processInfo.environment["GEO_BANDS"] ?? "16") ?? 16
    static let rasterCap = Int(ProcessInfo.processInfo.environment["GEO_RCAP"] ?? "48") ?? 48
    static let rasterFactor = Double(ProcessInfo.processInfo.environment["GEO_RF"] ?? "3") ?? 3
}
extension ExperimentKnobs {
    static let batchOne = Int(ProcessInfo.processInfo.environment["GEO_B1"] ?? "262144") ?? 262144
    static let batchTwo = Int(ProcessInfo.processInfo.environment["GEO_B2"] ?? "65536") ?? 65536
}
