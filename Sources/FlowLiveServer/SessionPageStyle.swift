/// The session page's styles (`SessionPage`).
enum SessionPageStyle {
    static let css = """
        body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
        header { display: flex; gap: 1em; align-items: baseline; padding: .5em 1em; background: #263238; color: #fff; }
        header h1 { font-size: 1.1em; margin: 0; }
        #status { margin-left: auto; font-size: .9em; opacity: .8; }
        main { padding: 0 1em 2em; }
        h2 { font-size: 1em; margin: 1.2em 0 .4em; }
        h3 { font-size: 1em; margin: .8em 0 .3em; }
        .controls { display: flex; flex-wrap: wrap; gap: .4em 1em; align-items: center; margin: .4em 0 .8em; font-size: .9em; }
        .controls[hidden], [hidden] { display: none; }
        .controls input[type=number] { width: 5em; }
        .program { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .5em 1em; margin-bottom: 1em; }
        .identity { color: #555; font-size: .9em; }
        .program.disconnected { opacity: .75; border-style: dashed; }
        .badge { font-size: .8em; padding: 0 .4em; border-radius: 3px; background: #2e7d32; color: #fff; margin-left: .5em; }
        .disconnected .badge { background: #757575; }
        pre, .console, code { font: 12px/1.35 ui-monospace, Menlo, monospace; }
        .console { background: #111; color: #ddd; padding: .5em; max-height: 24em; overflow: auto; white-space: pre-wrap; border-radius: 4px; }
        .console .stderr { color: #ff8a80; }
        .console .log { color: #80d8ff; }
        .console .separator { color: #9e9e9e; border-top: 1px dashed #555; margin: .3em 0; }
        .console .dropped { color: #ffd54f; }
        .error { border-left: 4px solid #c62828; background: #fff5f5; padding: .3em .6em; margin: .4em 0; }
        .error.fixed { border-left-color: #2e7d32; background: #f1f8e9; }
        .error pre { white-space: pre-wrap; margin: .2em 0; }
        .location { user-select: all; background: #eee; padding: 0 .3em; border-radius: 3px; }
        .source { background: #f3f3f3; }
        .source .here { background: #ffcdd2; font-weight: bold; }
        table { border-collapse: collapse; font-size: .9em; }
        td, th { border-bottom: 1px solid #eee; padding: .15em .6em; text-align: left; }
        td.hash { font-family: ui-monospace, monospace; font-size: .85em; }
        .diag-error { color: #c62828; } .diag-warning { color: #ef6c00; }
        .empty { color: #777; }
        .module-text { background: #fff; border: 1px solid #ddd; padding: .5em; white-space: pre; overflow: auto; max-height: 30em; }
        button.link { border: none; background: none; color: #1565c0; cursor: pointer; padding: 0; font: inherit; text-decoration: underline; }
        """
}
