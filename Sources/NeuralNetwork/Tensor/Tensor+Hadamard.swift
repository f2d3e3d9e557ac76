extension Tensor {
    /// Multiplies `self` element by element by a tensor of the same shape (Hadamard product).
    ///
    /// - Parameter other: The factors, with the same shape as `self`.
    public mutating func multiply(by other: Tensor) {
        precondition(shape == other.shape, "multiply: shape \(other.shape) does not match \(shape)")
        values.withUnsafeMutableBufferPointer { target in
            other.values.withUnsafeBufferPointer { factors in
                for i in 0..<target.count { target[i] *= factors[i] }
            }
        }
    }
}
