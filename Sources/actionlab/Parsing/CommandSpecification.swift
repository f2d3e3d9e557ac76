/// A subcommand declared once: its name, a one-paragraph abstract, its positional arguments and
/// its options, from which its parsing (``CommandLineArguments``), `actionlab COMMAND --help`
/// and its entry in the general usage are made.
struct CommandSpecification: Sendable {
    /// The subcommand's name: `run`.
    let name: String
    /// One paragraph saying what the command does; the general usage shows it after the
    /// command's usage line, and the command's help first.
    let abstract: String
    /// Further paragraphs that only `actionlab COMMAND --help` shows.
    let discussion: [String]
    /// The positional arguments, in order; only the last may be repeated.
    let arguments: [PositionalArgument]
    /// The options, in the order the usage and the help list them.
    let options: [OptionDeclaration]
    /// The usage error when fewer positional arguments are given than required, or nil for
    /// `missing NAME`, naming the first one missing.
    let tooFewArgumentsMessage: (@Sendable (CommandLineArguments) -> String)?

    /// Declares a subcommand.
    /// - Parameters:
    ///   - name: The subcommand's name.
    ///   - abstract: One paragraph, in the general usage and first in the command's help.
    ///   - discussion: Paragraphs that only the command's help shows.
    ///   - arguments: Positional arguments in order; only the last may be repeated.
    ///   - options: Options in the order the help lists them.
    ///   - tooFewArguments: The message when positional arguments are missing, given what was
    ///     parsed; nil for `missing NAME`.
    init(
        name: String, abstract: String, discussion: [String] = [], arguments: [PositionalArgument] = [],
        options: [any DeclaredOption] = [], tooFewArguments: (@Sendable (CommandLineArguments) -> String)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options.map(\.declaration)
        self.tooFewArgumentsMessage = tooFewArguments
    }

    /// The declared option named `name` (without dashes), if any.
    func option(named name: String) -> OptionDeclaration? {
        options.first { $0.name == name }
    }

    /// The parts of the usage line after `actionlab`: the name, each argument, each option
    /// (`[--output DIR]`), each a unit that a wrapped line never splits.
    var usageUnits: [String] {
        [name] + arguments.map(\.usage) + options.map(\.usage)
    }
}
