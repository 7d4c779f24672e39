// Compare any two releases in the browser: fetch both release pages from this site, read their
// clauses, and diff each clause's words with diff-match-patch (bundled from npm at build time).
(function () {
  "use strict";
  var form = document.getElementById("compare");
  var status = document.getElementById("compare-status");
  var out = document.getElementById("compare-out");
  var TOKEN = /\s+|\w+(?:['\u2019-]\w+)*|[^\w\s]/g;

  function clauses(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var map = new Map();
    doc.querySelectorAll("#fulltext [data-n]").forEach(function (el) {
      var n = el.dataset.n;
      var clone = el.cloneNode(true);
      clone.querySelectorAll("a.n, a.mark").forEach(function (a) { a.remove(); });
      var text = clone.textContent.trim();
      map.set(n, map.has(n) ? map.get(n) + "\n" + text : text);
    });
    return map;
  }

  function wordDiff(a, b) {
    var codes = new Map(), vocab = [];
    function encode(text) {
      return (text.match(TOKEN) || []).map(function (piece) {
        if (!codes.has(piece)) {
          var point = vocab.length + 1;
          if (point >= 0xd800) point += 0x800;
          codes.set(piece, String.fromCharCode(point));
          vocab[point] = piece;
        }
        return codes.get(piece);
      }).join("");
    }
    var dmp = new window.diff_match_patch();
    dmp.Diff_Timeout = 0;
    var diffs = dmp.diff_main(encode(a), encode(b), false);
    return diffs.map(function (d) {
      var text = "";
      for (var i = 0; i < d[1].length; i++) text += vocab[d[1].charCodeAt(i)];
      return [d[0], text];
    });
  }

  function diffParagraph(ops) {
    var p = document.createElement("p");
    p.className = "diff";
    ops.forEach(function (op) {
      var node = op[0] === 0 ? document.createTextNode(op[1])
        : document.createElement(op[0] < 0 ? "del" : "ins");
      if (op[0] !== 0) node.textContent = op[1];
      p.appendChild(node);
    });
    return p;
  }

  function item(number, kind, release, content) {
    var article = document.createElement("article");
    article.className = "change";
    var h = document.createElement("h3");
    var a = document.createElement("a");
    a.href = "/releases/" + release + "/#" + encodeURIComponent(number);
    a.textContent = number.replace(/:ex$/, " (example)").replace(/^g:/, "glossary: ");
    var k = document.createElement("span");
    k.className = "kind kind-" + kind;
    k.textContent = kind;
    h.append(a, " ", k);
    article.appendChild(h);
    article.appendChild(content);
    return article;
  }

  function run(oldDate, newDate, prefix) {
    status.textContent = "Comparing " + oldDate + " with " + newDate + "…";
    out.innerHTML = "";
    Promise.all([oldDate, newDate].map(function (d) {
      return fetch("/releases/" + d + "/").then(function (r) {
        if (!r.ok) throw new Error("release " + d + " not found");
        return r.text();
      });
    })).then(function (pages) {
      var before = clauses(pages[0]), after = clauses(pages[1]);
      var wanted = function (n) { return !prefix || n.indexOf(prefix) === 0; };
      var counts = { reworded: 0, added: 0, removed: 0 };
      var frag = document.createDocumentFragment();
      after.forEach(function (text, n) {
        if (!wanted(n)) return;
        if (!before.has(n)) {
          counts.added++;
          var p = document.createElement("p"); p.textContent = text;
          frag.appendChild(item(n, "added", newDate, p));
        } else if (before.get(n) !== text) {
          counts.reworded++;
          frag.appendChild(item(n, "reworded", newDate, diffParagraph(wordDiff(before.get(n), text))));
        }
      });
      before.forEach(function (text, n) {
        if (wanted(n) && !after.has(n)) {
          counts.removed++;
          var p = document.createElement("p"); p.textContent = text;
          frag.appendChild(item(n, "removed", oldDate, p));
        }
      });
      out.appendChild(frag);
      status.textContent = oldDate + " → " + newDate + (prefix ? " (rules " + prefix + "…)" : "") +
        ": " + counts.reworded + " changed, " + counts.added + " added, " + counts.removed +
        " removed, compared by number (renumbered clauses show as removed and added; the" +
        " prebuilt diffs between neighbouring releases follow them).";
    }).catch(function (error) { status.textContent = "Could not compare: " + error.message; });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var o = form.old.value, n = form.new.value, prefix = form.rule.value.trim();
    history.replaceState(null, "", "?old=" + o + "&new=" + n + (prefix ? "&rule=" + encodeURIComponent(prefix) : ""));
    run(o, n, prefix);
  });
  var params = new URLSearchParams(location.search);
  if (params.get("old") && params.get("new")) {
    form.old.value = params.get("old");
    form.new.value = params.get("new");
    form.rule.value = params.get("rule") || "";
    run(form.old.value, form.new.value, form.rule.value.trim());
  }
})();
