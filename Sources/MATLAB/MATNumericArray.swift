/// A real numeric MATLAB array read from a MAT-file, as Double values in MATLAB's column-major order.
///
/// MATLAB stores an array of dimensions `[d0, d1, ..., dn]` in column-major (Fortran) order:
/// the first subscript varies fastest, so the element at 0-based subscripts `(i0, i1, ..., in)`
/// is `values[i0 + d0 * (i1 + d1 * (i2 + ...))]`. A UTD-MHAD `d_skel` (`20 × 3 × T`: joint,
/// x/y/z, frame) therefore holds joint `j`, channel `c`, frame `t` at `values[j + 20 * (c + 3 * t)]`.
/// MATLAB arrays have at least two dimensions; a vector is `1 × n` or `n × 1`, and MATLAB drops
/// trailing singleton dimensions beyond the second (a `20 × 3 × 1` array is saved as `20 × 3`).
public struct MATNumericArray: Sendable, Hashable {
    /// The dimensions, column-major (`dimensions[0]` varies fastest); at least 2 entries.
    public var dimensions: [Int]
    /// The values in column-major order, converted to Double (exact for every class but `int64`
    /// and `uint64` beyond 2^53).
    public var values: [Double]

    /// Creates an array; `values.count` must be the product of `dimensions`.
    public init(dimensions: [Int], values: [Double]) {
        self.dimensions = dimensions
        self.values = values
    }

    /// The position in ``values`` of the element at 0-based `subscripts` (one per dimension).
    /// - Precondition: `subscripts` has one entry per dimension, each within its dimension.
    public func linearIndex(_ subscripts: [Int]) -> Int {
        precondition(subscripts.count == dimensions.count, "one subscript per dimension")
        var index = 0
        for axis in subscripts.indices.reversed() {
            precondition(subscripts[axis] >= 0 && subscripts[axis] < dimensions[axis], "subscript out of range")
            index = index * dimensions[axis] + subscripts[axis]
        }
        return index
    }

    /// The 0-based subscripts (one per dimension) of the element at `linearIndex` in ``values``.
    public func subscripts(ofLinearIndex linearIndex: Int) -> [Int] {
        var remainder = linearIndex
        return dimensions.map { size in
            defer { remainder /= Swift.max(size, 1) }
            return remainder % Swift.max(size, 1)
        }
    }

    /// The element at 0-based `subscripts`.
    public subscript(_ subscripts: Int...) -> Double {
        values[linearIndex(subscripts)]
    }
}
