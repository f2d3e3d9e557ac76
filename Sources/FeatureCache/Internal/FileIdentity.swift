import Foundation

/// Which file a path named at one moment: device, inode, size, and modification and status-change
/// times (`st_mtim`, `st_ctim`, in nanoseconds since 1970).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    /// The identity of the file at `path` (following symbolic links), or nil if there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file `path`, looked up as `entry` when given (`fstatat(2)` in the open
    /// folder: one path component instead of every one of `path`'s), or nil if that fails.
    init?(path: String, entry: FolderEntry?) {
        guard let entry else { self.init(path: path); return }
        var info = stat()
        guard fstatat(entry.folder, entry.name, &info, 0) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the open file `descriptor`, or nil if `fstat(2)` fails.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    /// An identity read back from storage.
    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }
}
