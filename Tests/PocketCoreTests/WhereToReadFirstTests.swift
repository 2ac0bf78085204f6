import Foundation
import Testing

/// README.md's "Where to read first" is a newcomer's map for the common changes. It lists exactly
/// the files this test says, in this order, and every file and name it points at exists, so the
/// map cannot drift from the code as files move or split. A change that needs more than six files
/// is one the structure should make smaller, not one the list should grow for.
@Suite("Where to read first")
struct WhereToReadFirstTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each task and the files (from the package's folder) a person opens for it, in reading order.
    private static let expected: [(task: String, files: [String])] = [
        ("Change a Plates list cell's text", [
            "Sources/PocketWeb/Plates/PlatesList+Model.swift",
            "Sources/PocketWeb/Plates/PlatesList+View.swift",
        ]),
        ("Change what a Conference talk page shows", [
            "Sources/PocketWeb/Conference/ConferencePages.swift",
            "Sources/PocketWeb/Conference/ConferenceTalk+Model.swift",
            "Sources/PocketWeb/Conference/ConferenceTalk+View.swift",
            "Sources/Conference/Store/ConferenceLibrary+Screens.swift",
            "Sources/Conference/Store/CoreQueries.swift",
            "Sources/Conference/Models/ConferenceModels.swift",
        ]),
        ("Change how an offline Plates change is sent and applied", [
            "Sources/PocketWeb/Resources/Public/js/plates/app.js",
            "Sources/PocketWeb/Resources/Public/js/plates/game.js",
            "Sources/PocketWeb/Resources/Public/js/lib/outbox-core.js",
            "Sources/PocketWeb/Plates/PlatesChanges.swift",
            "Sources/Plates/PlateChange.swift",
            "Sources/Plates/PlatesGame+Changes.swift",
        ]),
        ("Add a setting", [
            "Sources/PocketCore/Settings.swift",
            "README.md",
            "Sources/PocketCore/PocketConfiguration.swift",
        ]),
        ("Add a Murals route", [
            "Sources/PocketWeb/Murals/MuralsRoute.swift",
            "Sources/PocketWeb/Murals/MuralsPages.swift",
        ]),
    ]

    /// One task as README.md lists it.
    private struct Listed {
        let task: String
        let statedCount: Int?
        /// Each file, with the name (`talk(id:)`) the README says to look for in it, if any.
        let files: [(path: String, name: String?)]
    }

    /// The bullets of README.md's "Where to read first" section: `- **Task** (N files): `a`, `b` (`name`), …`.
    private static func listed() throws -> [Listed] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Where to read first\n").dropFirst().first,
                                   "README.md has no \"## Where to read first\" section")
        let body = section.components(separatedBy: "\n## ").first ?? section
        // A bullet may wrap onto indented lines: join them back.
        let bullets = body.components(separatedBy: "\n- ").dropFirst().map {
            $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }
        return try bullets.map { bullet in
            let task = try #require(bullet.components(separatedBy: "**").dropFirst().first, "a bullet without a **task**: \(bullet)")
            let count = bullet.firstMatch(of: /\((\d+) files?\)/).flatMap { Int($0.1) }
            // Backticked spans after the colon: a file, or in brackets the name to look for in the file before it.
            var files: [(path: String, name: String?)] = []
            // The list is the bullet's first sentence after the colon; what follows is prose.
            let list = bullet.components(separatedBy: ":").dropFirst().joined(separator: ":").components(separatedBy: ". ").first ?? ""
            let spans = list.components(separatedBy: "`")
            for (index, span) in spans.enumerated() where index % 2 == 1 {
                if span.hasSuffix(".swift") || span.hasSuffix(".js") || span.hasSuffix(".md") {
                    files.append((span, nil))
                } else if spans[index - 1].hasSuffix("("), let last = files.popLast() {
                    files.append((last.path, span))
                }
            }
            return Listed(task: task, statedCount: count, files: files)
        }
    }

    @Test func theReadmeListsExactlyTheFilesOfEachTaskInOrder() throws {
        let listed = try Self.listed()
        #expect(listed.map(\.task) == Self.expected.map(\.task))
        for (entry, want) in zip(listed, Self.expected) {
            #expect(entry.files.map(\.path) == want.files, "\(entry.task)")
            #expect(entry.statedCount == entry.files.count, "\(entry.task): says \(entry.statedCount ?? 0) files, lists \(entry.files.count)")
        }
    }

    @Test func everyListedFileExistsAndHoldsTheNameItIsReadFor() throws {
        for entry in try Self.listed() {
            for file in entry.files {
                let url = Self.root.appendingPathComponent(file.path)
                let text = try String(contentsOf: url, encoding: .utf8)
                if let name = file.name {
                    let base = String(name.prefix { $0 != "(" })
                    let holdsName = text.contains(base)
                    #expect(holdsName, "\(file.path) has no \(name), which README.md says to read it for")
                }
            }
        }
    }

    @Test func noTaskNeedsMoreThanSixFiles() {
        for (task, files) in Self.expected {
            #expect(files.count <= 6, "\(task): \(files.count) files")
        }
    }
}
