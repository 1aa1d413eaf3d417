/// Terminal colours for output (ripgrep's defaults: paths magenta, line numbers green, matches
/// bold red), applied only when colour is on.
///
/// Plain SGR escape codes, written by hand: Rainbow (the package at hand) re-parses every styled
/// string and keeps its on/off switch in a global variable, while output here is bytes built on
/// several threads with a per-run switch.
package struct Style: Sendable {
    package let enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text }

    private func wrap(_ bytes: some Collection<UInt8>, _ code: String) -> [UInt8] {
        enabled ? Array("\u{1B}[\(code)m".utf8) + bytes + Array("\u{1B}[0m".utf8) : Array(bytes)
    }

    func path(_ bytes: [UInt8]) -> [UInt8] { wrap(bytes, "35") }
    func lineNumber(_ text: String) -> String { wrap(text, "32") }
    func match(_ bytes: some Collection<UInt8>) -> [UInt8] { wrap(bytes, "1;31") }
    func removed(_ bytes: some Collection<UInt8>) -> [UInt8] { wrap(bytes, "31") }
    func added(_ bytes: some Collection<UInt8>) -> [UInt8] { wrap(bytes, "32") }
    func hunk(_ text: String) -> String { wrap(text, "36") }
    func header(_ bytes: [UInt8]) -> [UInt8] { wrap(bytes, "1") }
}
