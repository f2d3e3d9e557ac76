import Foundation

/// ActionLab's one random number generator: xoshiro256** seeded through SplitMix64.
///
/// The algorithm is xoshiro256** 1.0 by David Blackman and Sebastiano Vigna
/// ("Scrambled Linear Pseudorandom Number Generators", ACM TOMS 2021; reference code at
/// prng.di.unimi.it/xoshiro256starstar.c). Its 256-bit state is filled from a 64-bit seed
/// with four outputs of SplitMix64 (Steele, Lea & Flood, "Fast Splittable Pseudorandom Number
/// Generators", OOPSLA 2014; Vigna's splitmix64.c), as the xoshiro authors recommend.
///
/// Every stream in ActionLab is derived from `(seed, purpose, epoch, index)` with
/// ``init(seed:purpose:epoch:index:)``, never from global state or thread scheduling, so the
/// same seed gives bit-identical results on any number of threads or processes.
///
/// The helpers (``nextUniform()``, ``nextNormal()``, ``nextIndex(below:)``, ``shuffle(_:)``)
/// are implemented here rather than relying on the standard library's `random(in:using:)` or
/// `shuffle(using:)`, whose consumption of random bits is not a documented, stable contract.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a generator whose state is four SplitMix64 outputs from `seed`.
    ///
    /// - Parameter seed: Any 64-bit value; every seed, including 0, gives a valid state.
    public init(seed: UInt64) {
        var splitMix = seed
        state = (
            Self.splitMix64(&splitMix), Self.splitMix64(&splitMix),
            Self.splitMix64(&splitMix), Self.splitMix64(&splitMix))
    }

    /// Creates the generator of one named stream derived from a root seed.
    ///
    /// The stream seed is computed as follows, with `mix` the SplitMix64 output function
    /// (finalizer of Steele et al. 2014) and FNV-1a the 64-bit Fowler–Noll–Vo hash
    /// (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of the UTF-8 bytes of `purpose`:
    ///
    /// ```
    /// s = mix(seed)
    /// s = mix(s ^ fnv1a64(purpose))
    /// s = mix(s ^ UInt64(bitPattern: Int64(epoch)))
    /// s = mix(s ^ UInt64(bitPattern: Int64(index)))
    /// generator = SeededGenerator(seed: s)
    /// ```
    ///
    /// Swift's `Hasher` is not used: it is seeded randomly per process.
    ///
    /// - Parameters:
    ///   - seed: The trial's root seed.
    ///   - purpose: What the stream is for, e.g. `"initialization"`, `"shuffle"`, `"dropout"`.
    ///   - epoch: The epoch the stream belongs to (0 when not per epoch).
    ///   - index: A sample or batch index within the epoch (0 when not per item).
    public init(seed: UInt64, purpose: String, epoch: Int = 0, index: Int = 0) {
        var mixed = Self.mix(seed)
        mixed = Self.mix(mixed ^ Self.fnv1a64(purpose))
        mixed = Self.mix(mixed ^ UInt64(bitPattern: Int64(epoch)))
        mixed = Self.mix(mixed ^ UInt64(bitPattern: Int64(index)))
        self.init(seed: mixed)
    }

    /// Returns the next 64 random bits (xoshiro256** step).
    public mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    /// Returns a uniform `Float` in `[0, 1)`: the top 24 bits of ``next()`` times 2⁻²⁴.
    public mutating func nextUniform() -> Float {
        Float(next() >> 40) * 0x1p-24
    }

    /// Returns a uniform `Float` in `[lowerBound, upperBound)`.
    ///
    /// Computed as `lowerBound + (upperBound - lowerBound) * u` with `u` from ``nextUniform()``;
    /// a result that rounding carries up to `upperBound` is clamped to `upperBound.nextDown`.
    ///
    /// - Parameters:
    ///   - lowerBound: The smallest possible value.
    ///   - upperBound: The bound, strictly greater than `lowerBound`.
    public mutating func nextUniform(from lowerBound: Float, to upperBound: Float) -> Float {
        precondition(lowerBound < upperBound, "nextUniform: empty range \(lowerBound)..<\(upperBound)")
        let value = lowerBound + (upperBound - lowerBound) * nextUniform()
        return value < upperBound ? value : upperBound.nextDown
    }

    /// Returns a standard normal `Float` (mean 0, variance 1) by the Box–Muller transform.
    ///
    /// `z = sqrt(-2 ln u1) * cos(2π u2)` (Box & Muller, Ann. Math. Statist. 1958), computed in
    /// `Double` with `u1 = 1 - (next() >> 11) * 2⁻⁵³` in `(0, 1]` and `u2 = (next() >> 11) * 2⁻⁵³`.
    /// Each call consumes exactly two 64-bit outputs; the sine half is discarded so that the
    /// generator has no hidden cached state.
    ///
    /// - Parameters:
    ///   - mean: The distribution's mean.
    ///   - standardDeviation: The distribution's standard deviation.
    public mutating func nextNormal(mean: Float = 0, standardDeviation: Float = 1) -> Float {
        let u1 = 1 - Double(next() >> 11) * 0x1p-53
        let u2 = Double(next() >> 11) * 0x1p-53
        let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return mean + standardDeviation * Float(z)
    }

    /// Returns a uniform integer in `0..<upperBound` without modulo bias.
    ///
    /// Lemire's multiply-and-reject method ("Fast Random Integer Generation in an Interval",
    /// ACM TOMACS 2019).
    ///
    /// - Parameter upperBound: A positive bound.
    public mutating func nextIndex(below upperBound: Int) -> Int {
        precondition(upperBound > 0, "nextIndex: upper bound must be positive, got \(upperBound)")
        let bound = UInt64(upperBound)
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return Int(product.high)
    }

    /// Shuffles `array` in place by the Fisher–Yates (Durstenfeld) algorithm.
    ///
    /// For `i` from `count - 1` down to 1, swaps element `i` with element ``nextIndex(below:)``
    /// `(i + 1)`. The permutation depends only on the generator's state and the count.
    public mutating func shuffle<Element>(_ array: inout [Element]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, through: 1, by: -1) {
            let j = nextIndex(below: i + 1)
            if i != j { array.swapAt(i, j) }
        }
    }

    /// Returns the elements of `array` in an order chosen by ``shuffle(_:)``.
    public mutating func shuffled<Element>(_ array: [Element]) -> [Element] {
        var copy = array
        shuffle(&copy)
        return copy
    }

    // MARK: Hashable (state tuples are not Hashable themselves)

    public static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        lhs.state == rhs.state
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
    }

    // MARK: Building blocks

    /// Advances a SplitMix64 state and returns its next output.
    private static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return mix(state)
    }

    /// The SplitMix64 output function (a variant of MurmurHash3's 64-bit finalizer).
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 64-bit FNV-1a over the UTF-8 bytes of `text`.
    private static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

@inline(__always)
private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
}
