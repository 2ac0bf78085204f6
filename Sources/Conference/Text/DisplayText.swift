import PocketCore

/// Tidies text read from a sci-core database for display.
///
/// Every list a screen shows runs its titles and names through here, and so does the search
/// index at install (every talk), so it trims with `WhiteSpace` rather than Foundation.
enum DisplayText {
    /// `raw` with its HTML character references decoded and the white space at both ends removed.
    static func clean(_ raw: String) -> String {
        WhiteSpace.trimmed(HTMLEntities.decode(raw))
    }
}
