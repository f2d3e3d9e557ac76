extension Tensor {
    /// Joins tensors along the channel axis: `[N, C_i, ...]` → `[N, ΣC_i, ...]` (PyTorch's
    /// `torch.cat(tensors, dim=1)`).
    ///
    /// For each sample the channels of the first tensor come first, then those of the second,
    /// and so on; each sample's block of one tensor is one contiguous copy. Large tensors are
    /// copied by ``ComputeThreads`` in parts of whole samples.
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
        let totalChannels = parts.reduce(0) { $0 + $1.shape[1] }
        let samplesPerPart = ComputeThreads.elementsPerPart / max(1, totalChannels * inner)
        return Tensor(shape: [batch, totalChannels] + trailing) { target in
            guard let target = target.baseAddress else { return }
            var channelOffset = 0
            for part in parts {
                let block = part.shape[1] * inner
                let offset = channelOffset
                part.withUnsafeBufferPointer { source in
                    guard let source = source.baseAddress else { return }
                    ComputeThreads.forEachPart(of: batch, minimumSize: samplesPerPart) { _, samples in
                        for n in samples {
                            (target + (n * totalChannels + offset) * inner).initialize(from: source + n * block, count: block)
                        }
                    }
                }
                channelOffset += part.shape[1]
            }
        }
    }

    /// Cuts a tensor along the channel axis into consecutive parts, the inverse of
    /// ``concatenatingChannels(_:)``: `[N, ΣC_i, ...]` → `[N, C_i, ...]`.
    ///
    /// Large tensors are copied by ``ComputeThreads`` in parts of whole samples.
    ///
    /// - Parameter channelCounts: The channels `C_i` of each part, summing to `shape[1]`.
    /// - Returns: One tensor per entry of `channelCounts`, in order.
    func splittingChannels(_ channelCounts: [Int]) -> [Tensor] {
        precondition(rank >= 2 && channelCounts.allSatisfy { $0 >= 0 } && channelCounts.reduce(0, +) == shape[1],
                     "splittingChannels: channel counts \(channelCounts) do not divide \(shape) along axis 1")
        let (batch, totalChannels, trailing) = (shape[0], shape[1], Array(shape.dropFirst(2)))
        let inner = trailing.reduce(1, *)
        let samplesPerPart = ComputeThreads.elementsPerPart / max(1, totalChannels * inner)
        var channelOffset = 0
        return withUnsafeBufferPointer { source in
            channelCounts.map { channels in
                let block = channels * inner
                let offset = channelOffset
                channelOffset += channels
                return Tensor(shape: [batch, channels] + trailing) { target in
                    guard let target = target.baseAddress, let source = source.baseAddress else { return }
                    ComputeThreads.forEachPart(of: batch, minimumSize: samplesPerPart) { _, samples in
                        for n in samples {
                            (target + n * block).initialize(from: source + (n * totalChannels + offset) * inner, count: block)
                        }
                    }
                }
            }
        }
    }
}
