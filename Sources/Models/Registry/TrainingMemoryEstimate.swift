/// A rough count of the memory training a model takes, from its sizes alone, so that a manifest
/// whose model or batch the machine cannot hold fails in `validate` rather than in an allocation.
///
/// Every value is a 32-bit float (4 bytes). Training holds each parameter four times (weights,
/// gradients and Adam's two moments) and each activation of a batch twice (the forward output
/// kept for the backward pass, and its gradient). The estimate is a lower bound of the real use
/// (workspace buffers and the windows themselves come on top), so a rejected manifest is one
/// that certainly does not fit.
public struct TrainingMemoryEstimate: Sendable, Equatable {
    /// The model's trainable parameters (and batch-normalization statistics).
    public var parameters: Int
    /// The floats the forward pass of one window produces, summed over the layers.
    public var activationsPerWindow: Int

    /// Bytes of one float.
    public static let bytesPerValue = 4
    /// Copies of each parameter during training: weights, gradients, two Adam moments.
    public static let copiesPerParameter = 4
    /// Copies of each activation during training: the forward output and its gradient.
    public static let copiesPerActivation = 2

    /// Creates an estimate.
    public init(parameters: Int, activationsPerWindow: Int) {
        self.parameters = parameters
        self.activationsPerWindow = activationsPerWindow
    }

    /// The bytes training on batches of `batchSize` windows takes, or nil if the count
    /// overflows a 64-bit integer.
    public func trainingBytes(batchSize: Int) -> Int? {
        Self.checked { count in
            let parameterBytes = try count.product(parameters, Self.copiesPerParameter, Self.bytesPerValue)
            let activationBytes = try count.product(activationsPerWindow, batchSize, Self.copiesPerActivation, Self.bytesPerValue)
            return try count.sum(parameterBytes, activationBytes)
        }
    }

    /// Counts with overflow checks: ``product(_:)`` and ``sum(_:)`` throw on overflow.
    public struct CheckedCount: Sendable {
        struct Overflow: Error {}

        /// The product of `factors`; throws if it overflows.
        public func product(_ factors: Int...) throws -> Int {
            try factors.reduce(1) { result, factor in
                let (value, overflow) = result.multipliedReportingOverflow(by: factor)
                if overflow { throw Overflow() }
                return value
            }
        }

        /// The sum of `terms`; throws if it overflows.
        public func sum(_ terms: Int...) throws -> Int { try sum(terms) }

        /// The sum of `terms`; throws if it overflows.
        public func sum(_ terms: [Int]) throws -> Int {
            try terms.reduce(0) { result, term in
                let (value, overflow) = result.addingReportingOverflow(term)
                if overflow { throw Overflow() }
                return value
            }
        }
    }

    /// The result of `count`, or nil if one of its products or sums overflowed.
    public static func checked<Result>(_ count: (CheckedCount) throws -> Result) -> Result? {
        try? count(CheckedCount())
    }
}
