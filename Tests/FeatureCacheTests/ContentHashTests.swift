import ActionLabTestSupport
import FeatureCache
import Foundation
import Testing

@Suite struct ContentHashTests {
    /// FIPS 180-4 / NIST example vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(text: String, expected: String) throws {
        #expect(try ContentHash.sha256(of: text).hexDigest == expected)
        #expect(try ContentHash.sha256(of: Data(text.utf8)).hexDigest == expected)
    }

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
