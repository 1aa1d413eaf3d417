/// A glob compiled to one automaton (Thompson's construction) and run over a path's bytes with a
/// set of states: time proportional to the pattern times the path, whatever the pattern, where
/// expanding `{a,b}` alternatives multiplies them (16 groups of four: four billion patterns) and
/// backtracking over several `**` is exponential. A glob (of a `-g` flag, or of an ignore file
/// in a tree that may be hostile) can then never hang a walk.
///
/// Alternatives are read as ``Glob`` expanded them (a brace without its partner, inside `[...]`
/// or escaped is literal); each piece of the pattern is read on its own, so a `*`, `\` or `[`
/// at the edge of an alternative does not join the text after the group (`{a*,b}*` is not `**`).
struct GlobAutomaton: Sendable {
    /// What one state's edge reads.
    private enum Step: Sendable {
        case byte(UInt8)
        /// Any byte but `/`.
        case notSlash
        case any
        /// A bracket class (never `/`): the bytes it takes, as four 64-bit words.
        case set(SIMD4<UInt64>)
    }

    /// Per state: the edges that read a byte (at most two), and the states reached without one.
    private var steps: [[(step: Step, target: Int)]] = []
    private var empties: [[Int]] = []
    /// Per state: every state reached from it without reading a byte, itself included.
    private var closures: [[Int]] = []
    private var final = 0

    /// Brace groups nested deeper than this are read as literal text (nothing needs more; a
    /// deeper one is hostile).
    static let nestingLimit = 32

    init(_ pattern: [UInt8]) {
        let start = newState()
        let end = build(pattern[...], from: start, depth: 0)
        final = end
        closures = (0..<steps.count).map(closure)
    }

    private mutating func newState() -> Int {
        steps.append([])
        empties.append([])
        return steps.count - 1
    }

    /// Adds the states that read `piece` (braces expanded as a textual expansion of the alternatives finds
    /// them) after `start`; returns the state reached at its end.
    private mutating func build(_ piece: ArraySlice<UInt8>, from start: Int, depth: Int) -> Int {
        var current = start
        var rest = piece
        // The first whole group at the top level, then the rest after it: a loop, not recursion,
        // for a pattern of many groups.
        while let group = GlobAutomaton.firstGroup(in: rest), depth < GlobAutomaton.nestingLimit {
            current = buildText(rest[rest.startIndex..<group.open], from: current)
            let joined = newState()
            let bounds = [group.open] + group.commas + [group.close]
            for part in 0..<(bounds.count - 1) {
                let branch = newState()
                empties[current].append(branch)
                let end = build(rest[(bounds[part] + 1)..<bounds[part + 1]], from: branch, depth: depth + 1)
                empties[end].append(joined)
            }
            current = joined
            rest = rest[(group.close + 1)...]
        }
        return buildText(rest, from: current)
    }

    /// Where the first `{...}` group of `piece` opens and closes, and its commas, scanned as
    /// a textual expansion of the alternatives scans (escapes skipped, classes literal); `nil` when there is none.
    private static func firstGroup(in piece: ArraySlice<UInt8>) -> (open: Int, commas: [Int], close: Int)? {
        var index = piece.startIndex
        var inClass = false
        var open: Int?
        var depth = 0
        var commas: [Int] = []
        while index < piece.endIndex {
            let byte = piece[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if inClass {
                if byte == UInt8(ascii: "]") { inClass = false }
            } else if byte == UInt8(ascii: "[") {
                inClass = true
            } else if byte == UInt8(ascii: "{") {
                if depth == 0 { open = index; commas = [] }
                depth += 1
            } else if byte == UInt8(ascii: ","), depth == 1 {
                commas.append(index)
            } else if byte == UInt8(ascii: "}"), depth > 0 {
                depth -= 1
                if depth == 0, let open { return (open, commas, index) }
            }
            index += 1
        }
        return nil
    }

    /// Adds the states that read `text` (no groups) as ``Glob``'s matcher reads a pattern.
    private mutating func buildText(_ text: ArraySlice<UInt8>, from start: Int) -> Int {
        var current = start
        var index = text.startIndex
        func reads(_ step: Step) {
            let next = newState()
            steps[current].append((step, next))
            current = next
        }
        while index < text.endIndex {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "*"):
                let next = newState()
                empties[current].append(next)
                if index + 1 < text.endIndex && text[index + 1] == UInt8(ascii: "*") {
                    index += 2
                    if index < text.endIndex && text[index] == UInt8(ascii: "/") {
                        // `**/`: nothing, or any run of bytes ending in `/`.
                        let run = newState()
                        for state in [current, run] {
                            steps[state].append((.any, run))
                            steps[state].append((.byte(UInt8(ascii: "/")), next))
                        }
                        index += 1
                    } else {
                        // `**`: any run of bytes.
                        steps[current].append((.any, current))
                    }
                } else {
                    steps[current].append((.notSlash, current))
                    index += 1
                }
                current = next
            case UInt8(ascii: "?"):
                reads(.notSlash)
                index += 1
            case UInt8(ascii: "["):
                if let (set, end) = GlobAutomaton.bracketClass(text, index) {
                    reads(.set(set))
                    index = end
                } else {
                    reads(.byte(byte))
                    index += 1
                }
            case UInt8(ascii: "\\") where index + 1 < text.endIndex:
                reads(.byte(text[index + 1]))
                index += 2
            default:
                reads(.byte(byte))
                index += 1
            }
        }
        return current
    }

    /// The bytes a `[...]` class at `start` takes (never `/`) and the index after it, or `nil`
    /// when it is not a well-formed class: read as ``Glob``'s matcher reads it.
    private static func bracketClass(_ pattern: ArraySlice<UInt8>, _ start: Int) -> (SIMD4<UInt64>, Int)? {
        var i = start + 1
        var negated = false
        if i < pattern.endIndex && (pattern[i] == UInt8(ascii: "!") || pattern[i] == UInt8(ascii: "^")) {
            negated = true
            i += 1
        }
        var set = SIMD4<UInt64>(repeating: 0)
        func insert(_ low: UInt8, _ high: UInt8) {
            guard low <= high else { return }
            for byte in low...high { set[Int(byte >> 6)] |= 1 << UInt64(byte & 63) }
        }
        var first = true
        while i < pattern.endIndex {
            var c = pattern[i]
            if c == UInt8(ascii: "]") && !first {
                if negated { set = ~set }
                let slash = UInt8(ascii: "/")
                set[Int(slash >> 6)] &= ~(1 << UInt64(slash & 63))
                return (set, i + 1)
            }
            first = false
            if c == UInt8(ascii: "\\") && i + 1 < pattern.endIndex { i += 1; c = pattern[i] }
            if i + 2 < pattern.endIndex && pattern[i + 1] == UInt8(ascii: "-") && pattern[i + 2] != UInt8(ascii: "]") {
                insert(c, pattern[i + 2])
                i += 3
            } else {
                insert(c, c)
                i += 1
            }
        }
        return nil
    }

    /// The states reached from `state` without reading a byte, itself included.
    private func closure(_ state: Int) -> [Int] {
        var seen = Set([state]), stack = [state], found = [state]
        while let next = stack.popLast() {
            for target in empties[next] where seen.insert(target).inserted {
                found.append(target)
                stack.append(target)
            }
        }
        return found
    }

    /// Whether the automaton takes all of `text`.
    func matches(_ text: some Collection<UInt8>) -> Bool {
        var current = [Bool](repeating: false, count: steps.count)
        var next = current
        var live: [Int] = []
        for state in closures[0] where !current[state] {
            current[state] = true
            live.append(state)
        }
        var upcoming: [Int] = []
        for byte in text {
            upcoming.removeAll(keepingCapacity: true)
            for state in live {
                for (step, target) in steps[state] where GlobAutomaton.reads(step, byte) {
                    for reached in closures[target] where !next[reached] {
                        next[reached] = true
                        upcoming.append(reached)
                    }
                }
            }
            for state in live { current[state] = false }
            for state in upcoming { next[state] = false; current[state] = true }
            swap(&live, &upcoming)
            if live.isEmpty { return false }
        }
        return current[final]
    }

    private static func reads(_ step: Step, _ byte: UInt8) -> Bool {
        switch step {
        case .byte(let expected): byte == expected
        case .notSlash: byte != UInt8(ascii: "/")
        case .any: true
        case .set(let set): set[Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0
        }
    }
}
