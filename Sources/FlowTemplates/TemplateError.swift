import FlowDiagnostics

/// Why a template could not be found, read, filled in or written out. Each message says what is
/// wrong, where, and how to fix it.
public enum TemplateError: Error, Equatable, CustomStringConvertible {
    /// No bundled template has this name, and it is not a folder either.
    case unknownTemplate(name: String, known: [String])
    /// The template's own files are broken: problems for its author, as FP6xx diagnostics.
    case invalidTemplate([Diagnostic])
    /// A value given for a variable (by flag, `--set` or prompt) breaks that variable's rules.
    case invalidValue(variable: String, value: String, reason: String)
    /// `--set KEY=VALUE` names a variable the template does not have.
    case unknownVariable(name: String, template: String, known: [String])
    /// A variable with no default got no value.
    case missingValue(variable: String)
    /// The destination exists and holds something; nothing was written.
    case destinationNotEmpty(path: String)
    /// The destination exists and is not a folder.
    case destinationNotAFolder(path: String)
    /// The file system refused a write; nothing was left behind.
    case writeFailed(path: String, reason: String)
    /// `flowpkg init` in a folder that already holds a flowpkg.json.
    case alreadyAProject(path: String)
    /// `flowpkg init` would need a folder where the folder holds a file (`Sources` is a file).
    case pathBlocked(path: String, by: String)
    /// `flowpkg init` would write through a folder that is a symbolic link: into its target,
    /// outside the folder (as validate's FP110 refuses such a folder).
    case linkedFolder(path: String, link: String, target: String)

    public var description: String {
        switch self {
        case .unknownTemplate(let name, let known):
            return "no template named '\(name)'; known templates: \(known.joined(separator: ", ")) "
                + "(or give the path of a template folder)"
        case .invalidTemplate(let diagnostics):
            let first = diagnostics.first.map { $0.message } ?? "it is broken"
            return diagnostics.count == 1
                ? "invalid template: \(first)"
                : "invalid template: \(first) (and \(diagnostics.count - 1) more problems)"
        case .invalidValue(let variable, let value, let reason):
            return "'\(value)' is not a valid \(Self.label(variable)): \(reason)"
        case .unknownVariable(let name, let template, let known):
            return "template '\(template)' has no variable '\(name)'; its variables: \(known.joined(separator: ", "))"
        case .missingValue(let variable):
            return "\(Self.label(variable)) needs a value: pass --set \(variable)=VALUE"
        case .destinationNotEmpty(let path):
            return
                "\(path) already exists and is not empty; choose a new folder or empty this one (nothing was written)"
        case .destinationNotAFolder(let path):
            return "\(path) already exists and is not a folder (nothing was written)"
        case .writeFailed(let path, let reason):
            return "could not write \(path): \(reason) (nothing was left behind)"
        case .alreadyAProject(let path):
            return "\(path) already holds a flowpkg.json: it is a project already (nothing was written); "
                + "check it with flowpkg validate"
        case .pathBlocked(let path, let blocker):
            return "cannot write \(path): \(blocker) is a file, not a folder (nothing was written); "
                + "move it away, or choose another folder"
        case .linkedFolder(let path, let link, let target):
            return "cannot write \(path): \(link) is a symbolic link to \(target), and init writes only inside "
                + "the folder (nothing was written); replace the link with a folder, or choose another folder"
        }
    }

    /// The user's words for a variable: the flag that sets it where there is one.
    static func label(_ variable: String) -> String {
        switch variable {
        case "name": return "product name (--name)"
        case "identifier": return "package identifier (--identifier)"
        case "startModule": return "start module name (--start-module)"
        default: return "value for '\(variable)' (--set \(variable)=...)"
        }
    }
}
