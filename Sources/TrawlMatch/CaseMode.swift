/// How letter case is matched.
public enum CaseMode: Hashable, Sendable {
    case sensitive
    case insensitive
    /// Insensitive unless the pattern has an uppercase letter (ripgrep's `-S`).
    case smart

    /// Whether `pattern`, read with `syntax`, is matched with its case.
    public func matchesCase(of pattern: String, syntax: MatchOptions.Syntax) -> Bool {
        switch self {
        case .sensitive: true
        case .insensitive: false
        case .smart: CaseMode.hasUppercase(pattern, literal: syntax == .literal)
        }
    }

    /// Whether a pattern has an uppercase letter outside escapes (as ripgrep's smart case reads it).
    static func hasUppercase(_ pattern: String, literal: Bool) -> Bool {
        var escaped = false
        for character in pattern {
            if !literal && !escaped && character == "\\" {
                escaped = true
                continue
            }
            if !escaped && character.isUppercase { return true }
            escaped = false
        }
        return false
    }
}
