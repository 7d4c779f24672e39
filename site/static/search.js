// The search page: exact numbers and names first (static/lookup.js), then Pagefind's full-text
// results over every clause history, all filtered by the years a clause was in force.
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var input = document.getElementById("q");
  var from = document.getElementById("year-from");
  var to = document.getElementById("year-to");
  var list = document.getElementById("results");
  var status = document.getElementById("search-status");
  var SHOWN = 30; // results listed: enough to scroll, few enough to fetch quickly
  var WAIT = 250; // ms of quiet typing before a search runs
  var pagefind = null;
  var pending = 0;
  var timer = null;

  function engine() {
    if (!pagefind) {
      pagefind = import("/pagefind/pagefind.js").then(function (p) {
        // A record is a clause's whole history: its length counts its wordings, not a
        // dilution of the words sought, so Pagefind's length penalty is turned off (it put
        // long-lived, often revised rules such as 708.2 below marginal ones).
        return p.options({ excerptLength: 24, ranking: { pageLength: 0 } }).then(function () { return p; });
      }).catch(function () { return null; });
    }
    return pagefind;
  }
  function years() {
    var a = +from.value, b = +to.value;
    if (a > b) { var t = a; a = b; b = t; }
    return [a, b];
  }
  function filtered() { return from.value !== from.options[0].value ||
    to.value !== to.options[to.options.length - 1].value; }
  function overlaps(span, range) {
    var first = +span[0], last = span[1] === null ? Infinity : +span[1];
    return first <= range[1] && last >= range[0];
  }
  function fullText(query, range) {
    return engine().then(function (p) {
      if (!p) return [];
      var options = {};
      if (filtered()) {
        var any = [];
        for (var y = range[0]; y <= range[1]; y++) any.push(String(y));
        options.filters = { year: { any: any } };
      }
      return p.search(query, options).then(function (search) {
        return Promise.all(search.results.slice(0, SHOWN).map(function (r) { return r.data(); }));
      });
    }).then(function (found) {
      return found.map(function (d) {
        var m = d.meta || {};
        return { url: m.url || d.url, chain: m.chain || "", title: m.label || m.title,
          span: m.span, kind: m.kind, expect: m.expect, excerpt: d.excerpt };
      });
    });
  }
  function spanText(r) {
    if (r.span) return r.span;
    return r.years[0] + "–" + (r.years[1] === null ? "today" : r.years[1]);
  }
  function show(results, query) {
    list.textContent = "";
    results.slice(0, SHOWN).forEach(function (r) {
      var li = document.createElement("li");
      li.className = "result";
      li.dataset.expect = r.expect || "";
      var a = document.createElement("a");
      a.href = r.url;
      if (r.chain) {
        var num = document.createElement("span");
        num.className = "num";
        num.textContent = r.chain;
        a.appendChild(num);
        a.appendChild(document.createTextNode(" "));
      }
      var title = document.createElement("span");
      title.className = "title";
      title.textContent = r.title || r.url;
      a.appendChild(title);
      li.appendChild(a);
      var meta = document.createElement("span");
      meta.className = "meta";
      var kind = r.kind === "glossary" ? "glossary" : r.url.indexOf("/keyword/") === 0 ? "title"
        : "rule";
      meta.textContent = " " + kind + " · " + spanText(r) + (r.former ? " · formerly " + r.former : "");
      li.appendChild(meta);
      if (r.excerpt) {
        var p = document.createElement("p");
        p.className = "excerpt";
        p.innerHTML = r.excerpt; // Pagefind's excerpt of our own escaped text, with <mark>
        li.appendChild(p);
      }
      list.appendChild(li);
    });
    status.textContent = results.length ? results.length + (results.length > SHOWN ? "+" : "") +
      " result" + (results.length === 1 ? "" : "s") + " for “" + query + "”"
      : "Nothing found for “" + query + "”" + (filtered() ? " in those years." : ".");
  }
  function run() {
    var query = window.rulesNames.trimmed(input.value);
    var ticket = ++pending;
    var params = new URLSearchParams();
    if (query) params.set("q", query);
    if (filtered()) { params.set("from", from.value); params.set("to", to.value); }
    // The address follows the query; one already saying the same is left as it is (rewriting
    // it would count as a navigation for anything waiting on the address).
    if (params.toString() !== new URLSearchParams(location.search).toString()) {
      history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : ""));
    }
    if (!query) { list.textContent = ""; status.textContent = ""; return; }
    status.textContent = "Searching…";
    list.setAttribute("aria-busy", "true");
    var range = years();
    Promise.all([
      window.rulesLookup.exact(query).catch(function () { return []; }),
      fullText(query, range),
    ]).then(function (both) {
      if (ticket !== pending) return;
      var seen = {};
      // A title's page stands for its heading's own history: list it once.
      both[0].forEach(function (r) { if (r.history) seen[r.history] = true; });
      var results = both[0].filter(function (r) { return overlaps(r.years, range); })
        .concat(both[1]).filter(function (r) {
          if (seen[r.url]) return false;
          seen[r.url] = true;
          return true;
        });
      list.removeAttribute("aria-busy");
      show(results, query);
    });
  }
  form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
  input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, WAIT); });
  from.addEventListener("change", run);
  to.addEventListener("change", run);
  var params = new URLSearchParams(location.search);
  if (params.get("from")) from.value = params.get("from");
  if (params.get("to")) to.value = params.get("to");
  if (params.get("q")) { input.value = params.get("q"); run(); }
})();
