// Compare any two releases in the browser, as `rules-history diff OLD NEW` does.
//
// The site publishes, under /compare/, each release's clauses with their lineage and wording,
// the splits and merges, and the wordings' texts (see renderer/compare_data.py). Clauses are
// paired by lineage, each change is named as lineage/compare.py names it, and the words are
// diffed as archive/worddiff.py diffs them, with diff-match-patch and the word tokeniser of
// static/vocabulary.js (generated from the Python vocabulary).
(function () {
  "use strict";
  var form = document.getElementById("compare");
  var status = document.getElementById("compare-status");
  var summaryOut = document.getElementById("compare-summary");
  var gapsOut = document.getElementById("compare-gaps");
  var out = document.getElementById("compare-out");
  var V = window.rulesVocabulary;
  var DMP = window.diff_match_patch;
  var KIND = {};
  V.kinds.forEach(function (k) { KIND[k.value] = k; });
  var UNCHANGED = "unchanged", SPLIT = "split", MERGED = "merged", ADDED = "added";
  var REMOVED = "removed";
  [UNCHANGED, SPLIT, MERGED, ADDED, REMOVED].forEach(function (k) {
    if (!KIND[k]) throw new Error("unknown kind " + k);
  });
  var DELETE = -1, EQUAL = 0, INSERT = 1;
  var FORMAT = 3;  // renderer/compare_data.py FORMAT
  // The semantic clean-up scores boundaries by Python's str.isalnum and str.isspace.
  DMP.nonAlphaNumericRegex_ = new RegExp("[^" + V.alnum + "]", "u");
  DMP.whitespaceRegex_ = new RegExp("[" + V.space + "]", "u");

  function pattern(source) { return new RegExp(source, "gu"); }
  var WORD_TOKEN = pattern(V.wordToken), SENTENCE_BREAK = pattern(V.sentenceBreak);
  var PLAIN_WORD = pattern(V.plainWord), RULE_NUMBER = new RegExp(V.ruleNumber, "u");

  // ---- rule numbers (vocabulary/numbers.py, archive/query.py) ----
  function isAlpha(text) { return /^\p{L}+$/u.test(text); }
  function isUnder(number, prefix) {
    if (number === prefix) return true;
    if (number.indexOf(prefix) !== 0) return false;
    var rest = number.slice(prefix.length);
    if (prefix.length === 1 && /^[0-9]$/.test(prefix)) {
      var section = number.split(".")[0];
      return section.length === 3 && /^[0-9]+$/.test(section);
    }
    return prefix.indexOf(".") >= 0 ? isAlpha(rest) : rest.charAt(0) === ".";
  }
  function tokens(text) { return text.match(WORD_TOKEN) || []; }

  // ---- names (vocabulary/names.py through static/names.js, archive/lookup.py resolve) ----
  var NAMES = window.rulesNames, fold = NAMES.fold, keyOfFolded = NAMES.keyOfFolded;
  function asked(found) { return found.term !== null ? found.term + " (glossary)" : found.number; }
  // The clause a name designates among a release's names (compare/n/DATE.json: [folded,
  // label, 1 for a glossary entry], in the order archive/lookup.py prefers them), or null.
  // What is asked, as archive/lookup.py cleans it: no space around, no final periods.
  function cleanName(text) { return NAMES.trimmed(NAMES.typed(text)).replace(/\.+$/, ""); }
  function resolveName(names, name) {
    var cleaned = cleanName(name);
    // "704.5J" is 704.5j, as archive/lookup.py reads it
    if (RULE_NUMBER.test(cleaned.toLowerCase())) {
      return { number: cleaned.toLowerCase(), term: null, also: [] };
    }
    var marked = NAMES.withoutGlossaryMark(cleaned);
    if (marked[1]) {
      cleaned = marked[0];
      names = names.filter(function (n) { return n[2] === 1; });
    }
    var wanted = fold(cleaned), bare = keyOfFolded(wanted);
    var matches = names.filter(function (n) { return n[0] === wanted; });
    if (!matches.length && bare) {
      matches = names.filter(function (n) { return keyOfFolded(n[0]) === bare; });
    }
    if (!matches.length) return null;
    var found = matches.map(function (n) {
      if (n[2] === 1) return { number: null, term: n[1] };
      // n[3]: the printing the title heads, where its release prints the number again
      return n[3] ? { number: n[1], term: null, printing: n[3] } : { number: n[1], term: null };
    });
    var first = found[0], others = [];
    found.forEach(function (f) {
      if (asked(f) !== asked(first) && others.indexOf(asked(f)) < 0) others.push(asked(f));
    });
    first.also = others;
    return first;
  }
  function covers(found, label) {
    if (!found) return false;
    return found.term !== null ? label === found.term : isUnder(label, found.number);
  }
  // What a rule filter keeps, in each release (lineage/compare.py RuleFilter): a number is the
  // same prefix on both sides; a title or term is read in each release as `show` reads it.
  function ruleFilter(index, text, oldDate, newDate) {
    var cleaned = cleanName(text);
    if (RULE_NUMBER.test(cleaned.toLowerCase())) {
      var number = { number: cleaned.toLowerCase(), term: null, also: [] };
      return Promise.resolve({ name: cleaned.toLowerCase(), old: number, new: number });
    }
    return Promise.all([getJSON(index.names[oldDate]), getJSON(index.names[newDate])])
      .then(function (names) {
        var old = resolveName(names[0], text), neu = resolveName(names[1], text);
        if (!old && !neu) {
          throw new Error("nothing is called '" + cleaned + "' in the " + oldDate + " or the " +
            newDate + " release (give a rule number such as 708.2a, a section or keyword" +
            " title, or a term)");
        }
        return { name: text.trim(), old: old, new: neu };
      });
  }
  // lineage/compare.py RuleFilter.keeps: on a side whose title heads one printing of a number
  // printed more than once, only the clauses that printing owns (archive/printings.py).
  function keeps(filter, change, before, after) {
    return sideKeeps(filter.old, change.old, before, change.lineage) ||
      sideKeeps(filter.new, change.new, after, change.lineage);
  }
  function sideKeeps(found, labels, side, lineage) {
    if (!labels.some(function (n) { return covers(found, n); })) return false;
    if (!found.printing) return true;
    var member = side.get(lineage);
    if (!member) return false;
    if (!found.owned) {  // [first, end) of the positions the printing owns, read once
      var at = [];
      side.forEach(function (m) { if (m.number === found.number) at.push(m.position); });
      at.sort(function (a, b) { return a - b; });
      found.owned = [at[found.printing - 1], found.printing < at.length ? at[found.printing] : Infinity];
    }
    return found.owned[0] <= member.position && member.position < found.owned[1];
  }
  // What the status line says of the rule kept, as `rules-history diff --rule` says it.
  function filterShown(filter, oldDate, newDate) {
    var oldLabel = filter.old && label(filter.old), newLabel = filter.new && label(filter.new);
    if (oldLabel === filter.name && newLabel === filter.name) {
      return filter.old.term !== null ? " (the glossary term " + filter.name + ")" : " (rules " + filter.name + "…)";
    }
    if (oldLabel === newLabel) return " (" + filter.name + " names " + oldLabel + " in both)";
    return " (" + filter.name + " names " + (oldLabel || "nothing") + " in " + oldDate +
      " and " + (newLabel || "nothing") + " in " + newDate + ")";
  }
  function label(found) { return found.term !== null ? found.term : found.number; }

  // archive/query.py resolve_release: OLD and NEW read as the CLI reads them, a release's date,
  // set code or set name (any case), or any other day: the release in force then.
  var DAY = /^\d{4}-\d{2}-\d{2}$/;
  function releaseAsked(text) {
    var asked = text.trim(), options = Array.from(form.old.options);
    if (DAY.test(asked)) {
      var day = new Date(asked + "T00:00:00Z");
      if (isNaN(day) || day.toISOString().slice(0, 10) !== asked) {
        throw new Error("'" + asked + "' is not a real date");
      }
      var inForce = options.filter(function (o) { return o.value <= asked; }).pop();
      if (!inForce) throw new Error(asked + " is before the first release (" + options[0].value + ")");
      return inForce.value;
    }
    var wanted = asked.toLowerCase();
    var found = options.filter(function (o) {
      return wanted && (o.dataset.code.toLowerCase() === wanted || o.dataset.name.toLowerCase() === wanted);
    }).map(function (o) { return o.value; });
    if (found.length === 1) return found[0];
    if (found.length) throw new Error("'" + asked + "' names " + found.length + " releases (" + found.join(", ") + "): give the date");
    throw new Error("'" + asked + "' is neither a date (write it as YYYY-MM-DD) nor a release's set code or name");
  }
  // What the status line says of a release asked by another day or by its set, as the CLI's
  // note does: which release it read.
  function askedAs(asked, date) {
    return asked === date ? "" : " (" + asked + ": the release " + (DAY.test(asked) ? "in force then" : "of that set") + ")";
  }

  // ---- the change list (lineage/compare.py; every kind computed by the engine) ----
  function members(rows, lineages) {
    var map = new Map();
    rows.forEach(function (row, position) {
      var state = lineages[row[0]][0][row[1]];
      var glossary = state[2] === 1;
      map.set(row[0], {
        state: row[1], text: state[0], label: state[1], glossary: glossary, position: position,
        number: glossary ? null : state[1]
      });
    });
    return map;
  }

  function kindOfChange(index, lineages, id, old, neu, numberMap) {
    var entry = lineages[id], count = entry[0].length, at = old.state * count + neu.state;
    var code = entry[1].charAt(at);
    if (code === "?") {
      var depends = entry[2][at];
      var follows = depends[2].every(function (pair) {
        return (numberMap.has(pair[0]) ? numberMap.get(pair[0]) : pair[1]) === pair[1];
      });
      code = follows ? depends[0] : depends[1];
    }
    if (code === "." || !code) throw new Error("compare data: no kind for lineage " + id);
    return index.kinds[code.charCodeAt(0) - 97];
  }

  function links(index, oldDate, newDate) {
    var found = new Map();
    index.events.forEach(function (event) {
      var release = event[0];
      if (release <= oldDate || release > newDate) return;
      if (!found.has(event[1])) found.set(event[1], { kind: event[2], related: [], events: [] });
      var link = found.get(event[1]);
      Array.prototype.push.apply(link.related, event[3]);
      link.events.push([event[2], event[3]]);
    });
    return found;
  }

  // The lineages of `side` that lineage `id` reaches through the events of `kind` between the
  // two releases, through lineages `side` lacks: lineage/compare.py's `_reached`, in its order.
  function reached(id, kind, side, linked) {
    var found = [], seen = new Set([id]), todo = [id];
    while (todo.length) {
      var link = linked.get(todo.pop());
      if (!link) continue;
      link.events.forEach(function (event) {
        if (event[0] !== kind) return;
        event[1].forEach(function (other) {
          if (seen.has(other)) return;
          seen.add(other);
          (side.has(other) ? found : todo).push(other);
        });
      });
    }
    return found;
  }

  function changeOf(id, before, after, linked) {
    var old = before.get(id), neu = after.get(id);
    var link = linked.get(id) || { kind: null, related: [] };
    var olds = old ? [old.label] : [], news = neu ? [neu.label] : [];
    var kind;
    if (!old) {
      olds = labels(reached(id, SPLIT, before, linked), before);
      kind = olds.length ? SPLIT : ADDED;
    } else if (!neu) {
      news = labels(reached(id, MERGED, after, linked), after);
      kind = news.length ? MERGED : REMOVED;
    } else {
      kind = link.kind;
    }
    return { kind: kind, old: olds, new: news, lineage: id, related: link.related,
      oldWording: old ? old.text : null, newWording: neu ? neu.text : null };
  }
  function labels(ids, side) {
    return ids.filter(function (r) { return side.has(r); }).map(function (r) { return side.get(r).label; });
  }

  function changeList(index, lineages, oldDate, newDate, oldRows, newRows, filter) {
    var before = members(oldRows, lineages), after = members(newRows, lineages);
    var numberMap = new Map();
    Array.from(before.keys()).sort(function (a, b) { return a - b; }).forEach(function (id) {
      if (after.has(id)) numberMap.set(before.get(id).number, after.get(id).number);
    });
    var linked = links(index, oldDate, newDate);
    var copy = derivedEnd(index, oldDate, newDate);
    var order = Array.from(after.keys());
    before.forEach(function (m, id) { if (!after.has(id)) order.push(id); });
    var summary = {}, unconfirmed = {}, changes = [];
    order.forEach(function (id) {
      var change = changeOf(id, before, after, linked);
      if (change.kind === null) {
        change.kind = kindOfChange(index, lineages, id, before.get(id), after.get(id), numberMap);
      }
      if (filter && !keeps(filter, change, before, after)) return;
      if (copy && change.kind !== UNCHANGED) {
        var differs = BY_PRESENCE.indexOf(change.kind) >= 0 ? copy.presence : copy.words;
        change.confirmed = !differs.has(id);
      }
      var counted = change.confirmed === false ? unconfirmed : summary;
      counted[change.kind] = (counted[change.kind] || 0) + 1;
      if (change.kind !== UNCHANGED) changes.push(change);
    });
    return { summary: summary, unconfirmed: unconfirmed, changes: changes,
      confirmedBy: copy ? copy.confirmedBy : null };
  }

  // A derived copy at one end (lineage/derived.py): its differences that the official release
  // on the far side does not confirm are listed, marked, and left out of the summary.
  var BY_PRESENCE = [ADDED, REMOVED, SPLIT, MERGED];
  function derivedEnd(index, oldDate, newDate) {
    var copies = index.derived || {};
    if (copies[oldDate] && copies[newDate]) return null;
    var day = copies[oldDate] ? oldDate : copies[newDate] ? newDate : null;
    if (!day) return null;
    var end = copies[day][day === newDate ? "new" : "old"];
    return { presence: new Set(end.presence), words: new Set(end.words),
      confirmedBy: end.confirmed_by };
  }

  // ---- word diffs (archive/worddiff.py) ----
  function sentences(text) {
    var pieces = [], start = 0, match;
    SENTENCE_BREAK.lastIndex = 0;
    while ((match = SENTENCE_BREAK.exec(text)) !== null) {
      if (match[0] === "") { SENTENCE_BREAK.lastIndex++; continue; }
      var end = match.index + match[0].length;
      pieces.push(text.slice(start, end));
      start = end;
    }
    if (start < text.length) pieces.push(text.slice(start));
    return pieces;
  }
  function diffUnits(left, right, cleanup) {
    if (!left.length || !right.length) {
      if (left.length) return [[DELETE, left.join("")]];
      return right.length ? [[INSERT, right.join("")]] : [];
    }
    var codes = new Map(), vocabulary = [""];
    function encode(units) {
      return units.map(function (unit) {
        var code = codes.get(unit);
        if (code === undefined) {
          var point = vocabulary.length;
          if (point >= 0xd800) point += 0x800;
          code = String.fromCodePoint(point);
          codes.set(unit, code);
          vocabulary.push(unit);
        }
        return code;
      }).join("");
    }
    var dmp = new DMP();
    dmp.Diff_Timeout = 0;
    var diffs = dmp.diff_main(encode(left), encode(right), false);
    if (cleanup) dmp.diff_cleanupSemantic(diffs);
    return diffs.map(function (d) {
      var text = "";
      for (var ch of d[1]) {
        var point = ch.codePointAt(0);
        if (point >= 0xe000) point -= 0x800;
        text += vocabulary[point];
      }
      return [d[0], text];
    });
  }
  function opening(sentence) {
    return (sentence.toLowerCase().match(PLAIN_WORD) || []).slice(0, 4).join(" ") + "\n";
  }
  function corresponding(olds, news) {
    var keyed = diffUnits(olds.map(opening), news.map(opening), false);
    var pairs = [], i = 0, j = 0, pendingOld = "", pendingNew = "";
    keyed.forEach(function (d) {
      var count = d[1].split("\n").length - 1;
      if (d[0] === DELETE) {
        pendingOld += olds.slice(i, i + count).join(""); i += count;
      } else if (d[0] === INSERT) {
        pendingNew += news.slice(j, j + count).join(""); j += count;
      } else {
        if (pendingOld || pendingNew) { pairs.push([pendingOld, pendingNew]); pendingOld = pendingNew = ""; }
        for (var k = 0; k < count; k++) pairs.push([olds[i + k], news[j + k]]);
        i += count; j += count;
      }
    });
    if (pendingOld || pendingNew) pairs.push([pendingOld, pendingNew]);
    return pairs;
  }
  function diffChanged(deleted, inserted) {
    var olds = sentences(deleted), news = sentences(inserted);
    if (olds.length < 2 && news.length < 2) return diffUnits(tokens(deleted), tokens(inserted), true);
    var pairs = olds.length === news.length
      ? olds.map(function (s, k) { return [s, news[k]]; }) : corresponding(olds, news);
    var result = [];
    pairs.forEach(function (p) {
      Array.prototype.push.apply(result, diffUnits(tokens(p[0]), tokens(p[1]), true));
    });
    return result;
  }
  function append(merged, op, text) {
    if (!text) return;
    var last = merged[merged.length - 1];
    if (last && last[0] === op) {
      last[1] += text;
    } else if (op === DELETE && last && last[0] === INSERT) {
      var before = merged[merged.length - 2];
      if (before && before[0] === DELETE) before[1] += text;
      else merged.splice(merged.length - 1, 0, [DELETE, text]);
    } else {
      merged.push([op, text]);
    }
  }
  function appendAll(merged, diffs) { diffs.forEach(function (d) { append(merged, d[0], d[1]); }); }
  function wordDiff(a, b) {
    if (a === b) return a ? [[EQUAL, a]] : [];
    if (!a || !b) return b ? [[INSERT, b]] : [[DELETE, a]];
    var merged = [], deleted = "", inserted = "";
    diffUnits(sentences(a), sentences(b), false).forEach(function (d) {
      if (d[0] === DELETE) deleted += d[1];
      else if (d[0] === INSERT) inserted += d[1];
      else {
        appendAll(merged, diffChanged(deleted, inserted));
        append(merged, EQUAL, d[1]);
        deleted = inserted = "";
      }
    });
    appendAll(merged, diffChanged(deleted, inserted));
    return merged;
  }

  // ---- loading ----
  var loaded = {};
  function getJSON(url) {
    if (!loaded[url]) {
      loaded[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url.split("?")[0] + " not found");
        return r.json();
      });
    }
    return loaded[url];
  }
  function chunkOf(index, wording) {
    var lo = 0, hi = index.chunks.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (index.chunks[mid][0] <= wording) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  function texts(index, wordings) {
    var needed = new Set();
    wordings.forEach(function (w) { needed.add(chunkOf(index, w)); });
    var chunks = Array.from(needed);
    return Promise.all(chunks.map(function (c) { return getJSON(index.chunks[c][1]); }))
      .then(function (bodies) {
        var found = new Map();
        wordings.forEach(function (w) {
          var c = chunkOf(index, w);
          found.set(w, bodies[chunks.indexOf(c)][w - index.chunks[c][0]]);
        });
        return found;
      });
  }

  // ---- the page ----
  function anchor(label) {
    if (RULE_NUMBER.test(label)) return label;
    return "g-" + label.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 60).replace(/^-+|-+$/g, "");
  }
  function numbersLink(labels, release) {
    var span = document.createElement("span");
    labels.forEach(function (label, k) {
      if (k) span.append(", ");
      var a = document.createElement("a");
      a.href = "/releases/" + release + "/#" + encodeURIComponent(anchor(label));
      a.textContent = label;
      span.appendChild(a);
    });
    return span;
  }
  function diffParagraph(ops) {
    var p = document.createElement("p");
    p.className = "diff";
    ops.forEach(function (op) {
      var node = op[0] === EQUAL ? document.createTextNode(op[1])
        : document.createElement(op[0] === DELETE ? "del" : "ins");
      if (op[0] !== EQUAL) node.textContent = op[1];
      p.appendChild(node);
    });
    return p;
  }
  function article(change, oldDate, newDate) {
    var el = document.createElement("article");
    el.className = "change";
    el.dataset.kind = change.kind;
    el.dataset.old = change.old.join(" ");
    el.dataset.new = change.new.join(" ");
    el.dataset.lineage = change.lineage;
    var h = document.createElement("h3");
    if (change.old.length) h.append(numbersLink(change.old, oldDate));
    if (change.old.length && change.new.length) h.append(" → ");
    if (change.new.length) h.append(numbersLink(change.new, newDate));
    var k = document.createElement("span");
    k.className = "kind kind-" + change.kind.replace("+", "-");
    // a glossary entry's change of "number" is a change of its term: renamed
    var label = change.new.length ? change.new[0] : change.old[0];
    k.textContent = KIND[change.kind][RULE_NUMBER.test(label || "") ? "label" : "termLabel"];
    h.append(" ", k);
    if (change.confirmed === false) {
      el.dataset.confirmed = "false";
      var note = document.createElement("span");
      note.className = "meta";
      note.textContent = "unconfirmed: not in the official release beside the copy";
      h.append(" ", note);
    }
    el.appendChild(h);
    el.appendChild(diffParagraph(change.diff));
    return el;
  }
  // The releases the archive lacks between the two (the index's `gaps`): the changes listed
  // may have come in one of them, as `rules-history diff` and the /diff/ pages say.
  function showGaps(index, oldDate, newDate) {
    gapsOut.innerHTML = "";
    (index.gaps || []).forEach(function (gap) {
      if (!(oldDate <= gap.after && gap.before <= newDate)) return;
      var aside = document.createElement("aside");
      aside.className = "gap-note";
      aside.setAttribute("role", "note");
      aside.setAttribute("aria-label", "Gap in the archive");
      var p = document.createElement("p");
      var strong = document.createElement("strong");
      strong.textContent = "A release is missing between " + gap.after + " and " + gap.before + ":";
      var link = document.createElement("a");
      link.href = "/releases/#" + gap.id;
      link.textContent = "What is known";
      p.append(strong, " " + gap.title + " (" + gap.status + "). The changes listed here may" +
        " have come in a release the archive lacks. ", link, ".");
      aside.appendChild(p);
      gapsOut.appendChild(aside);
    });
  }

  function showSummary(summary) {
    summaryOut.innerHTML = "";
    V.kinds.forEach(function (k) {
      if (!summary[k.value]) return;
      var li = document.createElement("li");
      li.dataset.kind = k.value;
      li.dataset.count = summary[k.value];
      li.textContent = k.label + ": " + summary[k.value];
      summaryOut.appendChild(li);
    });
  }

  function run(oldAsked, newAsked, prefixText) {
    var began = performance.now();
    status.textContent = "Comparing " + oldAsked + " with " + newAsked + "…";
    out.innerHTML = "";
    summaryOut.innerHTML = "";
    gapsOut.innerHTML = "";
    delete form.dataset.done;
    var filter = null, index, list, oldDate, newDate;
    Promise.resolve().then(function () {
      oldDate = releaseAsked(oldAsked);
      newDate = releaseAsked(newAsked);
      form.old.value = oldDate;
      form.new.value = newDate;
      if (oldDate > newDate) throw new Error(oldDate + " is newer than " + newDate);
      return getJSON(form.dataset.index);
    }).then(function (data) {
      index = data;
      if (index.format !== FORMAT) throw new Error("compare data of another version; reload");
      [oldDate, newDate].forEach(function (d) {
        if (!index.releases[d]) throw new Error("release " + d + " not found");
      });
      return prefixText ? ruleFilter(index, prefixText, oldDate, newDate) : null;
    }).then(function (found) {
      filter = found;
      return Promise.all([getJSON(index.releases[oldDate]), getJSON(index.releases[newDate]),
        getJSON(index.lineages)]);
    }).then(function (loaded) {
      list = changeList(index, loaded[2], oldDate, newDate, loaded[0], loaded[1], filter);
      var wanted = [];
      list.changes.forEach(function (c) {
        if (c.oldWording !== null) wanted.push(c.oldWording);
        if (c.newWording !== null) wanted.push(c.newWording);
      });
      return texts(index, wanted);
    }).then(function (found) {
      var frag = document.createDocumentFragment();
      list.changes.forEach(function (change) {
        change.diff = wordDiff(
          change.oldWording === null ? "" : found.get(change.oldWording),
          change.newWording === null ? "" : found.get(change.newWording));
        frag.appendChild(article(change, oldDate, newDate));
      });
      out.appendChild(frag);
      showGaps(index, oldDate, newDate);
      showSummary(list.summary);
      var shown = list.changes.length;
      var apart = Object.keys(list.unconfirmed).reduce(function (n, k) {
        return n + list.unconfirmed[k]; }, 0);
      status.dataset.unconfirmed = apart;
      var compared = oldDate + askedAs(oldAsked, oldDate) + " → " + newDate + askedAs(newAsked, newDate) +
        (filter ? filterShown(filter, oldDate, newDate) : "");
      if (!Object.keys(list.summary).length) {  // unchanged clauses are counted too: none at all
        status.textContent = compared + ": no clauses in either release.";
        form.dataset.done = Math.round(performance.now() - began);
        return;
      }
      status.textContent = compared + ": " + shown + " change" + (shown === 1 ? "" : "s") + ", clauses paired by lineage" +
        " as rules-history diff pairs them (renumbered clauses face each other; splits and" +
        " merges are named)." + (list.confirmedBy === null ? "" : " One end is a re-extracted" +
        " copy: " + apart + " of its differences are not in " + (list.confirmedBy || "the next" +
        " official release") + ", so they are marked unconfirmed and not counted above.");
      form.dataset.done = Math.round(performance.now() - began);
    }).catch(function (error) {
      status.textContent = "Could not compare: " + error.message;
      form.dataset.done = "error";
    });
  }

  window.rulesCompare = { changeList: changeList, wordDiff: wordDiff, tokens: tokens, isUnder: isUnder,
    resolveName: resolveName };
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var o = form.old.value, n = form.new.value, prefix = form.rule.value.trim();
    history.replaceState(null, "", "?old=" + o + "&new=" + n + (prefix ? "&rule=" + encodeURIComponent(prefix) : ""));
    run(o, n, prefix);
  });
  var params = new URLSearchParams(location.search);
  if (params.get("old") && params.get("new")) {
    form.rule.value = params.get("rule") || "";
    run(params.get("old"), params.get("new"), form.rule.value.trim());
  }
})();
