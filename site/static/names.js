// Names compared as vocabulary/names.py compares them: case folded (with Python's case folds,
// which go further than lower-casing), dashes read as spaces, quotation marks dropped, spaces
// collapsed, a trailing note such as "(Obsolete)" left out of the key, and "(glossary)" asking
// for the glossary entry. The characters and patterns come from static/vocabulary.js,
// generated from the Python package; the lookup box on every page and the in-browser compare
// both read names through these functions.
(function () {
  "use strict";
  var V = window.rulesVocabulary;
  var SPACES = new RegExp("[" + V.space + "]+", "u");
  var EDGE_SPACES = new RegExp("^[" + V.space + "]+|[" + V.space + "]+$", "gu");
  var NOTE = new RegExp(V.nameNote, "u"), GLOSSARY_MARK = new RegExp(V.glossaryMark, "iu");

  // vocabulary.names.fold
  function fold(text) {
    var folded = "", out = "";
    for (var ch of text.normalize("NFKC").toLowerCase()) {
      folded += V.caseFolds[ch] === undefined ? ch : V.caseFolds[ch];
    }
    for (var c of folded) {
      if (V.nameDashes.indexOf(c) >= 0) out += " ";
      else if (V.nameQuotes.indexOf(c) < 0) out += c;
    }
    return out.split(SPACES).filter(Boolean).join(" ");
  }
  // vocabulary.names.name_key, of a name folded already
  function keyOfFolded(folded) { return trimmed(folded.replace(NOTE, "")); }
  function key(name) { return keyOfFolded(fold(name)); }
  // vocabulary.names.without_glossary_mark: [the name without the mark, whether it had one]
  function withoutGlossaryMark(name) {
    var mark = GLOSSARY_MARK.exec(name);
    return mark ? [name.slice(0, mark.index), true] : [name, false];
  }
  // Python's str.strip(): the white space str.isspace knows, at both ends
  function trimmed(text) { return text.replace(EDGE_SPACES, ""); }
  // vocabulary.names.as_typed: full-width digits, letters and dots read as ASCII
  function typed(text) { return text.normalize("NFKC"); }

  window.rulesNames = {
    fold: fold, key: key, keyOfFolded: keyOfFolded, withoutGlossaryMark: withoutGlossaryMark,
    trimmed: trimmed, typed: typed, ruleNumber: new RegExp(V.ruleNumber, "u")
  };
})();
