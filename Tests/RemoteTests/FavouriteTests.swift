import Foundation
import Remote
import Testing

@Suite("TV favourites")
struct FavouriteTests {
    @Test(arguments: [(0, 7), (1, 2), (2, 11), (3, 4)])
    func tappingAFavouriteTunesItsChannel(_ index: Int, _ channel: Int) throws {
        var tv = onTV()
        #expect(try tv.tuneFavourite(at: index) == .changed)
        #expect(tv.channel.number == channel)
        #expect(try tv.tuneFavourite(at: index) == .unchanged)
    }

    @Test(arguments: [-1, 4, 99])
    func thereAreOnlyFourFavourites(_ index: Int) {
        var tv = onTV()
        #expect(throws: RemoteError.noSuchFavourite(index)) { try tv.tuneFavourite(at: index) }
        #expect(throws: RemoteError.noSuchFavourite(index)) { try tv.editFavourite(at: index, label: "CNN", channel: 8) }
        #expect(tv == onTV())
        #expect(RemoteError.noSuchFavourite(index).description == "There are only 4 favourites")
    }

    /// Typed label → stored label: surrounding whitespace is trimmed and letters are stored in capitals.
    static let goodLabels: [(String, String)] = [
        ("CNN", "CNN"), ("cnn", "CNN"), ("Hbo", "HBO"), ("  pbs  ", "PBS"), ("\tESPN\n", "ESPN"), ("A", "A"), ("z", "Z"),
    ]

    @Test(arguments: goodLabels)
    func validLabelsAreSavedInCapitals(_ typed: String, _ stored: String) throws {
        var tv = onTV()
        #expect(try tv.editFavourite(at: 1, label: typed, channel: 9) == .changed)
        #expect(tv.favourites[1].label == stored)
        #expect(tv.favourites[1].channel.number == 9)
        #expect(tv.favourites.map(\.label) == ["ABC", stored, "FOX", "NBC"], "other slots are untouched")
        try tv.tuneFavourite(at: 1)
        #expect(tv.channel.number == 9)
    }

    /// Empty, too long, digits, symbols, inner spaces, accents and emoji: the spec says letters, call signs are A–Z.
    static let badLabels = [
        "", "   ", "\n", "ABCDE", "abcdef", "  ABCDE ", "AB1", "1234", "4", "A-B", "A.B", "A B", "É", "ÅBC", "ß", "Ж", "📺", "AB\u{301}",
    ]

    @Test(arguments: badLabels)
    func invalidLabelsAreRefusedAndNothingIsSaved(_ typed: String) {
        var tv = onTV()
        #expect(throws: RemoteError.invalidLabel(typed)) { try tv.editFavourite(at: 0, label: typed, channel: 9) }
        #expect(tv == onTV())
        #expect(RemoteError.invalidLabel(typed).description == "Label must be 1 to 4 letters")
        #expect(RemoteError.invalidLabel(typed).localizedDescription == "Label must be 1 to 4 letters")
    }

    @Test(arguments: [0, 100, -7])
    func invalidChannelsAreRefusedAndNothingIsSaved(_ channel: Int) {
        var tv = onTV()
        #expect(throws: RemoteError.channelOutOfRange(channel)) { try tv.editFavourite(at: 0, label: "CNN", channel: channel) }
        #expect(tv == onTV())
    }

    @Test func theLabelIsCheckedFirstBecauseItIsTheFirstField() {
        #expect(throws: RemoteError.invalidLabel("")) { try Favourite(label: "", channel: 0) }
    }

    @Test func aRefusedEditKeepsThePendingDigitBecauseErrorsChangeNothing() throws {
        var tv = onTV()
        try tv.pressDigit(6)
        #expect(throws: RemoteError.self) { try tv.editFavourite(at: 0, label: "TOOLONG", channel: 5) }
        #expect(tv.pendingDigit == 6)
    }

    @Test func savingTheSamePresetIsUnchanged() throws {
        var tv = onTV()
        #expect(try tv.editFavourite(at: 0, label: " abc ", channel: 7) == .unchanged)
    }

    @Test func duplicateLabelsAreTheUsersChoice() throws {
        var tv = onTV()
        try tv.editFavourite(at: 3, label: "ABC", channel: 70)
        #expect(tv.favourites.filter { $0.label == "ABC" }.count == 2)
    }

    @Test func defaultsAreValidLabels() throws {
        for favourite in Favourite.defaults {
            #expect(try Favourite.validatedLabel(favourite.label) == favourite.label)
        }
        #expect(Favourite.defaults.count == Television.favouriteCount)
    }
}
