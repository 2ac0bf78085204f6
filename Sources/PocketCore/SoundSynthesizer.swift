import Foundation

/// Makes short sounds (chimes, blips, tunes) as 16-bit mono WAV files, so Pocket ships no audio
/// it did not make itself.
public struct SoundSynthesizer: Sendable {
    /// One note of a sound; a frequency of 0 is a rest.
    public struct Note: Sendable, Equatable {
        /// Pitch in hertz.
        public let frequency: Double
        /// Length in seconds.
        public let duration: Double
        /// Loudness from 0 to 1.
        public let volume: Double

        /// Creates a note.
        public init(frequency: Double, duration: Double, volume: Double = 0.6) {
            self.frequency = frequency
            self.duration = duration
            self.volume = volume
        }

        /// A note by name in equal temperament (A4 = 440 Hz), e.g. `Note("E5", 0.1)`.
        public init(_ name: String, _ duration: Double, volume: Double = 0.6) {
            self.init(frequency: Self.frequency(of: name) ?? 0, duration: duration, volume: volume)
        }

        /// A silence.
        public static func rest(_ duration: Double) -> Note {
            Note(frequency: 0, duration: duration, volume: 0)
        }

        /// The frequency of a note name such as `C4`, `F#5` or `Bb3`; nil when it is not one.
        public static func frequency(of name: String) -> Double? {
            let semitones: [Character: Int] = ["C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2]
            guard let letter = name.first, let base = semitones[letter] else { return nil }
            var rest = name.dropFirst()
            var offset = base
            if rest.first == "#" { offset += 1; rest = rest.dropFirst() } else if rest.first == "b" { offset -= 1; rest = rest.dropFirst() }
            guard let octave = Int(rest) else { return nil }
            return 440 * pow(2, Double(offset + (octave - 4) * 12) / 12)
        }
    }

    /// Samples per second.
    public let sampleRate: Int

    /// Creates a synthesizer; 22.05 kHz is plenty for short effects and keeps files small.
    public init(sampleRate: Int = 22_050) {
        self.sampleRate = sampleRate
    }

    /// The notes played one after another, as a complete WAV file.
    public func wav(_ notes: [Note]) -> Data {
        let samples = render(notes)
        var data = Data()
        data.reserveCapacity(44 + samples.count * 2)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + samples.count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))              // fmt chunk size
        append(UInt16(1))               // PCM
        append(UInt16(1))               // mono
        append(UInt32(sampleRate))
        append(UInt32(sampleRate * 2))  // bytes per second
        append(UInt16(2))               // block align
        append(UInt16(16))              // bits per sample
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return data
    }

    /// The raw samples: a sine with a soft second harmonic, shaped by a short attack and an
    /// exponential decay so notes chime rather than click.
    public func render(_ notes: [Note]) -> [Int16] {
        var samples: [Int16] = []
        for note in notes {
            let count = max(0, Int((note.duration * Double(sampleRate)).rounded()))
            let attack = min(Double(count), 0.006 * Double(sampleRate))
            let volume = min(max(note.volume, 0), 1)
            for index in 0..<count {
                guard note.frequency > 0, volume > 0 else { samples.append(0); continue }
                let time = Double(index) / Double(sampleRate)
                let phase = 2 * Double.pi * note.frequency * time
                let tone = sin(phase) * 0.8 + sin(2 * phase) * 0.2
                let rise = attack > 0 ? min(1, Double(index) / attack) : 1
                let fall = exp(-4 * Double(index) / Double(max(count, 1)))
                let tail = min(1, Double(count - index) / (0.004 * Double(sampleRate)))
                let value = tone * volume * rise * fall * tail * Double(Int16.max)
                samples.append(Int16(max(Double(Int16.min), min(Double(Int16.max), value.rounded()))))
            }
        }
        return samples
    }
}
