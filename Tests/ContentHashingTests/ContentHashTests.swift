import ContentHashing
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

    /// `sha256(ofFields:)` against Python's `hashlib.sha256(b"".join(f.encode() + b"\0" for f in
    /// fields)).hexdigest()`, the formula its documentation gives; the NUL terminators keep
    /// `["a", "bc"]` and `["ab", "c"]` apart.
    @Test(arguments: [
        (["a", "bc", ""], "659f6e5742991f4ef127c972729839a1cd4a59f862339c765ddfa4459be3d959"),
        (["ab", "c", ""], "bd004134849ca646d85104d0f90bea121a2a2861f05c76e07d97dec0361d29f0"),
        (["labels", #"["clap","wave"]"#, "frame_rate", "30.0"], "46e2f9c66de1849311435959b9897600728fd0bce71c32abf76dda343e6a8621"),
        (["Grüße", "✓"], "e089d6907412c39ff128ba63008cfeb36c8b06ad131d75575ce94ad4e8d235db"),
    ])
    func fieldsHashAsPythonsFormula(fields: [String], expected: String) throws {
        #expect(try ContentHash.sha256(ofFields: fields).hexDigest == expected)
        #expect(try ContentHash.sha256(ofFields: fields) == ContentHash.sha256(of: Data(fields.flatMap { Array($0.utf8) + [0] })))
    }

    @Test(arguments: ["", "ABC", "../../etc/passwd", String(repeating: "A", count: 64), String(repeating: "0", count: 63)])
    func textThatIsNotADigestIsRejected(text: String) {
        #expect(throws: ContentHashError.notAHexDigest(text)) { try ContentHash(hexDigest: text) }
    }

    @Test func digestTextReadsBack() throws {
        let hash = try ContentHash.sha256(of: "abc")
        #expect(try ContentHash(hexDigest: hash.hexDigest) == hash)
        #expect(hash.description == hash.hexDigest)
    }
}
