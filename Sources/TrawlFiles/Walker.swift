#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import SystemPackage
import TrawlStorage

/// Options of the file walk (flags shared with ripgrep).
public struct WalkOptions: Sendable {
    /// Search hidden files and directories (names starting with `.`); `.git` is always skipped.
    /// A hidden file that an ignore-file negation or a `-g` glob selects is searched anyway.
    public var hidden = false
    /// Do not read `.gitignore`, `.ignore` or `.git/info/exclude`.
    public var noIgnore = false
    /// Apply `.gitignore` files outside git repositories too (ripgrep's `--no-require-git`); by
    /// default, as in ripgrep, they count only inside a repository (a `.git` in the folder or above).
    public var noRequireGit = false
    /// Follow symbolic links (loops and broken links are then reported).
    public var followLinks = false
    /// `-g` globs: `GLOB` includes, `!GLOB` excludes; they override ignore files.
    public var globs: [String] = []
    /// Skip files larger than this many bytes.
    public var maxFileSize: Int?
    /// Leaves out entries (files or folders) the caller wants to skip, given their path and name;
    /// called before any other rule.
    public var excludes: (@Sendable (_ path: FilePath, _ name: [UInt8]) -> Bool)?

    /// The default walk: ignore files apply, hidden files and links are left out.
    public init() {}

    /// Whether these options select the files the default options select, `excludes` aside (which
    /// a caller can apply to a list of files): the walk a tree's index records.
    public var selectsDefaultFiles: Bool {
        !hidden && !noIgnore && !noRequireGit && !followLinks && globs.isEmpty && maxFileSize == nil
    }
}

/// A file the walk selected.
public struct WalkedFile: Sendable, Hashable {
    /// The path to open (bytes: not always UTF-8).
    public let path: FilePath
    /// Whether the user named the file directly (explicit files are searched even if ignored).
    public let isExplicit: Bool
    /// The folder the walk started from, when the part of ``path`` below it must be opened
    /// without following links (a walk that follows none); `nil` for a path opened as it is.
    public let anchor: FolderAnchor?

    /// A file to search; `isExplicit` when the user named it. With `anchor`, `path` is below it
    /// and opened from it without following links.
    public init(path: FilePath, isExplicit: Bool, anchor: FolderAnchor? = nil) {
        self.path = path
        self.isExplicit = isExplicit
        self.anchor = anchor.flatMap { $0.holds(path) ? $0 : nil }
    }

    /// Walked files are equal when their paths and explicitness match and they share one anchor (or have none).
    public static func == (first: WalkedFile, second: WalkedFile) -> Bool {
        first.path == second.path && first.isExplicit == second.isExplicit && first.anchor === second.anchor
    }

    /// Hashes the path and explicitness (not the anchor: equal files still hash alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(isExplicit)
    }

    /// Opens the file: from its anchor without following links when it has one (`ELOOP` when a
    /// link is on the way), else by its path.
    public func open(flags: Int32) -> Result<FileDescriptor, Errno> {
        if let anchor { return anchor.open(below: path, flags: flags) }
        let opened = openPath(path, flags | O_CLOEXEC)
        return opened >= 0 ? .success(FileDescriptor(rawValue: opened)) : .failure(Errno(rawValue: errno))
    }
}

/// `open` of a path (the C call: inside ``WalkedFile`` the name means its own method).
func openPath(_ path: FilePath, _ flags: Int32) -> Int32 { path.withPlatformString { open($0, flags) } }

/// Walks directory trees in a deterministic order (entries sorted bytewise, depth first), applying
/// ignore files, hidden-file rules, `-g` globs and size limits — the stage a persisted index can
/// later replace with a candidate list.
public struct Walker: Sendable {
    /// The options the walk applies.
    public let options: WalkOptions
    private let includeGlobs: [IgnoreRule]
    private let excludeGlobs: [IgnoreRule]

    /// A walker with these options (globs are parsed once, here).
    public init(options: WalkOptions) {
        self.options = options
        var include: [IgnoreRule] = [], exclude: [IgnoreRule] = []
        for glob in options.globs {
            guard let rule = IgnoreRule(line: Substring(glob)) else { continue }
            if rule.negated { exclude.append(rule) } else { include.append(rule) }
        }
        includeGlobs = include
        excludeGlobs = exclude
    }

    /// What a walk found.
    public struct Result: Sendable {
        /// The files to search, in order.
        public var files: [WalkedFile] = []
        /// Problems met on the way (unreadable folders, missing paths, broken links, loops).
        public var errors: [String] = []

        /// A result holding these files and problems.
        public init(files: [WalkedFile] = [], errors: [String] = []) {
            self.files = files
            self.errors = errors
        }
    }

    /// Every file to search under `roots`, in order, and the problems met on the way.
    public func walk(_ roots: [FilePath]) -> Result {
        var files: [WalkedFile] = []
        var result = walk(roots) { files.append($0) }
        result.files = files
        return result
    }

    /// Walks `roots`, handing each selected file to `visit` as soon as it is found (so searching
    /// can overlap walking); returns the problems met. A walk on a task that is cancelled stops at
    /// the next entry.
    public func walk(_ roots: [FilePath], visit: (WalkedFile) -> Void) -> Result {
        walk(roots, visit: visit, visitDirectory: nil)
    }

    /// Walks `roots` as ``walk(_:visit:)`` does, also handing each folder it enters to
    /// `visitDirectory` with the `stat` taken before its entries were read, and the entries (what a
    /// persisted index records to notice later that the walk would find something else).
    package func walk(_ roots: [FilePath], visit: (WalkedFile) -> Void,
                     visitDirectory: ((_ path: FilePath, _ relative: [UInt8], _ status: stat, _ entries: [DirectoryEntry]) -> Void)?) -> Result {
        var errors: [String] = []
        for root in roots {
            if Task.isCancelled { break }
            let status: stat
            switch statPath(root) {
            case .success(let value): status = value
            case .failure(let error):
                errors.append("\(root.bytesDescription): \(systemMessage(error.rawValue))")
                continue
            }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                var ancestors: Set<[UInt64]> = [[UInt64(status.st_dev), UInt64(status.st_ino)]]
                var stack: [IgnoreFile] = []
                let repository = repositoryRoot(of: root)
                let inRepository = options.noRequireGit || repository != nil
                if !options.noIgnore {
                    loadAncestorIgnoreFiles(of: root, repository: repository, into: &stack)
                    loadIgnoreFiles(in: root, base: [], inRepository: inRepository, into: &stack)
                }
                // Without links followed, what the walk found below the root is opened from it with
                // none followed either: a name swapped for a link meanwhile is refused.
                let anchor = options.followLinks ? nil : FolderAnchor(root)
                walkDirectory(root, relative: [], status: status, ignores: stack, inRepository: inRepository, ancestors: &ancestors,
                              anchor: anchor, visit: visit, visitDirectory: visitDirectory, errors: &errors)
            } else {
                if let limit = options.maxFileSize, Int(status.st_size) > limit { continue }
                visit(WalkedFile(path: root, isExplicit: true))
            }
        }
        return Result(files: [], errors: errors)
    }

    private static func parent(of path: [UInt8]) -> [UInt8]? {
        guard path != [UInt8(ascii: "/")], let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
    }

    private static func resolved(_ path: FilePath) -> [UInt8]? { path.resolved()?.bytes }

    private static func exists(_ path: [UInt8]) -> Bool {
        if case .success = statPath(FilePath(bytes: path)) { return true }
        return false
    }

    private static func joined(_ directory: [UInt8], _ name: String) -> [UInt8] { joinedPath(directory, Array(name.utf8)) }

    /// The git repository `path` is in: the nearest folder at or above it holding `.git`.
    private func repositoryRoot(of path: FilePath) -> [UInt8]? {
        guard var current = Walker.resolved(path) else { return nil }
        while true {
            if Walker.exists(Walker.joined(current, ".git")) { return current }
            guard let parent = Walker.parent(of: current) else { return nil }
            current = parent
        }
    }

    /// The ignore files of the folders above `root`, lowest precedence first, as ripgrep reads
    /// them: `.ignore` files up to the file system's root, and the git files up to the
    /// repository's root when there is a repository.
    private func loadAncestorIgnoreFiles(of root: FilePath, repository: [UInt8]?, into stack: inout [IgnoreFile]) {
        guard let start = Walker.resolved(root) else { return }
        var ancestors: [(path: [UInt8], inRepository: Bool)] = []
        var current = start
        // Folders above the repository's root are outside it (the root itself may be the start).
        var belowRepositoryRoot = repository != nil && repository != start
        while let parent = Walker.parent(of: current) {
            ancestors.append((parent, belowRepositoryRoot || options.noRequireGit))
            if parent == repository { belowRepositoryRoot = false }
            current = parent
        }
        for (ancestor, inRepository) in ancestors.reversed() {
            let prefix = Array(start.dropFirst(ancestor == [UInt8(ascii: "/")] ? 1 : ancestor.count + 1)) + [UInt8(ascii: "/")]
            for name in [".git/info/exclude", ".gitignore", ".ignore"] where inRepository || name == ".ignore" {
                guard let contents = readSmallFile(FilePath(bytes: Walker.joined(ancestor, name))) else { continue }
                stack.append(IgnoreFile(base: [], rootPrefix: prefix, contents: contents))
            }
        }
    }

    private func loadIgnoreFiles(in directory: FilePath, base: [UInt8], inRepository: Bool, into stack: inout [IgnoreFile]) {
        // Lowest precedence first: .git/info/exclude, then .gitignore, then .ignore.
        let directoryBytes = directory.bytes
        for name in [".git/info/exclude", ".gitignore", ".ignore"] where inRepository || name == ".ignore" {
            guard let contents = readSmallFile(FilePath(bytes: Walker.joined(directoryBytes, name))) else { continue }
            stack.append(IgnoreFile(base: base, contents: contents))
        }
    }

    private func readSmallFile(_ path: FilePath) -> [UInt8]? {
        guard case .success(let status) = statPath(path), status.st_mode & S_IFMT == S_IFREG,
              let descriptor = try? FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking]) else { return nil }
        defer { try? descriptor.close() }
        let (bytes, error) = descriptor.readToEnd()
        return error == nil ? bytes : nil
    }

    /// `true` ignored, `false` selected by a rule (a negation or an include glob: then even a
    /// hidden entry is searched, as in ripgrep), `nil` no rule applies.
    private func decision(_ relative: [UInt8], name: ArraySlice<UInt8>, isDirectory: Bool, ignores: [IgnoreFile]) -> Bool? {
        // -g globs override the ignore files where they decide, as in ripgrep: excluded if an
        // exclude glob matches; with include globs, a file is searched if one matches and left
        // out otherwise.
        for rule in excludeGlobs where rule.matches(relativePath: relative[...], name: name, isDirectory: isDirectory) { return true }
        if !includeGlobs.isEmpty && !isDirectory {
            return includeGlobs.contains { $0.matches(relativePath: relative[...], name: name, isDirectory: false) } ? false : true
        }
        // No glob decided (none given, only excludes that did not match, or a folder): the ignore files do.
        for file in ignores.reversed() {
            if let decision = file.decision(for: relative, name: name, isDirectory: isDirectory) { return decision }
        }
        return nil
    }

    private func isSkipped(_ relative: [UInt8], name: [UInt8], isDirectory: Bool, ignores: [IgnoreFile]) -> Bool {
        switch decision(relative, name: name[...], isDirectory: isDirectory, ignores: ignores) {
        case true?: true
        case false?: false
        case nil: !options.hidden && name.first == UInt8(ascii: ".")
        }
    }

    private func walkDirectory(_ directory: FilePath, relative: [UInt8], status: stat, ignores: [IgnoreFile], inRepository: Bool,
                               ancestors: inout Set<[UInt64]>, anchor: FolderAnchor?, visit: (WalkedFile) -> Void,
                               visitDirectory: ((FilePath, [UInt8], stat, [DirectoryEntry]) -> Void)?, errors: inout [String]) {
        let entries: [DirectoryEntry]
        switch directory.directoryEntries() {
        case .success(let read): entries = read
        case .failure(let error):
            errors.append("\(directory.bytesDescription): \(systemMessage(error.rawValue))")
            return
        }
        visitDirectory?(directory, relative, status, entries)
        let directoryBytes = directory.bytes
        for entry in entries {
            let name = entry.name, type = entry.type
            // A walk on a cancelled task (its consumer stopped listening) ends here.
            if Task.isCancelled { return }
            // A repository's data, and Trawl's own index folder, are never searched.
            if name == Array(".git".utf8) || name == Array(".trawl".utf8) { continue }
            let path = FilePath(bytes: joinedPath(directoryBytes, name))
            if let excludes = options.excludes, excludes(path, name) { continue }
            let childRelative = relative.isEmpty ? name : relative + [0x2F] + name
            var kind = type
            if kind == UInt8(DT_UNKNOWN), !options.followLinks, case .success(let status) = statPath(path, followLinks: false) {
                // Some file systems do not give the type: look without following a link.
                let format = status.st_mode & S_IFMT
                kind = format == S_IFLNK ? UInt8(DT_LNK) : format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : 0
            }
            if kind == UInt8(DT_UNKNOWN) || kind == UInt8(DT_LNK) {
                if kind == UInt8(DT_LNK) && !options.followLinks { continue }
                switch statPath(path) {
                case .success(let status):
                    let format = status.st_mode & S_IFMT
                    kind = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : 0
                case .failure(let error):
                    // A broken link or a link loop (ripgrep warns too), or an entry gone meanwhile.
                    if isSkipped(childRelative, name: name, isDirectory: false, ignores: ignores) { continue }
                    let what = kind == UInt8(DT_LNK) ? (error == .tooManySymbolicLinkLevels ? "symbolic link loop" : "broken symbolic link") : "cannot read"
                    errors.append("\(path.bytesDescription): \(what) (\(systemMessage(error.rawValue)))")
                    continue
                }
            }
            if kind == UInt8(DT_DIR) {
                if isSkipped(childRelative, name: name, isDirectory: true, ignores: ignores) { continue }
                let status: stat
                switch statPath(path) {
                case .success(let found): status = found
                case .failure(let error):
                    // A path too long for the system (ENAMETOOLONG), or gone meanwhile: said, not
                    // skipped in silence.
                    errors.append("\(path.bytesDescription): \(systemMessage(error.rawValue))")
                    continue
                }
                let identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
                if ancestors.contains(identity) {
                    // A symlink back to an enclosing folder.
                    errors.append("\(path.bytesDescription): file system loop found (a link to a folder that contains it); not followed")
                    continue
                }
                ancestors.insert(identity)
                defer { ancestors.remove(identity) }
                var childIgnores = ignores
                let childInRepository = inRepository || Walker.exists(Walker.joined(path.bytes, ".git"))
                if !options.noIgnore {
                    loadIgnoreFiles(in: path, base: childRelative + [0x2F], inRepository: childInRepository, into: &childIgnores)
                }
                walkDirectory(path, relative: childRelative, status: status, ignores: childIgnores, inRepository: childInRepository,
                              ancestors: &ancestors, anchor: anchor, visit: visit, visitDirectory: visitDirectory, errors: &errors)
            } else if kind == UInt8(DT_REG) {
                if isSkipped(childRelative, name: name, isDirectory: false, ignores: ignores) { continue }
                if let limit = options.maxFileSize, case .success(let status) = statPath(path), Int(status.st_size) > limit { continue }
                visit(WalkedFile(path: path, isExplicit: false, anchor: anchor))
            }
        }
    }
}
