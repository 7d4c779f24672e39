// Progressive enhancement: copy buttons, permalinks with this site's origin, "wording on date".
(function () {
  "use strict";
  document.querySelectorAll(".cite pre").forEach(function (pre) {
    var link = pre.closest(".cite").querySelector("a");
    if (!link) return; // a citation whose permalink the page fills in later (the as-of view)
    var path = link.getAttribute("href");
    if (pre.textContent.indexOf(location.origin + path) < 0 && location.protocol !== "file:") {
      pre.textContent = pre.textContent.split(" " + path).join(" " + location.origin + path)
        .split("=" + path).join("=" + location.origin + path)
        .split("{" + path).join("{" + location.origin + path)
        .split("\"" + path).join("\"" + location.origin + path);
    }
  });
  // The access date of a citation is the day the reader reads it (renderer/citations.py).
  var now = new Date();
  var iso = now.getFullYear() + "-" + ("0" + (now.getMonth() + 1)).slice(-2) + "-" +
    ("0" + now.getDate()).slice(-2);
  var long = now.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
  document.querySelectorAll(".cite pre[data-accessed]").forEach(function (pre) {
    var day = pre.dataset.accessed === "iso" ? iso : long;
    pre.textContent = pre.textContent.split("[the date you read it]").join(day);
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
      // the day's permalink: answered by the server, the host's rewrite rule or /404.html
      if (day) location.href = form.getAttribute("action") + day + "/";
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
