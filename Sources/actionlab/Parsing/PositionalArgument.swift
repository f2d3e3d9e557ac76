/// A positional argument of a subcommand, declared once: its name in the usage, its help, and
/// whether it takes one value or one or more.
struct PositionalArgument: Sendable, Hashable {
    /// The placeholder in the usage, in capitals: `MANIFEST`; alternatives are separated by `|`
    /// (`MANIFEST|SWEEP_DIR`) and read "or" in messages.
    let name: String
    /// One paragraph of help.
    let help: String
    /// Whether it takes one or more values (only the last argument may).
    let isRepeated: Bool
    /// An option that makes the argument optional when given (`compare --all` needs one folder,
    /// not two; `predict --live URL` needs no input file), or nil if it is always required.
    let optionalWith: OptionDeclaration?

    /// Declares a positional argument.
    /// - Parameters:
    ///   - isRepeated: One or more values (`INDEX...`); only the last argument may be repeated.
    ///   - optionalWith: An option (a flag or one with a value) with which the argument may be absent.
    init<Value>(_ name: String, help: String, isRepeated: Bool = false, optionalWith option: CommandOption<Value>?) {
        self.name = name
        self.help = help
        self.isRepeated = isRepeated
        self.optionalWith = option?.declaration
    }

    /// Declares a positional argument that is always required.
    init(_ name: String, help: String, isRepeated: Bool = false) {
        self.name = name
        self.help = help
        self.isRepeated = isRepeated
        self.optionalWith = nil
    }

    /// The argument in the usage: `MANIFEST`, or `INDEX...` for a repeated one.
    var usage: String { isRepeated ? name + "..." : name }

    /// The name as messages say it: `MANIFEST or SWEEP_DIR` for `MANIFEST|SWEEP_DIR`.
    var spokenName: String { name.split(separator: "|").joined(separator: " or ") }
}
