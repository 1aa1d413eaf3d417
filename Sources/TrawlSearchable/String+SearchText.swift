import TrawlCatalog
import TrawlFind
extension String {
    /// The text without leading and trailing whitespace.
    var trimmingSpaces: String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }

    /// The text without its partial last word (what follows the last whitespace): what a token
    /// completion replaces. Text ending in whitespace has none.
    var removingPartialWord: String {
        var slice = self[...]
        while let last = slice.last, !last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
