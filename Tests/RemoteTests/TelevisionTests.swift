import Foundation
import Remote
import Testing

@Suite("TV power, volume and channels")
struct TelevisionTests {
    @Test func aNewSetIsOffAtHalfVolumeOnChannelOne() {
        let tv = Television()
        #expect(!tv.isOn)
        #expect(tv.volume == 50)
        #expect(tv.channel.number == 1)
        #expect(tv.display == "01")
        #expect(tv.pendingDigit == nil)
        #expect(tv.favourites.map(\.label) == ["ABC", "CBS", "FOX", "NBC"])
        #expect(tv.favourites.map(\.channel.number) == [7, 2, 11, 4])
    }

    @Test func powerTogglesAndSetPowerIsIdempotent() throws {
        var tv = Television()
        let toggled = tv.togglePower()
        #expect(toggled)
        #expect(tv.isOn)
        let repeated = tv.setPower(true)
        #expect(!repeated)
        #expect(try tv.apply(.setPower(true)) == .unchanged)
        #expect(try tv.apply(.togglePower) == .changed)
        #expect(!tv.isOn)
    }

    @Test func powerCyclingKeepsChannelAndVolume() throws {
        var tv = onTV()
        try tv.setVolume(80)
        tv.channelDown()
        tv.setPower(false)
        tv.setPower(true)
        #expect(tv.volume == 80)
        #expect(tv.channel.number == 99)
    }

    /// Every control but power, including ones with bad input: while off they are disabled, full stop.
    static let controls: [TVCommand] = [
        .setVolume(10), .setVolume(50), .setVolume(500), .digit(3), .digit(0), .digit(42),
        .channelUp, .channelDown, .tuneFavourite(0), .tuneFavourite(9),
        .editFavourite(index: 0, label: "CNN", channel: 8), .editFavourite(index: 0, label: "TOOLONG", channel: 0),
    ]

    @Test(arguments: controls)
    func everyControlIsRefusedWhileOff(_ command: TVCommand) throws {
        var tv = Television()
        #expect(try tv.apply(command) == .refusedPowerOff)
        #expect(tv == Television())
        #expect(TVOutcome.refusedPowerOff.hint == "The TV is off")
    }

    @Test(arguments: [0, 1, 73, 100])
    func volumeAcceptsTheWholeSlider(_ level: Int) throws {
        var tv = onTV()
        let outcome = try tv.setVolume(level)
        #expect(tv.volume == level)
        #expect(outcome == (level == 50 ? .unchanged : .changed))
    }

    @Test(arguments: [-1, 101, Int.min, Int.max])
    func volumeOutsideTheSliderIsRejected(_ level: Int) {
        var tv = onTV()
        #expect(throws: RemoteError.volumeOutOfRange(level)) { try tv.setVolume(level) }
        #expect(tv == onTV())
        #expect(RemoteError.volumeOutOfRange(level).description == "Volume must be from 0 to 100")
    }

    @Test func oneDigitIsShownWhileWaitingForTheSecond() throws {
        var tv = onTV()
        #expect(try tv.pressDigit(4) == .awaitingSecondDigit(4))
        #expect(tv.pendingDigit == 4)
        #expect(tv.display == "4-")
        #expect(tv.channel.number == 1)
        #expect(try tv.pressDigit(2) == .changed)
        #expect(tv.channel.number == 42)
        #expect(tv.pendingDigit == nil)
        #expect(tv.display == "42")
    }

    /// Two presses → resulting channel (nil = refused with a hint), from the spec.
    static let entries: [(Int, Int, Int?)] = [
        (0, 5, 5), (0, 1, 1), (0, 9, 9), (1, 0, 10), (4, 2, 42), (9, 9, 99), (0, 0, nil),
    ]

    @Test(arguments: entries)
    func twoDigitsTuneAChannel(_ first: Int, _ second: Int, _ result: Int?) throws {
        var tv = onTV()
        tv.channelUp()  // start on 02 so "01" is a real change
        try tv.pressDigit(first)
        let outcome = try tv.pressDigit(second)
        #expect(tv.pendingDigit == nil)
        if let result {
            #expect(outcome == .changed)
            #expect(tv.channel.number == result)
            #expect(outcome.hint == nil)
        } else {
            #expect(outcome == .invalidChannel("00"))
            #expect(outcome.hint == "00 is not a channel")
            #expect(tv.channel.number == 2)
        }
    }

    @Test func zeroFiveDisplaysAsZeroFive() throws {
        var tv = onTV()
        try tv.pressDigit(0)
        #expect(tv.display == "0-")
        try tv.pressDigit(5)
        #expect(tv.channel.number == 5)
        #expect(tv.display == "05")
    }

    @Test func retypingTheCurrentChannelStillFinishesTheEntry() throws {
        var tv = onTV()
        try tv.pressDigit(0)
        #expect(try tv.pressDigit(1) == .changed, "the pending digit went away, so the screen changed")
        #expect(tv.channel.number == 1)
    }

    @Test(arguments: [-1, 10, 42])
    func aKeyThatIsNotADigitIsRejectedAndKeepsThePendingDigit(_ key: Int) throws {
        var tv = onTV()
        try tv.pressDigit(7)
        let before = tv
        #expect(throws: RemoteError.invalidDigit(key)) { try tv.pressDigit(key) }
        #expect(tv == before)
        #expect(RemoteError.invalidDigit(key).description == "Keypad digits go from 0 to 9")
    }

    @Test func channelsWrapBothWays() {
        var tv = onTV()
        #expect(tv.channelDown() == .changed)
        #expect(tv.channel.number == 99)
        #expect(tv.channelUp() == .changed)
        #expect(tv.channel.number == 1)
        tv.channelUp()
        #expect(tv.channel.number == 2)
        tv.channelDown()
        tv.channelDown()
        #expect(tv.display == "99")
    }

    @Test func aFullLapOfTheDialComesBackHome() {
        var tv = onTV()
        for _ in Channel.range {
            tv.channelUp()
        }
        #expect(tv.channel.number == 1)
        for _ in Channel.range {
            tv.channelDown()
        }
        #expect(tv.channel.number == 1)
    }

    /// Non-keypad actions, each of which must drop a half-typed channel.
    static let nonKeypadActions: [TVCommand] = [
        .channelUp, .channelDown, .setVolume(50), .setVolume(20), .tuneFavourite(0),
        .editFavourite(index: 3, label: "nbc", channel: 4), .setPower(false), .setPower(true), .togglePower,
    ]

    @Test(arguments: nonKeypadActions)
    func anyOtherActionDropsAPendingDigit(_ command: TVCommand) throws {
        var tv = onTV()
        try tv.pressDigit(3)
        let outcome = try tv.apply(command)
        #expect(tv.pendingDigit == nil)
        #expect(outcome == .changed, "dropping the pending digit is itself a visible change, even for power on while on")
    }

    @Test func tuneAcceptsAReadyChannel() throws {
        var tv = onTV()
        #expect(tv.tune(to: try Channel(64)) == .changed)
        #expect(tv.channel.number == 64)
        #expect(tv.tune(to: try Channel(64)) == .unchanged)
        var off = Television()
        #expect(off.tune(to: try Channel(64)) == .refusedPowerOff)
    }
}

@Suite("Channel")
struct ChannelTests {
    @Test(arguments: [1, 7, 10, 99])
    func validNumbersAreChannels(_ number: Int) throws {
        #expect(try Channel(number).number == number)
    }

    @Test(arguments: [0, -1, 100, 1000])
    func otherNumbersAreNot(_ number: Int) {
        #expect(throws: RemoteError.channelOutOfRange(number)) { try Channel(number) }
        #expect(RemoteError.channelOutOfRange(number).description == "Channel must be from 1 to 99")
    }

    @Test func displaysTwoDigitsAndWraps() throws {
        #expect(try Channel(7).description == "07")
        #expect(try Channel(42).description == "42")
        #expect(try Channel(99).next == Channel(1))
        #expect(try Channel(1).previous == Channel(99))
        #expect(try Channel(3) < Channel(30))
    }
}
