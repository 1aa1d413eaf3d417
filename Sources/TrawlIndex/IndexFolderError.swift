import SystemPackage

/// Why a tree's `.trawl/` folder could not be used.
public enum IndexFolderError: Error, Equatable, CustomStringConvertible {
    /// Something there is not what Trawl makes (a link, a FIFO, a device...): refused, nothing
    /// written, nothing followed.
    case refused(path: FilePath, what: String)
    /// A system call failed, or the index cannot be written for another reason.
    case system(path: FilePath, reason: String)

    /// What is wrong with the folder, for a message.
    public var description: String {
        switch self {
        case .refused(let path, let what):
            "\(path): \(what), not what Trawl makes there; refused, nothing written (remove it to let Trawl index the tree)"
        case .system(let path, let reason): "\(path): cannot write the index: \(reason)"
        }
    }
}
