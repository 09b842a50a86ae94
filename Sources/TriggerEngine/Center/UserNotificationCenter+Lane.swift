/// One delivery at a time: the run loop, `advance(to:)`, `ingest` and
/// `receivePush` all take fires from the same queue, and a fire in flight
/// (its delegate or handler awaited) must not be taken twice or overtaken.
extension UserNotificationCenter {
    /// A FIFO lock for async callers on the center's actor.
    struct DeliveryLane {
        var isHeld = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Waits for the lane, then holds it.
    func enterLane() async {
        guard lane.isHeld else {
            lane.isHeld = true
            return
        }
        await withCheckedContinuation { lane.waiters.append($0) }
    }

    /// Hands the lane to the next waiter, or frees it.
    func leaveLane() {
        if lane.waiters.isEmpty {
            lane.isHeld = false
        } else {
            lane.waiters.removeFirst().resume()
        }
    }
}
