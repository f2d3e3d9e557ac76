import Foundation  // Links the C math library that Double rounding needs on Linux.

/// A JSON5 number, remembering whether its literal was an integer.
///
/// JSON5 numbers are IEEE 754 doubles, but a configuration reader wants to tell `16` from
/// `16.5` and a serializer wants to write `16` rather than `16.0`. A number written without a
/// fraction or exponent (decimal or hexadecimal) that fits in `Int` keeps its exact value in
/// ``integerValue``.
public struct JSON5Number: Hashable, Sendable, CustomStringConvertible {
    /// The number as a double, which is what the JSON5 specification says every number is.
    public var doubleValue: Double
    /// The exact integer value when the number is integral and fits in `Int`, otherwise `nil`.
    public var integerValue: Int?

    /// Creates a number from an integer.
    public init(_ value: Int) {
        doubleValue = Double(value)
        integerValue = value
    }

    /// Creates a number from a double; integral values within `Int`'s range get an integer value.
    ///
    /// Integral doubles beyond ±2⁵³ are not exact integers in the source sense and keep only
    /// their double value.
    public init(_ value: Double) {
        doubleValue = value
        let exactLimit = 9_007_199_254_740_992.0  // 2^53: every integer up to here is a double.
        integerValue = abs(value) <= exactLimit ? Int(exactly: value) : nil
    }

    init(doubleValue: Double, integerValue: Int?) {
        self.doubleValue = doubleValue
        self.integerValue = integerValue
    }

    /// The canonical text of the number.
    ///
    /// Integral numbers are written without a fraction (`30`, not `30.0`); other finite numbers in the
    /// shortest form that reads back to the same double (`0.001`, `1e-07`), which is Swift's own
    /// `description`. Non-finite numbers are written as the JSON5 literals `NaN`, `Infinity`
    /// and `-Infinity`, which plain JSON does not have.
    public var description: String {
        if let integer = integerValue ?? JSON5Number(doubleValue).integerValue { return String(integer) }
        if doubleValue.isNaN { return "NaN" }
        if doubleValue.isInfinite { return doubleValue < 0 ? "-Infinity" : "Infinity" }
        return String(describing: doubleValue)
    }
}
