// The 404 page: /rule/N/DATE/ for a date with no page of its own goes to the wording in force.
(function () {
  "use strict";
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
  fetch("/rule/" + number + "/").then(function (response) {
    if (!response.ok) throw new Error("no rule " + number);
    return response.text();
  }).then(function (html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var runs = JSON.parse(doc.getElementById("runs").textContent);
    for (var i = 0; i < runs.length; i++) {
      var run = runs[i];
      if (day >= run.first && (run.current || (run.replaced_by && day < run.replaced_by))) {
        location.replace(run.url);
        return;
      }
    }
    status.textContent = "Rule " + number + " was not in use on " + day + ".";
  }).catch(function () {
    status.textContent = "No rule numbered " + number + " is in the archive.";
  });
})();
