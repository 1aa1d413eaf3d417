/// How many terminal columns text takes, and text cut to fit a row.
///
/// Written by hand: the toolchain has no East Asian Width table (`wcwidth` is locale-bound and
/// reports -1 for every non-ASCII scalar in the C locale a tool often runs in). Wide scalars are
/// emoji shown as emoji (Unicode's Emoji_Presentation, which the standard library knows) and the
/// blocks of the "W" and "F" classes that hold letters; marks and zero-width characters take
/// none. A scalar counted too wide only cuts a row early; one counted too narrow would wrap it.
enum TerminalColumns {
    /// The columns `scalar` takes: 0, 1 or 2.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F200...0x1F265,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` (which may hold SGR escape sequences, `ESC [ … m`, taking no columns) cut after its
    /// first `columns` columns; the escape sequences after the cut are kept, so colours still end.
    static func fitted(_ text: String, columns: Int) -> String {
        var output = String.UnicodeScalarView()
        var used = 0, inEscape = false, cut = false
        for scalar in text.unicodeScalars {
            if inEscape {
                output.append(scalar)
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                output.append(scalar)
                continue
            }
            guard !cut else { continue }
            let width = width(of: scalar)
            if used + width > columns {
                cut = true
                continue
            }
            used += width
            output.append(scalar)
        }
        return String(output)
    }
}
