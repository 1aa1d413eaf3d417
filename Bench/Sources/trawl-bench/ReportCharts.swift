import Foundation

/// Bar charts (SVG, no dependencies) of the sections where Trawl has peers: one row per case, a
/// bar per tool, each row scaled to its own largest value (cases differ by orders of magnitude),
/// the value written at the end of each bar.
enum ReportCharts {
    static func fileName(_ section: String, _ unit: String) -> String {
        let safe = { (text: String) in
            String(text.replacingOccurrences(of: "µ", with: "u").map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        }
        return "\(safe(section))-\(safe(unit)).svg"
    }

    /// Writes one chart per section with at least one peer into `folder`; returns the files written.
    static func write(_ sections: [ReportDocument.Section], to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var written: [String] = []
        for section in sections where section.tools.count > 1 {
            let path = folder + "/" + fileName(section.name, section.unit)
            try Data(svg(section).utf8).write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        return written
    }

    private static let colours = ["#d9480f", "#1c7ed6", "#37b24d", "#7048e8", "#f59f00", "#0ca678", "#e64980", "#495057", "#74b816"]

    static func svg(_ section: ReportDocument.Section) -> String {
        let labelWidth = 190.0, barArea = 420.0, valueWidth = 90.0
        let barHeight = 14.0, rowGap = 12.0, top = 52.0
        let tools = section.tools
        let rowHeight = Double(tools.count) * barHeight + rowGap
        let height = top + Double(section.rows.count) * rowHeight + 10
        let width = labelWidth + barArea + valueWidth
        let better = section.higherIsBetter ? "longer is better" : "shorter is better"
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="8" y="16" font-size="13" font-weight="bold">\(escape(section.name)) (\(escape(section.unit)), median; \(better); each row scaled to its largest bar)</text>

        """
        // Legend.
        var x = 8.0
        for (index, tool) in tools.enumerated() {
            svg += "<rect x=\"\(x)\" y=\"26\" width=\"10\" height=\"10\" fill=\"\(colours[index % colours.count])\"/>"
            svg += "<text x=\"\(x + 14)\" y=\"35\">\(escape(tool.label))</text>\n"
            x += 24 + Double(tool.label.count) * 6.5
        }
        for (rowIndex, row) in section.rows.enumerated() {
            let y0 = top + Double(rowIndex) * rowHeight
            let largest = row.figures.values.map(\.median).filter(\.isFinite).max() ?? 1
            svg += "<text x=\"\(labelWidth - 6)\" y=\"\(y0 + Double(tools.count) * barHeight / 2 + 4)\" text-anchor=\"end\">\(escape(row.subject))</text>\n"
            for (index, tool) in tools.enumerated() {
                guard let figure = row.figures[tool], figure.median.isFinite, largest > 0 else { continue }
                let y = y0 + Double(index) * barHeight
                let length = max(1, barArea * figure.median / largest)
                svg += "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(String(format: "%.1f", length))\" height=\"\(barHeight - 2)\" fill=\"\(colours[index % colours.count])\"/>"
                svg += "<text x=\"\(String(format: "%.1f", labelWidth + length + 4))\" y=\"\(y + barHeight - 4)\">\(escape(formatFigure(figure.median)))</text>\n"
            }
        }
        return svg + "</svg>\n"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
