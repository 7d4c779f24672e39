// A number page shown as of one day, on a static host: the host's rewrite rule serves
// /rule/N/ for /rule/N/DAY/ (or /404.html sends here with ?date=DAY). Like the server
// (renderer/asof_view.py): pick the <template class="asof-segment"> whose days hold DAY and
// fill its placeholders: the day, the release in force then, the permalink, and the access
// date (today, where the reader is: the day they read and may cite it).
(function () {
  "use strict";
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December"];
  var view = document.getElementById("asof-day");
  if (!view || !view.hidden) return; // not a number page, or the server has shown the day
  var match = location.pathname.match(/^\/rule\/([^/]+)\/(\d{4}-\d{2}-\d{2})\/?$/);
  var day = match ? match[2] : new URLSearchParams(location.search).get("date");
  if (!day) return;
  var base = location.pathname.replace(/\/\d{4}-\d{2}-\d{2}\/?$/, "/");
  var path = base + day + "/";

  function longDate(iso) {
    var p = iso.split("-").map(Number);
    return MONTHS[p[1] - 1] + " " + p[2] + ", " + p[0];
  }
  function isDay(iso) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
    var d = new Date(iso + "T00:00:00Z");
    return !isNaN(d) && d.toISOString().slice(0, 10) === iso;
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function escape(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }
  function show(html, title) {
    view.innerHTML = html;
    view.hidden = false;
    document.getElementById("asof-title").textContent = title;
    document.title = document.title.replace(" · ", title + " · ");
    if (!match && history.replaceState) history.replaceState(null, "", path);
  }
  if (!isDay(day)) {
    show("<p class=\"unused\">" + escape(day) + " is not a day (YYYY-MM-DD).</p>", "");
    return;
  }
  var chosen = null;
  document.querySelectorAll("template.asof-segment").forEach(function (t) {
    var until = t.dataset.until;
    if (t.dataset.start <= day && (!until || day < until)) chosen = t;
  });
  if (!chosen) return;
  fetch("/rule/releases.json").then(function (r) { return r.json(); }).then(function (releases) {
    var at = -1;  // the release in force: the newest on or before the day
    releases.forEach(function (r, i) { if (r[0] <= day) at = i; });
    var release = at >= 0 ? releases[at] : ["", "", "", ""];
    var upcoming = releases[at + 1] || ["", "", "", ""];
    var now = new Date();
    var accessed = now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
    // the release's own notice, on a day before the later one it states it takes effect;
    // or the next one's, on a day from the earlier one it states it took effect
    var notYet = release[2] && release[0] < release[2] && day < release[2];
    var overtaken = !notYet && upcoming[2] && upcoming[2] < upcoming[0] && upcoming[2] <= day;
    // how the answer and the day's citation name the release (vocabulary.days.day_standing)
    var standings = window.rulesVocabulary.standings;
    var standing = notYet ? standings.notYet : overtaken ? standings.overtaken : standings.inForce;
    var fields = {
      day: longDate(day), release: release[1],
      stated: notYet ? longDate(release[2]) : overtaken ? longDate(upcoming[2]) : "",
      next: overtaken ? upcoming[1] : ""
    };
    var values = {
      date: longDate(day), day: day, release: release[1],
      effective: notYet ? release[3] : overtaken ? upcoming[3] : "",
      standing: standing[0],
      standing_lower: standing[0].charAt(0).toLowerCase() + standing[0].slice(1),
      cited_day: standing[1].replace(/\{(day|release|stated|next)\}/g, function (_m, name) {
        return fields[name];
      }),
      release_url: release[0] ? "/releases/" + release[0] + "/" : "/releases/",
      url: location.origin + path, path: path,
      accessed: longDate(accessed), accessed_day: accessed
    };
    // a day after today: the newest release answers, and a later one may replace it
    // (vocabulary/days.py TO_COME, through the generated static/vocabulary.js)
    if (day > accessed) {
      var toCome = window.rulesVocabulary.toCome.replace("{day}", values.date);
      values.effective = values.effective ? values.effective + " " + toCome : toCome;
    }
    var html = chosen.innerHTML;
    Object.keys(values).forEach(function (name) {
      html = html.split("\u27e6" + name + "\u27e7").join(escape(values[name]));
    });
    show(html, " as of " + values.date);
  });
})();
