import Foundation
import Plates

/// "US States": the sectioned list, the score toolbar and the confirmations they open.
enum PlatesList {
    /// What each state's cell says and links to. Only the catalog and the sounds switch decide it,
    /// so it is built once per catalog and a request's model holds a reference and a flag per
    /// state, not some 1,100 strings: building, hashing and comparing those for `PageMemo` on every
    /// request was a quarter of /plates' CPU.
    ///
    /// Two models are equal only when they hold the same instance; texts built twice from the same
    /// catalog compare unequal, which costs a render, never a wrong page.
    final class Texts: Sendable, Hashable {
        struct State: Sendable {
            let code: String
            let name: String
            let nickname: String
            let anchor: String
            let spotAction: String
            /// The un-spot address: its confirmation page (GET) and its alert's action (POST).
            let unspotHref: String
            let infoHref: String
            let infoLabel: String
            /// The cell's control's label while the state is white, and once it is spotted.
            let labelWhite: String
            let labelSpotted: String
            /// The state's un-spot alert, with and without its sound.
            let unspotSounding: Confirmation
            let unspotSilent: Confirmation
        }

        struct Section: Sendable {
            let letter: String
            let anchor: String
            let states: [State]
        }

        let sections: [Section]
        let total: Int

        init(catalog: StateCatalog) {
            sections = catalog.sections.map { section in
                Section(letter: section.letter, anchor: "section-\(section.letter)", states: section.states.map { state in
                    State(
                        code: state.code,
                        name: state.name,
                        nickname: state.nickname,
                        anchor: "state-\(state.code)",
                        spotAction: PlatesRoute.spot.href(state.code),
                        unspotHref: PlatesRoute.confirmUnspot.href(state.code),
                        infoHref: PlatesRoute.state.href(state.code),
                        infoLabel: "About \(state.name)",
                        labelWhite: "\(state.name), \(state.nickname): mark spotted",
                        labelSpotted: "\(state.name), \(state.nickname): spotted. Reset?",
                        unspotSounding: Confirmations.unspot(state, sounds: true, cancelHref: PlatesRoute.list.href()),
                        unspotSilent: Confirmations.unspot(state, sounds: false, cancelHref: PlatesRoute.list.href())
                    )
                })
            }
            total = catalog.count
        }

        static func == (lhs: Texts, rhs: Texts) -> Bool { lhs === rhs }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    struct Model: Sendable, Hashable {
        /// A state's cell as the view draws it: its texts and how this game shows it.
        struct Cell {
            let texts: Texts.State
            let spotted: Bool
            /// The state's un-spot alert, with the sound the game's switch asks for.
            let unspot: Confirmation
            /// Whether the list carries the un-spot alert: a spotted state's page has its own.
            let showsAlert: Bool
            /// The state whose page shows beside the list (iPad): its row is highlighted.
            let isSelected: Bool

            var code: String { texts.code }
            var name: String { texts.name }
            var nickname: String { texts.nickname }
            var anchor: String { texts.anchor }
            var spotAction: String { texts.spotAction }
            var unspotHref: String { texts.unspotHref }
            var infoHref: String { texts.infoHref }
            var infoLabel: String { texts.infoLabel }
            var labelWhite: String { texts.labelWhite }
            var labelSpotted: String { texts.labelSpotted }
            var confirmation: Confirmation? { showsAlert ? unspot : nil }

            /// A cell with nothing of a state in it: the controls of the list's `<template>`s,
            /// which plates/app.js fills from a cell's data attributes.
            static let template: Cell = {
                let blank = Confirmations.unspotTemplate(sounds: false)
                return Cell(
                    texts: Texts.State(
                        code: "", name: "", nickname: "", anchor: "", spotAction: "", unspotHref: "", infoHref: "", infoLabel: "",
                        labelWhite: "", labelSpotted: "", unspotSounding: blank, unspotSilent: blank),
                    spotted: false, unspot: blank, showsAlert: false, isSelected: false)
            }()
        }

        struct Section {
            let letter: String
            let anchor: String
            let cells: [Cell]
        }

        private let texts: Texts
        /// Which states are spotted, in the order of `texts`' sections and states.
        private let spotted: [Bool]
        /// The state shown beside the list (iPad), whose own page carries its un-spot alert.
        private let selected: String?
        let score: CountText
        let total: Int
        let complete: Bool
        let resetGame: Confirmation
        /// The un-spot alert the list's `<template>` holds, for plates/app.js to fill.
        let unspotAlert: Confirmation
        let spotSound: String?
        let recordsLocation: Bool
        let soundsOn: Bool
        let mapHref: String
        let mapDetail: CountText
        let tripsHref: String
        let tripsDetail: CountText
        let settingsAction: String
        let returnTo: String

        /// `selected` is the state shown beside the list, whose own page carries its un-spot alert.
        init(texts: Texts, game: GameSnapshot, finishedTrips: Int, selected: String? = nil) {
            let sounds = !game.isMuted
            self.texts = texts
            spotted = texts.sections.flatMap { $0.states.map { game.isSpotted($0.code) } }
            self.selected = selected
            total = texts.total
            score = .score(game.score, total: texts.total)
            complete = game.score == texts.total
            resetGame = Confirmations.resetGame(sounds: sounds)
            unspotAlert = Confirmations.unspotTemplate(sounds: sounds)
            spotSound = sounds ? PlatesRoute.sound.href(PlatesSound.spot) : nil
            recordsLocation = game.recordsLocation
            soundsOn = sounds
            mapHref = PlatesRoute.map.href()
            mapDetail = .mapDetail(game.score, total: texts.total)
            tripsHref = PlatesRoute.trips.href()
            tripsDetail = .finishedTrips(finishedTrips)
            settingsAction = PlatesRoute.settings.href()
            returnTo = PlatesRoute.list.href()
        }

        /// The list's sections with each state's cell as this game shows it; worked out when the
        /// page is rendered, not on every request.
        var sections: [Section] {
            var index = 0
            return texts.sections.map { section in
                Section(letter: section.letter, anchor: section.anchor, cells: section.states.map { state in
                    let isSpotted = spotted[index]
                    index += 1
                    return Cell(
                        texts: state, spotted: isSpotted, unspot: soundsOn ? state.unspotSounding : state.unspotSilent,
                        showsAlert: isSpotted && state.code != selected, isSelected: state.code == selected)
                })
            }
        }
    }
}

/// The questions the game asks before undoing anything, as the spec words them; the buttons name what
/// they do ("Un-spot", "Reset"), as iOS alerts do, rather than answering Yes or No.
enum Confirmations {
    static func unspot(_ state: USState, sounds: Bool, cancelHref: String, returnTo: String? = nil) -> Confirmation {
        unspot(
            id: "unspot-\(state.code)", name: state.name,
            action: PlatesRoute.unspot.href(state.code) + (returnTo.map { "?return=\(percentEncoded($0))" } ?? ""),
            sounds: sounds, cancelHref: cancelHref)
    }

    /// The un-spot alert with nothing of a state in it, for the list's `<template>`: plates/app.js
    /// gives a copy a cell's id and action, and its name in the title's and message's slot. Its
    /// id only names it inside the template.
    static func unspotTemplate(sounds: Bool) -> Confirmation {
        unspot(id: "unspot-template", name: PlatesSlot.marker, action: "", sounds: sounds, cancelHref: PlatesRoute.list.href())
    }

    private static func unspot(id: String, name: String, action: String, sounds: Bool, cancelHref: String) -> Confirmation {
        Confirmation(
            id: id,
            title: "Reset \(name)?",
            message: "\(name) goes back to white and your score goes down by one.",
            action: action,
            confirmLabel: "Un-spot",
            cancelLabel: "Cancel",
            destructive: true,
            sound: sounds ? PlatesRoute.sound.href(PlatesSound.unspot) : nil,
            cancelHref: cancelHref
        )
    }

    static func resetGame(sounds: Bool) -> Confirmation {
        Confirmation(
            id: "reset-game",
            title: "Reset Game?",
            message: "Every state goes back to white and the score to 0.",
            action: PlatesRoute.reset.href(),
            confirmLabel: "Reset",
            cancelLabel: "Cancel",
            destructive: true,
            sound: sounds ? PlatesRoute.sound.href(PlatesSound.tune) : nil,
            cancelHref: PlatesRoute.list.href()
        )
    }

    static func newTrip(score: Int, total: Int, sounds: Bool) -> Confirmation {
        Confirmation(
            id: "new-trip",
            title: "Start a New Trip?",
            message: score == 0
                ? "The current trip has no plates yet; it simply starts again now."
                : "This trip (\(CountText.tripScore(score, total: total).text)) is kept in your trip history, and a new game starts.",
            action: PlatesRoute.newTrip.href(),
            confirmLabel: "New Trip",
            cancelLabel: "Cancel",
            sound: sounds ? PlatesRoute.sound.href(PlatesSound.tune) : nil,
            cancelHref: PlatesRoute.trips.href()
        )
    }

    private static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_."))) ?? PlatesRoute.list.href()
    }
}
