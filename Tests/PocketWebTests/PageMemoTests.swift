import NIOCore
import Synchronization
import Testing
@testable import PocketWeb

/// `PageMemo`: a kept page is only ever answered for the same frame, pageContext and model.
@Suite("Page memo")
struct PageMemoTests {
    private static func pageContext(token: String) -> PageContext {
        PageContext(csrfToken: token, stylesheet: "/s.css", script: "/p.js", favicon: "/f.svg", faviconPNG: "/f.png",
               appleTouchIcon: "/a.png", appStylesheet: nil, version: "1", importMap: "{}")
    }

    @Test func rendersOncePerFrameChromeAndModel() {
        let memo = PageMemo<[String]>()
        let renders = Mutex(0)
        func page(_ model: [String], token: String = "a", title: String = "T") -> String {
            let key = PageMemo.Key(frame: PageFrame(title: title), pageContext: Self.pageContext(token: token), model: model)
            let buffer = memo.page(key) {
                renders.withLock { $0 += 1 }
                return "\(title)|\(token)|" + model.joined(separator: ",")
            }
            return String(buffer: buffer)
        }
        #expect(page(["x", "y"]) == "T|a|x,y")
        #expect(page(["x", "y"]) == "T|a|x,y")
        #expect(renders.withLock { $0 } == 1)
        // Anything different is rendered anew: another visitor's token, another model, another title.
        #expect(page(["x", "y"], token: "b") == "T|b|x,y")
        #expect(page(["x", "z"]) == "T|a|x,z")
        #expect(page(["x", "y"], title: "U") == "U|a|x,y")
        #expect(renders.withLock { $0 } == 4)
        #expect(memo.count == 4)
    }

    @Test func keepsAtMostItsCapacity() {
        let memo = PageMemo<Int>()
        for model in 0..<(PageMemo<Int>.capacity * 3) {
            _ = memo.page(PageMemo.Key(frame: PageFrame(title: "T"), pageContext: Self.pageContext(token: "a"), model: model)) { "\(model)" }
            #expect(memo.count <= PageMemo<Int>.capacity)
        }
    }
}
