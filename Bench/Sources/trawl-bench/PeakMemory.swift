import Foundation
import BenchTestSupport

/// Peak resident memory of a command, measured from a small process.
///
/// `wait4`'s `ru_maxrss` is not the child's own peak when the child was started by a large
/// process: glibc's `posix_spawn` (and `fork`) hands the child the parent's address space until
/// `exec`, and Linux keeps that space's high-water mark as the child's. A bench process that has
/// held a 100 MB rope and a catalog reported 1,315 MiB for a `trawl replace` whose own peak is
/// 1,034. So the bench starts itself again, small, and that copy runs the command and reports
/// what `wait4` says about it.
enum PeakMemory {
    /// The environment variable that makes `trawl-bench` run its arguments as a command and write
    /// the command's elapsed milliseconds and peak resident memory (MiB) to the file it names.
    static let reportVariable = "TRAWL_BENCH_PEAK_MEMORY_TO"

    /// Starts `command` through a fresh copy of this program; its standard output goes to
    /// `output`. Returns the exit status, the command's elapsed time (taken by the copy, so its
    /// own start-up is left out) and its peak resident memory in MiB.
    static func run(_ command: [String], output: String) throws -> (status: Int32, milliseconds: Double, peakMiB: Double) {
        let report = NSTemporaryDirectory() + "trawl-bench-peak-\(getpid())-\(UUID().uuidString)"
        defer { unlink(report) }
        let child = try Child.start(executablePath(), command, environment: [reportVariable: report], outputFile: output)
        let status = child.wait() ?? -1
        child.discardScratchFiles(keepingOutput: true)
        guard let text = try? String(contentsOfFile: report, encoding: .utf8),
              case let values = text.split(separator: " ").compactMap({ Double($0) }), values.count == 2 else {
            throw BenchError("measuring the peak memory of \(command.joined(separator: " ")) failed (exit \(status))")
        }
        return (status, values[0], values[1])
    }

    /// In the copy started by ``run(_:output:)``: runs the arguments as a command with this
    /// process's standard streams, writes its peak memory, and exits with its status. Returns
    /// at once in an ordinary run.
    static func serveIfAsked() {
        guard let report = ProcessInfo.processInfo.environment[reportVariable] else { return }
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let executable = arguments.first else { exit(2) }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: reportVariable)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let start = now()
        guard posix_spawnp(&pid, executable, nil, nil, argv, envp) == 0 else { exit(127) }
        var usage = rusage()
        var status: Int32 = 0
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // ru_maxrss is in KiB on Linux, in bytes on Apple platforms.
        #if os(Linux)
        let peak = Double(usage.ru_maxrss) / 1024
        #else
        let peak = Double(usage.ru_maxrss) / 1_048_576
        #endif
        let milliseconds = Double(now() - start) / 1e6
        _ = FileManager.default.createFile(atPath: report, contents: Data("\(milliseconds) \(peak)".utf8))
        exit(Child.exitCode(fromWaitStatus: status))
    }

    /// This program's path, to start a fresh copy of it.
    static func executablePath() -> String {
        #if os(Linux)
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        #else
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
    }
}
