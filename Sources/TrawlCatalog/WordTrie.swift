/// The vocabulary's words in byte order as a trie whose nodes are laid out in preorder.
///
/// A node's children follow it, each child's subtree ends where its next sibling starts, and the
/// words under a node are one range of the byte-ordered words. A typo-tolerant walk then reads
/// memory mostly in order: before, it found each child range by searching the byte-ordered word
/// numbers, whose words sit scattered in order of first appearance (a cache miss per probe, most of
/// a two-typo lookup). Rebuilt whole when words are added (linear, like the merge that orders them).
struct WordTrie: Sendable {
    struct Node: Sendable {
        /// The last byte of the node's prefix (0 for the root).
        var byte: UInt8
        /// Whether a word ends here; it is then the first of the node's words.
        var isWord: Bool
        /// One past the node's subtree: its next sibling, or an ancestor's.
        var end: UInt32
        /// The first of the node's words, an index into the byte-ordered words.
        var firstWord: UInt32
    }

    /// The nodes in preorder, then one sentinel whose `firstWord` is the word count.
    private(set) var nodes: [Node]

    /// How many bytes of a word the trie holds: the words longer share the node of their first
    /// bytes (none marked as a word there), so that a word of megabytes does not take a node per
    /// byte. Typo-tolerant walks read no deeper; longer prefixes are checked word by word.
    static let depthLimit = 256

    /// The trie of `count` distinct words in byte order, word `index` given by `word(index)`.
    init(count: Int, word: (Int) -> ArraySlice<UInt8>) {
        nodes = [Node(byte: 0, isWord: false, end: 0, firstWord: 0)]
        // The open nodes along the last word's path, by depth (the root at 0).
        var path: [Int] = [0]
        var previous: ArraySlice<UInt8> = []
        for index in 0..<count {
            let whole = word(index)
            let bytes = whole.prefix(WordTrie.depthLimit)
            var common = 0
            var a = previous.startIndex, b = bytes.startIndex
            while a < previous.endIndex, b < bytes.endIndex, previous[a] == bytes[b] { common += 1; a += 1; b += 1 }
            // The previous word's nodes past the shared prefix are complete.
            while path.count > common + 1 { nodes[path.removeLast()].end = UInt32(nodes.count) }
            for offset in common..<bytes.count {
                path.append(nodes.count)
                nodes.append(Node(byte: bytes[bytes.startIndex + offset], isWord: offset == whole.count - 1, end: 0, firstWord: UInt32(index)))
            }
            previous = bytes
        }
        while let open = path.popLast() { nodes[open].end = UInt32(nodes.count) }
        nodes.append(Node(byte: 0, isWord: false, end: UInt32(nodes.count + 1), firstWord: UInt32(count)))
    }

    /// The node reached from the root by `prefix`, if any word begins with it.
    func node(reachedBy prefix: [UInt8]) -> Int? {
        var node = 0
        for byte in prefix {
            var child = node + 1
            let end = Int(nodes[node].end)
            while child < end, nodes[child].byte != byte { child = Int(nodes[child].end) }
            guard child < end else { return nil }
            node = child
        }
        return node
    }

    /// The range of byte-ordered words under `node`.
    func words(under node: Int) -> Range<Int> {
        Int(nodes[node].firstWord)..<Int(nodes[Int(nodes[node].end)].firstWord)
    }
}
