import JSON5

extension Trial.SweptValue {
    /// The value as reports show it: a JSON string without its quotes (`full`), anything else
    /// as its JSON text (`2.5`, `[16,16]`).
    public var displayValue: String { Self.display(value) }

    /// `path=value` with ``displayValue`` (`augmentation=full`).
    public var assignment: String { "\(path)=\(displayValue)" }

    /// Canonical JSON text as reports show it; see ``displayValue``.
    static func display(_ json: String) -> String {
        (try? JSON5Value(parsing: json))?.stringValue ?? json
    }

    /// The number canonical JSON text holds, or nil if it holds something else.
    static func number(_ json: String) -> Double? {
        (try? JSON5Value(parsing: json))?.numberValue?.doubleValue
    }
}
