extension JSON5Value {
    /// The value as canonical pretty-printed JSON.
    ///
    /// Objects put one member per line, indented by two spaces, as `"key": value`; arrays whose
    /// elements are all scalars stay on one line (`[64, 64, 64]`), other arrays put one element
    /// per line; empty containers are `{}` and `[]`. Numbers are formatted by
    /// ``JSON5Number/description``: integers without `.0`, other numbers in their shortest
    /// round-trip form. The output is plain JSON (RFC 8259) unless the value holds `NaN` or an
    /// infinity, which are written as JSON5 literals. The result has no trailing newline.
    ///
    /// - Parameter sortedKeys: Whether to write object members in ascending key order (by
    ///   Unicode scalar values) instead of their source order.
    /// - Returns: The JSON text.
    public func jsonString(sortedKeys: Bool = false) -> String {
        var output = ""
        write(to: &output, indentation: "", sortedKeys: sortedKeys)
        return output
    }

    private func write(to output: inout String, indentation: String, sortedKeys: Bool) {
        let inner = indentation + "  "
        switch kind {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .number(let number): output += number.description
        case .string(let string): output += JSONStringEscaping.quoted(string)
        case .array(let elements) where elements.isEmpty:
            output += "[]"
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += ", " }
                element.write(to: &output, indentation: inner, sortedKeys: sortedKeys)
            }
            output += "]"
        case .array(let elements):
            output += "[\n"
            for (offset, element) in elements.enumerated() {
                output += inner
                element.write(to: &output, indentation: inner, sortedKeys: sortedKeys)
                output += offset < elements.count - 1 ? ",\n" : "\n"
            }
            output += indentation + "]"
        case .object(let members) where members.isEmpty:
            output += "{}"
        case .object(let members):
            let ordered = sortedKeys ? members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) } : members
            output += "{\n"
            for (offset, member) in ordered.enumerated() {
                output += inner + JSONStringEscaping.quoted(member.key) + ": "
                member.value.write(to: &output, indentation: inner, sortedKeys: sortedKeys)
                output += offset < ordered.count - 1 ? ",\n" : "\n"
            }
            output += indentation + "}"
        }
    }

    /// Whether the value is neither an array nor an object.
    private var isScalar: Bool {
        switch kind {
        case .array, .object: false
        default: true
        }
    }
}
