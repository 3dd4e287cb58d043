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
      const answer = await fetch("{{LiveProtocol.debugEvaluatePath}}" + query, {
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
  // A link may carry a line to evaluate (#evaluate=EXPR): it runs code in the program, so it
  // is only put in the input, with a note, and runs when the developer presses Evaluate.
  const first = new URLSearchParams(location.hash.slice(1)).get("evaluate");
  if (first) {
    input.value = first;
    line("The page's address asks to evaluate this line in the program: press Evaluate to run it.", "console-ask");
    input.focus();
  }
  // "Clear console" clears this console's lines too.
  document.getElementById("clear").addEventListener("click", () => output.replaceChildren());
})();
