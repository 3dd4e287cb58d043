import Foundation

/// `Tests/FlowCLITests` in the checkout, wherever below it a test file sits: its `Golden/`,
/// `Scripts/` and `DapClient/`, and the checkout two folders up.
enum CLITestFolder {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
}
