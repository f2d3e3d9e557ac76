/// The allowed range of a manifest number, with open or closed ends, described in interval
/// notation for messages: `> 0`, `>= 1`, `in (0, 0.5]`, `in [1, 100000]`.
package struct NumericBounds: Sendable {
    /// One end of an interval.
    package struct Bound: Sendable {
        package var value: Double
        package var isInclusive: Bool

        package init(value: Double, isInclusive: Bool) {
            self.value = value
            self.isInclusive = isInclusive
        }
    }

    package var lower: Bound?
    package var upper: Bound?

    package init(lower: Bound? = nil, upper: Bound? = nil) {
        self.lower = lower
        self.upper = upper
    }

    /// Any finite number.
    package static let any = NumericBounds()
    /// Numbers greater than 0.
    package static let positive = NumericBounds(lower: Bound(value: 0, isInclusive: false))
    /// Numbers of at least 0.
    package static let nonNegative = atLeast(0)
    /// The half-open unit interval [0, 1), for probabilities that must leave something.
    package static let unitInterval = NumericBounds(lower: Bound(value: 0, isInclusive: true), upper: Bound(value: 1, isInclusive: false))

    /// Numbers of at least `minimum`.
    package static func atLeast(_ minimum: Double) -> NumericBounds {
        NumericBounds(lower: Bound(value: minimum, isInclusive: true))
    }

    /// Numbers in the closed interval [minimum, maximum].
    package static func closed(_ minimum: Double, _ maximum: Double) -> NumericBounds {
        NumericBounds(lower: Bound(value: minimum, isInclusive: true), upper: Bound(value: maximum, isInclusive: true))
    }

    /// Whether `value` is within the bounds.
    func contains(_ value: Double) -> Bool {
        if let lower, lower.isInclusive ? value < lower.value : value <= lower.value { return false }
        if let upper, upper.isInclusive ? value > upper.value : value >= upper.value { return false }
        return true
    }

    /// The bounds for a message, after "expected a number".
    var description: String {
        switch (lower, upper) {
        case (nil, nil): ""
        case let (lower?, nil): " \(lower.isInclusive ? ">=" : ">") \(lower.value.manifestText)"
        case let (nil, upper?): " \(upper.isInclusive ? "<=" : "<") \(upper.value.manifestText)"
        case let (lower?, upper?):
            " in \(lower.isInclusive ? "[" : "(")\(lower.value.manifestText), \(upper.value.manifestText)\(upper.isInclusive ? "]" : ")")"
        }
    }

    /// The bounds for the manifest reference: `> 0`, `≥ 1`, `[1, 100000]`, `(0, 0.5]`; empty
    /// for any finite number.
    package var referenceText: String {
        switch (lower, upper) {
        case (nil, nil): ""
        case let (lower?, nil): "\(lower.isInclusive ? "≥" : ">") \(lower.value.manifestText)"
        case let (nil, upper?): "\(upper.isInclusive ? "≤" : "<") \(upper.value.manifestText)"
        case let (lower?, upper?):
            "\(lower.isInclusive ? "[" : "(")\(lower.value.manifestText), \(upper.value.manifestText)\(upper.isInclusive ? "]" : ")")"
        }
    }
}
