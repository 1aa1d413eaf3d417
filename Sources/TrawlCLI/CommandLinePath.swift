#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A path argument as the bytes the user typed: command-line strings have bytes that are not
/// UTF-8 replaced, so such an argument is taken from the raw command line.
package func commandLinePath(_ argument: String) -> FilePath {
    guard argument.unicodeScalars.contains("\u{FFFD}") else { return FilePath(argument) }
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index] else { continue }
        let bytes = Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
        if String(decoding: bytes, as: UTF8.self) == argument { return FilePath(bytes: bytes) }
    }
    return FilePath(argument)
}

/// Whether `path` names a regular file (following symbolic links).
package func isRegularFile(_ path: FilePath) -> Bool {
    var status = stat()
    return path.withPlatformString { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFREG
}
