import PocketCore

/// The game's sounds, made by `SoundSynthesizer` (the spec's bonus: upbeat, downbeat and a tune).
public enum PlatesSound: String, CaseIterable, Sendable {
    /// A bright rising pair: a plate was spotted.
    case spot
    /// A falling pair: a plate was un-spotted.
    case unspot
    /// A short fanfare: a game started or was reset.
    case tune

    /// The notes of this sound.
    public var notes: [SoundSynthesizer.Note] {
        switch self {
        case .spot:
            return [.init("E5", 0.07), .init("B5", 0.16)]
        case .unspot:
            return [.init("G4", 0.09, volume: 0.5), .init("D4", 0.2, volume: 0.5)]
        case .tune:
            return [.init("C5", 0.09), .init("E5", 0.09), .init("G5", 0.09), .rest(0.03), .init("C6", 0.3)]
        }
    }
}
