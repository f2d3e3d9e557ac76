/// A self-contained HTML5 page: a title, the body, and the project's inline style sheet and
/// table-sorting script; it loads nothing (no scripts, fonts, images or styles from elsewhere).
///
/// The body is readable without JavaScript: tables are in their given order. With it, each
/// table of class `sortable` sorts by a clicked header (``sortScript``).
public struct HTMLDocument: Sendable, Equatable {
    /// The page title (`<title>` and the first heading).
    public var title: String
    /// The content after the heading.
    public var body: [HTMLNode]

    public init(title: String, body: [HTMLNode]) {
        self.title = title
        self.body = body
    }

    /// The page as UTF-8 text, ending in a line break.
    public var html: String {
        let head: [HTMLNode] = [
            .element("meta", [.init("charset", "utf-8")], []),
            .element("meta", [.init("name", "viewport"), .init("content", "width=device-width, initial-scale=1")], []),
            // Nothing may load from anywhere: the policy also tells a browser to refuse it.
            .element("meta", [.init("http-equiv", "Content-Security-Policy"),
                              .init("content", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:")], []),
            .element("title", text: title),
        ]
        let body = HTMLNode.element("body", [], [.element("h1", text: title)] + body)
        // The style sheet and script are our own constants, free of `</`: rendered as they are.
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n" + head.map(\.html).joined(separator: "\n")
            + "\n<style>\n\(Self.styleSheet)</style>\n</head>\n" + body.html
            + "\n<script>\n\(Self.sortScript)</script>\n</html>\n"
    }

    /// System fonts only; tables with right-aligned numbers; charts scale down to the page width.
    static let styleSheet = """
        body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif;
          margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; line-height: 1.4; }
        table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
        th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
        th { background: #f3f3f3; }
        td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
        table.sortable.ready th { cursor: pointer; user-select: none; }
        table.sortable.ready th::after { content: " \\2195"; color: #999; }
        th[aria-sort="ascending"]::after { content: " \\2191" !important; color: #222 !important; }
        th[aria-sort="descending"]::after { content: " \\2193" !important; color: #222 !important; }
        figure { margin: 1em 0; }
        figure svg { max-width: 100%; height: auto; }
        nav { margin-bottom: 1em; }

        """

    /// Sorts a `table.sortable`'s body rows by the clicked header: numbers numerically (a
    /// `mean ± std` cell by its mean), other text alphabetically, empty cells last; a second
    /// click reverses the order. Column type: numeric when every non-empty cell starts with a number.
    static let sortScript = """
        "use strict";
        (function () {
          function key(cell) {
            var text = cell.textContent.trim();
            var match = /^[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?/.exec(text);
            return { text: text, number: match ? parseFloat(match[0]) : NaN };
          }
          document.querySelectorAll("table.sortable").forEach(function (table) {
            var body = table.tBodies[0];
            if (!body) { return; }
            table.classList.add("ready");
            var headers = table.tHead ? table.tHead.rows[0].cells : [];
            Array.prototype.forEach.call(headers, function (header, column) {
              header.tabIndex = 0;
              function sort() {
                var descending = header.getAttribute("aria-sort") === "ascending";
                var rows = Array.prototype.slice.call(body.rows);
                var keys = rows.map(function (row) { return key(row.cells[column]); });
                var numeric = keys.every(function (k) { return k.text === "" || !isNaN(k.number); });
                var order = rows.map(function (row, index) { return index; });
                order.sort(function (a, b) {
                  var x = keys[a], y = keys[b];
                  if (x.text === "" || y.text === "") { return (x.text === "") - (y.text === "") || a - b; }
                  var c = numeric ? x.number - y.number : x.text.localeCompare(y.text);
                  return (descending ? -c : c) || a - b;
                });
                order.forEach(function (index) { body.appendChild(rows[index]); });
                Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
                header.setAttribute("aria-sort", descending ? "descending" : "ascending");
              }
              header.addEventListener("click", sort);
              header.addEventListener("keydown", function (event) {
                if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
              });
            });
          });
        })();

        """
}
