import Foundation
import Plates

/// "US States": the sectioned list, the score toolbar and the confirmations they open.
enum PlatesList {
    struct Model: Sendable, Hashable {
        struct Cell: Sendable, Hashable {
            let code: String
            let name: String
            let nickname: String
            let spotted: Bool
            let anchor: String
            let spotAction: String
            let unspotHref: String
            let infoHref: String
            let infoLabel: String
            let confirmation: Confirmation?
            /// The state whose page shows beside the list (iPad): its row is highlighted.
            let isSelected: Bool
        }

        struct Section: Sendable, Hashable {
            let letter: String
            let anchor: String
            let cells: [Cell]
        }

        let sections: [Section]
        let scoreText: String
        let total: Int
        let complete: Bool
        let resetGame: Confirmation
        let spotSound: String?
        let recordsLocation: Bool
        let soundsOn: Bool
        let mapHref: String
        let mapDetail: String
        let tripsHref: String
        let tripsDetail: String
        let settingsAction: String
        let returnTo: String

        /// `selected` is the state shown beside the list, whose own page carries its un-spot alert.
        init(catalog: StateCatalog, game: GameSnapshot, finishedTrips: Int, selected: String? = nil) {
            let sounds = !game.isMuted
            sections = catalog.sections.map { section in
                Section(letter: section.letter, anchor: "section-\(section.letter)", cells: section.states.map { state in
                    let spotted = game.isSpotted(state.code)
                    return Cell(
                        code: state.code,
                        name: state.name,
                        nickname: state.nickname,
                        spotted: spotted,
                        anchor: "state-\(state.code)",
                        spotAction: PlatesRoute.spot(state.code).href,
                        unspotHref: PlatesRoute.confirmUnspot(state.code).href,
                        infoHref: PlatesRoute.state(state.code).href,
                        infoLabel: "About \(state.name)",
                        confirmation: spotted && state.code != selected ? Confirmations.unspot(state, sounds: sounds, cancelHref: PlatesRoute.list.href) : nil,
                        isSelected: state.code == selected
                    )
                })
            }
            total = catalog.count
            scoreText = "Score: \(game.score) / \(catalog.count)"
            complete = game.score == catalog.count
            resetGame = Confirmations.resetGame(sounds: sounds)
            spotSound = sounds ? PlatesRoute.sound(PlatesSound.spot.rawValue).href : nil
            recordsLocation = game.recordsLocation
            soundsOn = sounds
            mapHref = PlatesRoute.map.href
            mapDetail = "\(game.score) of \(catalog.count)"
            tripsHref = PlatesRoute.trips.href
            tripsDetail = finishedTrips == 1 ? "1 finished" : "\(finishedTrips) finished"
            settingsAction = PlatesRoute.settings.href
            returnTo = PlatesRoute.list.href
        }
    }
}

/// The questions the game asks before undoing anything, as the spec words them; the buttons name what
/// they do ("Un-spot", "Reset"), as iOS alerts do, rather than answering Yes or No.
enum Confirmations {
    static func unspot(_ state: USState, sounds: Bool, cancelHref: String, returnTo: String? = nil) -> Confirmation {
        Confirmation(
            id: "unspot-\(state.code)",
            title: "Reset \(state.name)?",
            message: "\(state.name) goes back to white and your score goes down by one.",
            action: PlatesRoute.unspot(state.code).href + (returnTo.map { "?return=\(percentEncoded($0))" } ?? ""),
            confirmLabel: "Un-spot",
            cancelLabel: "Cancel",
            destructive: true,
            sound: sounds ? PlatesRoute.sound(PlatesSound.unspot.rawValue).href : nil,
            cancelHref: cancelHref
        )
    }

    static func resetGame(sounds: Bool) -> Confirmation {
        Confirmation(
            id: "reset-game",
            title: "Reset Game?",
            message: "Every state goes back to white and the score to 0.",
            action: PlatesRoute.reset.href,
            confirmLabel: "Reset",
            cancelLabel: "Cancel",
            destructive: true,
            sound: sounds ? PlatesRoute.sound(PlatesSound.tune.rawValue).href : nil,
            cancelHref: PlatesRoute.list.href
        )
    }

    static func newTrip(score: Int, total: Int, sounds: Bool) -> Confirmation {
        Confirmation(
            id: "new-trip",
            title: "Start a New Trip?",
            message: score == 0
                ? "The current trip has no plates yet; it simply starts again now."
                : "This trip (\(score) / \(total)) is kept in your trip history, and a new game starts.",
            action: PlatesRoute.newTrip.href,
            confirmLabel: "New Trip",
            cancelLabel: "Cancel",
            sound: sounds ? PlatesRoute.sound(PlatesSound.tune.rawValue).href : nil,
            cancelHref: PlatesRoute.trips.href
        )
    }

    private static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_."))) ?? PlatesRoute.list.href
    }
}
