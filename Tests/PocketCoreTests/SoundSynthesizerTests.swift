import Foundation
import Testing
@testable import PocketCore

@Suite("Sound synthesis")
struct SoundSynthesizerTests {
    private let synth = SoundSynthesizer(sampleRate: 22_050)

    private func uint32(_ data: Data, _ at: Int) -> UInt32 {
        data[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func uint16(_ data: Data, _ at: Int) -> UInt16 {
        UInt16(data[at + 1]) << 8 | UInt16(data[at])
    }

    @Test func wavHeaderDescribesSixteenBitMonoPCM() {
        let data = synth.wav([.init("A4", 0.5)])
        #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: data[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(uint16(data, 20) == 1)
        #expect(uint16(data, 22) == 1)
        #expect(uint32(data, 24) == 22_050)
        #expect(uint16(data, 34) == 16)
        #expect(String(decoding: data[36..<40], as: UTF8.self) == "data")
        #expect(uint32(data, 40) == UInt32(data.count - 44))
        #expect(uint32(data, 4) == UInt32(data.count - 8))
        #expect(data.count == 44 + 11_025 * 2)
    }

    @Test func noteNamesFollowEqualTemperament() throws {
        #expect(SoundSynthesizer.Note.frequency(of: "A4") == 440)
        #expect(abs(try #require(SoundSynthesizer.Note.frequency(of: "C4")) - 261.6256) < 0.001)
        #expect(abs(try #require(SoundSynthesizer.Note.frequency(of: "A5")) - 880) < 0.001)
        #expect(SoundSynthesizer.Note.frequency(of: "F#4") == SoundSynthesizer.Note.frequency(of: "Gb4"))
        #expect(SoundSynthesizer.Note.frequency(of: "H2") == nil)
        #expect(SoundSynthesizer.Note.frequency(of: "C") == nil)
    }

    @Test func aToneHasItsPitchAndStaysInRange() {
        let samples = synth.render([.init(frequency: 440, duration: 1, volume: 1)])
        #expect(samples.count == 22_050)
        // Upward zero crossings in one second ≈ the fundamental frequency.
        var crossings = 0
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 { crossings += 1 }
        #expect(abs(crossings - 440) <= 4)
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 10_000 && peak <= Int(Int16.max))
        // The envelope starts and ends near silence, so there is no click.
        #expect(abs(Int(samples[0])) < 200)
        #expect(abs(Int(samples[samples.count - 1])) < 200)
    }

    @Test func restsAreSilentAndDurationsAdd() {
        let samples = synth.render([.init("C5", 0.1), .rest(0.05), .init("E5", 0.1)])
        #expect(samples.count == 2_205 + 1_103 + 2_205 || samples.count == 2_205 + 1_102 + 2_205)
        #expect(samples[2_300..<3_200].allSatisfy { $0 == 0 })
    }
}
