import Foundation

// MARK: - The apps' outside addresses and files

extension PocketConfiguration {
    /// Where the apps fetch from and load files from when told to look elsewhere than their own
    /// defaults. Each value is nil when not given: the defaults belong to the app modules, which
    /// PocketCore sits below, so each app fills in its own.
    public struct AppSources: Sendable, Equatable {
        /// Plates: the scheme, host and port plate pictures are fetched from instead of the data's own
        /// (`POCKET_PLATES_IMAGE_BASE`).
        public var platesImageBase: URL?
        /// Murals: the feed (`POCKET_MURALS_URL`).
        public var muralsEndpoint: URL?
        /// Murals: the folder the pictures are under (`POCKET_MURALS_IMAGES_URL`).
        public var muralsImageBase: URL?
        /// Murals: the map's tile template with `{z}`, `{x}` and `{y}` (`POCKET_MURALS_TILES`).
        public var muralsTileTemplate: String?
        /// Murals: the folder with Leaflet's `leaflet.js`, `leaflet.css` and `images/` (`POCKET_LEAFLET_DIR`).
        public var leafletDirectory: URL?
        /// Conference: the sci-core manifest (`--manifest-url`, `POCKET_SCI_MANIFEST_URL`).
        public var sciManifest: URL?
        /// Conference: the base address talk texts are fetched below (`POCKET_SCI_TALKS_URL`).
        public var sciTalks: URL?

        /// Creates a set of sources; every one left out means the app's default.
        public init(platesImageBase: URL? = nil, muralsEndpoint: URL? = nil, muralsImageBase: URL? = nil, muralsTileTemplate: String? = nil,
                    leafletDirectory: URL? = nil, sciManifest: URL? = nil, sciTalks: URL? = nil) {
            self.platesImageBase = platesImageBase
            self.muralsEndpoint = muralsEndpoint
            self.muralsImageBase = muralsImageBase
            self.muralsTileTemplate = muralsTileTemplate
            self.leafletDirectory = leafletDirectory
            self.sciManifest = sciManifest
            self.sciTalks = sciTalks
        }
    }

    /// Every app's source, as `pocket serve` needs them, checked all at once so a bad value stops
    /// the server before it opens anything. `manifestURL` is `--manifest-url`.
    public static func resolveAppSources(manifestURL: String? = nil, environment: [String: String]) throws(ConfigurationError) -> AppSources {
        AppSources(
            platesImageBase: try platesImageBase(environment: environment),
            muralsEndpoint: try muralsEndpoint(environment: environment),
            muralsImageBase: try muralsImageBase(environment: environment),
            muralsTileTemplate: try muralsTileTemplate(environment: environment),
            leafletDirectory: leafletDirectory(environment: environment),
            sciManifest: try sciManifest(option: manifestURL, environment: environment),
            sciTalks: try sciTalks(environment: environment)
        )
    }

    /// `POCKET_PLATES_IMAGE_BASE`: an http(s) address whose scheme, host and port replace the plate
    /// pictures' own (a mirror, or the tests' fixture server).
    public static func platesImageBase(environment: [String: String]) throws(ConfigurationError) -> URL? {
        try address(option: nil, Settings.platesImageBase, environment: environment,
                    example: "http://127.0.0.1:8123")
    }

    /// `--url` (on `pocket murals sync`), else `POCKET_MURALS_URL`: the murals feed.
    public static func muralsEndpoint(option: String? = nil, environment: [String: String]) throws(ConfigurationError) -> URL? {
        try address(option: option, Settings.muralsURL, optionName: "url", environment: environment,
                    example: "https://mirror.example/data2.php?class=newbrighton_murals")
    }

    /// `POCKET_MURALS_IMAGES_URL`: the folder the murals' pictures are under.
    public static func muralsImageBase(environment: [String: String]) throws(ConfigurationError) -> URL? {
        try address(option: nil, Settings.muralsImagesURL, environment: environment,
                    example: "https://mirror.example/nbm_images/")
    }

    /// `POCKET_MURALS_TILES`: another tile server for the map, checked as `ServiceAddress.tileTemplate` does.
    public static func muralsTileTemplate(environment: [String: String]) throws(ConfigurationError) -> String? {
        let variable = Settings.muralsTiles.variable ?? ""
        guard let text = Settings.muralsTiles.given(option: nil, environment: environment) else { return nil }
        guard let template = ServiceAddress.tileTemplate(text) else {
            throw .invalidOption(option: variable, value: text,
                                 expected: "an http or https tile address with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
        return template
    }

    /// `POCKET_LEAFLET_DIR`: a folder, taken as given, not refused: a folder without Leaflet is the
    /// same case as Leaflet not installed, where the map says so and the murals list still works.
    public static func leafletDirectory(environment: [String: String]) -> URL? {
        guard let path = Settings.leafletDirectory.given(option: nil, environment: environment) else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// `--manifest-url`, else `POCKET_SCI_MANIFEST_URL`: the sci-core manifest, for both `pocket serve`
    /// and `pocket conference update`, so both accept and refuse the same addresses.
    public static func sciManifest(option: String? = nil, environment: [String: String]) throws(ConfigurationError) -> URL? {
        try address(option: option, Settings.sciManifest, environment: environment,
                    example: "http://scriptures.byu.edu/is543/sci-core.json")
    }

    /// `POCKET_SCI_TALKS_URL`: the base address talk texts are fetched below.
    public static func sciTalks(environment: [String: String]) throws(ConfigurationError) -> URL? {
        try address(option: nil, Settings.sciTalks, environment: environment,
                    example: "http://scriptures.byu.edu")
    }
}

private extension PocketConfiguration {
    /// The option, else the variable, as an http(s) URL with a host; nil when neither is given (blank
    /// counts as not given). A bad value is named by where it came from, so the message says what to fix.
    static func address(option: String?, _ setting: Setting, optionName: String? = nil, environment: [String: String],
                        example: String) throws(ConfigurationError) -> URL? {
        guard let text = setting.given(option: option, environment: environment) else { return nil }
        guard let url = ServiceAddress.httpURL(text) else {
            let fromOption = option.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
            throw .invalidOption(option: fromOption ? optionName ?? setting.source(option: option) : setting.source(option: nil), value: text,
                                 expected: "an http or https address such as \(example)")
        }
        return url
    }
}
