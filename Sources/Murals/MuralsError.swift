/// What can go wrong in the Murals app, in words a visitor can act on.
public enum MuralsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A bundled resource (a GPX walk) is missing from the build.
    case missingResource(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .missingResource(let name): return "The bundled file “\(name)” is missing from this build of Pocket."
        }
    }
}
