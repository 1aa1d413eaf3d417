import Foundation

// Running programs from tests: posix_spawn with the standard streams connected to files.

/// The result of running a program.
public struct Run {
    public init(status: Int32, stdout: String, stderr: String, output: [UInt8] = []) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.output = output
    }

    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Standard output as bytes (paths need not be UTF-8).
    public var output: [UInt8] = []
    public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// A child process started with posix_spawn, its standard streams connected to files (no pipes,
/// so nothing can block; Foundation's Process was seen to hang reaping children when many tests
/// start processes in parallel).
public struct Child {
    public let pid: pid_t
    public let outputFile: String
    public let errorFile: String
    public let inputFile: String

    /// Starts `executable`; its standard output goes to `outputFile` when given (the caller owns
    /// that file), else to a scratch file read by ``finish(limit:)``.
    public static func start(_ executable: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil,
                             environment: [String: String] = [:], outputFile chosenOutput: String? = nil) throws -> Child {
        let scratch = scratchURL("run").path
        let inputFile = scratch + ".in", outputFile = chosenOutput ?? scratch + ".out", errorFile = scratch + ".err"
        try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: inputFile))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inputFile, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { env[key] = value }
        // GNU env -C changes into the folder before running the program.
        let command = directory.map { ["/usr/bin/env", "-C", $0.path, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        return Child(pid: pid, outputFile: outputFile, errorFile: errorFile, inputFile: inputFile)
    }

    /// Waits for the child; returns its exit status (or 128 + signal). With a time limit, a child
    /// still running after it is killed and `nil` is returned: it hung.
    public func wait(limit seconds: Double? = nil) -> Int32? {
        var status: Int32 = 0
        if let seconds {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid { break }
                if result < 0 && errno != EINTR { return nil }
                if Date() > deadline {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    return nil
                }
                usleep(2_000) // polling the child, not timing the code under test
            }
        } else {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return Child.exitCode(fromWaitStatus: status)
    }

    /// A shell's view of a `waitpid` status: the exit status, or 128 + the signal that ended it.
    public static func exitCode(fromWaitStatus status: Int32) -> Int32 {
        let terminatingSignal = status & 0x7F
        return terminatingSignal == 0 ? (status >> 8) & 0xFF : 128 + terminatingSignal
    }

    /// Removes the scratch files of a child waited for without ``finish(limit:)`` (not an output
    /// file the caller chose).
    public func discardScratchFiles(keepingOutput: Bool) {
        for file in keepingOutput ? [errorFile, inputFile] : [outputFile, errorFile, inputFile] { unlink(file) }
    }

    public func finish(limit seconds: Double? = nil) -> Run {
        let status = wait(limit: seconds) ?? -1
        defer { for file in [outputFile, errorFile, inputFile] where file != outputFile || outputFile.contains("/trawl-run-") { unlink(file) } }
        let output = [UInt8](FileManager.default.contents(atPath: outputFile) ?? Data())
        let errors = String(decoding: FileManager.default.contents(atPath: errorFile) ?? Data(), as: UTF8.self)
        return Run(status: status, stdout: String(decoding: output, as: UTF8.self), stderr: errors, output: output)
    }
}

/// Runs another program and returns its standard output.
public func runTool(_ executable: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil) throws -> Run {
    try Child.start(executable, arguments, in: directory, input: input).finish()
}

public func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

/// Every regular file under `root`, by relative path, with its bytes.
public func snapshotTree(_ root: URL) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
    for case let url as URL in enumerator {
        guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
        result[String(url.path.dropFirst(root.path.count + 1))] = try bytes(url)
    }
    return result
}

/// The path of an installed program, or `nil`.
public func tool(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/usr/local/bin/\(name)", "/bin/\(name)", "/opt/homebrew/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
