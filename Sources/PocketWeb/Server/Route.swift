import Hummingbird

/// A value that fills one parameter of a route's path: read from the request's path part (where a
/// part that does not spell one answers 404) and written into links the same way.
protocol PathValue: Sendable {
    /// The value a path part spells, or nil when it spells none (`abc` for an `Int`).
    init?(pathPart: String)
    /// How the value is spelled in a link.
    var pathPart: String { get }
}

extension Int: PathValue {
    init?(pathPart: String) { self.init(pathPart) }
    var pathPart: String { String(self) }
}

extension Int64: PathValue {
    init?(pathPart: String) { self.init(pathPart) }
    var pathPart: String { String(self) }
}

extension String: PathValue {
    init?(pathPart: String) { self = pathPart }
    var pathPart: String { self }
}

/// One `/`-separated part of a route's full path: fixed text, or a parameter filled by a value.
private enum RoutePart: Sendable {
    case fixed([UInt8])
    case parameter
}

/// One route, declared once: its method, its path below its app's prefix (`mural/:id`; `:name` a
/// parameter, `**` the rest of the path; a `*` that matches without being read is not used) and the types of the values that fill its parameters, in
/// order. The same value builds links (`href`) and, with a handler, the endpoint the router
/// registers (`handle`), so a link can never point at a route that does not exist, and a handler
/// receives its values already typed.
struct Route<each Value: PathValue>: Sendable {
    /// The method the route answers.
    let method: HTTPRequest.Method
    /// What every path of the route's app starts with (`/murals`; empty at the root).
    let prefix: String
    /// The path registered inside the app's route group (whose prefix the group adds).
    let pattern: String
    /// The parameters of `pattern` in order: a name, or nil for the rest of the path (`**`).
    let parameterNames: [String?]
    private let parts: [RoutePart]
    private let fixedLength: Int

    /// A route answering `method` at `pattern` below `prefix`, whose parameters are filled by
    /// values of `types`, in order.
    init(_ method: HTTPRequest.Method, _ pattern: String, _ types: repeat (each Value).Type, under prefix: String) {
        self.method = method
        self.prefix = prefix
        self.pattern = pattern
        var parts: [RoutePart] = []
        var names: [String?] = []
        for part in (prefix + "/" + pattern).split(separator: "/") {
            if part.hasPrefix(":") {
                parts.append(.parameter)
                names.append(String(part.dropFirst()))
            } else if part == "**" {
                parts.append(.parameter)
                names.append(nil)
            } else {
                parts.append(.fixed(Array(part.utf8)))
            }
        }
        self.parts = parts
        parameterNames = names
        fixedLength = parts.reduce(0) { length, part in
            if case .fixed(let bytes) = part { length + 1 + bytes.count } else { length }
        }
    }

    /// How many values fill the route's parameters (a test checks it matches `parameterNames`).
    var valueCount: Int {
        var count = 0
        for _ in repeat (each Value).self { count += 1 }
        return count
    }

    /// The link to this route with `values` filled in, each non-empty part after a slash (an
    /// empty value leaves its part out). A page builds hundreds of links (the Plates list: several
    /// per state, the conference list one per conference), so the path is split once, when the
    /// route is declared, and each link is written byte by byte into one buffer: splitting and
    /// joining strings here was 46% of `/plates`' CPU, and appending substrings to a `String`
    /// still 23% of `/conference`'s (`bench/pages.sh`, `perf`).
    func href(_ values: repeat each Value) -> String {
        var filled: [String] = []
        for value in repeat each values { filled.append(value.pathPart) }
        return link(filling: filled)
    }

    private func link(filling values: [String]) -> String {
        var link: [UInt8] = []
        link.reserveCapacity(fixedLength + values.reduce(0) { $0 + 1 + $1.utf8.count })
        var next = values.makeIterator()
        for part in parts {
            switch part {
            case .fixed(let bytes):
                link.append(UInt8(ascii: "/"))
                link.append(contentsOf: bytes)
            case .parameter:
                if let value = next.next(), !value.isEmpty {
                    link.append(UInt8(ascii: "/"))
                    link.append(contentsOf: value.utf8)
                }
            }
        }
        if link.isEmpty { link.append(UInt8(ascii: "/")) }
        return String(decoding: link, as: UTF8.self)
    }

    /// What every link of the route starts with: its parts up to the first parameter, with the
    /// slash after them (`/murals/demo-service/images/`, `/static/`).
    var folder: String {
        var folder = "/"
        for part in parts {
            guard case .fixed(let bytes) = part else { break }
            folder += String(decoding: bytes, as: UTF8.self) + "/"
        }
        return folder
    }

    /// The endpoint answering this route with `handler`, which receives the request's values
    /// typed; a path part that does not spell its value answers 404 (`WebError.noSuchPage`).
    func handle(_ handler: @escaping @Sendable (Request, PocketRequestContext, repeat each Value) async throws -> Response) -> Endpoint {
        let names = parameterNames
        return Endpoint(method: method, pattern: pattern, parameterCount: names.count, valueCount: valueCount) { request, context in
            var index = 0
            func read<V: PathValue>(_ type: V.Type) throws(WebError) -> V {
                defer { index += 1 }
                let text: String? = if index >= names.count {
                    nil
                } else if let name = names[index] {
                    context.parameters.get(name)
                } else {
                    context.parameters.getCatchAll().joined(separator: "/")
                }
                guard let text, let value = V(pathPart: text) else { throw .noSuchPage(request.uri.path) }
                return value
            }
            let values = (repeat try read((each Value).self))
            return try await handler(request, context, repeat each values)
        }
    }
}

/// A route with its handler, as an app lists it for `addRoutes` to register.
struct Endpoint: Sendable {
    /// The method answered.
    let method: HTTPRequest.Method
    /// The path inside the app's route group.
    let pattern: String
    /// How many parameters the pattern has, and how many typed values fill them (equal, checked
    /// by a test, so no value is ever left unread).
    let parameterCount: Int, valueCount: Int
    /// Answers a request that matched.
    let respond: @Sendable (Request, PocketRequestContext) async throws -> Response
}

extension RouterMethods where Context == PocketRequestContext {
    /// Registers each of `endpoints`.
    func add(_ endpoints: [Endpoint]) {
        for endpoint in endpoints {
            on(RouterPath(endpoint.pattern), method: endpoint.method, use: endpoint.respond)
        }
    }
}
