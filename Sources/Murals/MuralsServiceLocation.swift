import Foundation

/// Where the murals service and its pictures are, from an option, the environment or the default.
public enum MuralsServiceLocation {
    /// The environment variable naming the murals endpoint.
    public static let endpointVariable = "POCKET_MURALS_URL"
    /// The environment variable naming the base URL of the pictures.
    public static let imageBaseVariable = "POCKET_MURALS_IMAGES_URL"

    /// The endpoint: `option`, else `POCKET_MURALS_URL`, else the COMP228 service.
    public static func endpoint(option: String?, environment: [String: String]) throws(MuralsError) -> URL {
        try resolve(option: option, variable: endpointVariable, environment: environment, fallback: MuralsSynchronizer.defaultEndpoint)
    }

    /// The picture base: `option`, else `POCKET_MURALS_IMAGES_URL`, else the COMP228 folder.
    public static func imageBase(option: String?, environment: [String: String]) throws(MuralsError) -> URL {
        try resolve(option: option, variable: imageBaseVariable, environment: environment, fallback: MuralsSynchronizer.defaultImageBase)
    }

    private static func resolve(option: String?, variable: String, environment: [String: String], fallback: URL) throws(MuralsError) -> URL {
        let given = [option, environment[variable]].lazy
            .compactMap { $0?.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
        guard let text = given else { return fallback }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw .invalidEndpoint(text)
        }
        return url
    }
}
