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

  /* Filter: every word typed must appear in the row's name, reason, rules, status or hidden
     tokens (a common failure's fail:NN, failed:<test>); the summary figures follow it. */
  var filter = document.getElementById("filter");
  var table = document.getElementById("class");
  var visibleRows = function () {
    return Array.prototype.filter.call(table.tBodies[0].rows, function (row) { return !row.hidden; });
  };
  var setText = function (selector, text) {
    var node = document.querySelector(selector);
    if (node) { node.textContent = text; }
  };
  var fmt = function (x) { return String(Math.round(x * 100) / 100); };
  var figures = function (rows) {
    var graded = rows.filter(function (row) { return row.classList.contains("graded"); });
    var totals = graded.map(function (row) { return parseFloat(row.dataset.total); });
    totals.sort(function (a, b) { return a - b; });
    var n = totals.length;
    var sum = totals.reduce(function (a, b) { return a + b; }, 0);
    var middle = n % 2 ? totals[(n - 1) / 2] : (totals[n / 2 - 1] + totals[n / 2]) / 2;
    setText('[data-stat="count"]', String(n));
    setText('[data-stat="mean"]', n ? (sum / n).toFixed(1) : "\u2013");
    setText('[data-stat="median"]', n ? fmt(middle) : "\u2013");
    setText('[data-stat="range"]', n ? fmt(totals[0]) + " \u2013 " + fmt(totals[n - 1]) : "\u2013");
    setText('[data-stat="full"]', String(graded.filter(function (row) {
      return parseFloat(row.dataset.total) >= parseFloat(row.dataset.max);
    }).length));
    setText('[data-stat="zero"]', String(totals.filter(function (t) { return t === 0; }).length));
    each(document.querySelectorAll("[data-mean]"), function (node) {
      var values = graded.map(function (row) {
        var cell = row.querySelector('td[data-criterion="' + node.dataset.mean + '"]');
        return cell ? parseFloat(cell.dataset.value) : 0;
      });
      node.textContent = values.length ? (values.reduce(function (a, b) { return a + b; }, 0) / values.length).toFixed(1) : "\u2013";
    });
    each(document.querySelectorAll("figure.hist"), function (figure) { histogram(figure, graded); });
  };
  /* A criterion's histogram over these rows: the bands of stats.band_of, bars as stats.Histogram
     draws them (36 units for the tallest). */
  var band = function (earned, points) {
    if (earned <= 0 || points <= 0) { return 0; }
    if (earned >= points) { return 5; }
    return 1 + Math.min(3, Math.floor(4 * earned / points));
  };
  var histogram = function (figure, rows) {
    var points = parseFloat(figure.dataset.points);
    var counts = [0, 0, 0, 0, 0, 0];
    rows.forEach(function (row) {
      var cell = row.querySelector('td[data-criterion="' + figure.dataset.criterion + '"]');
      if (cell) { counts[band(parseFloat(cell.dataset.value), points)] += 1; }
    });
    var top = Math.max.apply(null, counts) || 1;
    var labels = [];
    each(figure.querySelectorAll("rect"), function (rect, i) {
      var h = Math.round(360 * counts[i] / top) / 10;
      rect.setAttribute("height", String(Math.max(h, 0.5)));
      rect.setAttribute("y", String(Math.round(10 * (38 - h)) / 10));
      rect.dataset.count = String(counts[i]);
      var title = rect.querySelector("title");
      var label = title.textContent.split(":")[0];
      title.textContent = label + ": " + counts[i] + " student(s)";
      labels.push(label + " " + counts[i]);
    });
    var svg = figure.querySelector("svg");
    svg.setAttribute("aria-label", svg.dataset.title + ": " + labels.join(", "));
  };

  /* The class table: criteria collapse into one strip, or a column each (then the table
     scrolls in its box, with name, total and why pinned at the left). */
  var pin = function () {
    var left = 0;
    each(table.tHead.rows[0].cells, function (th) {
      if (!th.classList.contains("pin")) { return; }
      var at = left;
      each(table.querySelectorAll("tr > :nth-child(" + (th.cellIndex + 1) + ")"), function (cell) {
        cell.style.left = at + "px";
      });
      left += th.offsetWidth;
    });
  };
  var expand = document.getElementById("expand-criteria");
  if (expand && table) {
    expand.addEventListener("change", function () {
      table.classList.toggle("collapsed", !expand.checked);
      document.getElementById("class-wrap").classList.toggle("wide", expand.checked);
      pin();
    });
  }
  if (filter && table) {
    var shown = document.getElementById("shown");
    var apply = function () {
      var words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      var rows = table.tBodies[0].rows;
      each(rows, function (row) {
        var text = " " + (row.dataset.keys || "");
        each(row.querySelectorAll(".key"), function (cell) { text += " " + cell.textContent; });
        text = text.toLowerCase();
        row.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
      });
      var visible = visibleRows().length;
      if (shown) { shown.textContent = visible + " of " + rows.length + " shown"; }
      setText(".of-shown", visible < rows.length ? "(of the " + visible + " shown)" : "");
      figures(visibleRows());
    };
    filter.addEventListener("input", apply);
    each(document.querySelectorAll("button.filter-by"), function (button) {
      button.addEventListener("click", function () {
        filter.value = button.dataset.filter;
        apply();
        table.scrollIntoView({block: "start"});
      });
    });
    apply();

    /* From a student page: #next=<slug> / #prev=<slug> open the neighbour in this table. */
    var hop = /^#(next|prev)=(.+)$/.exec(location.hash);
    if (hop) {
      var rows = visibleRows();
      var slug = decodeURIComponent(hop[2]);
      var at = rows.findIndex(function (row) { return row.dataset.slug === slug; });
      var to = rows[at + (hop[1] === "next" ? 1 : -1)];
      var link = to && to.querySelector("td.student a");
      if (at >= 0 && link) { location.replace(link.href); } else if (at >= 0) { rows[at].focus(); }
    }

    /* Keys: / filter, j/k or arrows move between students, Enter or o opens one. */
    var current = null;
    var move = function (step) {
      var rows = visibleRows();
      if (!rows.length) { return; }
      var at = rows.indexOf(current);
      var next = rows[at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, at + step))];
      if (current) { current.classList.remove("current"); }
      current = next;
      current.classList.add("current");
      current.focus();
    };
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) { return; }
      if (event.target === filter) {
        if (event.key === "ArrowDown" || event.key === "Enter") { event.preventDefault(); filter.blur(); move(1); }
        return;
      }
      if (event.key === "/") { event.preventDefault(); filter.focus(); }
      else if (event.key === "j" || event.key === "ArrowDown") { event.preventDefault(); move(1); }
      else if (event.key === "k" || event.key === "ArrowUp") { event.preventDefault(); move(-1); }
      else if ((event.key === "Enter" || event.key === "o") && current && !current.hidden) {
        var open = current.querySelector("td.student a");
        if (open) { open.click(); }
      }
    });
  }

  /* Student pages: j / k / u follow the links marked with data-key. */
  if (!table) {
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) { return; }
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA") { return; }
      var link = document.querySelector('a[data-key="' + event.key + '"]');
      if (link) { link.click(); }
    });
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
