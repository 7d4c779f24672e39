// The 404 page, on a host without the rewrite rule of `_redirects`: /rule/N/DATE/ with no
// page of its own goes to the number's page, which shows it as of that date (static/asof.js).
(function () {
  "use strict";
  // A subrule's letter typed in capitals (/rule/702.37B/) is the subrule, as `show` reads it
  // and `rules-history serve` redirects (renderer/serve.py).
  var typed = location.pathname.match(/^\/rule\/([0-9]{3}\.[0-9]+[A-Za-z]+)(\/.*)?$/);
  if (typed && typed[1] !== typed[1].toLowerCase()) {
    location.replace("/rule/" + typed[1].toLowerCase() + (typed[2] || "/") + location.search);
    return;
  }
  var match = location.pathname.match(/^\/rule\/([^/]+)\/(\d{4}-\d{2}-\d{2})\/?$/);
  var status = document.getElementById("resolve-status");
  var fallback = document.getElementById("resolve-fallback");
  if (!match) return;
  var number = decodeURIComponent(match[1]), day = match[2];
  fallback.innerHTML = "";
  var link = document.createElement("a");
  link.href = "/rule/" + number + "/";
  link.textContent = "Every wording of rule " + number;
  fallback.appendChild(link);
  status.textContent = "Finding rule " + number + " as of " + day + "…";
  fetch("/rule/" + number + "/", { method: "HEAD" }).then(function (response) {
    if (!response.ok) throw new Error("no rule " + number);
    location.replace("/rule/" + match[1] + "/?date=" + day);
  }).catch(function () {
    status.textContent = "No rule numbered " + number + " is in the archive.";
  });
})();
