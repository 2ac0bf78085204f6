import Foundation
import PocketCore
import PocketWeb

// The page models of the two measured screens, field for field as PocketWeb's internal ones
// (`ConferenceScreens.Split`, `ConferenceTalk`, `TalkList`, `ConferenceShell`, `PlatesList.Model`),
// so that today's Mustache rendering reflects over the same shapes. Plain structs: the Plot pages
// read them directly, the MustacheParent copies (RenderBench+Mustache.swift) are made from them.

/// The layout-wide values, field for field as PocketWeb's `Chrome` (whose initialiser is internal).
struct BenchChrome: Sendable {
    let csrfToken: String
    let csrfField = "_csrf"
    let stylesheet: String
    let script: String
    let favicon: String
    let faviconPNG: String
    let appleTouchIcon: String
    let appStylesheet: String?
    let version: String

    init(assets: AssetCatalog, app: String, csrfToken: String) {
        self.csrfToken = csrfToken
        stylesheet = assets.url("css/pocket.css")
        script = assets.url("js/pocket.js")
        favicon = assets.url("icons/pocket.svg")
        faviconPNG = assets.url("icons/favicon-32.png")
        appleTouchIcon = assets.url("icons/apple-touch-icon.png")
        appStylesheet = assets.asset(at: "css/apps/\(app).css") != nil ? assets.url("css/apps/\(app).css") : nil
        version = PocketVersion.current
    }
}

/// What `layout.mustache` renders: `frame.*`, `page.*`, `chrome.*` (PocketWeb's `PageEnvelope`).
struct BenchEnvelope<Model: Sendable>: Sendable {
    let frame: PageFrame
    let page: Model
    let chrome: BenchChrome
}

/// The Conference split screen with a talk: `ConferenceScreens.Split` and what it holds.
enum TalkPage {
    struct Tab: Sendable {
        let label: String
        let href: String
        let icon: String
        let current: Bool
    }

    struct Banner: Sendable {
        let text: String
        let actionLabel: String
        let actionHref: String
    }

    struct Shell: Sendable {
        let tabs: [Tab]
        let banner: Banner?
    }

    struct Cell: Sendable {
        let id: Int
        let title: String
        let subtitle: String?
        let detail: String?
        let href: String
        let selected: Bool
    }

    struct Section: Sendable {
        let header: String?
        let anchor: String
        let cells: [Cell]
    }

    struct TalkList: Sendable {
        let title: String
        let href: String
        let parent: BackLink
        let sections: [Section]
        let emptyMessage: String?
        let footer: String?
    }

    struct Fact: Sendable {
        let label: String
        let value: String
        let href: String?
    }

    struct Media: Sendable {
        let label: String
        let url: String
        let audio: Bool
        let video: Bool
        let isLink: Bool
    }

    struct Neighbour: Sendable {
        let title: String
        let href: String
    }

    struct Citation: Sendable {
        let reference: String
        let href: String
        let pageLabel: String?
    }

    struct BookmarkForm: Sendable {
        let action: String
        let newValue: String
        let label: String
        let isBookmarked: Bool
        let returnTo: String
    }

    struct Talk: Sendable {
        let id: Int
        let title: String
        let speaker: String
        let facts: [Fact]
        let contentURL: String
        let frameTitle: String
        let talkURL: String?
        let media: [Media]
        let hasMedia: Bool
        let previous: Neighbour?
        let next: Neighbour?
        let citations: [Citation]
        let hasCitations: Bool
        let citationsNote: String
        let bookmark: BookmarkForm
    }

    struct SearchForm: Sendable {
        let action: String
        let query: String
        let hint: String?
    }

    struct Split: Sendable {
        let shell: Shell
        let list: TalkList
        let talk: Talk?
        let search: SearchForm?
    }
}

/// "US States": `PlatesList.Model`.
enum PlatesPage {
    struct Cell: Sendable {
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
    }

    struct Section: Sendable {
        let letter: String
        let anchor: String
        let cells: [Cell]
    }

    struct Model: Sendable {
        let sections: [Section]
        let scoreText: String
        let score: Int
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
    }
}

// MARK: - Sample data

/// Realistic data for both pages, the same every run.
enum RenderSamples {
    static let csrfToken = "q1Zx8c2VbN4mK7pL0sT3wY6eR9uI5oA2dF8gH1jK4lM"

    /// A talk of the full-size synthetic database: beside its conference's list (67 talks in five
    /// sessions, as the synthetic database has), with five facts, three recordings, both neighbours
    /// and 13 citations. Titles carry `&`, `'` and quotes, so escaping differences show.
    static func talk(assets: AssetCatalog) -> BenchEnvelope<TalkPage.Split> {
        let conferenceID = 2
        let from = "?from=conference-\(conferenceID)"
        let sessions = ["Saturday Morning", "Saturday Afternoon", "Saturday Evening", "Sunday Morning", "Sunday Afternoon"]
        let talkCount = 67
        let selectedID = 140
        var sections: [TalkPage.Section] = []
        var id = 100
        for (index, session) in sessions.enumerated() {
            let count = talkCount / sessions.count + (index < talkCount % sessions.count ? 1 : 0)
            var cells: [TalkPage.Cell] = []
            for _ in 0..<count {
                id += 1
                cells.append(TalkPage.Cell(id: id, title: title(id), subtitle: speaker(id), detail: nil,
                                           href: "/conference/talks/\(id)\(from)", selected: id == selectedID))
            }
            sections.append(TalkPage.Section(header: "\(session) Session", anchor: "session-\(conferenceID * 10 + index + 1)", cells: cells))
        }
        let list = TalkPage.TalkList(title: "Apr 2025", href: "/conference/conferences/\(conferenceID)",
                                     parent: BackLink(label: "Conferences", href: "/conference"),
                                     sections: sections, emptyMessage: nil,
                                     footer: "April 2025 General Conference (synthetic)")
        let references: [(String, Int, Int, Int?)] = [
            ("Moroni 10:4–5", 83, 10, 4), ("John 3:16", 47, 3, 16), ("Doctrine and Covenants 88:118", 82, 88, 118),
            ("Mosiah 2:17", 66, 2, 17), ("Alma 32:21", 67, 32, 21), ("Ether 12:27", 81, 12, 27),
            ("Matthew 11:28–30", 40, 11, 28), ("2 Nephi 2:25", 60, 2, 25), ("Proverbs 3:5–6", 20, 3, 5),
            ("Doctrine and Covenants 121:45", 82, 121, 45), ("Helaman 5:12", 73, 5, 12), ("Isaiah 1:18", 23, 1, 18),
            ("Luke 15", 42, 15, nil),
        ]
        let citations = references.map { reference, book, chapter, verse in
            TalkPage.Citation(reference: reference, href: "/conference/citations/\(book)/\(chapter)/\(verse.map(String.init) ?? "all")",
                              pageLabel: verse == nil ? nil : "p. \(chapter % 90 + 12)")
        }
        let talkTitle = title(selectedID)
        let talk = TalkPage.Talk(
            id: selectedID, title: talkTitle, speaker: speaker(selectedID),
            facts: [
                TalkPage.Fact(label: "Speaker", value: speaker(selectedID), href: "/conference/speakers/417"),
                TalkPage.Fact(label: "Conference", value: "April 2025 General Conference (synthetic)", href: "/conference/conferences/\(conferenceID)"),
                TalkPage.Fact(label: "Session", value: "Sunday Morning Session", href: nil),
                TalkPage.Fact(label: "Date", value: "April 6, 2025", href: nil),
                TalkPage.Fact(label: "Pages", value: "84–88", href: nil),
            ],
            contentURL: "https://example.invalid/synthetic/\(selectedID)/content.html",
            frameTitle: "Text of “\(talkTitle)”",
            talkURL: "https://example.invalid/synthetic/\(selectedID)",
            media: [
                TalkPage.Media(label: "Audio", url: "https://media.example.invalid/\(selectedID).mp3", audio: true, video: false, isLink: false),
                TalkPage.Media(label: "Video", url: "https://media.example.invalid/\(selectedID)-720p.mp4", audio: false, video: true, isLink: false),
                TalkPage.Media(label: "ASL", url: "https://media.example.invalid/asl/\(selectedID)", audio: false, video: false, isLink: true),
            ],
            hasMedia: true,
            previous: TalkPage.Neighbour(title: title(selectedID - 1), href: "/conference/talks/\(selectedID - 1)\(from)"),
            next: TalkPage.Neighbour(title: title(selectedID + 1), href: "/conference/talks/\(selectedID + 1)\(from)"),
            citations: citations, hasCitations: true,
            citationsNote: "This talk cites no scripture in the index.",
            bookmark: TalkPage.BookmarkForm(action: "/conference/talks/\(selectedID)/bookmark", newValue: "1", label: "Bookmark",
                                            isBookmarked: false, returnTo: "/conference/talks/\(selectedID)\(from)")
        )
        let tabs = [("Conferences", "/conference", "conferences"), ("Citations", "/conference/citations", "citations"),
                    ("Speakers", "/conference/speakers", "speakers"), ("Search", "/conference/search", "search"),
                    ("Settings", "/conference/settings", "settings")]
        let shell = TalkPage.Shell(
            tabs: tabs.map { TalkPage.Tab(label: $0.0, href: $0.1, icon: $0.2, current: $0.2 == "conferences") },
            banner: TalkPage.Banner(text: "Sample data: only the April and October 2025 conferences are here.",
                                    actionLabel: "Download the full database (41.2 MB)", actionHref: "/conference/settings")
        )
        let page = TalkPage.Split(shell: shell, list: list, talk: talk, search: nil)
        let frame = PageFrame(title: talkTitle, back: BackLink(label: list.title, href: list.href),
                              screenClass: "screen--conference", app: "conference")
        return BenchEnvelope(frame: frame, page: page, chrome: BenchChrome(assets: assets, app: "conference", csrfToken: csrfToken))
    }

    /// "US States" in the middle of a game: 50 states in 19 letter sections, 12 spotted (each with its
    /// un-spot dialog), sounds on, recording locations on.
    static func plates(assets: AssetCatalog) -> BenchEnvelope<PlatesPage.Model> {
        let spottedCodes: Set<String> = ["AZ", "CA", "CO", "ID", "MT", "NV", "NM", "OR", "TX", "UT", "WA", "WY"]
        let sound: (String) -> String = { "/plates/sounds/\($0).wav" }
        var sections: [PlatesPage.Section] = []
        for (code, name, nickname) in states {
            let spotted = spottedCodes.contains(code)
            let confirmation = spotted ? Confirmation(
                id: "unspot-\(code)", title: "Reset \(name)?",
                message: "\(name) goes back to white and your score goes down by one.",
                action: "/plates/states/\(code)/unspot", confirmLabel: "Un-spot", cancelLabel: "Cancel",
                destructive: true, sound: sound("unspot"), cancelHref: "/plates"
            ) : nil
            let cell = PlatesPage.Cell(code: code, name: name, nickname: nickname, spotted: spotted, anchor: "state-\(code)",
                                       spotAction: "/plates/states/\(code)/spot", unspotHref: "/plates/states/\(code)/unspot",
                                       infoHref: "/plates/states/\(code)", infoLabel: "About \(name)", confirmation: confirmation)
            let letter = String(name.prefix(1))
            if let last = sections.last, last.letter == letter {
                sections[sections.count - 1] = PlatesPage.Section(letter: letter, anchor: last.anchor, cells: last.cells + [cell])
            } else {
                sections.append(PlatesPage.Section(letter: letter, anchor: "section-\(letter)", cells: [cell]))
            }
        }
        let score = spottedCodes.count
        let model = PlatesPage.Model(
            sections: sections, scoreText: "Score: \(score) / 50", score: score, total: 50, complete: false,
            resetGame: Confirmation(id: "reset-game", title: "Reset Game?", message: "Every state goes back to white and the score to 0.",
                                    action: "/plates/reset", confirmLabel: "Reset", cancelLabel: "Cancel", destructive: true,
                                    sound: sound("tune"), cancelHref: "/plates"),
            spotSound: sound("spot"), recordsLocation: true, soundsOn: true,
            mapHref: "/plates/map", mapDetail: "\(score) of 50", tripsHref: "/plates/trips", tripsDetail: "3 finished",
            settingsAction: "/plates/settings", returnTo: "/plates"
        )
        let frame = PageFrame(title: "US States", back: BackLink(label: "Pocket", href: "/"), app: "plates")
        return BenchEnvelope(frame: frame, page: model, chrome: BenchChrome(assets: assets, app: "plates", csrfToken: csrfToken))
    }

    private static let titleWords = ["Faith", "Covenant", "Light", "Hope", "Grace", "Joy", "Prayer", "Service", "Family",
                                     "Peace", "Repentance", "Charity", "Witness", "Temple", "Gratitude", "Healing"]

    /// A talk title; every seventh carries `&`, every fifth an apostrophe, every eleventh quotes.
    static func title(_ id: Int) -> String {
        let a = titleWords[id % titleWords.count], b = titleWords[(id * 7 + 3) % titleWords.count]
        if id % 7 == 0 { return "\(a) & \(b) in the Lord’s Way" }
        if id % 5 == 0 { return "The Savior's \(a) and Our \(b)" }
        if id % 11 == 0 { return "\"Come, Follow Me\": \(a) and \(b)" }
        return "\(a), \(b), and the Path Home"
    }

    private static let speakerNames = ["Elder Dieter F. Uchtdorf", "Sister Camille N. Johnson", "President Dallin H. Oaks",
                                       "Elder Gerrit W. Gong", "Sister Tamara W. Runia", "Elder Ulisses Soares",
                                       "Bishop Gérald Caussé", "Elder Patrick Kearon", "Sister J. Anette Dennis"]

    static func speaker(_ id: Int) -> String { speakerNames[id % speakerNames.count] }

    /// The 50 states of `Sources/Plates/Resources/states.json`, A–Z, with their postal codes.
    static let states: [(String, String, String)] = [
        ("AL", "Alabama", "Yellowhammer State"),
        ("AK", "Alaska", "The Last Frontier"),
        ("AZ", "Arizona", "The Grand Canyon State"),
        ("AR", "Arkansas", "The Natural State"),
        ("CA", "California", "The Golden State"),
        ("CO", "Colorado", "The Centennial State"),
        ("CT", "Connecticut", "The Constitution State"),
        ("DE", "Delaware", "The First State"),
        ("FL", "Florida", "The Sunshine State"),
        ("GA", "Georgia", "The Peach State"),
        ("HI", "Hawaii", "The Aloha State"),
        ("ID", "Idaho", "The Gem State"),
        ("IL", "Illinois", "Prairie State"),
        ("IN", "Indiana", "The Hoosier State"),
        ("IA", "Iowa", "The Hawkeye State"),
        ("KS", "Kansas", "The Sunflower State"),
        ("KY", "Kentucky", "The Bluegrass State"),
        ("LA", "Louisiana", "The Pelican State"),
        ("ME", "Maine", "The Pine Tree State"),
        ("MD", "Maryland", "The Old Line State"),
        ("MA", "Massachusetts", "The Bay State"),
        ("MI", "Michigan", "The Great Lakes State"),
        ("MN", "Minnesota", "The North Star State"),
        ("MS", "Mississippi", "The Magnolia State"),
        ("MO", "Missouri", "The Show Me State"),
        ("MT", "Montana", "The Treasure State"),
        ("NE", "Nebraska", "The Cornhusker State"),
        ("NV", "Nevada", "The Silver State"),
        ("NH", "New Hampshire", "The Granite State"),
        ("NJ", "New Jersey", "The Garden State"),
        ("NM", "New Mexico", "The Land of Enchantment"),
        ("NY", "New York", "The Empire State"),
        ("NC", "North Carolina", "The Tar Heel State"),
        ("ND", "North Dakota", "The Peace Garden State"),
        ("OH", "Ohio", "The Buckeye State"),
        ("OK", "Oklahoma", "The Sooner State"),
        ("OR", "Oregon", "The Beaver State"),
        ("PA", "Pennsylvania", "The Keystone State"),
        ("RI", "Rhode Island", "The Ocean State"),
        ("SC", "South Carolina", "The Palmetto State"),
        ("SD", "South Dakota", "Mount Rushmore State"),
        ("TN", "Tennessee", "The Volunteer State"),
        ("TX", "Texas", "The Lone Star State"),
        ("UT", "Utah", "The Beehive State"),
        ("VT", "Vermont", "The Green Mountain State"),
        ("VA", "Virginia", "The Old Dominion State"),
        ("WA", "Washington", "The Evergreen State"),
        ("WV", "West Virginia", "The Mountain State"),
        ("WI", "Wisconsin", "The Badger State"),
        ("WY", "Wyoming", "The Equality or Cowboy State"),
    ]
}
