extension Tensor {
    /// Creates a tensor whose elements `initializer` writes, without filling them with zeros first.
    ///
    /// For outputs that a kernel overwrites completely (an `sgemm` with `beta = 0`, an
    /// element-wise map): it saves the `memset` and, for large tensors, the page faults of
    /// touching fresh memory twice.
    ///
    /// - Parameters:
    ///   - shape: The extent of each dimension.
    ///   - initializer: Receives the `shape.reduce(1, *)` elements, uninitialized, and must
    ///     write every one of them.
    init(shape: [Int], uninitializedBy initializer: (UnsafeMutableBufferPointer<Float>) -> Void) {
        let count = Self.elementCount(of: shape)
        let values = [Float](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            initializer(buffer)
            initializedCount = count
        }
        self.init(shape: shape, values: values)
    }
}

extension Tensor {
    /// Creates a tensor with unspecified contents, for a destination that a kernel overwrites
    /// completely before anything reads it (such as `sgemm` with `beta = 0`).
    ///
    /// - Parameter shape: The extent of each dimension.
    init(unspecifiedContentsWithShape shape: [Int]) {
        self.init(shape: shape) { _ in }
    }
}
