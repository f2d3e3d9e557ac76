import ActionLabTestSupport
import AtomicFiles
import Foundation
import Testing

/// Foundation's file errors reach messages as the system's reason, not as
/// `Error Domain=NSCocoaErrorDomain Code=512 …` or `(NSCocoaErrorDomain error 512.)`.
@Suite struct FileErrorReasonTests {
    private func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return FileErrorReason.of(error)
        }
    }

    @Test func foundationFileErrorsGiveTheSystemsReason() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("a-file")
        try Data("x".utf8).write(to: file)
        let manager = FileManager.default
        #expect(reason { try manager.createDirectory(at: file, withIntermediateDirectories: true) } == "File exists")
        #expect(reason { try manager.createDirectory(at: file.appendingPathComponent("sub"), withIntermediateDirectories: true) }
                == "Not a directory")
        let long = directory.file(String(repeating: "n", count: 300))
        #expect(reason { try manager.createDirectory(at: long, withIntermediateDirectories: true) } == "File name too long")
        #expect(reason { _ = try Data(contentsOf: directory.file("absent")) } == "No such file or directory")
        #expect(reason { _ = try Data(contentsOf: directory.url) } == "Is a directory")
        #expect(reason { _ = try manager.contentsOfDirectory(atPath: file.path) } == "Not a directory")
    }

    @Test func otherErrorsKeepTheirDescriptionAndMessagesNameTheFile() throws {
        struct Located: Error, CustomStringConvertible { var description: String { "m.json:3:1: expected a value" } }
        #expect(FileErrorReason.of(Located()) == "m.json:3:1: expected a value")
        #expect(FileErrorReason.message(Located()) == "m.json:3:1: expected a value")
        let directory = try TemporaryDirectory()
        do {
            _ = try Data(contentsOf: directory.file("absent"))
            Issue.record("reading an absent file succeeded")
        } catch {
            #expect(FileErrorReason.message(error) == "\(directory.file("absent").path): No such file or directory")
            #expect(!"\(FileErrorReason.message(error))".contains("NSCocoaErrorDomain"))
        }
    }
}
