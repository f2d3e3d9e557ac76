import ActionLabTestSupport
import ContentHashing
import FeatureCache
import Foundation
import Testing

/// Hashes of files and folders (the FeatureCache extensions of `ContentHash`) and cache keys.
@Suite struct FileContentHashTests {
    @Test func fileHashMatchesSha256sumAcrossChunkBoundaries() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("blob.bin")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(3 * 65_536 + 17)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = try #require(output.split(separator: " ").first.map(String.init))
        for chunkSize in [1, 4_096, 65_536, 1 << 20] where chunkSize > 1 || bytes.count < 300_000 {
            #expect(try ContentHash.sha256(ofFileAt: url, chunkSize: chunkSize).hexDigest == expected)
        }
        #expect(try ContentHash.sha256(of: Data(bytes)).hexDigest == expected)
    }

    @Test func missingFileThrowsCannotReadSource() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("missing")
        let error = try #require(throws: FeatureCacheError.self) { try ContentHash.sha256(ofFileAt: url) }
        guard case let .cannotReadSource(path, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(path == url.path)
    }

    @Test func keyCombinesSourceHashAndFingerprint() throws {
        let source = try ContentHash.sha256(of: "abc")
        let fingerprint = ImporterFingerprint(importer: "uea-ts", version: "1", settings: ["layout": "univariate"])
        #expect(fingerprint.canonicalString == #"{"importer":"uea-ts","settings":{"layout":"univariate"},"version":"1"}"#)
        let key = try CacheKey(source: source, fingerprint: fingerprint)
        #expect(key.hexDigest == (try ContentHash.sha256(of: source.hexDigest + "\n" + fingerprint.canonicalString)).hexDigest)
        let bumped = ImporterFingerprint(importer: "uea-ts", version: "2", settings: ["layout": "univariate"])
        #expect(try CacheKey(source: source, fingerprint: bumped) != key)
        #expect(try CacheKey(source: source, fingerprint: fingerprint.adding(layoutName: "x", frameRate: 30)) != key)
        #expect(try CacheKey(hexDigest: key.hexDigest) == key)
    }

    @Test(arguments: ["", "ABC", "../../etc/passwd", String(repeating: "A", count: 64), String(repeating: "0", count: 63)])
    func invalidKeyTextIsRejected(text: String) {
        #expect(throws: FeatureCacheError.invalidKey(text)) { try CacheKey(hexDigest: text) }
    }
}
