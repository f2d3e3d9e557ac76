import ActionLabTestSupport
import Foundation
import HDF5
import Testing

@Suite struct HDF5ConcurrencyTests {
    /// Many threads each writing and reading their own files, at once.
    @Test func separateFilesFromManyThreads() throws {
        let directory = try TemporaryDirectory()
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            do {
                let url = directory.file("worker-\(worker).h5")
                let values = (0..<3_000).map { Float(worker * 10_000 + $0) }
                for _ in 0..<5 {
                    let file = try HDF5File.create(at: url)
                    let group = try file.root().createGroup("w/\(worker)")
                    try group.createDataset("k", values: values, shape: [100, 30], compression: .gzip)
                    try group.attributes.write("worker \(worker)", named: "who")
                    try file.close()
                    // Closed explicitly: the next round truncates the file, which HDF5's file lock
                    // refuses while a reader still has it open (ARC may end `reader` later).
                    let reader = try HDF5File.open(at: url)
                    let reopened = try reader.root().openGroup("w/\(worker)")
                    let read = try reopened.openDataset("k").read(Float.self)
                    if read.values != values || read.shape != [100, 30] { failures.add("worker \(worker) read other values") }
                    if try reopened.attributes.string("who") != "worker \(worker)" { failures.add("worker \(worker) attribute") }
                    try reader.close()
                }
            } catch {
                failures.add("worker \(worker): \(error)")
            }
        }
        #expect(failures.messages == [])
    }

    /// Many threads sharing one file and one group object.
    @Test func sharedFileFromManyThreads() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.h5")
        let file = try HDF5File.create(at: url)
        let root = try file.root()
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 32) { worker in
            do {
                let values = (0..<500).map { Int64(worker) * 1_000 + Int64($0) }
                try root.createDataset("items/\(String(format: "%03d", worker))", values: values, shape: [500])
                let read = try root.openDataset("items/\(String(format: "%03d", worker))").read(Int64.self)
                if read.values != values { failures.add("worker \(worker) read other values") }
                _ = try root.openGroup("items").childNames()
            } catch {
                failures.add("worker \(worker): \(error)")
            }
        }
        try file.close()
        #expect(failures.messages == [])
        let names = try HDF5File.open(at: url).root().openGroup("items").childNames()
        #expect(names == (0..<32).map { String(format: "%03d", $0) })
    }
}

/// Collects messages from several threads.
///
/// `@unchecked Sendable`: `storage` is read and written only with `lock` held.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func add(_ message: String) {
        lock.lock()
        storage.append(message)
        lock.unlock()
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
