/// `trawl find`'s usual command lines, parsed by hand before ArgumentParser is asked.
///
/// ArgumentParser builds its model of every command by reflection before it reads an argument:
/// most of trawl's start, and a noticeable part of a whole search of a large file. ripgrep parses its command line by hand for the same reason.
/// This parser takes the flags and options of ``FindFlags``, in any order and repeated as ArgumentParser
/// allows, `--`, and the positionals; for anything else (help, a misspelt flag, a value it cannot
/// read, a value ArgumentParser would reject) it returns nil, and ArgumentParser parses the line
/// and gives its usual messages. Tests check, on fixed and random command lines, that what this
/// accepts ArgumentParser parses to the same request.
package enum FindArgumentsFastPath {
    /// The request `arguments` (the command line without the program's name) makes, or nil when
    /// it is not a plain `find` command line.
    package static func parse(_ arguments: [String]) -> FindRequest? {
        guard arguments.first == "find" else { return nil }
        var positionals: [String] = []
        var request = FindRequest(pattern: "")
        var index = 1
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                // Every long name has two letters or more (`--c` is not `-c`).
                guard body.prefix(while: { $0 != "=" }).count > 1 else { return nil }
                if let equals = body.firstIndex(of: "=") {
                    // ArgumentParser reads `--glob=` as `--glob` followed by its value.
                    let value = body[body.index(after: equals)...]
                    guard !value.isEmpty, takeOption(String(body[..<equals]), value: String(value), into: &request) else { return nil }
                } else if setFlag(String(body), in: &request) {
                    continue
                } else {
                    guard index < arguments.count, isValue(arguments[index]),
                          takeOption(String(body), value: arguments[index], into: &request) else { return nil }
                    index += 1
                }
                continue
            }
            // Short names: a cluster of flags (-ic), an option and its value in the next argument
            // (-g GLOB, -A 3), or a context option with its number joined (-A3).
            let letters = Array(argument.dropFirst())
            guard let first = letters.first else { return nil }
            if letters.count > 1, FindFlags.findOptions.contains(where: { $0.joinsShort && $0.short == first }) {
                guard takeOption(String(first), value: String(letters.dropFirst()), into: &request) else { return nil }
                continue
            }
            for (position, letter) in letters.enumerated() {
                if setFlag(String(letter), in: &request) { continue }
                guard position == letters.count - 1, index < arguments.count, isValue(arguments[index]),
                      takeOption(String(letter), value: arguments[index], into: &request) else { return nil }
                index += 1
            }
        }
        guard let pattern = positionals.first else { return nil }
        request.pattern = pattern
        request.paths = Array(positionals.dropFirst())
        return request.problem == nil ? request : nil
    }

    /// Whether `argument` is surely read as an option's value by ArgumentParser (one that starts
    /// with `-` is left to it).
    private static func isValue(_ argument: String) -> Bool { !argument.hasPrefix("-") }

    /// Sets the flag called `name` (a long name, or a short one of one letter); false when there is
    /// no such flag.
    private static func setFlag(_ name: String, in request: inout FindRequest) -> Bool {
        if let flag = FindFlags.pattern.first(where: { $0.isNamed(name) }) {
            flag.set(&request.patternSwitches)
        } else if let flag = FindFlags.walk.first(where: { $0.isNamed(name) }) {
            flag.set(&request.walkSwitches)
        } else if let flag = FindFlags.find.first(where: { $0.isNamed(name) }) {
            flag.set(&request)
        } else {
            return false
        }
        return true
    }

    /// Sets the option called `name` to `value`; false when there is no such option or the value
    /// is not one this parser reads the way ArgumentParser does.
    private static func takeOption(_ name: String, value: String, into request: inout FindRequest) -> Bool {
        if let option = FindFlags.walkOptions.first(where: { $0.isNamed(name) }) { return option.take(&request.walkSwitches, value) }
        if let option = FindFlags.findOptions.first(where: { $0.isNamed(name) }) { return option.take(&request, value) }
        return false
    }
}
