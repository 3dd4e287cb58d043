import FlowLiveProtocol

/// The session page's console: a line that evaluates Lua in a connected program (CodeFlow's
/// console) through the debug relay, with the page's token, and shows the result as text.
/// A link to the page may carry a first line to evaluate: `#evaluate=EXPRESSION`.
extension SessionPage {
    static let consoleSection = """
        <section id="console-section"><h2>Console</h2>\
        <form id="console-form"><input id="console-program" placeholder="program: identifier or pid (empty: the only one)" size="36"> \
        <input id="console-input" placeholder="Lua to evaluate in the program" autocomplete="off" size="48"> \
        <button type="submit">Evaluate</button></form>\
        <div id="console-output" class="console"></div></section>
        """

    static let consoleScript = """
        (() => {
          const token = new URLSearchParams(location.search).get("token") || "";
          const form = document.getElementById("console-form");
          const input = document.getElementById("console-input");
          const program = document.getElementById("console-program");
          const output = document.getElementById("console-output");
          function line(text, kind) {
            const element = document.createElement("div");
            element.className = kind;
            element.textContent = text;
            output.appendChild(element);
          }
          async function evaluate(expression) {
            line("> " + expression, "console-input");
            try {
              const query = program.value ? "?program=" + encodeURIComponent(program.value) : "";
              const answer = await fetch("\(LiveProtocol.debugEvaluatePath)" + query, {
                method: "POST", cache: "no-store",
                headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
                body: JSON.stringify({ expression: expression })
              });
              const body = await answer.json();
              if (answer.ok) line(body.result, "console-result"); else line("error: " + body.error, "console-error");
            } catch (error) {
              line("error: " + error, "console-error");
            }
          }
          form.addEventListener("submit", (event) => {
            event.preventDefault();
            const expression = input.value;
            if (expression) { input.value = ""; evaluate(expression); }
          });
          const first = new URLSearchParams(location.hash.slice(1)).get("evaluate");
          if (first) evaluate(first);
        })();
        """
}
