import JSON5

/// The longest key or string a manifest may hold.
///
/// No manifest needs more (names, labels, descriptions and paths are short; Linux's `PATH_MAX`
/// is 4,096 bytes), and a longer one made every later step pay for it: a 10 MB label was copied
/// into every trial's resolved configuration, which `validate` took minutes to hash for a
/// 27-trial sweep. The check runs once, right after parsing.
public enum ManifestStringLimit {
    /// The limit, in UTF-8 bytes.
    public static let maximumBytes = 65_536

    /// Checks every key and string value in `document`.
    ///
    /// - Parameters:
    ///   - document: The parsed manifest.
    ///   - filePath: The manifest's name, for the error.
    /// - Throws: ``JSON5Error`` at the first key or string longer than ``maximumBytes``, giving
    ///   its length and the limit.
    public static func check(_ document: JSON5Value, filePath: String?) throws {
        switch document.kind {
        case .string(let text):
            try check(text, at: document.location, what: "a string", filePath: filePath)
        case .array(let elements):
            for element in elements { try check(element, filePath: filePath) }
        case .object(let members):
            for member in members {
                try check(member.key, at: member.keyLocation, what: "a key", filePath: filePath)
                try check(member.value, filePath: filePath)
            }
        case .null, .bool, .number:
            break
        }
    }

    private static func check(_ text: String, at location: SourceLocation, what: String, filePath: String?) throws {
        let bytes = text.utf8.count
        guard bytes > maximumBytes else { return }
        throw JSON5Error(
            filePath: filePath, location: location,
            message: "\(what) of \(bytes) bytes ('\(EchoedText.shortened(text))'): manifest keys and strings are limited to "
                + "\(maximumBytes) bytes")
    }
}
