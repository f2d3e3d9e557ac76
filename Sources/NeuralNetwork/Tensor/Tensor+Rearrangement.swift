extension Tensor {
    /// Returns the values of a `[outer, a, b, inner]` view reordered to `[outer, b, a, inner]`.
    ///
    /// The one transposition the layers need: batch and channel axes after a convolution's
    /// `sgemm` (`outer = 1`), or joints and time in a graph model's input (`inner = 1`).
    /// Contiguous `inner` blocks are copied whole.
    ///
    /// - Parameters:
    ///   - outer: The extent of the leading axes that stay in place.
    ///   - a: The extent of the first swapped axis.
    ///   - b: The extent of the second swapped axis.
    ///   - inner: The extent of the trailing axes that stay in place (1 for none).
    ///   - shape: The shape of the result; its element count must be `outer·a·b·inner`.
    /// - Returns: The reordered tensor with shape `shape`.
    func swappingAxes(outer: Int, _ a: Int, _ b: Int, inner: Int, shape: [Int]) -> Tensor {
        precondition(outer * a * b * inner == count, "swappingAxes: \(outer)·\(a)·\(b)·\(inner) ≠ \(count)")
        var result = Tensor(zeros: shape)
        withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for o in 0..<outer {
                    let base = o * a * b * inner
                    for i in 0..<a {
                        for j in 0..<b {
                            let from = base + (i * b + j) * inner
                            let to = base + (j * a + i) * inner
                            for e in 0..<inner { target[to + e] = source[from + e] }
                        }
                    }
                }
            }
        }
        return result
    }
}
