import Testing
@testable import PocketWeb

@Suite("HTML building")
struct HTMLTests {
    @Test func interpolatedTextIsEscapedAndLiteralMarkupIsNot() {
        let name = "\"'<b>&amp;"
        let html: HTML = "<a title=\"\(name)\">\(name)</a>"
        #expect(html.text == "<a title=\"&quot;&#39;&lt;b&gt;&amp;amp;\">&quot;&#39;&lt;b&gt;&amp;amp;</a>")
    }

    @Test func textBeyondASCIIIsKeptAsItIs() {
        let html: HTML = "<p>\("Brigham Young — “Faith” & café 🙂\u{301}")</p>"
        #expect(html.text == "<p>Brigham Young — “Faith” &amp; café 🙂\u{301}</p>")
        #expect(HTML(escaping: "&\u{301}").text == "&amp;\u{301}")
    }

    @Test func onlyHTMLGoesInUnescaped() {
        let inner: HTML = "<b>\("<i>")</b>"
        let outer: HTML = "<p>\(inner)\(42)\(Substring("a<b"))</p>"
        #expect(outer.text == "<p><b>&lt;i&gt;</b>42a&lt;b</p>")
        #expect(HTML(trusted: "<svg/>").text == "<svg/>")
    }

    @Test func sequencesConditionsAndOptionalsSayWhatTheyRender() {
        let names = ["a", "<b>"]
        let missing: String? = nil
        let html: HTML = """
        <ul>\(each: names, { "<li>\($0)</li>" })</ul>\
        \(if: true, "yes")\(if: false, "no", else: "otherwise")\
        \(unwrap: missing, { "[\($0)]" }, else: "none")\(unwrap: Optional("x&"), { "[\($0)]" })\
        <a\(attribute: "href", missing)\(attribute: "data-x", "1\"2")\(flag: "disabled", true)\(flag: "hidden", false)>
        """
        #expect(html.text == "<ul><li>a</li><li>&lt;b&gt;</li></ul>yesotherwisenone[x&amp;]<a data-x=\"1&quot;2\" disabled>")
        #expect(HTML.join(names, separator: ", ") { "<i>\($0)</i>" }.text == "<i>a</i>, <i>&lt;b&gt;</i>")
        #expect(HTML.empty.isEmpty)
    }
}
