import Foundation

/// The model families a manifest's `model.kind` can name, in the order the reference lists them.
///
/// ``builtIn`` holds ActionLab's families. A test or a program adds its own with
/// ``registering(_:)`` and passes the registry to `ExperimentConfiguration.parse`; the shared model
/// checks take a registry too, so a new family gets them by registering.
public struct ModelRegistry: Sendable {
    /// The families, in registration order.
    public let families: [RegisteredModelFamily]

    /// ActionLab's families: `tcn`, `stgcn`, `stgcn-small`, `stgcnpp`, `stgcnpp-small`, `ctrgcn`, `ctrgcn-small`,
    /// `mlp`.
    public static let builtIn = ModelRegistry(unchecked: [
        RegisteredModelFamily(TemporalConvolutionalFamily()),
        RegisteredModelFamily(SpatialTemporalGraphFamily(preset: .stgcn)),
        RegisteredModelFamily(SpatialTemporalGraphFamily(preset: .stgcnSmall)),
        RegisteredModelFamily(STGCNPlusPlusFamily(preset: .stgcnpp)),
        RegisteredModelFamily(STGCNPlusPlusFamily(preset: .stgcnppSmall)),
        RegisteredModelFamily(CTRGCNFamily(preset: .ctrgcn)),
        RegisteredModelFamily(CTRGCNFamily(preset: .ctrgcnSmall)),
        RegisteredModelFamily(MultilayerPerceptronFamily()),
    ])

    /// The key under which a `Decoder`'s `userInfo` may carry the registry used to decode
    /// `resolved.json`; ``builtIn`` when absent.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "actionlab.modelRegistry")

    /// The registry a decoder's `userInfo` carries, else ``builtIn``.
    static func of(_ decoder: Decoder) -> ModelRegistry {
        userInfoKey.flatMap { decoder.userInfo[$0] as? ModelRegistry } ?? .builtIn
    }

    private init(unchecked families: [RegisteredModelFamily]) {
        self.families = families
    }

    /// A registry with `family` added after the existing ones.
    ///
    /// - Throws: ``ModelRegistryError/duplicateName(_:)`` if a family already has its name.
    package func registering<Family: ModelFamily>(_ family: Family) throws -> ModelRegistry {
        let registered = RegisteredModelFamily(family)
        guard self.family(named: registered.name) == nil else { throw ModelRegistryError.duplicateName(registered.name) }
        return ModelRegistry(unchecked: families + [registered])
    }

    /// The family registered under `name`, or nil.
    public func family(named name: String) -> RegisteredModelFamily? {
        families.first { $0.name == name }
    }

    /// Every family's name, in registration order.
    public var names: [String] { families.map(\.name) }
}
