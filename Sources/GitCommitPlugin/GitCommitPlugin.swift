import Foundation
import PackagePlugin

/// Records the git commit a build is made from, at build time, as the `BuildInfo` module's
/// `generatedGitCommit` (`GitCommit.swift` in the plugin's work folder).
///
/// A prebuild command (SwiftPM runs it before every build): `git rev-parse HEAD` in the package's
/// folder, with `-dirty` when tracked files have uncommitted changes (`git status --porcelain
/// --untracked-files=no`), or `unknown` without git or outside a repository. The file is rewritten
/// only when its text changes, so a build of the same commit compiles nothing again. Before,
/// the executable asked git at run time about whatever checkout sat at its build path, and a
/// binary recorded the commits made there after it was built.
@main
struct GitCommitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources")
        let script = #"""
            set -u
            package="$1"; output="$2"
            commit=$(git -C "$package" rev-parse HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && [ -n "$(git -C "$package" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                commit="$commit-dirty"
            fi
            text="// Generated at build time by GitCommitPlugin; do not edit.
            let generatedGitCommit = \"$commit\""
            mkdir -p "$output"
            file="$output/GitCommit.swift"
            if [ ! -f "$file" ] || [ "$(cat "$file")" != "$text" ]; then
                printf '%s\n' "$text" > "$file.tmp" && mv "$file.tmp" "$file"
            fi
            """#
        return [
            .prebuildCommand(
                displayName: "Recording the git commit of the build",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output),
        ]
    }
}
