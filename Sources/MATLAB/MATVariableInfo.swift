/// What a MAT-file says about one variable, without its values.
public struct MATVariableInfo: Sendable, Hashable {
    /// The variable's name.
    public var name: String
    /// MATLAB's class of the variable: `double`, `single`, `int8` ... `uint64`, `char`, `cell`,
    /// `struct`, `object`, `sparse`, `function`, `opaque` or `empty`, as MATLAB's `class` names them
    /// (sparse arrays are named `sparse` here, whatever their element class).
    public var className: String
    /// The dimensions, column-major as MATLAB stores them: `dimensions[0]` varies fastest. At least 2.
    public var dimensions: [Int]
    /// Whether the values are complex.
    public var isComplex: Bool
    /// Whether the variable is MATLAB's `logical` (stored as `uint8`).
    public var isLogical: Bool

    /// Creates a description; ``MATFile`` creates these, callers normally only inspect them.
    public init(name: String, className: String, dimensions: [Int], isComplex: Bool, isLogical: Bool) {
        self.name = name
        self.className = className
        self.dimensions = dimensions
        self.isComplex = isComplex
        self.isLogical = isLogical
    }

    /// Whether ``MATFile/readNumericArray(named:)`` can read it: a real, non-sparse numeric or
    /// logical array.
    public var isRealNumeric: Bool {
        !isComplex && Self.numericClassNames.contains(className)
    }

    /// A description of what the variable is, for messages: `complex double`, `cell`, `20×3×48 double`.
    public var kindDescription: String {
        let size = dimensions.map(String.init).joined(separator: "×")
        return "\(size) \(isComplex ? "complex " : "")\(isLogical ? "logical" : className)"
    }

    /// MATLAB's numeric classes.
    static let numericClassNames: Set<String> = [
        "double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    ]
}
