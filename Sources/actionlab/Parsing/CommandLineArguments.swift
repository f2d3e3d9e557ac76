/// A subcommand's arguments parsed against its ``CommandSpecification``: positional values and
/// `--name value` options, read back through their declarations.
///
/// Parsing checks, in this order: every option is declared (`unknown option --x (options: ...)`),
/// a value option has a value that is not empty (`--output DIR` or `--output=DIR`) and a flag has none; then the
/// number of positional arguments; then that every required option is present. After `--`
/// everything is positional. A value's kind (a whole number, a number) is checked when the
/// command reads it, so the command decides the order of those errors.
struct CommandLineArguments {
    /// The specification parsed against.
    let specification: CommandSpecification
    /// Positional arguments in order.
    private(set) var positionals: [String] = []
    /// Option values by name (without the leading dashes), in the order given; a flag's value
    /// is `true`.
    private var options: [String: [String]] = [:]

    /// Parses `arguments` (after the subcommand name) against `specification`.
    /// - Throws: `UsageError` for an unknown option, a missing value, a value given to a flag,
    ///   too few or too many positional arguments, or a missing required option.
    init(_ arguments: ArraySlice<String>, for specification: CommandSpecification) throws {
        self.specification = specification
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals.append(contentsOf: remaining)
                break
            }
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = specification.option(named: name) else {
                let known = specification.options.map(\.spelling).sorted().joined(separator: ", ")
                throw UsageError("unknown option --\(name)" + (known.isEmpty ? "" : " (options: \(known))"))
            }
            if option.kind == .flag {
                guard value == nil else { throw UsageError("option --\(name) takes no value") }
                options[name] = ["true"]
            } else {
                guard let given = value ?? remaining.popFirst() else { throw UsageError("option --\(name) needs a value") }
                // An empty text is no value: `--output ""` meant the current directory, which predict,
                // export and check then filled.
                guard !given.isEmpty else { throw UsageError("--\(name) needs a value, got an empty one") }
                options[name, default: []].append(given)
            }
        }
        try checkPositionalCount()
        for option in specification.options where option.isRequired && options[option.name] == nil {
            throw UsageError(option.missingMessage)
        }
    }

    /// Checks the number of positional arguments against the declared ones.
    private func checkPositionalCount() throws {
        let declared = specification.arguments
        let required = declared.filter { argument in
            !(argument.optionalWith.map { options[$0.name] != nil } ?? false)
        }
        if positionals.count < required.count {
            if let message = specification.tooFewArgumentsMessage { throw UsageError(message(self)) }
            let missing = required[positionals.count]
            throw UsageError("missing \(missing.spokenName)")
        }
        guard !declared.contains(where: \.isRepeated), positionals.count > declared.count else { return }
        switch declared.count {
        case 0 where specification.options.isEmpty:
            throw UsageError("\(specification.name) takes no arguments")
        case 0:
            throw UsageError("\(specification.name) takes options only, found '\(positionals.joined(separator: " "))'")
        case 1:
            throw UsageError("expected one \(declared[0].spokenName), found \(positionals.count) arguments")
        default:
            let names = declared.map(\.spokenName).joined(separator: " ")
            throw UsageError("expected \(names), found \(positionals.count) arguments")
        }
    }

    /// Whether the flag was given.
    func isSet(_ flag: CommandOption<Bool>) -> Bool {
        isGiven(flag)
    }

    /// Whether `option` (of any kind) was given.
    func isGiven(_ option: any DeclaredOption) -> Bool {
        options[option.declaration.name] != nil
    }

    /// The value of `option` (the last one, if it was given more than once), or nil if it was
    /// not given.
    /// - Throws: `UsageError` if the value is not of the option's kind (`--jobs two`), or if
    ///   the command's specification does not declare the option.
    func value<Value>(of option: CommandOption<Value>) throws -> Value? {
        try checkDeclared(option.declaration)
        return try options[option.declaration.name]?.last.map(option.value(from:))
    }

    /// Every value of a repeatable option, in the order given; empty if it was not given.
    /// - Throws: `UsageError` as ``value(of:)``.
    func values<Value>(of option: CommandOption<Value>) throws -> [Value] {
        try checkDeclared(option.declaration)
        return try (options[option.declaration.name] ?? []).map(option.value(from:))
    }

    /// The value of a required option (the parser has checked that it was given).
    /// - Throws: `UsageError` as ``value(of:)``, or the option's missing message.
    func required<Value>(_ option: CommandOption<Value>) throws -> Value {
        guard let value = try value(of: option) else { throw UsageError(option.declaration.missingMessage) }
        return value
    }

    /// The value of a positional argument that takes one value.
    /// - Throws: `UsageError` if it is absent (possible only for an argument that a flag made
    ///   optional) or not declared.
    func value(of argument: PositionalArgument) throws -> String {
        let index = try position(of: argument)
        guard index < positionals.count else { throw UsageError("missing \(argument.spokenName)") }
        return positionals[index]
    }

    /// The values of a repeated positional argument: every positional from its place on.
    /// - Throws: `UsageError` if the argument is not declared.
    func values(of argument: PositionalArgument) throws -> [String] {
        let index = try position(of: argument)
        return index < positionals.count ? Array(positionals[index...]) : []
    }

    private func position(of argument: PositionalArgument) throws -> Int {
        guard let index = specification.arguments.firstIndex(of: argument) else {
            throw UsageError("\(argument.name) is not an argument of \(specification.name)")
        }
        return index
    }

    private func checkDeclared(_ option: OptionDeclaration) throws {
        guard specification.option(named: option.name) == option else {
            throw UsageError("\(option.spelling) is not an option of \(specification.name)")
        }
    }
}
