/// The living style guide: sample data for every component of the design system.
enum Design {
    struct Model: Sendable {
        struct Letter: Sendable, Equatable {
            let letter: String
            let anchor: String
            let words: [String]
        }

        struct Option: Sendable, Equatable {
            let value: String
            let label: String
            let checked: Bool
        }

        struct Detail: Sendable, Equatable {
            let id: String
            let title: String
            let subtitle: String
            let selected: Bool
            let href: String
        }

        /// What the search field was given, echoed back (escaped) to show outside text is safe.
        let query: String
        let hasQuery: Bool
        /// What the demo form posted, echoed back the same way.
        let posted: String?
        let letters: [Letter]
        let segments: [Option]
        let wheelHours: [Option]
        let wheelUnits: [Option]
        let details: [Detail]
        let selectedDetail: Detail?
        let progressPercent: Int

        init(query: String = "", posted: String? = nil, selectedID: String? = nil) {
            self.query = query
            self.hasQuery = !query.isEmpty
            self.posted = posted
            letters = Self.alphabet.map { word in
                let letter = String(word.prefix(1))
                return Letter(letter: letter, anchor: "section-\(letter)", words: [word])
            }
            segments = ["Day", "Week", "Month"].enumerated().map { index, label in
                Option(value: label.lowercased(), label: label, checked: index == 1)
            }
            wheelHours = (0..<24).map { hour in
                Option(value: "\(hour)", label: hour < 10 ? "0\(hour)" : "\(hour)", checked: hour == 9)
            }
            wheelUnits = ["Bytes", "Kilobytes", "Megabytes", "Gigabytes", "Terabytes"].map {
                Option(value: $0.lowercased(), label: $0, checked: $0 == "Megabytes")
            }
            let all = Self.planets.map { planet in
                Detail(id: planet.0.lowercased(), title: planet.0, subtitle: planet.1, selected: planet.0.lowercased() == selectedID, href: "/design?planet=\(planet.0.lowercased())#split")
            }
            details = all
            selectedDetail = all.first { $0.selected }
            progressPercent = 42
        }

        /// The NATO alphabet: one word per letter, so the section index has every letter to jump to.
        static let alphabet = [
            "Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett",
            "Kilo", "Lima", "Mike", "November", "Oscar", "Papa", "Quebec", "Romeo", "Sierra", "Tango",
            "Uniform", "Victor", "Whiskey", "X-ray", "Yankee", "Zulu",
        ]

        static let planets: [(String, String)] = [
            ("Mercury", "Closest to the Sun"), ("Venus", "Hottest surface"), ("Earth", "Home"),
            ("Mars", "The red planet"), ("Jupiter", "Largest planet"), ("Saturn", "Brightest rings"),
        ]
    }
}
