/// A dense, row-major array of `Float` values with a shape.
///
/// `Tensor` is a value type (copy-on-write through its `[Float]` storage). The element at
/// index `(i0, i1, ..., ik)` of a tensor with shape `[d0, d1, ..., dk]` is stored at
/// `((i0 * d1 + i1) * d2 + i2) ... * dk + ik` in ``values``, as in NumPy's C order.
///
/// Layers use the shapes `[N, C]` (batch, channels or features) and `[N, C, T]`
/// (batch, channels, time steps), as PyTorch's `Linear` and `Conv1d` do, and graph layers
/// `[N, C, T, V]` (batch, channels, time steps, joints), as st-gcn's `Conv2d`s do.
public struct Tensor: Hashable, Sendable {
    /// The extent of each dimension, outermost first, for example `[N, C, T]`.
    public private(set) var shape: [Int]

    /// The elements' storage, read and written through ``values``.
    @usableFromInline var storage: [Float]

    /// The elements in row-major order; always `shape.reduce(1, *)` of them.
    ///
    /// Changed in place (`values[i] = x`, `values.withUnsafeMutableBufferPointer`) through a
    /// `_modify` accessor that lends the storage itself and checks the count afterwards. (A
    /// `didSet` observer did the same check, but from other modules each element written that way
    /// copied the whole array: 552,960 writes took 29 s.)
    public var values: [Float] {
        @inlinable get { storage }
        set {
            Self.checkCount(newValue.count, shape)
            storage = newValue
        }
        @inlinable _modify {
            yield &storage
            Self.checkCount(storage.count, shape)
        }
    }

    /// Stops with a message unless `count` is the element count of `shape`.
    @usableFromInline static func checkCount(_ count: Int, _ shape: [Int]) {
        precondition(count == elementCount(of: shape), "Tensor.values changed count to \(count) for shape \(shape)")
    }

    /// Creates a tensor of the given shape filled with zeros.
    ///
    /// - Parameter shape: The extent of each dimension; every entry must be non-negative.
    public init(zeros shape: [Int]) {
        self.init(shape: shape, repeating: 0)
    }

    /// Creates a tensor of the given shape with every element equal to `value`.
    ///
    /// - Parameters:
    ///   - shape: The extent of each dimension; every entry must be non-negative.
    ///   - value: The value of every element.
    public init(shape: [Int], repeating value: Float) {
        self.shape = shape
        self.storage = [Float](repeating: value, count: Self.elementCount(of: shape))
    }

    /// Creates a tensor from row-major values.
    ///
    /// - Parameters:
    ///   - shape: The extent of each dimension.
    ///   - values: The elements in row-major order; there must be exactly `shape.reduce(1, *)`.
    public init(shape: [Int], values: [Float]) {
        precondition(
            values.count == Self.elementCount(of: shape),
            "Tensor(shape: \(shape)) needs \(Self.elementCount(of: shape)) values, got \(values.count)")
        self.shape = shape
        self.storage = values
    }

    /// The number of elements, the product of the shape's entries.
    @inlinable public var count: Int { values.count }

    /// Whether every element is finite (neither NaN nor ±infinity).
    public var isFinite: Bool {
        values.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            return VectorKernels.allFinite(base, count: buffer.count)
        }
    }

    /// The number of dimensions.
    @inlinable public var rank: Int { shape.count }

    /// The element at a multi-dimensional index, one entry per dimension.
    public subscript(_ index: Int...) -> Float {
        get { values[offset(of: index)] }
        set { values[offset(of: index)] = newValue }
    }

    /// Returns the same values viewed with another shape of the same element count.
    ///
    /// - Parameter newShape: The new extents; their product must equal ``count``.
    /// - Returns: A tensor sharing the element order of `self`.
    public func reshaped(_ newShape: [Int]) -> Tensor {
        Tensor(shape: newShape, values: values)
    }

    /// Calls `body` with a read-only pointer to the elements.
    @inlinable
    public func withUnsafeBufferPointer<R>(
        _ body: (UnsafeBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        try values.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with a mutable pointer to the elements; the count must not change.
    @inlinable
    public mutating func withUnsafeMutableBufferPointer<R>(
        _ body: (inout UnsafeMutableBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        try values.withUnsafeMutableBufferPointer(body)
    }

    /// Returns a tensor of the same shape whose elements are `transform` applied to each element.
    public func map(_ transform: (Float) throws -> Float) rethrows -> Tensor {
        Tensor(shape: shape, values: try values.map(transform))
    }

    /// Adds `scale * other` to `self` element by element (BLAS `axpy`).
    ///
    /// - Parameters:
    ///   - other: A tensor with the same shape as `self`.
    ///   - scale: The factor applied to `other`.
    public mutating func add(_ other: Tensor, scaledBy scale: Float = 1) {
        precondition(shape == other.shape, "add: shape \(other.shape) does not match \(shape)")
        values.withUnsafeMutableBufferPointer { target in
            other.values.withUnsafeBufferPointer { source in
                let total = target.count
                guard let target = target.baseAddress, let source = source.baseAddress else { return }
                ComputeThreads.forEachPart(of: total, minimumSize: ComputeThreads.elementsPerPart, alignment: 64) { _, range in
                    let i = range.lowerBound
                    VectorKernels.add(source + i, scaledBy: scale, to: target + i, count: range.count)
                }
            }
        }
    }

    /// Multiplies every element by `scale`.
    public mutating func scale(by scale: Float) {
        values.withUnsafeMutableBufferPointer { target in
            for i in 0..<target.count { target[i] *= scale }
        }
    }

    /// Sets every element to `value`, keeping the shape.
    public mutating func fill(with value: Float) {
        values.withUnsafeMutableBufferPointer { target in
            for i in 0..<target.count { target[i] = value }
        }
    }

    /// The sum of the elements, accumulated in `Double`.
    public func sum() -> Double {
        values.withUnsafeBufferPointer { source in
            var total = 0.0
            for value in source { total += Double(value) }
            return total
        }
    }

    /// Element-wise sum of two tensors of the same shape.
    public static func + (lhs: Tensor, rhs: Tensor) -> Tensor {
        var result = lhs
        result.add(rhs)
        return result
    }

    /// Element-wise difference of two tensors of the same shape.
    public static func - (lhs: Tensor, rhs: Tensor) -> Tensor {
        var result = lhs
        result.add(rhs, scaledBy: -1)
        return result
    }

    /// Every element multiplied by a scalar.
    public static func * (lhs: Tensor, rhs: Float) -> Tensor {
        var result = lhs
        result.scale(by: rhs)
        return result
    }

    /// The product of the extents in `shape`.
    static func elementCount(of shape: [Int]) -> Int {
        shape.reduce(1) { product, extent in
            precondition(extent >= 0, "Tensor shape \(shape) has a negative extent")
            return product * extent
        }
    }

    private func offset(of index: [Int]) -> Int {
        precondition(index.count == shape.count, "index \(index) does not match shape \(shape)")
        var offset = 0
        for (position, extent) in zip(index, shape) {
            precondition(position >= 0 && position < extent, "index \(index) out of shape \(shape)")
            offset = offset * extent + position
        }
        return offset
    }
}

extension Tensor: CustomStringConvertible {
    public var description: String { "Tensor(shape: \(shape), values: \(values))" }
}
