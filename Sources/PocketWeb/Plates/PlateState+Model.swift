import Foundation
import Plates

/// A state's page: its plate picture (or why there is none), nickname and when it was spotted.
enum PlateState {
    struct Model: Sendable, Hashable {
        let code: String
        let name: String
        let nickname: String
        let hasImage: Bool
        let imageURL: String
        let imageAlt: String
        let imageProblem: String
        /// The picture is being fetched: pocket.js re-reads the page after this many milliseconds
        /// (`data-refresh-after`), so it appears without a reload.
        let refreshAfter: Int?
        /// When the state was spotted on this trip (and where, if recorded), or nil.
        let spotted: Spotted?
        let spotAction: String
        let returnTo: String
        let spotSound: String?
        let unspotHref: String
        /// The state's un-spot alert; the page carries it while the state is spotted (plates/app.js
        /// adds it from the list's template when the phone spots it).
        let unspot: Confirmation
        let recordsLocation: Bool

        var confirmation: Confirmation? { spotted == nil ? nil : unspot }

        /// What the state's page says once it is spotted on the phone, before the server has
        /// heard: plates/app.js puts the phone's clock into the pattern.
        static let spottedNow = Spotted(text: "", pattern: spottedText(today(at: PlatesSlot.marker)), place: nil)

        /// `pictureHost` is the host pictures really come from (a mirror, the configuration's
        /// `platesImageBase`, else the data's own), which the missing-picture note names.
        init(
            state: USState, game: GameSnapshot, hasImage: Bool, imageProblem: String?, isDownloading: Bool = false, pictureHost: String?,
            returnTo: String, now: Date = Date(), timeZone: TimeZone = .current
        ) {
            code = state.code
            name = state.name
            nickname = state.nickname
            self.hasImage = hasImage
            imageURL = PlatesRoute.plateImage.href(state.code)
            imageAlt = "\(state.name) license plate"
            self.imageProblem = "The picture of \(state.name)’s plate can’t be shown right now"
                + (imageProblem.map { ": \($0)" } ?? "") + ". It will appear once Pocket can reach \(pictureHost ?? "the picture’s server")."
            refreshAfter = isDownloading ? 1000 : nil
            let spot = game.spots[state.code]
            spotted = spot.map { spot in
                Spotted(
                    text: Self.spottedText(Self.format(spot.spottedAt, now: now, timeZone: timeZone)),
                    pattern: nil,
                    place: spot.location.map { location in
                        Place(
                            text: String(format: "Near %.4f, %.4f", location.latitude, location.longitude),
                            mapURL: String(format: "https://www.openstreetmap.org/?mlat=%.5f&mlon=%.5f#map=13/%.5f/%.5f",
                                           location.latitude, location.longitude, location.latitude, location.longitude)
                        )
                    }
                )
            }
            spotAction = PlatesRoute.spot.href(state.code)
            self.returnTo = returnTo
            spotSound = game.isMuted ? nil : PlatesRoute.sound.href(PlatesSound.spot)
            unspotHref = PlatesRoute.confirmUnspot.href(state.code) + "?return=" + (returnTo.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_."))) ?? "")
            unspot = Confirmations.unspot(state, sounds: !game.isMuted, cancelHref: returnTo, returnTo: returnTo)
            recordsLocation = game.recordsLocation
        }

        /// "Spotted today at 14:03", and where, as the page words them.
        struct Spotted: Sendable, Hashable {
            let text: String
            /// The words with `PlatesSlot.marker` for the time, when plates/app.js fills them in.
            let pattern: String?
            let place: Place?
        }

        /// Where a plate was spotted, and a map of it.
        struct Place: Sendable, Hashable {
            let text: String
            let mapURL: String
        }

        /// "Spotted today at 14:03".
        static func spottedText(_ when: String) -> String {
            "Spotted \(when)"
        }

        /// "today at 14:03", which `spottedNow` gives plates/app.js with a slot for the phone's time.
        static func today(at time: String) -> String {
            "today at \(time)"
        }

        /// "today at 14:03", "yesterday at 09:10" or "3 March 2026 at 18:45".
        static func format(_ date: Date, now: Date, timeZone: TimeZone) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let time = date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, timeZone: timeZone).locale(Locale(identifier: "en_GB")))
            if calendar.isDate(date, inSameDayAs: now) { return today(at: time) }
            if let yesterday = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(date, inSameDayAs: yesterday) {
                return "yesterday at \(time)"
            }
            let day = date.formatted(Date.FormatStyle(date: .long, time: .omitted, timeZone: timeZone).locale(Locale(identifier: "en_GB")))
            return "\(day) at \(time)"
        }
    }
}
