import Augmentation
import JSON5
import Pose

extension AugmentationConfiguration {
    /// A definition that does not resolve, with where in it the problem is.
    public struct DefinitionProblem: Sendable, Hashable, CustomStringConvertible {
        /// The definition's name under `augmentations`.
        public var definition: String
        /// The path inside the definition: `extends`, `drop[1]`, `set[0].kind`.
        public var path: [JSONPath.Component]
        /// What is wrong.
        public var message: String

        /// `augmentations.noFlip.drop[0]: unknown augmentation kind 'flp'; …`.
        public var description: String {
            "\(JSONPath([.key("augmentations"), .key(definition)] + path)): \(message)"
        }
    }

    /// Resolves every definition to its list of steps, following `extends` through the other
    /// definitions and the built-in pipelines for `layout`.
    ///
    /// An extension's base is the definition of that name, or the built-in pipeline of that name
    /// when none is defined or when a definition extends its own name (`full: { extends: "full",
    /// drop: ["flip"] }` redefines `full`). Then, in order: `drop` removes every step of each
    /// listed kind; `set` replaces the base's one step of each listed step's kind, in place;
    /// `append` adds its steps at the end.
    ///
    /// - Parameters:
    ///   - definitions: The manifest's `augmentations`.
    ///   - layout: The layout whose built-in pipelines (``builtIn(_:for:)``) bases may name.
    /// - Returns: The steps of every definition that resolves, and a problem for each one that
    ///   does not: an unknown base (with a spelling suggestion), a cycle of `extends` (naming
    ///   it), an unknown kind or a kind the base lacks in `drop`, a `set` whose kind the base has
    ///   none or several of, or a kind both dropped and set. A definition whose base fails fails
    ///   without a problem of its own.
    public static func resolve(
        _ definitions: [String: AugmentationDefinition], for layout: SkeletonLayout
    ) -> (steps: [String: [AugmentationStep]], problems: [DefinitionProblem]) {
        var resolver = DefinitionResolver(definitions: definitions, layout: layout)
        for name in definitions.keys.sorted() { _ = resolver.steps(of: name) }
        return (resolver.resolved, resolver.problems)
    }
}

/// The state of one ``AugmentationConfiguration/resolve(_:for:)``: finished definitions, failed
/// ones, and the chain of `extends` being followed.
private struct DefinitionResolver {
    let definitions: [String: AugmentationDefinition]
    let layout: SkeletonLayout
    var resolved: [String: [AugmentationStep]] = [:]
    var failed: Set<String> = []
    var problems: [AugmentationConfiguration.DefinitionProblem] = []
    /// Definitions whose base is being resolved, outermost first.
    var chain: [String] = []

    init(definitions: [String: AugmentationDefinition], layout: SkeletonLayout) {
        self.definitions = definitions
        self.layout = layout
    }

    /// The steps of definition `name`, or nil if it (or its base) does not resolve.
    mutating func steps(of name: String) -> [AugmentationStep]? {
        if let steps = resolved[name] { return steps }
        guard !failed.contains(name), let definition = definitions[name] else { return nil }
        switch definition {
        case let .steps(steps):
            resolved[name] = steps
            return steps
        case let .extending(changes):
            chain.append(name)
            let result = base(of: name, changes.base).flatMap { apply(changes, to: $0, in: name) }
            chain.removeLast()
            if let result { resolved[name] = result } else { failed.insert(name) }
            return result
        }
    }

    /// The steps and description of the pipeline `base` that definition `name` extends.
    private mutating func base(of name: String, _ base: String) -> (steps: [AugmentationStep], description: String)? {
        let builtIn = AugmentationConfiguration.builtIn(base, for: layout)
        let builtInDescription = "built-in pipeline '\(base)' for layout '\(layout.name)'"
        if base == name {
            guard let builtIn else {
                report(name, [.key("extends")], "'\(name)' extends itself, and no built-in pipeline has that name; "
                    + "built-in pipelines: \(AugmentationConfiguration.builtInNames.map { "'\($0)'" }.joined(separator: ", "))")
                return nil
            }
            return (builtIn, builtInDescription)
        }
        if definitions[base] != nil {
            if let start = chain.firstIndex(of: base) {
                let cycle = chain[start...] + [base]
                report(name, [.key("extends")], "cycle of extends: " + cycle.map { "'\($0)'" }.joined(separator: " → "))
                return nil
            }
            return steps(of: base).map { ($0, "pipeline '\(base)'") }
        }
        if let builtIn { return (builtIn, builtInDescription) }
        let known = AugmentationConfiguration.builtInNames + definitions.keys.sorted().filter { !AugmentationConfiguration.builtInNames.contains($0) }
        let suggestion = SpellingSuggestion.nearest(to: base, in: known).map { "; did you mean '\($0)'?" } ?? ""
        report(name, [.key("extends")], "unknown augmentation pipeline '\(base)'\(suggestion) (known pipelines: \(known.map { "'\($0)'" }.joined(separator: ", ")))")
        return nil
    }

    /// The base's steps with `changes` applied, or nil after reporting each problem.
    private mutating func apply(
        _ changes: AugmentationDefinition.Extension, to base: (steps: [AugmentationStep], description: String), in name: String
    ) -> [AugmentationStep]? {
        var steps = base.steps
        var isValid = true
        func stepList(_ steps: [AugmentationStep]) -> String {
            steps.isEmpty ? "it has no steps" : "its steps: " + steps.map(\.kind).joined(separator: ", ")
        }
        for (index, kind) in changes.drop.enumerated() {
            let path: [JSONPath.Component] = [.key("drop"), .index(index)]
            if !AugmentationStep.kinds.contains(kind) {
                let suggestion = SpellingSuggestion.nearest(to: kind, in: AugmentationStep.kinds).map { "; did you mean '\($0)'?" } ?? ""
                report(name, path, "unknown augmentation kind '\(kind)'\(suggestion) (kinds: \(AugmentationStep.kinds.joined(separator: ", ")))")
            } else if changes.drop[..<index].contains(kind) {
                report(name, path, "'\(kind)' is dropped twice")
            } else if !base.steps.contains(where: { $0.kind == kind }) {
                report(name, path, "\(base.description) has no '\(kind)' step to drop (\(stepList(base.steps)))")
            } else {
                steps.removeAll { $0.kind == kind }
                continue
            }
            isValid = false
        }
        for (index, step) in changes.set.enumerated() {
            let path: [JSONPath.Component] = [.key("set"), .index(index), .key("kind")]
            let count = steps.filter { $0.kind == step.kind }.count
            if changes.drop.contains(step.kind) {
                report(name, path, "contradictory values: '\(step.kind)' is both dropped and set")
            } else if changes.set[..<index].contains(where: { $0.kind == step.kind }) {
                report(name, path, "'\(step.kind)' is set twice")
            } else if count == 0 {
                report(name, path, "\(base.description) has no '\(step.kind)' step to set (\(stepList(base.steps))); "
                    + "add it with 'append'")
            } else if count > 1 {
                report(name, path, "\(base.description) has \(count) '\(step.kind)' steps; 'set' replaces exactly one; "
                    + "write the pipeline as a list of steps")
            } else if let position = steps.firstIndex(where: { $0.kind == step.kind }) {
                steps[position] = step
                continue
            }
            isValid = false
        }
        steps += changes.append
        return isValid ? steps : nil
    }

    private mutating func report(_ definition: String, _ path: [JSONPath.Component], _ message: String) {
        problems.append(AugmentationConfiguration.DefinitionProblem(definition: definition, path: path, message: message))
    }
}
