import Foundation

/// Runs the browser's own JavaScript in Node for the Swift↔JavaScript cross-checks, so a rule both
/// sides implement (the converter's engine, the Plates merge, the outbox's lists) is compared on
/// the same cases. One way to find Node, run it and read its JSON answer, for every suite.
public enum NodeScript {
    /// Why Node could not answer, in one line a failing test prints.
    public struct Failure: Error, CustomStringConvertible {
        /// The line.
        public let description: String
    }

    /// The repository's root, from this file's path (Tests/TestSupport/NodeScript.swift).
    public static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `node` with `arguments` and returns what it printed; throws with its errors when it
    /// fails, or when Node is not installed.
    public static func run(_ arguments: [String]) throws -> Data {
        guard let node = locate() else {
            throw Failure(description: "Node.js is not installed (looked on PATH); the cross-check needs it: apt-get install -y nodejs")
        }
        let process = Process()
        process.executableURL = node
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let reply = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "node failed (\(process.terminationStatus)): \(problems.prefix(2000))")
        }
        return reply
    }

    /// Runs the script at `script` (relative to the repository) on `input` written as JSON to a
    /// temporary file (the cases can be megabytes, too long for an argument), and returns the JSON
    /// array it prints.
    public static func answers(of script: String, input: [String: Any]) throws -> [[String: Any]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("crosscheck-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let reply = try run([repository.appendingPathComponent(script).path, file.path])
        guard let answers = try JSONSerialization.jsonObject(with: reply) as? [[String: Any]] else {
            throw Failure(description: "\(script) printed no JSON array")
        }
        return answers
    }

    /// One JSON text per value (sorted keys), so Swift's and Node's answers compare as text.
    public static func canonical(_ value: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    private static func locate() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").flatMap { ["\($0)/node", "\($0)/nodejs"] } + ["/usr/bin/node", "/usr/bin/nodejs"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }
}
