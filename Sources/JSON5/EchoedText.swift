/// Text from a document shortened for an error message, so that a 10 MB value is not echoed
/// whole: its first ``maximumLength`` characters, an ellipsis and its length.
public enum EchoedText {
    /// The most characters (Unicode scalars) of a value an error message repeats.
    public static let maximumLength = 60
    /// The most characters of a file path an error message repeats: Linux's `PATH_MAX`, so
    /// that every path a file system can hold is shown whole.
    public static let maximumPathLength = 4096

    /// `text` itself if it has at most `maximumLength` Unicode scalars, else its first
    /// `maximumLength` scalars followed by `… (N characters)`.
    ///
    /// - Parameters:
    ///   - text: A value, key or path taken from the user's input.
    ///   - maximumLength: The most scalars kept: ``maximumLength``, or ``maximumPathLength`` for paths.
    /// - Returns: Text of at most `maximumLength` scalars and the ellipsis with the length.
    public static func shortened(_ text: String, maximumLength: Int = maximumLength) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: maximumLength, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return text }
        return String(scalars[..<end]) + "… (\(scalars.count) characters)"
    }
}
