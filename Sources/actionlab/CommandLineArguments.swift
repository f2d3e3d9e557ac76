/// A subcommand's arguments: positional values and `--name value` options, checked against
/// what the subcommand accepts.
struct CommandLineArguments {
    /// Positional arguments in order.
    private(set) var positionals: [String] = []
    /// Option values by name (without the leading dashes).
    private(set) var options: [String: String] = [:]

    /// Parses `arguments` (after the subcommand name).
    /// - Parameters:
    ///   - valueOptions: Options that take a value (`--output DIR` or `--output=DIR`).
    ///   - flags: Options without a value (`--quiet`).
    /// - Throws: `UsageError` for an unknown option or a missing value.
    init(_ arguments: ArraySlice<String>, valueOptions: Set<String>, flags: Set<String> = []) throws {
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
            if flags.contains(name) {
                guard value == nil else { throw UsageError("option --\(name) takes no value") }
                options[name] = "true"
            } else if valueOptions.contains(name) {
                guard let given = value ?? remaining.popFirst() else { throw UsageError("option --\(name) needs a value") }
                options[name] = given
            } else {
                let known = (valueOptions.union(flags)).sorted().map { "--\($0)" }.joined(separator: ", ")
                throw UsageError("unknown option --\(name)" + (known.isEmpty ? "" : " (options: \(known))"))
            }
        }
    }

    /// The value of option `name` as a whole number ≥ 1, or nil if the option is absent.
    /// - Throws: `UsageError` if the value is not such a number.
    func positiveInteger(_ name: String) throws -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text), value >= 1 else { throw UsageError("--\(name) takes a whole number of at least 1, found '\(text)'") }
        return value
    }

    /// The only positional argument, named `name` in the error when it is missing or repeated.
    func singlePositional(_ name: String) throws -> String {
        guard positionals.count == 1, let value = positionals.first else {
            throw UsageError(positionals.isEmpty ? "missing \(name)" : "expected one \(name), found \(positionals.count) arguments")
        }
        return value
    }
}

/// Wrong command-line usage: printed with the usage text, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
