extension PlatesSplit {
    /// "US States" and a state's page are one split view: the list, and the state beside it on an
    /// iPad (CSS shows the state alone on a phone), so both routes render this.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <div class="split split--pane plates-split\(if: model.state != nil, " split--detail")"\(unwrap: model.module, \.attributes)>
            <div class="split__primary" id="plates-list" data-keep-scroll>
            \(PlatesList.Fragment(model: model.list, pageContext: pageContext))\
            </div>
            <div class="split__detail plates-detail" id="plates-detail">
            \(unwrap: model.state, { PlateState.Fragment(model: $0, pageContext: pageContext).html }, else: """
            <p class="split__placeholder">Choose a state’s info button to see its plate here.</p>

            """)\
            </div>
            </div>
            """
        }

        /// The score and Reset Game belong to the list alone, not to a state's page.
        var toolbar: HTML {
            guard model.state == nil else { return .empty }
            return """
            <footer class="toolbar" id="plates-toolbar">
            <span class="toolbar__item" id="plates-score" role="status" data-score-text="\(model.list.score.pattern)">\(model.list.score.text)</span>
            <span class="toolbar__flex"></span>
            <a class="bar-button" href="\(PlatesRoute.confirmReset.href())" data-dialog="\(model.list.resetGame.id)" id="plates-reset">Reset Game</a>
            </footer>
            """
        }
    }
}
