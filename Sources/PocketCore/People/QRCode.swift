import Foundation
import PocketQRencode

/// A QR code symbol made by libqrencode, drawn as terminal text or as SVG.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (without the quiet zone).
    public let size: Int
    /// Row-major: true is a dark module.
    public let modules: [Bool]

    /// Encodes `text` at error-correction level M; nil if libqrencode cannot (too long).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        size = width
        // libqrencode: bit 0 of each byte is the module's colour (1 = dark); the other bits say how it was made.
        modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
    }

    /// Whether the module at `row`, `column` is dark; outside the symbol (the quiet zone) is light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The code in a terminal: two rows of modules per line with half-block characters, dark on
    /// light, with a 2-module quiet zone, so it scans from a dark or a light terminal.
    public var terminalText: String {
        let quiet = 2
        let range = -quiet..<(size + quiet)
        var lines: [String] = []
        for row in stride(from: -quiet, to: size + quiet, by: 2) {
            var line = ""
            for column in range {
                // Light modules are drawn (as the terminal's foreground), dark ones are left blank,
                // so "light" is always the brighter of the two where the terminal is dark.
                let top = !isDark(row: row, column: column), bottom = !isDark(row: row + 1, column: column)
                let block: String = switch (top, bottom) {
                case (true, true): "\u{2588}"
                case (true, false): "\u{2580}"
                case (false, true): "\u{2584}"
                case (false, false): " "
                }
                line += block
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The code as an SVG image (one path), with a 4-module quiet zone, for pages.
    public var svg: String {
        let quiet = 4, side = size + 2 * quiet
        var path = ""
        for row in 0..<size {
            for column in 0..<size where modules[row * size + column] {
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img" aria-label="QR code">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}
