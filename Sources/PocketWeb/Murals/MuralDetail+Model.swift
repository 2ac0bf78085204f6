import Foundation
import Murals
import PocketCore

/// A mural's page: every picture (a swipe gallery, each opening full screen), title, artist,
/// info, distance, directions and the favourite star.
enum MuralDetail {
    /// Which maps app the Directions link hands off to.
    enum MapsPlatform: Sendable, Equatable {
        case apple
        case other

        /// What an Apple device's user agent says: the page's script decides by the same words,
        /// from the phone's own user agent (a service worker's request may carry another).
        static let appleAgents = ["iPhone", "iPad", "iPod", "Macintosh"]

        /// Apple devices open Apple Maps from a maps.apple.com link; everything else gets a
        /// Google Maps link, which Android opens in its maps app and any browser can show.
        init(userAgent: String?) {
            let agent = userAgent ?? ""
            self = Self.appleAgents.contains(where: agent.contains) ? .apple : .other
        }
    }

    /// A directions link to one maps app.
    struct Directions: Sendable, Equatable {
        let href: String
        let label: String
    }

    struct Model: Sendable {
        struct Picture: Sendable {
            let src: String
            let alt: String
            let dialogID: String
            let number: Int
            let label: String
        }

        let id: Int
        let title: String
        let artist: String
        let info: [String]
        let pictures: [Picture]
        let pictureCountText: String
        let distanceText: String
        let distanceCaption: String
        let latitude: String
        let longitude: String
        /// The link the server's guess at the platform chose, and both, for the page's script.
        let directions: Directions
        let appleDirections: Directions
        let otherDirections: Directions
        let favourite: MuralsFavouriteForm
        let visited: Bool
        let changesAction = MuralsRoute.changes.href()

        init(mural: Mural, isFavourite: Bool, isVisited: Bool, position: GeoCoordinate?, platform: MapsPlatform) {
            id = mural.id
            title = mural.title
            artist = MuralsText.artist(mural.artist)
            info = Self.paragraphs(mural.info)
            let count = mural.images.count
            pictures = mural.images.indices.map { index in
                Picture(
                    src: MuralsRoute.image.href(mural.id, index),
                    alt: count > 1 ? "\(mural.title), picture \(index + 1) of \(count)" : mural.title,
                    dialogID: "mural-picture-\(index)",
                    number: index + 1,
                    label: "Show picture \(index + 1) full screen"
                )
            }
            pictureCountText = count == 1 ? "1 picture" : "\(count) pictures"
            let origin = position ?? NewBrighton.centre
            distanceText = DistanceText.string(metres: origin.distance(to: mural.coordinate))
            distanceCaption = position == nil ? "from the centre of New Brighton" : "from you"
            latitude = MuralsPosition.degrees(mural.coordinate.latitude)
            longitude = MuralsPosition.degrees(mural.coordinate.longitude)
            let destination = "\(latitude),\(longitude)"
            appleDirections = Directions(href: "https://maps.apple.com/?daddr=\(destination)&dirflg=w", label: "Walking Directions in Maps")
            otherDirections = Directions(
                href: "https://www.google.com/maps/dir/?api=1&destination=\(destination)&travelmode=walking", label: "Walking Directions in Google Maps")
            directions = platform == .apple ? appleDirections : otherDirections
            favourite = MuralsFavouriteForm(muralID: mural.id, title: mural.title, isFavourite: isFavourite, returnTo: MuralsRoute.mural.href(mural.id))
            visited = isVisited
        }

        /// The info text as paragraphs: split at blank lines or line breaks, trimmed, empties dropped.
        static func paragraphs(_ info: String?) -> [String] {
            guard let info else { return [] }
            return info.replacingOccurrences(of: "\r\n", with: "\n")
                .split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
    }
}
