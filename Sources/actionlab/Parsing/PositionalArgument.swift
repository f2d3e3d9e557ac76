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
    /// A flag that makes the argument optional (`compare --all` needs one folder, not two),
    /// or nil if it is always required.
    let optionalWith: OptionDeclaration?

    /// Declares a positional argument.
    /// - Parameters:
    ///   - isRepeated: One or more values (`INDEX...`); only the last argument may be repeated.
    ///   - optionalWith: A flag with which the argument may be absent.
    init(_ name: String, help: String, isRepeated: Bool = false, optionalWith flag: CommandOption<Bool>? = nil) {
        self.name = name
        self.help = help
        self.isRepeated = isRepeated
        self.optionalWith = flag?.declaration
    }

    /// The argument in the usage: `MANIFEST`, or `INDEX...` for a repeated one.
    var usage: String { isRepeated ? name + "..." : name }

    /// The name as messages say it: `MANIFEST or SWEEP_DIR` for `MANIFEST|SWEEP_DIR`.
    var spokenName: String { name.split(separator: "|").joined(separator: " or ") }
}
