extension TalkList {
    /// The list's markup, the content of `#conference-results`: its sections (the talk shown
    /// beside it marked as selected), or the message saying why there are none, and its footer.
    var html: HTML {
        """
        \(each: sections, Self.section)\
        \(unwrap: emptyMessage, { "<p class=\"conference-empty\" id=\"conference-empty\" role=\"status\">\($0)</p>" })
        \(unwrap: footer, { "<p class=\"list-section__footer conference-list-footer\">\($0)</p>" })
        """
    }

    private static func section(_ section: Section) -> HTML {
        """
        <section class="list-section list-section--compact" id="\(section.anchor)"\
        \(if: section.header != nil, " aria-labelledby=\"\(section.anchor)-h\"")>
        \(unwrap: section.header, { "<h2 class=\"list-section__header\" id=\"\(section.anchor)-h\">\($0)</h2>" })
        <ul class="list" role="list">
        \(each: section.cells, cell)</ul>
        </section>

        """
    }

    private static func cell(_ cell: Cell) -> HTML {
        """
        <li class="cell\(if: cell.selected, " cell--selected")" data-talk="\(cell.id)">\
        <a class="cell__main" href="\(cell.href)"\(if: cell.selected, " aria-current=\"page\"")>\
        <span class="cell__text"><span class="cell__title">\(cell.title)</span>\
        \(unwrap: cell.subtitle, { "<span class=\"cell__subtitle\">\($0)</span>" })</span>\
        \(unwrap: cell.detail, { "<span class=\"cell__detail\">\($0)</span>" })<span class="cell__chevron" aria-hidden="true"></span></a></li>

        """
    }
}
