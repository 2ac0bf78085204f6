import Foundation
import PocketCore

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
        guard let text = ServiceAddress.given(option: option, variable: variable, environment: environment) else { return fallback }
        guard let url = ServiceAddress.httpURL(text) else { throw .invalidEndpoint(text) }
        return url
    }
}
