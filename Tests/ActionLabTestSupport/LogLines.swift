import Foundation

/// Collects the log lines a runner or loader writes, from any thread.
///
/// `@unchecked Sendable`: `storage` is read and written only with `lock` held.
public final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    /// An empty collection.
    public init() {}

    /// The lines so far, in the order they arrived.
    public var lines: [String] { lock.withLock { storage } }

    /// Adds a line; pass as the `log` closure.
    public func append(_ line: String) { lock.withLock { storage.append(line) } }
}
