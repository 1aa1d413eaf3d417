/// A flag of the command line: its names, its help, and what it turns on in `Target`. The one
/// description both parsers read: the ArgumentParser commands take names and help from it, the
/// start-up fast path (``FindArgumentsFastPath``) looks flags up in it, and both apply it.
package struct CommandFlag<Target>: Sendable {
    /// The one-letter name (`-F`), if any.
    package let short: Character?
    /// The long name, without `--`.
    package let long: String
    package let help: String
    /// The switch of a target the flag turns on.
    package let property: WritableKeyPath<Target, Bool> & Sendable

    package init(_ short: Character?, _ long: String, _ help: String, turnsOn property: WritableKeyPath<Target, Bool> & Sendable) {
        self.short = short
        self.long = long
        self.help = help
        self.property = property
    }

    /// Turns the flag on in `target`.
    package func set(_ target: inout Target) { target[keyPath: property] = true }

    /// Whether `name` (a long name, or one letter) names this flag.
    package func isNamed(_ name: String) -> Bool { name == long || (short.map { name == String($0) } ?? false) }
}

/// An option of the command line that takes a value: its names, its help, and how the fast path
/// reads its value into `Target` (false: the value is left to ArgumentParser and its messages).
package struct CommandOption<Target>: Sendable {
    package let short: Character?
    package let long: String
    package let help: String
    /// Whether the value may follow the short name in one argument (`-A3`).
    package let joinsShort: Bool
    package let take: @Sendable (inout Target, String) -> Bool

    package init(_ short: Character?, _ long: String, _ help: String, joinsShort: Bool = false,
                 take: @escaping @Sendable (inout Target, String) -> Bool) {
        self.short = short
        self.long = long
        self.help = help
        self.joinsShort = joinsShort
        self.take = take
    }

    /// Whether `name` (a long name, or one letter) names this option.
    package func isNamed(_ name: String) -> Bool { name == long || (short.map { name == String($0) } ?? false) }
}
