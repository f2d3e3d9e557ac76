/// `actionlab --help`: every command's usage line and abstract, made from the commands'
/// specifications, then the environment variables and the options of `actionlab` itself.
///
/// README.md's "Commands" block is this text, checked by a test, so the two cannot drift.
struct GeneralUsage {
    /// The commands, in the order listed.
    let commands: [CommandSpecification]

    /// Environment variables `actionlab` reads, each with its help.
    static let environment: [(name: String, help: String)] = [
        ("ACTIONLAB_WAIT_POLICY",
         "how compute threads (--threads) wait between operations: active spins 200 µs first (the default), passive sleeps at once, for nodes shared with other jobs; the results are the same"),
        ("OPENBLAS_CORETYPE",
         "force an OpenBLAS kernel (default: the best one the CPU's flags allow, checked at start-up; see 'actionlab info')"),
    ]

    /// The options of `actionlab` itself (without a command), each with its help.
    static let globalOptions: [(synopsis: String, help: String)] = [
        ("-h, --help", "show this help; after a command ('actionlab run --help'), that command's arguments and options"),
        ("--version", "print ActionLab's version"),
    ]

    /// The whole text, without a final newline.
    var text: String {
        var lines = ["usage: actionlab <command> [options]", "", "commands:"]
        for command in commands { lines += command.usageRow }
        lines += ["", "environment:"]
        for variable in Self.environment { lines += HelpLayout.row(variable.name, variable.help) }
        lines += ["", "options:"]
        for option in Self.globalOptions { lines += HelpLayout.row(option.synopsis, option.help) }
        return lines.joined(separator: "\n")
    }
}
