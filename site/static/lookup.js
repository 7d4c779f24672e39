// The lookup box on every page, and the name and number matching the search page ranks by.
// Reads /search/names.json (titles, former titles, glossary terms) and /search/numbers/C.json
// (renderer/names.py). Without JavaScript the box is a plain form to /search/?q=...
(function () {
  "use strict";
  // Names and numbers read as vocabulary/names.py and vocabulary/numbers.py read them
  // (static/names.js, on the generated static/vocabulary.js).
  var NAMES = window.rulesNames, key = NAMES.key, trimmed = NAMES.trimmed;
  var cache = {};

  function cleanNumber(text) {
    return trimmed(NAMES.typed(text)).replace(/\.$/, "").toLowerCase();
  }
  function isNumber(text) { return NAMES.ruleNumber.test(cleanNumber(text)); }
  function load(url) {
    if (!cache[url]) {
      cache[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ": " + r.status);
        return r.json();
      });
    }
    return cache[url];
  }
  // Every clause that carried a number: today's first, then the most recently retired.
  function numbered(text) {
    var n = cleanNumber(text);
    return load("/search/numbers/" + n.charAt(0) + ".json").then(function (shard) {
      return (shard[n] || []).map(function (c) {
        return { url: c.url, chain: c.chain, title: c.title, years: c.years, current: c.current,
          kind: "rule", expect: c.expect };
      });
    });
  }
  var KIND_ORDER = { chapter: 0, section: 1, rule: 2, glossary: 3 };
  // Titles and terms: the exact name first, then names it begins, then names with it as a
  // word; within each, in force before retired, a name of today before a former one (as
  // `show NAME` reads the newest release: "Mana Cost" is the glossary entry, not section 202
  // that was once so called), then a chapter, a section, a keyword rule, a glossary term
  // (archive/lookup.py RANK), shorter first.
  // "Morph (glossary)" is the entry, not the keyword; the mark goes before the name is keyed
  // ("Mana Burn (Obsolete) (glossary)").
  function named(text) {
    var marked = NAMES.withoutGlossaryMark(trimmed(text));
    var entryOnly = marked[1], wanted = key(marked[0]);
    if (!wanted) return Promise.resolve([]);
    return load("/search/names.json").then(function (names) {
      var found = [];
      names.forEach(function (n) {
        if (entryOnly && n.kind !== "glossary") return;
        var tier = n.key === wanted ? 0 : n.key.indexOf(wanted + " ") === 0 ? 1
          : (" " + n.key + " ").indexOf(" " + wanted + " ") >= 0 ? 2 : -1;
        if (tier >= 0) found.push({ tier: tier, n: n });
      });
      found.sort(function (a, b) {
        return a.tier - b.tier || (a.n.years[1] !== null) - (b.n.years[1] !== null) ||
          a.n.former - b.n.former || KIND_ORDER[a.n.kind] - KIND_ORDER[b.n.kind] ||
          a.n.key.length - b.n.key.length;
      });
      var seen = {};
      return found.filter(function (f) {
        if (seen[f.n.url]) return false;
        seen[f.n.url] = true;
        return true;
      }).map(function (f) {
        var n = f.n;
        return { url: n.url, history: n.history || null, chain: n.numbers, title: n.title, years: n.years,
          current: n.years[1] === null, kind: n.kind, expect: n.expect, exact: f.tier === 0,
          former: n.former ? n.name : null };
      });
    });
  }
  function exact(text) { return isNumber(text) ? numbered(text) : named(text); }
  window.rulesLookup = { key: key, isNumber: isNumber, exact: exact };

  // The box: a number goes to its page, a name to its page, anything else to the search.
  document.querySelectorAll("form.lookup").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var text = trimmed(form.querySelector("input").value);
      if (!text) return;
      event.preventDefault();
      // The same address the form gives without JavaScript (a space as "+"), so that a query
      // has one URL and the search page has no reason to rewrite it.
      var search = "/search/?" + new URLSearchParams({ q: text });
      exact(text).then(function (found) {
        if (isNumber(text)) return found.length ? "/rule/" + cleanNumber(text) + "/" : search;
        return found.length && found[0].exact ? found[0].url : search;
      }, function () { return search; }).then(function (url) { location.href = url; });
    });
  });
})();
