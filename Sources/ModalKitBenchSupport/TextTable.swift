// Plain-text output that pastes into Markdown unchanged.

/// A Markdown table whose columns are padded to equal width, so it reads as aligned plain text
/// on a terminal and renders as a table in the README.
public struct TextTable {
    public enum Alignment { case left, right }

    public var columns: [(title: String, alignment: Alignment)]
    public private(set) var rows: [[String]] = []

    public init(_ columns: [(title: String, alignment: Alignment)]) { self.columns = columns }

    /// Adds a row; missing cells are empty, extra cells are dropped.
    public mutating func append(_ cells: [String]) {
        rows.append((0..<columns.count).map { $0 < cells.count ? cells[$0] : "" })
    }

    /// The header, the `| --- |` separator (`---:` for right-aligned columns) and the rows.
    public var lines: [String] {
        let widths = columns.indices.map { c in
            max(3, ([columns[c].title] + rows.map { $0[c] }).map(\.count).max() ?? 0)
        }
        func line(_ cells: [String]) -> String {
            "| " + cells.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - cells[c].count)
                return columns[c].alignment == .left ? cells[c] + pad : pad + cells[c]
            }.joined(separator: " | ") + " |"
        }
        let rule = "| " + columns.indices.map { c in
            columns[c].alignment == .left ? String(repeating: "-", count: widths[c])
                                          : String(repeating: "-", count: widths[c] - 1) + ":"
        }.joined(separator: " | ") + " |"
        return [line(columns.map(\.title)), rule] + rows.map(line)
    }
}

public enum Format {
    /// `n` with thousands separated by commas: 2073600 → "2,073,600".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return n < 0 ? "-" + out : out
    }
}
