/// An `actionlab` subcommand: its declaration (from which its parsing and its help are made)
/// and its entry point.
protocol Subcommand {
    /// The command's name, arguments, options and help, declared once.
    static var specification: CommandSpecification { get }

    /// Runs the command with the arguments after its name; returns the exit status
    /// (0 success, 1 failure, 2 wrong usage).
    static func main(_ arguments: ArraySlice<String>) -> Int32
}
