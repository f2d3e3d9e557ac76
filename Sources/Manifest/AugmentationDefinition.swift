import Augmentation

/// One pipeline as a manifest's `augmentations` defines it: a list of steps, or a named pipeline
/// with steps dropped, replaced or appended.
///
/// Manifest forms:
/// ```json5
/// augmentations: {
///   gentle: [{ kind: "rotation", degrees: 5 }, { kind: "jitter", standardDeviation: 0.002 }],
///   noFlip: { extends: "full", drop: ["flip"] },
///   steady: { extends: "noFlip", set: [{ kind: "rotation", degrees: 5 }], append: [{ kind: "frameDrop", probability: 0.05 }] },
/// }
/// ```
/// An extension is resolved against the other definitions and the built-in pipelines of the
/// manifest's layout (``AugmentationConfiguration/resolve(_:for:)``); `resolved.json` holds
/// every definition as the list of steps it resolved to.
public enum AugmentationDefinition: Sendable, Hashable {
    /// The steps, in order.
    case steps([AugmentationStep])
    /// A named pipeline, changed.
    case extending(Extension)

    /// A named pipeline with steps dropped, replaced and appended, applied in that order.
    public struct Extension: Sendable, Hashable {
        /// The pipeline extended (`extends`): another definition or a built-in pipeline. A
        /// definition that extends its own name extends the built-in pipeline of that name.
        public var base: String
        /// Kinds of step removed from the base (`drop`), every step of each kind.
        public var drop: [String]
        /// Steps that replace the base's one step of the same kind, in place (`set`).
        public var set: [AugmentationStep]
        /// Steps added after the base's (`append`).
        public var append: [AugmentationStep]

        /// Creates an extension of `base`.
        public init(base: String, drop: [String] = [], set: [AugmentationStep] = [], append: [AugmentationStep] = []) {
            self.base = base
            self.drop = drop
            self.set = set
            self.append = append
        }
    }
}
