import AtomicFiles
import Foundation
import Testing

@Suite struct StaleTemporaryFileTests {
    /// Only `.<name>.tmp-<pid>-<uuid>` names are temporary files of `AtomicFile`.
    @Test func writerProcessIsReadFromTemporaryNamesOnly() {
        let uuid = UUID().uuidString
        #expect(AtomicFile.writerProcess(ofTemporaryFileNamed: ".metrics.json.tmp-1234-\(uuid)") == 1234)
        #expect(AtomicFile.writerProcess(ofTemporaryFileNamed: AtomicFile.temporaryURL(for: URL(fileURLWithPath: "/a/b.h5")).lastPathComponent)
            == getpid())
        for name in ["metrics.json", "metrics.json.tmp-1234-\(uuid)", ".tmp-1234-\(uuid)", ".a.tmp-0-\(uuid)",
                     ".a.tmp-x-\(uuid)", ".a.tmp-1234-not-a-uuid", ".a.tmp-1234"] {
            #expect(AtomicFile.writerProcess(ofTemporaryFileNamed: name) == nil, "\(name)")
        }
    }

    /// Temporary files of ended writers go; a running writer's stay unless asked; other files stay.
    @Test func removesTemporaryFilesOfEndedWriters() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // pid 2^22 + 1 is above Linux's pid_max: no process has it.
        let dead = ".weights.h5.tmp-4194305-\(UUID().uuidString)"
        let live = ".metrics.json.tmp-\(getpid())-\(UUID().uuidString)"
        for name in [dead, live, "metrics.json", ".hidden"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        #expect(AtomicFile.removeStaleTemporaryFiles(in: folder, destinationName: "metrics.json") == [])
        #expect(AtomicFile.removeStaleTemporaryFiles(in: folder) == [dead])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [live, "metrics.json", ".hidden"])
        #expect(AtomicFile.removeStaleTemporaryFiles(in: folder, includingLiveWriters: true) == [live])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["metrics.json", ".hidden"])
        #expect(AtomicFile.removeStaleTemporaryFiles(in: folder.appendingPathComponent("missing")) == [])
    }
}
