(function () {
  "use strict";
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  /* Class table: click a heading to sort (numbers numerically), type to filter. */
  each(document.querySelectorAll("table.sortable"), function (table) {
    var body = table.tBodies[0];
    each(table.querySelectorAll("th[data-sort]"), function (th) {
      th.addEventListener("click", function () {
        var index = th.cellIndex;
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        each(table.querySelectorAll("th[aria-sort]"), function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var numeric = th.dataset.sort === "num";
        var key = function (row) {
          var cell = row.cells[index];
          return numeric ? parseFloat(cell.dataset.value) : cell.textContent.trim().toLowerCase();
        };
        var name = function (row) { return row.cells[0].textContent.trim().toLowerCase(); };
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var p = key(a), q = key(b);
          var order = (p < q ? -1 : p > q ? 1 : 0) * (ascending ? 1 : -1);
          return order || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });

  var filter = document.getElementById("filter");
  if (filter) {
    var shown = document.getElementById("shown");
    var apply = function () {
      var needle = filter.value.trim().toLowerCase();
      var rows = document.querySelectorAll("#class tbody tr");
      var visible = 0;
      each(rows, function (row) {
        var text = "";
        each(row.querySelectorAll(".key"), function (cell) { text += " " + cell.textContent; });
        row.hidden = text.toLowerCase().indexOf(needle) < 0;
        if (!row.hidden) { visible += 1; }
      });
      if (shown) { shown.textContent = visible + " of " + rows.length + " shown"; }
    };
    filter.addEventListener("input", apply);
    apply();
  }

  /* Side-by-side diffs: unchanged runs are folded; a button shows them. */
  each(document.querySelectorAll("button.unfold"), function (button) {
    button.addEventListener("click", function () {
      var fold = button.closest("tbody");
      var hidden = fold.nextElementSibling;
      if (hidden) { hidden.hidden = false; }
      fold.parentNode.removeChild(fold);
    });
  });

  /* A link to something inside a closed <details> opens it. */
  var reveal = function () {
    if (!location.hash) { return; }
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
    if (target) { target.scrollIntoView({block: "center"}); }
  };
  window.addEventListener("hashchange", reveal);
  reveal();

  /* Printing: open every section marked for print, close them again afterwards. */
  var opened = [];
  window.addEventListener("beforeprint", function () {
    each(document.querySelectorAll("details[data-print-open]:not([open])"), function (d) {
      d.open = true;
      opened.push(d);
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
})();
