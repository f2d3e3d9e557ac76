extension Tensor {
    /// Joins tensors along the channel axis: `[N, C_i, ...]` → `[N, ΣC_i, ...]` (PyTorch's
    /// `torch.cat(tensors, dim=1)`).
    ///
    /// For each sample the channels of the first tensor come first, then those of the second,
    /// and so on; each sample's block of one tensor is one contiguous copy. Large tensors are
    /// copied by ``ComputeThreads`` in one operation, parts of whole samples, each part copying
    /// every tensor's blocks of its samples.
    ///
    /// - Parameter parts: At least one tensor of rank 2 or more; all share the batch size and
    ///   every extent after the channel axis.
    /// - Returns: The concatenation, `[N, ΣC_i, ...]`.
    static func concatenatingChannels(_ parts: [Tensor]) -> Tensor {
        guard let first = parts.first else { preconditionFailure("concatenatingChannels: no tensors") }
        precondition(first.rank >= 2, "concatenatingChannels expects [N, C, ...], got \(first.shape)")
        let (batch, trailing) = (first.shape[0], Array(first.shape.dropFirst(2)))
        for part in parts {
            precondition(part.rank == first.rank && part.shape[0] == batch && Array(part.shape.dropFirst(2)) == trailing,
                         "concatenatingChannels: \(part.shape) does not match \(first.shape) outside axis 1")
        }
        let inner = trailing.reduce(1, *)
        let blocks = parts.map { $0.shape[1] * inner }
        let (totalChannels, sampleSize) = (parts.reduce(0) { $0 + $1.shape[1] }, blocks.reduce(0, +))
        return Tensor(shape: [batch, totalChannels] + trailing) { target in
            guard let target = target.baseAddress else { return }
            withBaseAddresses(of: parts[...], collected: []) { sources in
                ComputeThreads.forEachPart(of: batch, elementsPerItem: sampleSize) { _, samples in
                    for n in samples {
                        var destination = target + n * sampleSize
                        for (source, block) in zip(sources, blocks) where block > 0 {
                            guard let source else { continue }
                            destination.initialize(from: source + n * block, count: block)
                            destination += block
                        }
                    }
                }
            }
        }
    }

    /// Cuts a tensor along the channel axis into consecutive parts, the inverse of
    /// ``concatenatingChannels(_:)``: `[N, ΣC_i, ...]` → `[N, C_i, ...]`.
    ///
    /// Large tensors are copied by ``ComputeThreads`` in one operation, parts of whole samples,
    /// each part filling every output's blocks of its samples.
    ///
    /// - Parameter channelCounts: The channels `C_i` of each part, summing to `shape[1]`.
    /// - Returns: One tensor per entry of `channelCounts`, in order.
    func splittingChannels(_ channelCounts: [Int]) -> [Tensor] {
        precondition(rank >= 2 && channelCounts.allSatisfy { $0 >= 0 } && channelCounts.reduce(0, +) == shape[1],
                     "splittingChannels: channel counts \(channelCounts) do not divide \(shape) along axis 1")
        let (batch, trailing) = (shape[0], Array(shape.dropFirst(2)))
        let inner = trailing.reduce(1, *)
        let blocks = channelCounts.map { $0 * inner }
        let sampleSize = shape[1] * inner
        return withUnsafeBufferPointer { source in
            Self.makingUninitialized(shapes: channelCounts.map { [batch, $0] + trailing }[...], collected: []) { targets in
                guard let source = source.baseAddress else { return }
                ComputeThreads.forEachPart(of: batch, elementsPerItem: sampleSize) { _, samples in
                    for n in samples {
                        var origin = source + n * sampleSize
                        for (target, block) in zip(targets, blocks) where block > 0 {
                            guard let target else { continue }
                            (target + n * block).initialize(from: origin, count: block)
                            origin += block
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the base address of every tensor of `tensors` after `collected` (nil
    /// for an empty tensor), all valid for the whole call.
    private static func withBaseAddresses<R>(
        of tensors: ArraySlice<Tensor>, collected: [UnsafePointer<Float>?], _ body: ([UnsafePointer<Float>?]) -> R
    ) -> R {
        guard let tensor = tensors.first else { return body(collected) }
        return tensor.withUnsafeBufferPointer { buffer in
            withBaseAddresses(of: tensors.dropFirst(), collected: collected + [buffer.baseAddress], body)
        }
    }

    /// Creates one tensor per shape of `shapes`, uninitialized, and calls `initializer` once with
    /// the base addresses of all of them (after `collected`; nil for an empty one), which must
    /// write every element of each.
    private static func makingUninitialized(
        shapes: ArraySlice<[Int]>, collected: [UnsafeMutablePointer<Float>?],
        _ initializer: ([UnsafeMutablePointer<Float>?]) -> Void
    ) -> [Tensor] {
        guard let shape = shapes.first else {
            initializer(collected)
            return []
        }
        var rest: [Tensor] = []
        let tensor = Tensor(shape: shape) { buffer in
            rest = makingUninitialized(shapes: shapes.dropFirst(), collected: collected + [buffer.baseAddress], initializer)
        }
        return [tensor] + rest
    }
}
