/// Pocket's release identity, shown by `pocket --version` and in the web footer.
public enum PocketVersion {
    /// The semantic version of this build.
    public static let current = "0.1.0"
}
