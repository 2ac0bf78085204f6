import Foundation
import PocketCore
import Testing

@Suite("The table of settings")
struct SettingsTableTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows of README.md's configuration table, each split into its cells.
    private static func readmeRows() throws -> [[String]] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Configuration\n").dropFirst().first)
        let table = section.components(separatedBy: "\n## ").first ?? section
        return table.split(separator: "\n")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Option") }
            .map { line in
                line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
    }

    @Test func theReadmeTableListsEverySettingInOrderWithItsOptionVariableAndDefault() throws {
        let rows = try Self.readmeRows()
        #expect(rows.count == Settings.all.count, "README.md's configuration table has \(rows.count) rows, Settings.all \(Settings.all.count)")
        for (row, setting) in zip(rows, Settings.all) {
            let name = setting.option ?? setting.variable ?? "?"
            if let option = setting.option {
                #expect(row[0].hasPrefix("`--\(option)`"), "row \(row[0]) should be --\(option)")
            } else {
                #expect(row[0] == "—", "\(name) has no option, the README says \(row[0])")
            }
            if let variable = setting.variable {
                #expect(row[1].hasPrefix("`\(variable)`"), "row \(row[1]) should be \(variable)")
            } else {
                #expect(row[1] == "—", "\(name) has no variable, the README says \(row[1])")
            }
            #expect(row[2].replacingOccurrences(of: "`", with: "") == setting.defaultText ?? "—", "\(name)'s default")
        }
    }

    @Test func noSourceFileSpellsAVariableNameTheTableHolds() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let names = Set(Settings.all.compactMap(\.variable))
        var spelled: [String] = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" && file.lastPathComponent != "Settings.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for name in names where text.contains("\"\(name)\"") {
                spelled.append("\(file.lastPathComponent): \(name)")
            }
        }
        #expect(spelled.isEmpty, "spell these through Settings instead: \(spelled)")
    }

    @Test func aBlankValueIsNotGivenAndTheOptionWins() {
        let setting = Settings.host
        #expect(setting.given(option: " 0.0.0.0 ", environment: ["POCKET_HOST": "10.0.0.2"]) == "0.0.0.0")
        #expect(setting.given(option: "", environment: ["POCKET_HOST": " 10.0.0.2"]) == "10.0.0.2")
        #expect(setting.given(option: nil, environment: ["POCKET_HOST": "  "]) == nil)
        #expect(setting.source(option: "x") == "host" && setting.source(option: " ") == "POCKET_HOST")
    }

    @Test func helpSaysTheVariableAndTheDefault() {
        #expect(Settings.host.helpLine == "Address to bind; only loopback unless another address is given (env POCKET_HOST; default 127.0.0.1).")
        #expect(Settings.tlsKey.helpLine == "PEM private key for --tls-cert (env POCKET_TLS_KEY).")
    }

    @Test func optionsAndVariablesAreEachUsedOnce() {
        let options = Settings.all.compactMap(\.option), variables = Settings.all.compactMap(\.variable)
        #expect(Set(options).count == options.count && Set(variables).count == variables.count)
    }
}
