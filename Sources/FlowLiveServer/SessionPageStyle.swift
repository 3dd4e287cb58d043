/// The session page's styles (`SessionPage`).
enum SessionPageStyle {
    static let css = PageFiles.text(PackageResources.session_css)
}
