extension CommandSpecification {
    /// The command's usage line wrapped to the help width, the first line starting with
    /// `prefix` and continuation lines aligned after the command's name.
    func usageLines(prefix: String) -> [String] {
        HelpLayout.wrap(units: usageUnits, firstPrefix: prefix, indent: prefix.count + name.count + 1)
    }

    /// The command's entry in the general usage: its usage line and its abstract.
    var usageRow: [String] {
        // The row indents the term by two spaces: wrap the usage line two characters narrower.
        let term = HelpLayout.wrap(units: usageUnits, indent: name.count + 1, width: HelpLayout.width - 2)
        return HelpLayout.row(term: term, help: abstract)
    }

    /// `actionlab COMMAND --help`: the usage line, the abstract and the discussion, then every
    /// argument and option with its help.
    var help: String {
        var lines = usageLines(prefix: "usage: actionlab ")
        for paragraph in [abstract] + discussion {
            lines.append("")
            lines += HelpLayout.wrap(paragraph, indent: 0)
        }
        if !arguments.isEmpty {
            lines += ["", "arguments:"]
            for argument in arguments {
                lines += HelpLayout.row(argument.usage, argument.help)
            }
        }
        lines += ["", "options:"]
        for option in options {
            lines += HelpLayout.row(option.synopsis, option.help)
        }
        lines += HelpLayout.row("-h, --help", "show this help")
        return lines.joined(separator: "\n")
    }
}
