import Foundation
import Remote

/// "Favourites": the four presets as label fields and channel steppers, saved together or not at all.
enum RemoteFavourites {
    /// One preset as the form shows it (stored values, or what was typed when the save was refused).
    struct Row: Sendable {
        let index: Int
        let header: String
        let labelName: String
        let labelID: String
        let label: String
        let channelName: String
        let channelID: String
        let channel: String
        let labelInvalid: Bool
        let channelInvalid: Bool
    }

    /// The alert shown when a save is refused.
    struct Alert: Sendable {
        let title: String
        let message: String
    }

    /// What the form sent for one preset.
    struct Edit: Sendable, Equatable {
        let label: String
        let channel: String
    }

    /// The first problem in a submitted form, pointing at its row.
    struct Problem: Sendable, Equatable {
        let index: Int
        let error: RemoteError
    }

    static let formID = "favourites-form"

    /// The form: the stored presets, or a refused save's typed values with its alert.
    struct Model: Sendable {
        let rows: [Row]
        let isOn: Bool
        let alert: Alert?
        let formID = RemoteFavourites.formID
        let saveAction = RemoteRoute.favourites.href()
        let cancelHref = RemoteRoute.tv.href()
        let channelMin = Channel.range.lowerBound
        let channelMax = Channel.range.upperBound
        let labelHint = "1 to \(Favourite.maximumLabelLength) letters, A to Z"

        /// The stored presets.
        init(television: Television) {
            isOn = television.isOn
            alert = nil
            rows = television.favourites.enumerated().map { index, favourite in
                RemoteFavourites.row(index, Edit(label: favourite.label, channel: String(favourite.channel.number)), problem: nil)
            }
        }

        /// A refused save: the fields keep what was typed, and the alert says what is wrong.
        init(edits: [Edit], isOn: Bool, problem: Problem) {
            self.isOn = isOn
            rows = edits.enumerated().map { index, edit in RemoteFavourites.row(index, edit, problem: problem) }
            let title: String
            switch problem.error {
            case .invalidLabel: title = "Invalid Label"
            case .channelOutOfRange: title = "Invalid Channel"
            default: title = "Can’t Save"
            }
            alert = Alert(title: title, message: "Favourite \(problem.index + 1): \(problem.error.description).")
        }
    }

    /// Reads the four presets from a form; a missing field reads as empty, which validation then refuses.
    static func edits(from fields: FormFields) -> [Edit] {
        (0..<Television.favouriteCount).map { index in
            Edit(label: fields["label\(index)"] ?? "", channel: fields["channel\(index)"] ?? "")
        }
    }

    /// The first preset that cannot be saved, checked with the domain's own rules before the store is asked.
    static func firstProblem(in edits: [Edit]) -> Problem? {
        for (index, edit) in edits.enumerated() {
            do throws(RemoteError) {
                let number = Int(edit.channel.trimmingCharacters(in: .whitespaces)) ?? Int.min
                _ = try Favourite(label: edit.label, channel: number)
            } catch {
                return Problem(index: index, error: error)
            }
        }
        return nil
    }

    /// The store commands for a valid form.
    static func commands(for edits: [Edit]) -> [TVCommand] {
        edits.enumerated().map { index, edit in
            .editFavourite(index: index, label: edit.label, channel: Int(edit.channel.trimmingCharacters(in: .whitespaces)) ?? Int.min)
        }
    }

    private static func row(_ index: Int, _ edit: Edit, problem: Problem?) -> Row {
        let isProblem = problem?.index == index
        var labelInvalid = false
        var channelInvalid = false
        if isProblem, let problem {
            if case .invalidLabel = problem.error { labelInvalid = true } else { channelInvalid = true }
        }
        return Row(
            index: index,
            header: "Favourite \(index + 1)",
            labelName: "label\(index)",
            labelID: "favourite-label-\(index)",
            label: edit.label,
            channelName: "channel\(index)",
            channelID: "favourite-channel-\(index)",
            channel: edit.channel,
            labelInvalid: labelInvalid,
            channelInvalid: channelInvalid
        )
    }
}
