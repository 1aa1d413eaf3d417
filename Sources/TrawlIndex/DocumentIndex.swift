import Dispatch
import TrawlFiles
import TrawlMatch
import TrawlText
import TrawlNGram
import TrawlConcurrency

/// A trigram index of one document, kept up to date edit by edit, that tells a search which parts
/// of the text can hold a match.
///
/// The text is cut into units (spans of about ``unitLength`` bytes); the shared
/// ``NGramIndex`` records the trigrams starting in each. A query's rarest trigram names the
/// units an occurrence of its literal can touch; the others confirm it. Only line-bounded
/// matchers are narrowed (a match then lies in the lines around its literal); a matcher that can
/// cross lines, or a query with no literal of three bytes, searches the whole text — correctly,
/// just not faster.
///
/// Updates cost O(edit + log n): the trigrams an edit creates are added at once; those it
/// destroys are noted against their unit and removed when the unit is next checked (after a few
/// dozen such notes, in one pass over the unit), so between checks a unit may list a trigram it
/// lost — a candidate too many, never one too few. ``compact(in:)`` checks every unit.
public struct DocumentIndex: Sendable {
    /// The default unit length: measured (Bench group `index`) as the best trade between the
    /// index's size (larger units share trigrams) and the text searched per candidate.
    public static let defaultUnitLength = 16 * 1024

    /// The length units are cut to (a unit outgrowing twice this, or shrinking below a quarter,
    /// is cut again).
    public let unitLength: Int
    /// The trigrams of the units.
    public private(set) var trigrams = NGramIndex()
    private var units = SumTree<Unit>()
    /// Each unit number's position in `units` (-1 when the number is free).
    private var positions: [Int32] = []
    private var freeNumbers: [UInt32] = []
    /// Trigrams an edit destroyed in a unit, which it may still hold elsewhere.
    private var lost: [UInt32: [Trigram]] = [:]
    /// How many destroyed trigrams a unit notes before it is checked.
    static let lostLimit = 48

    struct Unit: SumTreeItem {
        var length: Int
        var number: UInt32
        var summary: Extent { Extent(value: length) }
    }

    struct Extent: SumTreeSummary, SumTreeDimension {
        var value: Int
        static let zero = Extent(value: 0)
        mutating func add(_ other: Extent) { value += other.value }
        static func < (a: Extent, b: Extent) -> Bool { a.value < b.value }
    }

    /// Indexes `text` in one pass.
    public init(_ text: Rope, unitLength: Int = DocumentIndex.defaultUnitLength) {
        precondition(unitLength >= 64)
        self.unitLength = unitLength
        let spans = DocumentIndex.cut(0..<text.utf8Count, into: unitLength)
        positions = spans.indices.map(Int32.init)
        units = SumTree(spans.enumerated().map { Unit(length: $1.count, number: UInt32($0)) })
        // A flat table pays for itself only over many units.
        guard spans.count >= 64 else {
            trigrams = TrigramCollector.withCollector { collector in
                var index = NGramIndex()
                for (number, span) in spans.enumerated() {
                    for key in collector.distinct(startingIn: span, of: text) { index.add(Trigram(key: key), to: UInt32(number)) }
                }
                return index
            }
            return
        }
        // Each unit's trigrams are collected on the cores at hand, then placed in one pass.
        let slots = SlotArray<[UInt32]>(count: spans.count)
        let parts = min(spans.count, 16)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            TrigramCollector.withCollector { collector in
                for number in (spans.count * part / parts)..<(spans.count * (part + 1) / parts) {
                    slots.set(number, collector.distinct(startingIn: spans[number], of: text))
                }
            }
        }
        trigrams = NGramIndex(units: (0..<spans.count).map { (number: UInt32($0), keys: slots.take($0) ?? []) })
    }

    /// The number of units.
    public var unitCount: Int { units.count }

    /// The length of the text indexed.
    public var textLength: Int { units.summary.value }

    // MARK: Updating

    /// Brings the index from `old` to `new`, the texts before and after `edits` (made in order,
    /// each in the offsets of the text it was made on).
    public mutating func update(after edits: [TextEdit], from old: Rope, to new: Rope) {
        guard let first = edits.first else { return }
        precondition(old.utf8Count == textLength, "the index is not of this text")
        // One covering edit: from the first byte any edit touched to the last, in both texts.
        var low = first.replacedRange.lowerBound
        var suffix = old.utf8Count
        var length = old.utf8Count
        for edit in edits {
            low = min(low, edit.replacedRange.lowerBound)
            suffix = min(suffix, length - edit.replacedRange.upperBound)
            length += edit.lengthDelta
        }
        let oldHigh = old.utf8Count - suffix, newHigh = new.utf8Count - suffix
        guard !units.isEmpty else {
            self = DocumentIndex(new, unitLength: unitLength)
            return
        }
        let delta = newHigh - oldHigh
        // The unit that takes the edit: the one holding its first byte (the last at the end).
        let owner = min(units.index(at: Extent(value: low)), units.count - 1)
        let ownerStart = units.measure(before: owner, as: Extent.self).value
        let ownerEnd = ownerStart + units[owner].length
        // A patch names the unit of each trigram it touches from the owner and the one before, so
        // the two bytes before the edit must lie in those.
        let reachesBack = owner == 0 || low - 2 >= ownerStart - units[owner - 1].length
        if oldHigh <= ownerEnd && newHigh - low <= unitLength && reachesBack {
            patch(owner: owner, ownerStart: ownerStart, low: low, oldHigh: oldHigh, newHigh: newHigh, old: old, new: new)
        } else {
            let firstUnit = units.index(at: Extent(value: max(0, low - 2)))
            let lastUnit = min(units.index(at: Extent(value: max(low, oldHigh - 1))), units.count - 1)
            reindex(min(firstUnit, lastUnit)...lastUnit, old: old, new: new, delta: delta)
        }
    }

    /// A small edit inside one unit: the trigrams around it change, the unit's length too.
    private mutating func patch(owner: Int, ownerStart: Int, low: Int, oldHigh: Int, newHigh: Int, old: Rope, new: Rope) {
        let number = units[owner].number
        let before = owner > 0 ? units[owner - 1].number : number
        let start = max(0, low - 2)
        // Trigrams starting before the owner (its last two bytes before the edit) belong to the
        // unit before it.
        var position = start
        var touched: Set<UInt32> = []
        TrigramScan.forEach(startingIn: start..<oldHigh, of: old) { key in
            let unit = position < ownerStart ? before : number
            lost[unit, default: []].append(Trigram(key: key))
            touched.insert(unit)
            position += 1
        }
        units.update(at: owner) { $0.length += newHigh - oldHigh }
        position = start
        TrigramScan.forEach(startingIn: start..<newHigh, of: new) { key in
            trigrams.add(Trigram(key: key), to: position < ownerStart ? before : number)
            position += 1
        }
        for unit in touched where lost[unit, default: []].count > DocumentIndex.lostLimit {
            check(unit: unit, in: new)
        }
        let length = units[owner].length
        if length > 2 * unitLength || (length < unitLength / 4 && units.count > 1) {
            // Cut again (or merged with a neighbour): the unit's text is read once.
            let range = owner == 0 ? 0...min(1, units.count - 1) : (owner - 1)...owner
            reindex(range, old: new, new: new, delta: 0)
        }
    }

    /// Takes `range` of units out (their trigrams read from `old`) and cuts their span, moved by
    /// `delta`, into new units read from `new`.
    private mutating func reindex(_ range: ClosedRange<Int>, old: Rope, new: Rope, delta: Int) {
        TrigramCollector.withCollector { collector in
            let spanStart = units.measure(before: range.lowerBound, as: Extent.self).value
            var offset = spanStart
            var numbers: [UInt32] = []
            for index in range {
                let unit = units[index]
                var gone = collector.distinctTrigrams(startingIn: offset..<(offset + unit.length), of: old)
                gone += lost.removeValue(forKey: unit.number) ?? []
                trigrams.remove(gone, from: unit.number)
                numbers.append(unit.number)
                offset += unit.length
            }
            let spans = DocumentIndex.cut(spanStart..<(offset + delta), into: unitLength)
            var items: [Unit] = []
            for (index, span) in spans.enumerated() {
                let number = index < numbers.count ? numbers[index] : allocateNumber()
                items.append(Unit(length: span.count, number: number))
                trigrams.add(collector.distinctTrigrams(startingIn: span, of: new), to: number)
            }
            for number in numbers.dropFirst(spans.count) { freeNumbers.append(number) }
            units.replaceSubrange(range.lowerBound..<(range.upperBound + 1), with: items)
            // The unit before is unchanged: the first of these holds the edit's start less two bytes,
            // so the trigrams starting before them end before the edit.
        }
        renumberPositions()
    }

    /// Drops the lost trigrams `unit` no longer holds (one pass over its text).
    private mutating func check(unit number: UInt32, in text: Rope) {
        guard let candidates = lost.removeValue(forKey: number), !candidates.isEmpty else { return }
        let index = Int(positions[Int(number)])
        let start = units.measure(before: index, as: Extent.self).value
        var pending = Set(candidates.map(\.key))
        TrigramScan.forEach(startingIn: start..<(start + units[index].length), of: text) { key in
            pending.remove(key)
        }
        trigrams.remove(pending.map { Trigram(key: $0) }, from: number)
    }

    /// Checks every unit: afterwards the index equals one built from `text` (the same trigrams
    /// per unit).
    public mutating func compact(in text: Rope) {
        for number in Array(lost.keys) { check(unit: number, in: text) }
    }

    private mutating func allocateNumber() -> UInt32 {
        if let number = freeNumbers.popLast() { return number }
        positions.append(-1)
        return UInt32(positions.count - 1)
    }

    private mutating func renumberPositions() {
        for index in positions.indices { positions[index] = -1 }
        for (index, unit) in units.items.enumerated() { positions[Int(unit.number)] = Int32(index) }
    }

    /// `range` cut into about equal spans of about `length` bytes (none when it is empty).
    static func cut(_ range: Range<Int>, into length: Int) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        let count = max(1, (range.count + length / 2) / length)
        return (0..<count).map { index in
            (range.lowerBound + range.count * index / count)..<(range.lowerBound + range.count * (index + 1) / count)
        }
    }

    // MARK: Querying

    /// The unit spans of the text, in order (for tests and statistics).
    public var unitRanges: [Range<Int>] {
        var offset = 0
        return units.items.map { unit in
            defer { offset += unit.length }
            return offset..<(offset + unit.length)
        }
    }

    /// The trigrams listed for each unit, in text order (for tests: equal to a fresh build's
    /// after ``compact(in:)``).
    public var trigramsByUnit: [Set<UInt32>] {
        var result = [Set<UInt32>](repeating: [], count: units.count)
        for (key, list) in trigrams.postings {
            for number in list.units { result[Int(positions[Int(number)])].insert(key) }
        }
        return result
    }

    /// The units' starts and numbers, flat: a query asks for many of them (O(1) each here, a
    /// descent of the tree each there).
    struct Layout {
        var starts: [Int] // one more than units: the text's end last
        var numbers: [UInt32]

        /// The position of the unit holding `offset` (the last one for the text's end).
        func unit(at offset: Int) -> Int {
            var low = 0, high = numbers.count
            while low < high {
                let mid = (low + high) / 2
                if starts[mid + 1] <= offset { low = mid + 1 } else { high = mid }
            }
            return min(low, numbers.count - 1)
        }
    }

    var layout: Layout {
        var starts = [0]
        var numbers: [UInt32] = []
        starts.reserveCapacity(units.count + 1)
        numbers.reserveCapacity(units.count)
        for unit in units.items {
            starts.append(starts[starts.count - 1] + unit.length)
            numbers.append(unit.number)
        }
        return Layout(starts: starts, numbers: numbers)
    }

    /// The positions in `units` of the units where an occurrence of a match's required literals
    /// can start, ascending, for a line-bounded matcher, or `nil` when the query cannot narrow
    /// the search.
    func startUnits(for query: LiteralQuery, in text: Rope, _ layout: Layout) -> [Int]? {
        switch query {
        case .all:
            return nil
        case .literal(let literal):
            return startUnits(for: literal, layout)
        case .and(let parts):
            // Every part's literal lies in the match's line: keep the units of the rarest part
            // whose lines hold a start of each other part.
            let found = parts.compactMap { startUnits(for: $0, in: text, layout) }.sorted { $0.count < $1.count }
            // Too many to narrow the search much: not worth the lines' checks.
            guard let rarest = found.first, rarest.count <= layout.numbers.count / 4 else { return nil }
            var result: [Int] = []
            for index in rarest {
                let start = layout.starts[index], end = layout.starts[index + 1]
                let first = layout.unit(at: text.startOfLine(containing: start))
                let last = layout.unit(at: text.endOfLine(containing: max(start, end - 1)) - 1)
                let inLines = found.dropFirst().allSatisfy { others in
                    let at = DocumentIndex.firstIndex(in: others, notBelow: first)
                    return at < others.count && others[at] <= last
                }
                if inLines { result.append(index) }
            }
            return result
        case .or(let parts):
            var marks = PositionBitSet(count: layout.numbers.count)
            for part in parts {
                guard let found = startUnits(for: part, in: text, layout) else { return nil }
                for index in found { marks.insert(index) }
            }
            return marks.sorted
        }
    }

    private static func firstIndex(in sorted: [Int], notBelow value: Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func startUnits(for literal: QueryLiteral, _ layout: Layout) -> [Int]? {
        let keys = literal.trigrams
        guard !keys.isEmpty else { return nil }
        let lists = keys.map { trigrams.units(holding: $0) }
        let order = lists.indices.sorted { lists[$0].count < lists[$1].count }
        let span = literal.bytes.count - 3 // how far an occurrence's trigrams start after it
        // Marks, not sets: a common literal tries thousands of units, and hashing each cost
        // more than the checks.
        var result = PositionBitSet(count: layout.numbers.count)
        var tried = PositionBitSet(count: layout.numbers.count)
        for number in lists[order[0]].units {
            let index = Int(positions[Int(number)])
            // The occurrence starts at most `span` bytes before the rarest trigram. (Units are
            // longer than a literal, mostly: the steps below rarely go further than one unit.)
            var earliest = index
            while earliest > 0 && layout.starts[earliest] > layout.starts[index] - span { earliest -= 1 }
            for candidate in earliest...index where tried.insert(candidate) {
                var last = candidate
                while last + 1 < layout.numbers.count && layout.starts[last + 1] < layout.starts[candidate + 1] + span { last += 1 }
                let holdsAll = order.dropFirst().allSatisfy { key in
                    (candidate...max(candidate, last)).contains { lists[key].contains(layout.numbers[$0]) }
                }
                if holdsAll { result.insert(candidate) }
            }
        }
        return result.sorted
    }

    /// The regions of `text` that can hold a match of `matcher` (whole lines, sorted, disjoint),
    /// or `nil` when the whole text must be searched.
    public func candidateRegions(for matcher: any Matcher, in text: Rope) -> [Range<Int>]? {
        precondition(text.utf8Count == textLength, "the index is not of this text")
        let layout = layout
        guard matcher.locality.isLineBounded, let units = startUnits(for: matcher.literalQuery, in: text, layout) else { return nil }
        var regions: [Range<Int>] = []
        var runStart = 0
        while runStart < units.count {
            // A run of adjacent units is one region: the lines of consecutive units always touch,
            // so only the run's ends need the seeks that find their lines.
            var runEnd = runStart + 1
            while runEnd < units.count && units[runEnd] == units[runEnd - 1] + 1 { runEnd += 1 }
            let start = layout.starts[units[runStart]], end = layout.starts[units[runEnd - 1] + 1]
            runStart = runEnd
            // A line-bounded match lies in the line of its literal, which starts in these units.
            let region = text.startOfLine(containing: start)..<text.endOfLine(containing: max(start, end - 1))
            if let last = regions.last, last.upperBound >= region.lowerBound {
                regions[regions.count - 1] = last.lowerBound..<max(last.upperBound, region.upperBound)
            } else {
                regions.append(region)
            }
        }
        return regions
    }

    /// The regions a search of `text` for `matcher` is best limited to: the candidate regions
    /// when they cover at most a quarter of the text, else `nil` (one pass over all of it is
    /// faster: in Bench group `index`, a quarter of the text in regions took as long as all of it
    /// in one pass).
    public func searchRegions(for matcher: any Matcher, in text: Rope) -> [Range<Int>]? {
        guard let regions = candidateRegions(for: matcher, in: text),
              regions.reduce(0, { $0 + $1.count }) <= text.utf8Count / 4 else { return nil }
        return regions
    }

    /// Calls `body` with every match of `matcher` in `text`, in order — exactly those of a full
    /// search — searching only the regions ``searchRegions(for:in:)`` names.
    ///
    /// Regions of at least `parallelFrom` bytes in all are searched on the cores at hand, their
    /// matches handed to `body` in order afterwards, on the caller's thread.
    public func forEachMatch(of matcher: any Matcher, in text: Rope, capturingGroups: Bool = false,
                             parallelFrom: Int = DocumentIndex.parallelSearchBytes,
                             _ body: (Match) throws(MatchError) -> Void) throws(MatchError) {
        guard let regions = searchRegions(for: matcher, in: text) else {
            return try matcher.forEachMatch(in: text, ranges: [0..<text.utf8Count], capturingGroups: capturingGroups, body)
        }
        let total = regions.reduce(0) { $0 + $1.count }
        guard total >= parallelFrom, regions.count > 1 else {
            return try matcher.forEachMatch(in: text, ranges: regions, capturingGroups: capturingGroups, body)
        }
        // Consecutive runs of regions holding about equal bytes; more runs than cores, so that
        // one finishing early does not leave a core idle.
        var groups: [[Range<Int>]] = [[]]
        var bytes = 0
        for region in regions {
            if bytes >= total * groups.count / 8 && !groups[groups.count - 1].isEmpty { groups.append([]) }
            groups[groups.count - 1].append(region)
            bytes += region.count
        }
        let found = SlotArray<Result<[Match], MatchError>>(count: groups.count)
        DispatchQueue.concurrentPerform(iterations: groups.count) { [groups] part in
            var matches: [Match] = []
            found.set(part, Result { () throws(MatchError) in
                try matcher.forEachMatch(in: text, ranges: groups[part], capturingGroups: capturingGroups) { matches.append($0) }
                return matches
            })
        }
        // The parts' threads do not see this task's cancellation (each part is short): asked here.
        if Task.isCancelled { throw .cancelled }
        for part in groups.indices {
            for match in try found.take(part)!.get() { try body(match) }
        }
    }

    /// The candidate bytes from which a search is split across the cores by default (Bench group
    /// `index` measured a rare literal's regions no faster on two cores than on one).
    public static let parallelSearchBytes = 1 << 20
}
