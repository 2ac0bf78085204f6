import Foundation
import PocketCore
import Remote
import Testing

/// Random walks over both remotes; every step checks the spec's invariants against the previous value.
@Suite("Random press sequences")
struct PropertyTests {
    /// One thing a user (or a misbehaving client) can do.
    enum Step: CustomStringConvertible {
        case tv(TVCommand)
        case dvrPower
        case dvrPress(DVRButton)
        case dvrForce(DVRButton)
        case dvrWait(Double)

        var description: String {
            switch self {
            case .tv(let command): "tv \(command)"
            case .dvrPower: "dvr power"
            case .dvrPress(let button): "dvr press \(button.rawValue)"
            case .dvrForce(let button): "dvr force \(button.rawValue)"
            case .dvrWait(let seconds): "dvr wait \(seconds)"
            }
        }
    }

    static let seeds: [UInt64] = [0, 1, 2, 42, 1_234_567, 0xDEAD_BEEF, 0x5EED_CAFE_F00D, .max]
    static let stepsPerSeed = 1_000

    /// Labels mixing valid and invalid input, so refusals are exercised as often as edits.
    static let labels = ["CNN", "hbo", " pbs ", "A", "ESPNX", "", "A1", "Å", "  "]

    static func randomStep(using generator: inout SplitMix64) -> Step {
        let buttons = DVRButton.allCases
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<5: return .tv(.togglePower)
        case 5..<8: return .tv(.setPower(Bool.random(using: &generator)))
        case 8..<30: return .tv(.digit(Int.random(in: -1...10, using: &generator)))
        case 30..<37: return .tv(.setVolume(Int.random(in: -10...110, using: &generator)))
        case 37..<43: return .tv(.channelUp)
        case 43..<49: return .tv(.channelDown)
        case 49..<54: return .tv(.tuneFavourite(Int.random(in: -1...4, using: &generator)))
        case 54..<58:
            let label = labels[Int.random(in: 0..<labels.count, using: &generator)]
            return .tv(.editFavourite(index: Int.random(in: -1...4, using: &generator), label: label, channel: Int.random(in: -1...101, using: &generator)))
        case 58..<62: return .dvrPower
        case 62..<80: return .dvrPress(buttons[Int.random(in: 0..<buttons.count, using: &generator)])
        case 80..<90: return .dvrForce(buttons[Int.random(in: 0..<buttons.count, using: &generator)])
        default: return .dvrWait(Double(Int.random(in: -2...30, using: &generator)) / 2)
        }
    }

    @Test func theGeneratorIsTheReferenceSplitMix64() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test(arguments: seeds)
    func invariantsHoldOverLongRandomSequences(_ seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var tv = Television()
        var device = DVR()
        var counts: [String: Int] = [:]
        for index in 0..<Self.stepsPerSeed {
            let step = Self.randomStep(using: &generator)
            let context = "seed \(seed), step \(index): \(step)"
            switch step {
            case .tv(let command):
                let before = tv
                let outcome: TVOutcome?
                do {
                    outcome = try tv.apply(command)
                } catch {
                    outcome = nil
                    #expect(tv == before, "a thrown error changes nothing (\(context))")
                }
                counts[outcome.map { "\($0)" } ?? "error", default: 0] += 1
                checkTelevision(tv, after: command, from: before, outcome: outcome, "\(context)")
            case .dvrPower:
                let before = device
                device.togglePower()
                #expect(device.isOn != before.isOn, "\(context)")
                #expect(device.state == .stopped, "power either way leaves the DVR stopped (\(context))")
                #expect(device.recordingLength == before.recordingLength, "\(context)")
            case .dvrPress(let button):
                let before = device
                let outcome = device.press(button)
                counts["dvr \(outcome.kind)", default: 0] += 1
                checkPress(button, outcome: outcome, on: device, from: before, "\(context)")
            case .dvrForce(let button):
                let before = device
                let outcome = device.force(button)
                checkForce(button, outcome: outcome, on: device, from: before, "\(context)")
            case .dvrWait(let seconds):
                let before = device
                device.advance(by: seconds)
                #expect(device.state == before.state, "\(context)")
                #expect(device.recordingLength >= before.recordingLength, "\(context)")
                if !before.isOn || seconds <= 0 {
                    #expect(device == before, "\(context)")
                }
            }
            checkDVRInvariants(device, "\(context)")
        }
        // Guard against a generator that never reaches the interesting cases.
        #expect(counts["changed", default: 0] > 50)
        #expect(counts["refusedPowerOff", default: 0] > 10)
        #expect(counts["error", default: 0] > 10)
        #expect(counts["dvr confirm", default: 0] > 10)
        #expect(counts.keys.contains { $0.hasPrefix("awaitingSecondDigit") })
    }

    private func checkTelevision(_ tv: Television, after command: TVCommand, from before: Television, outcome: TVOutcome?, _ context: String) {
        #expect(Television.volumeRange.contains(tv.volume), "\(context)")
        #expect(Channel.range.contains(tv.channel.number), "\(context)")
        #expect(tv.pendingDigit.map { (0...9).contains($0) } ?? true, "\(context)")
        #expect(tv.isOn || tv.pendingDigit == nil, "an off set has no half-typed channel (\(context))")
        #expect(tv.favourites.count == 4, "\(context)")
        #expect(tv.favourites.allSatisfy { (try? Favourite.validatedLabel($0.label)) == $0.label }, "\(context)")

        let isPower: Bool
        switch command {
        case .togglePower, .setPower: isPower = true
        default: isPower = false
        }
        if isPower {
            #expect(tv.volume == before.volume && tv.channel == before.channel && tv.favourites == before.favourites, "power changes only power (\(context))")
        } else if !before.isOn {
            #expect(outcome == .refusedPowerOff, "\(context)")
            #expect(tv == before, "while off nothing changes but power (\(context))")
        }
        guard let outcome else { return }
        if case .digit = command {
            if case .awaitingSecondDigit(let digit) = outcome {
                #expect(tv.pendingDigit == digit, "\(context)")
                #expect(before.pendingDigit == nil, "\(context)")
            }
            if case .invalidChannel = outcome {
                #expect(tv.channel == before.channel, "00 leaves the channel alone (\(context))")
            }
        } else {
            #expect(tv.pendingDigit == nil, "a pending digit never survives a non-keypad action (\(context))")
        }
        switch outcome {
        case .unchanged, .refusedPowerOff: #expect(tv == before, "\(context)")
        case .changed, .awaitingSecondDigit, .invalidChannel: #expect(tv != before, "\(context)")
        }
    }

    private func checkPress(_ button: DVRButton, outcome: DVRPressOutcome, on device: DVR, from before: DVR, _ context: String) {
        let expected = DVRRuleTableTests.expected(from: before.isOn ? before.state : nil, pressing: button)
        switch expected {
        case .to(let state)?:
            #expect(outcome == .changed(to: state), "\(context)")
            #expect(device.state == state, "\(context)")
        case .unchanged?:
            #expect(outcome == .unchanged, "\(context)")
            #expect(device == before, "\(context)")
        case .confirm?:
            #expect(outcome.kind == "confirm", "\(context)")
            #expect(device == before, "\(context)")
        case .off?:
            #expect(outcome == .refusedPowerOff, "\(context)")
            #expect(device == before, "\(context)")
        case nil:
            Issue.record("the literal table has no row for this press (\(context))")
        }
    }

    private func checkForce(_ button: DVRButton, outcome: DVRPressOutcome, on device: DVR, from before: DVR, _ context: String) {
        guard before.isOn else {
            #expect(outcome == .refusedPowerOff, "\(context)")
            #expect(device == before, "\(context)")
            return
        }
        #expect(device.state == button.target, "forcing always ends in the requested state (\(context))")
        if case .forced(let refusal) = outcome {
            #expect(refusal.from == before.state, "\(context)")
            #expect(device.position == before.position, "forcing keeps the position (\(context))")
        }
    }

    private func checkDVRInvariants(_ device: DVR, _ context: String) {
        #expect(DVRState.allCases.filter { $0 == device.state }.count == 1, "exactly one state (\(context))")
        #expect(device.isOn || device.state == .stopped, "\(context)")
        #expect(device.position >= 0 && device.position.isFinite, "\(context)")
        #expect(device.recordingLength >= 0 && device.recordingLength.isFinite, "\(context)")
        if device.state == .stopped {
            #expect(device.position == 0, "stopped means back at the start (\(context))")
        }
    }
}

extension DVRPressOutcome {
    /// A coarse label for counting and comparing outcomes whose payloads do not matter.
    var kind: String {
        switch self {
        case .changed: "changed"
        case .unchanged: "unchanged"
        case .refusedPowerOff: "off"
        case .needsConfirmation: "confirm"
        case .forced: "forced"
        }
    }
}
