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

    /// What is at the destination and not a regular file is refused, not replaced (`compare
    /// --output /dev/full` turned the device into a Markdown file); a symbolic link is followed.
    @Test func onlyRegularFilesAreReplacedAndLinksAreFollowed() throws {
        let directory = try TemporaryDirectory()
        let pipe = directory.file("pipe")
        #expect(mkfifo(pipe.path, 0o644) == 0)
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (target, kind) in [(pipe, "a named pipe"), (folder, "a folder")] {
            do {
                try AtomicFile.write("report", to: target)
                Issue.record("\(kind) was replaced")
            } catch let error as AtomicFileError {
                #expect(error.path == target.path && error.reason.hasPrefix("it is \(kind), not a regular file"), "\(error)")
            }
        }
        var status = stat()
        #expect(lstat(pipe.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["folder", "pipe"])

        // A link to a pipe names both; a link to a file writes the file and stays a link.
        let linkToPipe = directory.file("to-pipe")
        try FileManager.default.createSymbolicLink(atPath: linkToPipe.path, withDestinationPath: "pipe")
        #expect(throws: AtomicFileError.self) { try AtomicFile.write("report", to: linkToPipe) }
        let file = directory.file("notes.md")
        try AtomicFile.write("old", to: file)
        let link = directory.file("link.md")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "notes.md")
        try AtomicFile.write("new", to: link)
        #expect(try String(contentsOf: file, encoding: .utf8) == "new")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "notes.md")
        // A dangling link creates its target.
        let dangling = directory.file("dangling.md")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "created.md")
        try AtomicFile.write("made", to: dangling)
        #expect(try String(contentsOf: directory.file("created.md"), encoding: .utf8) == "made")
    }

    /// A name the file system takes (up to 255 bytes) is written: the temporary name beside it
    /// is cut to fit, and a failure names the file asked for, not the temporary one.
    @Test func longNamesAreWrittenAndFailuresNameTheDestination() throws {
        let directory = try TemporaryDirectory()
        let long = directory.file(String(repeating: "y", count: 250) + ".md")
        try AtomicFile.write("report", to: long)
        #expect(try String(contentsOf: long, encoding: .utf8) == "report")
        #expect(AtomicFile.temporaryURL(for: long).lastPathComponent.utf8.count <= 255)
        let impossible = URL(fileURLWithPath: "/proc/actionlab-test.md")
        do {
            try AtomicFile.write("report", to: impossible)
            Issue.record("writing into /proc succeeded")
        } catch let error as AtomicFileError {
            #expect(error.path == impossible.path, "\(error)")
        }
    }
}
