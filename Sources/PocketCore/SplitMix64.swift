/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast generator fully determined by its seed, so
/// demo and synthetic data are the same on every machine and a failing property run can be replayed.
/// Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts the sequence for `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in 0..<bound (a bound below 1 counts as 1). Plain modulo: the tiny bias is
    /// irrelevant here, and changing it would change every generated data set.
    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }

    /// A double in 0..<1, from the top 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
