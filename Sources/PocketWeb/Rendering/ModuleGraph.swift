/// Which ES modules each module imports, read from the files at start-up, so a page can name every
/// module it will run in `<link rel="modulepreload">`: the browser then fetches the whole graph at
/// once instead of one level of imports per round trip (a phone's 150 ms each on a slow network).
///
/// Only static imports count (`import … from './x.js'`, `import './x.js'`, `export … from './x.js'`,
/// one per line as Pocket's modules are written); `import(…)` is left to the page that asks for it.
struct ModuleGraph: Sendable {
    /// Each module's static imports, as paths below `/static/` (`js/core/dom.js`).
    private let imports: [String: [String]]

    /// Reads every module in `assets` but the service worker; an import of a file that is not
    /// there stops Pocket from starting, rather than serving pages whose scripts cannot load.
    init(assets: AssetCatalog) throws {
        var imports: [String: [String]] = [:]
        for path in assets.paths where path.hasPrefix("js/") && path.hasSuffix(".js") && path != ServiceWorker.scriptPath {
            guard let asset = assets.asset(at: path) else { continue }
            let text = String(decoding: asset.data, as: UTF8.self)
            imports[path] = try text.split(separator: "\n").compactMap(Self.specifier).map { specifier in
                guard let resolved = Self.resolve(specifier, from: path), assets.asset(at: resolved) != nil else {
                    throw WebError.resourcesMissing("\(specifier) (imported by \(path))")
                }
                return resolved
            }
        }
        self.imports = imports
    }

    /// `entries` and every module they import, directly or not: each once, in the order first met.
    func closure(of entries: [String]) -> [String] {
        var seen: Set<String> = [], order: [String] = []
        var stack = Array(entries.reversed())
        while let path = stack.popLast() {
            guard seen.insert(path).inserted else { continue }
            order.append(path)
            stack += (imports[path] ?? []).reversed()
        }
        return order
    }

    /// The quoted specifier of a static import or re-export on `line`, if it is one.
    static func specifier(_ line: Substring) -> String? {
        let line = line.drop { $0 == " " || $0 == "\t" }
        guard line.hasPrefix("import ") || line.hasPrefix("import{") || line.hasPrefix("import'") || line.hasPrefix("import\"")
                || line.hasPrefix("export ") && line.contains(" from ") else { return nil }
        let quoted: Substring
        if let from = line.range(of: " from ", options: .backwards) {
            quoted = line[from.upperBound...].drop { $0 == " " }
        } else if line.hasPrefix("import ") || line.hasPrefix("import'") || line.hasPrefix("import\"") {
            quoted = line.dropFirst("import".count).drop { $0 == " " }
        } else {
            return nil
        }
        guard let quote = quoted.first, quote == "'" || quote == "\"" else { return nil }
        let rest = quoted.dropFirst()
        guard let end = rest.firstIndex(of: quote) else { return nil }
        return String(rest[..<end])
    }

    /// `specifier` (`./x.js`, `../core/dom.js`) from the module at `path`, as a path below `/static/`; nil
    /// when it leaves the static folder or is not relative.
    static func resolve(_ specifier: String, from path: String) -> String? {
        guard specifier.hasPrefix("./") || specifier.hasPrefix("../") else { return nil }
        var parts = path.split(separator: "/").dropLast().map(String.init)
        for part in specifier.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
