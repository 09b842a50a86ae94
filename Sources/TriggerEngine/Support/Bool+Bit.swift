extension Bool {
    /// 1 for true, 0 for false, without a branch: for verdicts that are as good
    /// as random from one test to the next (the geofence's exact tests), added
    /// to a count or combined with `&` and `|` rather than branched on. With
    /// `&&`, `||` or `? 1 : 0` the compiler may keep a branch for each.
    @inline(__always)
    var bit: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
