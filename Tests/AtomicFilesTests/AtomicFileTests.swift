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
}
