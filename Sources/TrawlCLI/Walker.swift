#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options of the file walk (flags shared with ripgrep).
public struct WalkOptions: Sendable {
    /// Search hidden files and directories (names starting with `.`); `.git` is always skipped.
    public var hidden = false
    /// Do not read `.gitignore`, `.ignore` or `.git/info/exclude`.
    public var noIgnore = false
    /// Apply `.gitignore` files outside git repositories too (ripgrep's `--no-require-git`); by
    /// default, as in ripgrep, they count only inside a repository (a `.git` in the folder or above).
    public var noRequireGit = false
    /// Follow symbolic links.
    public var followLinks = false
    /// `-g` globs: `GLOB` includes, `!GLOB` excludes; they override ignore files.
    public var globs: [String] = []
    /// Skip files larger than this many bytes.
    public var maxFileSize: Int?

    public init() {}
}

/// A file the walk selected.
public struct WalkedFile: Sendable, Hashable {
    /// The path to open.
    public let path: String
    /// Whether the user named the file directly (explicit files are searched even if ignored).
    public let isExplicit: Bool
}

/// Walks directory trees in a deterministic order (entries sorted bytewise, depth first), applying
/// ignore files, hidden-file rules, `-g` globs and size limits — the stage a persisted index can
/// later replace with a candidate list.
public struct Walker: Sendable {
    public let options: WalkOptions
    private let includeGlobs: [IgnoreRule]
    private let excludeGlobs: [IgnoreRule]

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
        /// Problems met on the way (unreadable folders, missing paths).
        public var errors: [String] = []
        /// Leftover temporary files of interrupted `trawl replace --write` runs.
        public var staleTemporaries: [String] = []
    }

    /// Every file to search under `roots`, in order, and the problems met on the way.
    public func walk(_ roots: [String]) -> Result {
        var files: [WalkedFile] = []
        var result = walk(roots) { files.append($0) }
        result.files = files
        return result
    }

    /// Walks `roots`, handing each selected file to `visit` as soon as it is found (so searching
    /// can overlap walking); returns the problems met and the stale temporary files.
    public func walk(_ roots: [String], visit: (WalkedFile) -> Void) -> Result {
        var errors: [String] = []
        var stale: [String] = []
        for root in roots {
            var status = stat()
            guard stat(root, &status) == 0 else {
                errors.append("\(root): \(String(cString: strerror(errno)))")
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
                walkDirectory(root, relative: [], ignores: stack, inRepository: inRepository, ancestors: &ancestors, visit: visit, errors: &errors, stale: &stale)
            } else {
                if let limit = options.maxFileSize, Int(status.st_size) > limit { continue }
                visit(WalkedFile(path: root, isExplicit: true))
            }
        }
        return Result(files: [], errors: errors, staleTemporaries: stale)
    }



    private static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The git repository `path` is in: the nearest folder at or above it holding `.git`.
    private func repositoryRoot(of path: String) -> String? {
        guard var current = Walker.resolved(path) else { return nil }
        while true {
            var status = stat()
            if stat(current + "/.git", &status) == 0 { return current }
            guard let parent = Walker.parent(of: current) else { return nil }
            current = parent
        }
    }

    /// The ignore files of the folders above `root`, up to its repository's root (as ripgrep
    /// reads them), lowest precedence first. Outside a repository none are read: a stray file in a
    /// home or temporary folder should not change what a search sees.
    private func loadAncestorIgnoreFiles(of root: String, repository: String?, into stack: inout [IgnoreFile]) {
        guard let start = Walker.resolved(root) else { return }
        var ancestors: [String] = []
        var current = start
        while let parent = Walker.parent(of: current) {
            ancestors.append(parent)
            if parent == repository { break }
            current = parent
        }
        if repository == nil { ancestors = [] }
        for ancestor in ancestors.reversed() {
            let prefix = Array((start.dropFirst(ancestor == "/" ? 1 : ancestor.count + 1) + "/").utf8)
            let inRepository = options.noRequireGit || repository != nil
            for name in [".git/info/exclude", ".gitignore", ".ignore"] where inRepository || name == ".ignore" {
                guard let contents = readSmallFile(ancestor + "/" + name) else { continue }
                stack.append(IgnoreFile(base: [], rootPrefix: prefix, contents: contents))
            }
        }
    }

    private func loadIgnoreFiles(in directory: String, base: [UInt8], inRepository: Bool, into stack: inout [IgnoreFile]) {
        // Lowest precedence first: .git/info/exclude, then .gitignore, then .ignore.
        for name in [".git/info/exclude", ".gitignore", ".ignore"] where inRepository || name == ".ignore" {
            let path = directory + "/" + name
            guard let contents = readSmallFile(path) else { continue }
            stack.append(IgnoreFile(base: base, contents: contents))
        }
    }

    private func readSmallFile(_ path: String) -> [UInt8]? {
        guard case .success(let bytes) = FileContent.readRaw(path: path) else { return nil }
        return bytes
    }

    private func isIgnored(_ relative: [UInt8], name: ArraySlice<UInt8>, isDirectory: Bool, ignores: [IgnoreFile]) -> Bool {
        // -g globs override the ignore files entirely, as in ripgrep: excluded if an exclude glob
        // matches; a file must match an include glob when there are any; otherwise searched.
        if !includeGlobs.isEmpty || !excludeGlobs.isEmpty {
            for rule in excludeGlobs where rule.matches(relativePath: relative[...], name: name, isDirectory: isDirectory) { return true }
            if isDirectory || includeGlobs.isEmpty { return false }
            return !includeGlobs.contains { $0.matches(relativePath: relative[...], name: name, isDirectory: false) }
        }
        for file in ignores.reversed() {
            if let decision = file.decision(for: relative, name: name, isDirectory: isDirectory) { return decision }
        }
        return false
    }

    private func walkDirectory(_ directory: String, relative: [UInt8], ignores: [IgnoreFile], inRepository: Bool,
                               ancestors: inout Set<[UInt64]>,
                               visit: (WalkedFile) -> Void, errors: inout [String], stale: inout [String]) {
        guard let handle = opendir(directory) else {
            errors.append("\(directory): \(String(cString: strerror(errno)))")
            return
        }
        var entries: [(name: [UInt8], type: UInt8)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            entries.append((name, entry.pointee.d_type))
        }
        closedir(handle)
        entries.sort { $0.name.lexicographicallyPrecedes($1.name) }
        for (name, type) in entries {
            if name == Array(".git".utf8) { continue }
            let path = directory == "/" ? "/" + String(decoding: name, as: UTF8.self) : directory + "/" + String(decoding: name, as: UTF8.self)
            if name.starts(with: Array(AtomicFile.temporaryPrefix.utf8)) && AtomicFile.isStaleTemporary(String(decoding: name, as: UTF8.self)) {
                stale.append(path)
                continue
            }
            if !options.hidden && name.first == 0x2E { continue }
            let childRelative = relative.isEmpty ? name : relative + [0x2F] + name
            var kind = type
            var linkStatus = stat()
            if kind == UInt8(DT_UNKNOWN) || kind == UInt8(DT_LNK) {
                if kind == UInt8(DT_LNK) && !options.followLinks { continue }
                guard stat(path, &linkStatus) == 0 else {
                    if kind != UInt8(DT_LNK) { errors.append("\(path): \(String(cString: strerror(errno)))") }
                    continue
                }
                kind = (linkStatus.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : (linkStatus.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : 0
            }
            if kind == UInt8(DT_DIR) {
                if isIgnored(childRelative, name: name[...], isDirectory: true, ignores: ignores) { continue }
                var status = stat()
                guard stat(path, &status) == 0 else { continue }
                let identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
                if ancestors.contains(identity) { continue } // a symlink back to an enclosing folder: a loop
                ancestors.insert(identity)
                defer { ancestors.remove(identity) }
                var childIgnores = ignores
                var status2 = stat()
                let childInRepository = inRepository || stat(path + "/.git", &status2) == 0
                if !options.noIgnore {
                    loadIgnoreFiles(in: path, base: childRelative + [0x2F], inRepository: childInRepository, into: &childIgnores)
                }
                walkDirectory(path, relative: childRelative, ignores: childIgnores, inRepository: childInRepository, ancestors: &ancestors, visit: visit, errors: &errors, stale: &stale)
            } else if kind == UInt8(DT_REG) {
                if isIgnored(childRelative, name: name[...], isDirectory: false, ignores: ignores) { continue }
                if let limit = options.maxFileSize {
                    var status = stat()
                    if stat(path, &status) == 0 && Int(status.st_size) > limit { continue }
                }
                visit(WalkedFile(path: path, isExplicit: false))
            }
        }
    }
}
