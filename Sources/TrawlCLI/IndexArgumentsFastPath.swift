/// `trawl index`'s command lines, parsed by hand before ArgumentParser is asked: its start-up (a
/// model of every command built by reflection, see ``FindArgumentsFastPath``) was a visible part
/// of a refresh of a large tree. It takes `index`, at most one path that does not begin with
/// `-`, `--stats`, `--rebuild` and `--watch`; anything else is left to ArgumentParser (nil), which gives its
/// usual help and messages. Tests check that ArgumentParser reads the same from these lines.
package enum IndexArgumentsFastPath {
    /// The run `arguments` (the command line without the program's name) asks for, or nil.
    package static func parse(_ arguments: [String]) -> IndexRun? {
        guard arguments.first == "index" else { return nil }
        var run = IndexRun()
        var path: String?
        for argument in arguments.dropFirst() {
            switch argument {
            case "--stats": run.stats = true
            case "--rebuild": run.rebuild = true
            case "--watch": run.watch = true
            default:
                guard !argument.hasPrefix("-"), path == nil else { return nil }
                path = argument
            }
        }
        run.root = commandLinePath(path ?? ".")
        return run
    }
}
