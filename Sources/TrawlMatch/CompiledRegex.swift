#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPCRE2

/// A compiled PCRE2 pattern (8-bit, UTF, JIT where available), immutable and shareable.
///
/// Compile options: UTF and UCP (Unicode `\w`, `\d`, `\b` and case folding), MULTILINE (`^` and `$`
/// at lines) with ALT_CIRCUMFLEX (`^` also matches on the empty last line after a final line break,
/// as an editor shows it), and the ANYCRLF newline convention, so that `$` matches before CRLF as
/// well as LF.
final class CompiledRegex: @unchecked Sendable { // immutable after init; PCRE2 code is thread-safe to share
    let code: OpaquePointer
    let captureCount: Int
    /// The longest lookbehind, in characters (PCRE2_INFO_MAXLOOKBEHIND, at least 1 for `\b`).
    let maxLookbehind: Int
    let isJITCompiled: Bool
    /// Group numbers by name, for `${name}` in replacement templates.
    let groupNumbers: [String: Int]
    /// Whether every match starts with one known code unit (PCRE2_INFO_FIRSTCODETYPE 1): PCRE2's
    /// JIT then finds candidates with its own SIMD search, as fast as a prefilter.
    let hasKnownFirstCodeUnit: Bool

    /// Compiles `pattern`; `anchored`, it only matches where a search starts.
    init(pattern: String, caseless: Bool, anchored: Bool = false) throws(MatchError) {
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_MULTILINE | PCRE2_ALT_CIRCUMFLEX)
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        if anchored { options |= UInt32(PCRE2_ANCHORED) }
        let context = pcre2_compile_context_create_8(nil)
        defer { pcre2_compile_context_free_8(context) }
        pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_ANYCRLF))
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: buffer.count) { base in
                pcre2_compile_8(base, buffer.count - 1, options, &errorCode, &errorOffset, context)
            }
        }
        guard let compiled else {
            throw .invalidPattern(message: CompiledRegex.message(for: errorCode), offset: errorOffset)
        }
        code = compiled
        isJITCompiled = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE | PCRE2_JIT_PARTIAL_HARD)) == 0
        var captures: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        captureCount = Int(captures)
        var lookbehind: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_MAXLOOKBEHIND), &lookbehind)
        maxLookbehind = max(Int(lookbehind), 1)
        groupNumbers = CompiledRegex.readNameTable(compiled)
        var firstType: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_FIRSTCODETYPE), &firstType)
        hasKnownFirstCodeUnit = firstType == 1
    }

    deinit { pcre2_code_free_8(code) }

    static func message(for errorCode: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer[..<Int(length)], as: UTF8.self) : "PCRE2 error \(errorCode)"
    }

    private static func readNameTable(_ code: OpaquePointer) -> [String: Int] {
        var count: UInt32 = 0, entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>?
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &count)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        guard count > 0, let table else { return [:] }
        var names: [String: Int] = [:]
        for entry in 0..<Int(count) {
            let base = table + entry * Int(entrySize)
            let number = Int(base[0]) << 8 | Int(base[1])
            names[String(cString: base + 2)] = number
        }
        return names
    }
}

/// Per-search PCRE2 state: match data, a match context with the limits, and a JIT stack.
/// Not shareable: each cursor owns one.
final class RegexMatchState {
    let regex: CompiledRegex
    private let scratch: PCRE2Scratch
    var matchData: OpaquePointer { scratch.matchData }
    var context: OpaquePointer { scratch.context }

    init(regex: CompiledRegex, limits: RegexLimits) {
        self.regex = regex
        scratch = PCRE2Scratch.take(pairs: regex.captureCount + 1)
        pcre2_set_match_limit_8(scratch.context, limits.matchLimit)
        pcre2_set_depth_limit_8(scratch.context, limits.depthLimit)
        pcre2_set_heap_limit_8(scratch.context, limits.heapLimitKiB)
        let stack: UnsafeMutableRawPointer? = regex.isJITCompiled ? UnsafeMutableRawPointer(scratch.jitStack) : nil
        pcre2_jit_stack_assign_8(scratch.context, nil, stack)
    }

    deinit { PCRE2Scratch.giveBack(scratch) }

    enum Outcome {
        case match(start: Int, end: Int)
        case partial(start: Int)
        case noMatch
    }

    /// Runs one match attempt on valid UTF-8. `subjectOffset` (the subject's offset in the text)
    /// only serves error messages.
    func match(_ subject: UnsafeBufferPointer<UInt8>, from start: Int, options: UInt32,
               subjectOffset: Int) throws(MatchError) -> Outcome {
        let base = subject.baseAddress ?? UnsafePointer(bitPattern: 1)!
        // pcre2_jit_match is pcre2_match without its checks of the arguments (valid here: a
        // JIT-compiled pattern, checked UTF-8, a start within the subject, only options the JIT
        // code was compiled for), which cost as much as a short anchored attempt itself.
        let result = regex.isJITCompiled
            ? pcre2_jit_match_8(regex.code, base, subject.count, start, options, matchData, context)
            : pcre2_match_8(regex.code, base, subject.count, start, options | UInt32(PCRE2_NO_UTF_CHECK), matchData, context)
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        if result >= 0 { return .match(start: ovector[0], end: ovector[1]) }
        switch result {
        case PCRE2_ERROR_NOMATCH: return .noMatch
        case PCRE2_ERROR_PARTIAL: return .partial(start: ovector[0])
        case PCRE2_ERROR_MATCHLIMIT: throw .limitExceeded(.matchLimit, offset: subjectOffset + start)
        case PCRE2_ERROR_DEPTHLIMIT: throw .limitExceeded(.depthLimit, offset: subjectOffset + start)
        case PCRE2_ERROR_HEAPLIMIT: throw .limitExceeded(.heapLimit, offset: subjectOffset + start)
        case PCRE2_ERROR_JIT_STACKLIMIT: throw .limitExceeded(.jitStack, offset: subjectOffset + start)
        default: throw .engine(message: CompiledRegex.message(for: result))
        }
    }

    /// Group ranges 1...n of the last match, shifted by `offset`.
    func groups(shiftedBy offset: Int) -> [Range<Int>?] { groups { $0 + offset } }

    /// Group ranges 1...n of the last match, each offset mapped by `position`.
    func groups(mapping position: (Int) -> Int) -> [Range<Int>?] {
        guard regex.captureCount > 0 else { return [] }
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        let unset = ~Int(0)
        return (1...regex.captureCount).map { group in
            let start = ovector[2 * group], end = ovector[2 * group + 1]
            return start == unset || end == unset ? nil : position(start)..<position(end)
        }
    }
}

/// What one PCRE2 search needs besides the pattern: match data, a match context and a JIT stack.
/// Making them costs allocations and, for the JIT stack, a reservation of address space; a search
/// of a tree makes one per file, so finished searches hand theirs back to a small pool that the next
/// search takes from (each live cursor still owns its own: two cursors never share scratch space).
final class PCRE2Scratch: @unchecked Sendable { // owned by one RegexMatchState at a time; the pool is guarded by its mutex
    let matchData: OpaquePointer
    let pairs: Int
    let context: OpaquePointer
    let jitStack: OpaquePointer?

    private init(pairs: Int) {
        self.pairs = pairs
        matchData = pcre2_match_data_create_8(UInt32(pairs), nil)
        context = pcre2_match_context_create_8(nil)
        jitStack = pcre2_jit_stack_create_8(32 * 1024, 8 * 1024 * 1024, nil)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(context)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }

    private static let pool = Pool()
    private static let pooledLimit = 64

    private final class Pool: @unchecked Sendable { // guarded by `mutex`
        var mutex = pthread_mutex_t()
        var free: [PCRE2Scratch] = []
        init() { pthread_mutex_init(&mutex, nil) }
    }

    /// Scratch space with room for at least `pairs` offset pairs (the whole match and each group).
    static func take(pairs: Int) -> PCRE2Scratch {
        let wanted = max(pairs, 16)
        pthread_mutex_lock(&pool.mutex)
        let found = pool.free.lastIndex { $0.pairs >= wanted }.map { pool.free.remove(at: $0) }
        pthread_mutex_unlock(&pool.mutex)
        return found ?? PCRE2Scratch(pairs: wanted)
    }

    static func giveBack(_ scratch: PCRE2Scratch) {
        pthread_mutex_lock(&pool.mutex)
        if pool.free.count < pooledLimit { pool.free.append(scratch) }
        pthread_mutex_unlock(&pool.mutex)
    }
}
