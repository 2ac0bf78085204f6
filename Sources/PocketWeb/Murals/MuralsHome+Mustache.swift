import Mustache

// The list renders a cell per mural, and swift-mustache's default lookup reflects every field of
// a value for each tag it resolves (about 25 tags per cell). Answering by name keeps a page of
// 1,000 murals fast; the names are the stored properties the template uses, nothing more.

extension MuralsHome.Model.Cell: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": return id
        case "title": return title
        case "artist": return artist
        case "distanceText": return distanceText
        case "metres": return metres
        case "latitude": return latitude
        case "longitude": return longitude
        case "href": return href
        case "thumbnailURL": return thumbnailURL
        case "favourite": return favourite
        case "visited": return visited
        case "label": return label
        default: return nil
        }
    }
}

extension MuralsFavouriteForm: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "action": return action
        case "isFavourite": return isFavourite
        case "newValue": return newValue
        case "label": return label
        case "returnTo": return returnTo
        default: return nil
        }
    }
}
