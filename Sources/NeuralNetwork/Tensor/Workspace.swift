/// Scratch memory a layer keeps between calls, so that hot loops do not allocate.
///
/// A layer asks for ``buffer(count:)`` floats each time it needs scratch space (for example one
/// sample's im2col patch matrix); the memory is allocated on the first call and reallocated only
/// when a call needs more than before. The contents are unspecified on return: callers write
/// before they read. Owned by exactly one layer and not shared between threads (a layer is used
/// by one training loop at a time).
final class Workspace {
    private var storage = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    /// Creates an empty workspace; nothing is allocated until the first ``buffer(count:)``.
    init() {}

    deinit {
        storage.deallocate()
    }

    /// Scratch space for `count` floats, valid until the next call on this workspace.
    ///
    /// - Parameter count: The number of floats needed.
    /// - Returns: A buffer of exactly `count` floats with unspecified contents.
    func buffer(count: Int) -> UnsafeMutableBufferPointer<Float> {
        if storage.count < count {
            storage.deallocate()
            storage = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
            storage.initialize(repeating: 0)
        }
        return UnsafeMutableBufferPointer(rebasing: storage[0..<count])
    }

    /// Adds the first `count` floats of the workspace to `target` element by element.
    ///
    /// - Parameters:
    ///   - count: The number of floats, at most what the last ``buffer(count:)`` asked for.
    ///   - target: The destination of at least `count` floats.
    func add(count: Int, to target: UnsafeMutableBufferPointer<Float>) {
        precondition(count <= storage.count && count <= target.count, "Workspace.add: \(count) floats out of range")
        guard let source = storage.baseAddress, let destination = target.baseAddress else { return }
        VectorKernels.add(source, to: destination, count: count)
    }
}
