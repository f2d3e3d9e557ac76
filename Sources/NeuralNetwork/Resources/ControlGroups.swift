import Foundation

/// Limits that Linux control groups (cgroups(7)) put on this process, read along the path from
/// its cgroup to the hierarchy's root: a limit set on any ancestor applies too (Slurm's job
/// cgroup above each step's, a container's above everything inside it).
///
/// cgroup v2 gives the process's path on the line `0::/path` of `/proc/self/cgroup`, its files
/// under the one mount (`/sys/fs/cgroup/path/`); cgroup v1 gives a line per hierarchy,
/// `N:controller,controller:/path`, each mounted at `/sys/fs/cgroup/controller,controller/`.
enum ControlGroups {
    /// The tightest of one limit over this process's cgroup and its ancestors, in both
    /// hierarchies, or nil when no cgroup on the path sets it or none of its files can be read.
    ///
    /// - Parameters:
    ///   - controller: The cgroup v1 controller whose hierarchy holds the limit (`cpu`, `memory`).
    ///   - membership: The text of `/proc/self/cgroup`.
    ///   - root: Where the hierarchies are mounted.
    ///   - v2: The limit a cgroup v2 folder sets (the full path of the folder), nil for none.
    ///   - v1: The limit a cgroup v1 folder sets (the full path of the folder), nil for none.
    static func tightest<Limit: Comparable>(
        controller: String, membership: String?, root: String,
        v2: (String) -> Limit?, v1: (String) -> Limit?
    ) -> Limit? {
        guard let membership else { return nil }
        var tightest: Limit?
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let isVersion2 = fields[0] == "0" && controllers.isEmpty
            guard isVersion2 || controllers.contains(Substring(controller)) else { continue }
            let mount = isVersion2 ? root : root + "/" + fields[1]
            // The cgroup's own folder, then each ancestor's up to the hierarchy's root ("").
            var folder = fields[2] == "/" ? "" : String(fields[2])
            while true {
                if let value = isVersion2 ? v2(mount + folder) : v1(mount + folder) { tightest = min(tightest ?? value, value) }
                guard let slash = folder.lastIndex(of: "/") else { break }
                folder = String(folder[..<slash])
            }
        }
        return tightest
    }

    /// Reads a cgroup file's text, nil if it cannot.
    static func readFile(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
}
