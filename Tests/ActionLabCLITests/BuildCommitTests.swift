import ActionLabTestSupport
import Foundation
import Testing

/// The git commit the executable records (provenance.json, model cards, MLflow) is the one it was
/// built from, recorded at build time by GitCommitPlugin. Before, it asked git at run time about
/// the checkout at its build path, and a copied binary recorded the commits made there afterwards.
@Suite struct BuildCommitTests {
    /// `git rev-parse HEAD` of the package, or nil without git or a repository.
    static func head() throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", TestData.packageRoot.path, "rev-parse", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return nil }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : nil
    }

    @Test func infoPrintsTheCommitTheBuildRecorded() throws {
        let info = try KernelSelectionTests.info(environment: ["ACTIONLAB_GIT_COMMIT": nil])
        let commit = try #require(info["git commit"])
        if let head = try Self.head() {
            // The test build is made from the working tree it runs in: HEAD, dirty or not.
            #expect(commit == head || commit == head + "-dirty", "recorded \(commit), HEAD is \(head)")
        } else {
            #expect(commit == "unknown")
        }
        // A parent process (a sweep handing its commit to its workers) overrides it.
        let inherited = try KernelSelectionTests.info(environment: ["ACTIONLAB_GIT_COMMIT": "0123abc"])
        #expect(inherited["git commit"] == "0123abc")
    }
}
