/// Facts about the build of this executable, recorded when it was compiled (by `GitCommitPlugin`).
public enum BuildInfo {
    /// The git commit the executable was built from (`git rev-parse HEAD`), with `-dirty` when
    /// tracked files had uncommitted changes, or `unknown` when it was built outside a git checkout.
    public static var gitCommit: String { generatedGitCommit }
}
