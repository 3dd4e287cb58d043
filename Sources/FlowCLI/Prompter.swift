import FlowTemplates
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

extension Flowpkg.New {
    /// Asks, on a terminal, for each value the command line did not give, showing the default
    /// an empty answer takes; an invalid answer is explained and asked again.
    enum Prompter {
        static func ask(template: Template, destination: URL, given: [String: String]) -> [String: String] {
            var values = given
            for variable in template.variables where values[variable.name] == nil {
                let fallback = TemplateValues.defaultValue(for: variable, destination: destination, values: values)
                while true {
                    var prompt = variable.description.replacing(#/ \(default:[^)]*\)/#, with: "")
                    if let fallback { prompt += " [\(fallback)]" }
                    StandardStream.error.write("\(prompt): ")
                    // End of input: take the defaults for everything that is left.
                    guard let line = readLine() else { return values }
                    let answer = line.trimmingSpaces()
                    if answer.isEmpty {
                        guard let fallback else {
                            Flowpkg.New.printError("a value is needed")
                            continue
                        }
                        values[variable.name] = fallback
                        break
                    }
                    if let problem = variable.problem(with: answer) {
                        Flowpkg.New.printError("'\(answer)' is not valid: \(problem)")
                        continue
                    }
                    values[variable.name] = answer
                    break
                }
            }
            return values
        }
    }
}
