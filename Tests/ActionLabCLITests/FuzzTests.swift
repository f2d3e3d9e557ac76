import ActionLabTestSupport
import Foundation
import Testing

/// The short form of `scripts/fuzz` (README, Reliability): mutated manifests, data files of every
/// importer and cache entries against the built `actionlab`, with no crash, no hang and no
/// silently changed result.
@Suite struct FuzzTests {
    struct FuzzResult: Decodable {
        var kind: String
        var cases: Int
        var accepted: Int
        var rejected: Int
        var crashes: Int
        var hangs: Int
        var changed: Int
        var located: Int
    }

    @Test func quickFuzzFindsNoCrashHangOrSilentChange() throws {
        let work = try TemporaryDirectory()
        let script = TestData.packageRoot.appendingPathComponent("scripts/fuzz")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            PythonOracle.interpreter, script.path, "--quick", "--actionlab", try CommandLineTool.executable.path,
            "--work", work.url.path,
        ]
        process.currentDirectoryURL = TestData.packageRoot
        let log = work.url.appendingPathComponent("fuzz.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = logHandle
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try logHandle.close()
        let logText = try String(contentsOf: log, encoding: .utf8)
        #expect(process.terminationStatus == 0, "scripts/fuzz --quick failed:\n\(logText.suffix(6000))")
        let results = try String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("{") }
            .map { try JSONDecoder().decode(FuzzResult.self, from: Data($0.utf8)) }
        let expectedCases = ["manifests": 200, "data": 12 * 7, "cache": 24]
        #expect(Set(results.map(\.kind)) == Set(expectedCases.keys), "\(logText.suffix(3000))")
        for result in results {
            #expect(result.cases == expectedCases[result.kind], "\(result.kind)")
            #expect(result.crashes == 0 && result.hangs == 0 && result.changed == 0, "\(result.kind): \(logText.suffix(4000))")
            #expect(result.rejected > 0, "\(result.kind)")
            // Manifests and data files reach both sides of the checks; a damaged cache entry is
            // always reported (and imported again), so there nothing passes unremarked.
            if result.kind != "cache" { #expect(result.accepted > 0, "\(result.kind)") }
            // Rejected manifests point at file, line and column; rejected data files name the
            // file; a damaged cache entry's warning names the entry.
            #expect(Double(result.located) >= 0.9 * Double(result.rejected), "\(result.kind): \(result.located) of \(result.rejected)")
        }
    }
}
