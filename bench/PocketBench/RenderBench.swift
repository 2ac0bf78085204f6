import ArgumentParser
import Foundation
import Mustache
import Plot
import PocketWeb

/// `pocket-bench render`: issue #14's measurement. The Conference talk page and the Plates list,
/// inside the real layout, rendered three ways side by side in one run:
///   (a) before #14 ("today" when it was measured): Pocket's templates of then (bench/templates/mirror)
///       through `MustacheLibrary`, values found by `Mirror`, names climbing;
///   (b) swift-mustache with `MustacheParent` models and templates that name the current object;
///   (c) Plot's `Node`/`HTML` DSL;
///   (d) for reference, the floor: no library, escaped-by-default string interpolation (`SafeHTML`).
/// It checks that the three give the same HTML (up to line breaks), runs the small experiments on
/// escaping and missing values the decision needs, then times the renders.
struct RenderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Compare today's Mustache rendering, Mustache with MustacheParent, and Plot on the talk and Plates pages (issue #14)."
    )

    @Option(help: ArgumentHelp("The repository (default: found from this file's path).", valueName: "dir"))
    var root: String?

    @Option(help: ArgumentHelp("Timed renders per page and renderer (default 2000).", valueName: "n"))
    var renders = 2000

    @Option(help: ArgumentHelp("Untimed renders first, per page and renderer (default 200).", valueName: "n"))
    var warmup = 200

    @Option(help: ArgumentHelp("Also write every rendering here, as <page>-<renderer>.html.", valueName: "dir"))
    var html: String?

    @Option(help: ArgumentHelp("Time only these renderers, e.g. `b` or `bc` (for profiling; default all).", valueName: "letters"))
    var only = "abcd"

    func run() async throws {
        guard renders > 0, warmup >= 0 else { throw ValidationError("--renders must be positive and --warmup not negative") }
        let repository = root.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // (a) is what Pocket rendered before #14: its templates are kept in bench/templates/mirror.
        let explicitTemplates = repository.appendingPathComponent("bench/templates/explicit")
        let assets = try AssetCatalog(root: repository.appendingPathComponent("Sources/PocketWeb/Resources/Public"))
        let mirror = try await MustacheLibrary(directory: repository.appendingPathComponent("bench/templates/mirror").path)
        let explicit = try await MustacheLibrary(directory: explicitTemplates.path)

        let talk = RenderSamples.talk(assets: assets)
        let plates = RenderSamples.plates(assets: assets)
        let strictTalk = StrictTalkPage.make(talk)
        let strictPlates = StrictPlatesPage.make(plates)

        let pages: [(name: String, renderers: [(name: String, render: () throws -> String)])] = [
            ("talk page", [
                ("a. Mustache today (Mirror)", { try Self.render(mirror, talk, "conference/split") }),
                ("b. Mustache + MustacheParent", { try Self.render(explicit, strictTalk, "conference/split") }),
                ("c. Plot (Node DSL)", { PlotPages.talkPage(talk) }),
                ("d. reference: SafeHTML interpolation", { InterpolatedPages.talkPage(talk) }),
            ]),
            ("Plates list", [
                ("a. Mustache today (Mirror)", { try Self.render(mirror, plates, "plates/list") }),
                ("b. Mustache + MustacheParent", { try Self.render(explicit, strictPlates, "plates/list") }),
                ("c. Plot (Node DSL)", { PlotPages.platesPage(plates) }),
                ("d. reference: SafeHTML interpolation", { InterpolatedPages.platesPage(plates) }),
            ]),
        ]

        print("# Rendering the talk page and the Plates list three ways, plus a library-free reference (issue #14)")
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
        print("# \(ISO8601DateFormatter().string(from: Date())), \(buildKind), load average at the start \(load)")
        print("# talk page: split view with its conference's 67 talks in 5 sessions, a talk with 5 facts, 3 recordings,")
        print("#   both neighbours and 13 citations; Plates: 50 states in 19 sections, 12 spotted (12 un-spot dialogs)")
        print()

        // 1. Same HTML?
        print("## Same HTML? (line breaks removed, `/>` read as `>`, `x=\"\"` as `x`)")
        var outputs: [String: [String]] = [:]
        var failures: [String] = []
        for page in pages {
            let rendered = try page.renderers.map { try $0.render() }
            outputs[page.name] = rendered
            for index in 1..<rendered.count {
                let difference = Self.firstDifference(rendered[0], rendered[index])
                print("\(page.name): \(page.renderers[index].name) vs a: \(difference.map { "DIFFERENT \($0)" } ?? "same")")
                if difference != nil { failures.append("\(page.name) \(page.renderers[index].name) differs from today's") }
            }
            if let html {
                let folder = URL(fileURLWithPath: html)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (index, text) in rendered.enumerated() {
                    let file = "\(page.name.replacingOccurrences(of: " ", with: "-"))-\(["a", "b", "c", "d"][index]).html"
                    try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
                }
            }
        }
        let unknown = StrictLookup.drain()
        print("names the MustacheParent models were asked for and do not have: \(unknown.isEmpty ? "none" : unknown.joined(separator: ", "))")
        let climbing = try climbingTags(in: explicitTemplates)
        print("tags in bench/templates without a leading `.`: \(climbing.isEmpty ? "none" : climbing.joined(separator: ", "))")
        if !unknown.isEmpty { failures.append("the MustacheParent models lack names") }
        if !climbing.isEmpty { failures.append("bench/templates has tags that climb") }
        print()

        // 2. The correctness facts the decision needs.
        print("## Escaping and missing values")
        try Self.experiments(strictTalk: strictTalk)
        print()

        // 3. Timing: the renderers of a page take turns in rounds, so a slow moment of the machine hits
        // all of them. Wall time is what a request waits; the thread's CPU time leaves out the moments
        // the machine gave to other processes.
        let counter = AllocationCounter()
        print("## Render time, \(renders) renders each after \(warmup) warm-up renders (in rounds of \(max(1, renders / 4)), renderers taking turns)")
        print("wall: elapsed time; CPU: the rendering thread's CPU time (CLOCK_THREAD_CPUTIME_ID); vs today: CPU median of a / this")
        print("allocations: \(counter == nil ? "not counted (run through bench/render.sh to preload bench/malloc-count.c)" : "malloc/calloc/realloc/aligned_alloc calls per render")")
        var table = TextTable("page", "renderer", "wall median µs", "wall p99 µs", "CPU median µs", "CPU p99 µs", "allocs", "bytes", "vs today")
        for page in pages {
            let timed = page.renderers.indices.filter { only.contains(["a", "b", "c", "d"][$0]) }
            var wall = Array(repeating: [Double](), count: page.renderers.count)
            var cpu = Array(repeating: [Double](), count: page.renderers.count)
            var allocations = Array(repeating: UInt64(0), count: page.renderers.count)
            for index in timed {
                for _ in 0..<warmup { _ = try page.renderers[index].render() }
            }
            let round = max(1, renders / 4)
            var done = 0
            while done < renders {
                let count = min(round, renders - done)
                for index in timed {
                    let renderer = page.renderers[index]
                    let before = counter?.count() ?? 0
                    for _ in 0..<count {
                        let start = ContinuousClock.now, startCPU = threadCPUSeconds()
                        _ = try renderer.render()
                        cpu[index].append(threadCPUSeconds() - startCPU)
                        wall[index].append(Samples.milliseconds(ContinuousClock.now - start) / 1000)
                    }
                    allocations[index] += (counter?.count() ?? 0) - before
                }
                done += count
            }
            for index in timed {
                let renderer = page.renderers[index]
                table.add(page.name, renderer.name,
                          Self.microseconds(percentile(wall[index], 0.5)), Self.microseconds(percentile(wall[index], 0.99)),
                          Self.microseconds(percentile(cpu[index], 0.5)), Self.microseconds(percentile(cpu[index], 0.99)),
                          counter == nil ? "–" : String(allocations[index] / UInt64(renders)),
                          String(outputs[page.name]![index].utf8.count),
                          cpu[0].isEmpty ? "–" : String(format: "%.1f×", percentile(cpu[0], 0.5) / percentile(cpu[index], 0.5)))
            }
        }
        print(table.text)
        print()
        print("# \(machineDescription())")
        if !failures.isEmpty { throw BenchFailure(description: failures.joined(separator: "; ")) }
    }

    private static func render<T>(_ library: MustacheLibrary, _ object: T, _ template: String) throws -> String {
        guard let text = library.render(object, withTemplate: template) else { throw BenchFailure(description: "no template \(template)") }
        return text
    }

    static func microseconds(_ seconds: Double) -> String {
        String(format: "%.0f", seconds * 1_000_000)
    }

    // MARK: Comparing

    /// The HTML with the differences that do not change the document taken out: template line
    /// breaks, `<!DOCTYPE` case, `/>` endings of void elements, and `x=""` against a bare `x`.
    static func normalised(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "\n", with: "")
        text = text.replacingOccurrences(of: "<!DOCTYPE", with: "<!doctype")
        text = text.replacingOccurrences(of: "/>", with: ">")
        text = text.replacingOccurrences(of: "=\"\"", with: "")
        return text
    }

    /// Where two renderings first differ, with some context; nil when they are the same.
    static func firstDifference(_ first: String, _ second: String) -> String? {
        let a = Array(normalised(first).utf8), b = Array(normalised(second).utf8)
        guard a != b else { return nil }
        let index = zip(a, b).prefix { $0 == $1 }.count
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, index - 60)..<min(bytes.count, index + 60)], as: UTF8.self)
        }
        return "at byte \(index) of \(a.count)/\(b.count):\n  a: …\(around(a))…\n  x: …\(around(b))…"
    }

    // MARK: Experiments

    static func experiments(strictTalk: StrictEnvelope<StrictTalkPage.Split>) throws {
        // (1) Plot's attribute values.
        let hostile = "x\" onmouseover=\"alert(1)"
        print("(1) Plot attribute: .a(.href(\(quoted(hostile))), .text(\"t\")) renders "
              + Node<HTML.BodyContext>.a(.href(hostile), .text("t")).render())
        print("    Plot attribute: .a(.attribute(named: \"title\", value: \"<b> & 'x'\")) renders "
              + Node<HTML.BodyContext>.a(.attribute(named: "title", value: "<b> & 'x'")).render())
        let talkTitle = "\"Come, Follow Me\": Faith & Hope"
        print("    Plot head: .title(\(quoted(talkTitle))) renders " + Node<HTML.HeadContext>.title(talkTitle).render())
        // (2) Plot's text.
        let entities = "AT&amp;T, &#60;b&#62;, a < b & c"
        let plotText = Node<HTML.BodyContext>.p(.text(entities)).render()
        print("(2) Plot text: .p(.text(\(quoted(entities)))) renders \(plotText), which a browser shows as \(quoted(displayed(plotText)))")
        // (3) Mustache's {{x}}.
        let mustache = try MustacheTemplate(string: "<a title=\"{{x}}\">{{x}}</a> {{y}}")
        print("(3) Mustache: <a title=\"{{x}}\">{{x}}</a> {{y}} with x = \(quoted("\"'<>&")), y = \(quoted("AT&amp;T")) renders "
              + mustache.render(["x": "\"'<>&", "y": "AT&amp;T"]))
        // (4) Missing names.
        let climbing = try MustacheTemplate(string: "{{#cells}}[{{title}}]{{/cells}} {{#cells}}[{{.title}}]{{/cells}}")
        let model: [String: Any] = ["title": "the page's title", "cells": [["name": "a cell without a title"]]]
        print("(4) Mustache: {{#cells}}[{{title}}]{{/cells}} {{#cells}}[{{.title}}]{{/cells}}, cells without `title`, renders "
              + climbing.render(model))
        let typo = try MustacheTemplate(string: "[{{.titel}}] [{{#.previous}}{{.href}}{{.name}}{{/.previous}}] [{{#.talkURL}}{{.scheme}}{{/.talkURL}}]")
        _ = StrictLookup.drain()
        let typoText = typo.render(strictTalk.page.talk!)
        print("    MustacheParent talk, [{{.titel}}] [{{#.previous}}{{.href}}{{.name}}{{/.previous}}] [{{#.talkURL}}{{.scheme}}{{/.talkURL}}] renders "
              + "\(typoText); recorded as unknown: \(StrictLookup.drain().joined(separator: ", "))"
              + " (`.scheme`, asked of a String, goes to Mirror: not recorded)")
    }

    static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    /// Text content as a browser shows it: tags dropped, character references decoded once.
    static func displayed(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#60;", "<"), ("&#62;", ">")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// The nearest-rank percentile of `values` (`fraction` 0.5 for the median).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(max(Int((fraction * Double(sorted.count)).rounded(.up)), 1), sorted.count) - 1]
}

/// The calling thread's CPU time in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The heap allocation counter of bench/malloc-count.c, when it is preloaded.
struct AllocationCounter {
    private let read: @convention(c) () -> UInt64

    init?() {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "pocket_malloc_count") else { return nil }
        read = unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
    }

    func count() -> UInt64 { read() }
}
