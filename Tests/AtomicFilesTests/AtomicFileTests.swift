import AtomicFiles
import Foundation
import Testing
import ActionLabTestSupport

@Suite struct AtomicFileTests {
    @Test func writesAndReplacesLeavingNoTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("sub/report.md")
        try AtomicFile.write("first", to: file)
        try AtomicFile.write("second", to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "second")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("sub").path)
        #expect(names == ["report.md"])
    }

    @Test func failedWriterKeepsOldFileAndRemovesTemporary() throws {
        struct Boom: Error {}
        let directory = try TemporaryDirectory()
        let file = directory.file("weights.h5")
        try AtomicFile.write("old", to: file)
        #expect(throws: Boom.self) {
            try AtomicFile.replace(file) { temporary in
                try Data("half".utf8).write(to: temporary)
                throw Boom()
            }
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["weights.h5"])
    }

    @Test func jsonHasSortedKeysAndFinalNewline() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("metrics.json")
        try AtomicFile.writeJSON(["b": 2, "a": 1], to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "{\n  \"a\" : 1,\n  \"b\" : 2\n}\n")
    }

    @Test func unwritableFolderNamesThePath() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.file("not-a-folder")
        try Data().write(to: blocker)
        let target = blocker.appendingPathComponent("x.txt")
        #expect(throws: AtomicFileError.self) { try AtomicFile.write("x", to: target) }
        do {
            try AtomicFile.write("x", to: target)
        } catch let error as AtomicFileError {
            #expect(error.description.contains("not-a-folder"))
        }
    }

    /// Writes inside a deferred sync are each still atomic and complete, the body's value comes
    /// back, and the folder's file system is flushed once at the end.
    @Test func deferredSyncWritesCompleteFilesAndReturnsTheBodysValue() throws {
        let directory = try TemporaryDirectory()
        let count = try AtomicFile.withDeferredSync(flushing: directory.url) {
            for index in 0..<5 { try AtomicFile.write("file \(index)", to: directory.file("trial/\(index).txt")) }
            try AtomicFile.write("replaced", to: directory.file("trial/0.txt"))
            return 5
        }
        #expect(count == 5)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("trial").path).sorted()
        #expect(names == (0..<5).map { "\($0).txt" })
        #expect(try String(contentsOf: directory.file("trial/0.txt"), encoding: .utf8) == "replaced")
        #expect(try String(contentsOf: directory.file("trial/4.txt"), encoding: .utf8) == "file 4")
    }

    /// An error from the body comes out unchanged (nothing is flushed), and a folder that does
    /// not exist is named in the error.
    @Test func deferredSyncPassesErrorsThroughAndNamesAMissingFolder() throws {
        struct Boom: Error {}
        let directory = try TemporaryDirectory()
        #expect(throws: Boom.self) {
            try AtomicFile.withDeferredSync(flushing: directory.url) { throw Boom() }
        }
        let missing = directory.file("missing")
        do {
            try AtomicFile.withDeferredSync(flushing: missing) {}
            Issue.record("flushing a missing folder succeeded")
        } catch let error as AtomicFileError {
            #expect(error.path == missing.path)
            #expect(error.operation == "open for syncfs")
        }
    }
}
