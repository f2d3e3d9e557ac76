/// A model configuration that cannot build a network, listing every problem; each model names it
/// `InvalidConfiguration` (`TemporalConvolutionalNetwork.InvalidConfiguration`, ...).
public struct InvalidModelConfiguration<Model>: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, one entry per problem.
    public let problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        "invalid \(Model.self) configuration: " + problems.joined(separator: "; ")
    }
}
