// Progressive enhancement: copy buttons, permalinks with this site's origin, "wording on date".
(function () {
  "use strict";
  document.querySelectorAll(".cite pre").forEach(function (pre) {
    var path = pre.closest(".cite").querySelector("a").getAttribute("href");
    if (pre.textContent.indexOf(location.origin + path) < 0 && location.protocol !== "file:") {
      pre.textContent = pre.textContent.split(" " + path).join(" " + location.origin + path)
        .split("=" + path).join("=" + location.origin + path)
        .split("{" + path).join("{" + location.origin + path)
        .split("\"" + path).join("\"" + location.origin + path);
    }
  });
  document.querySelectorAll("button.copy").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = document.getElementById(button.dataset.copy).textContent;
      var done = function () { button.textContent = "Copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
      } else { fallback(text); done(); }
    });
  });
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text; document.body.appendChild(area); area.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing more to try */ }
    area.remove();
  }
  var form = document.querySelector("form.asof[data-number]");
  var runs = document.getElementById("runs");
  if (form && runs) {
    var data = JSON.parse(runs.textContent);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var day = form.querySelector("input").value;
      var found = resolve(data, day);
      var out = form.querySelector(".asof-out");
      if (found) { location.href = found.url; }
      else { out.textContent = "Rule " + form.dataset.number + " was not in use on " + day + "."; }
    });
  }
  function resolve(data, day) {
    for (var i = 0; i < data.length; i++) {
      var run = data[i];
      if (day >= run.first && (run.current || (run.replaced_by && day < run.replaced_by))) return run;
    }
    return null;
  }
  window.rulesHistoryResolveRuns = resolve;
})();
