import Testing
@testable import Conference

@Suite("HTML entities")
struct HTMLEntitiesTests {
    @Test(arguments: [
        ("Benjam&iacute;n De Hoyos", "Benjamín De Hoyos"),
        ("Women&rsquo;s Session", "Women’s Session"),
        ("D&amp;C Intro.", "D&C Intro."),
        ("Joseph Smith&mdash;History", "Joseph Smith—History"),
        ("&ldquo;Why&rdquo;", "“Why”"),
        ("Mu&ntilde;oz, Causs&eacute;, &Aacute;lvarez, &oacute;", "Muñoz, Caussé, Álvarez, ó"),
        ("&#8220;decimal&#8221; &#x2014; &#X2014;", "“decimal” — —"),
        ("&#146;legacy&#150;", "’legacy–"),
        ("&#0; &#xD800; &#1114112;", "\u{FFFD} \u{FFFD} \u{FFFD}"),
        ("&amp;mdash;", "&mdash;"),
        ("AT&T & friends; &unknown; &amp", "AT&T & friends; &unknown; &amp"),
        ("&#; &#x; &#12a; &;", "&#; &#x; &#12a; &;"),
        ("&nbsp;&hellip;&copy;&yuml;&iexcl;&Omega;&sigmaf;", "\u{00A0}…©ÿ¡Ως"),
        ("no entities at all", "no entities at all"),
        ("", ""),
    ])
    func decodes(_ input: String, _ expected: String) {
        #expect(HTMLEntities.decode(input) == expected)
    }

    @Test func optionalsPassThrough() {
        #expect(HTMLEntities.decode(nil as String?) == nil)
        #expect(HTMLEntities.decode("a&lt;b" as String?) == "a<b")
    }

    @Test func everyEntityInTheBundledFactsIsKnown() throws {
        let facts = try SampleFacts.bundled()
        let texts = facts.speakers.flatMap { [$0.givenNames, $0.lastNames] }
            + facts.volumes.flatMap { volume in [volume.citeAbbr, volume.fullName] + volume.books.flatMap { [$0.citeAbbr, $0.fullName, $0.webTitle ?? ""] } }
        for text in texts {
            #expect(HTMLEntities.decode(text).firstMatch(of: #/&#?[A-Za-z0-9]+;/#) == nil, "\(text)")
        }
    }
}
