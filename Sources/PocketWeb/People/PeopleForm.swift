/// What the people pages' forms (sign-in, setup, pairing, Settings) share.
enum PeopleForm {
    /// A one-line problem (`role="alert"`) under a form's header, when there is one.
    static func problemLine(_ problem: String?, id: String) -> HTML {
        "\(unwrap: problem, { "<p class=\"people-problem\" id=\"\(id)\" role=\"alert\">\($0)</p>" })"
    }
}
