/// Escaping of strings for JSON output (RFC 8259, section 7); used for canonical JSON here and
/// for hand-assembled JSON elsewhere (the safetensors header, whose key order matters).
public enum JSONStringEscaping {
    /// The string in double quotes with `"`, `\` and control characters escaped.
    public static func quoted(_ string: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(string.unicodeScalars.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }
}
