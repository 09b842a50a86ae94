import Foundation

/// Runs `body` on a thread of its own and returns its result: for blocking
/// work (a large store's load) that must not hold one of the cooperative
/// pool's few threads.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
