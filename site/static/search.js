// Search page: Pagefind's UI (bundled in /pagefind/) plus a jump to a rule number.
(function () {
  "use strict";
  if (window.PagefindUI) {
    new window.PagefindUI({ element: "#search", showSubResults: true, showImages: false,
      autofocus: false, resetStyles: false });
    // Pagefind's box has only a title; a screen reader wants a name of its own.
    var box = document.querySelector("#search input");
    if (box) { box.setAttribute("aria-label", "Search the rules"); }
  }
  var form = document.getElementById("number-jump");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var n = form.querySelector("input").value.trim().replace(/\.$/, "");
    fetch("/rule/numbers.json").then(function (r) { return r.json(); }).then(function (numbers) {
      if (numbers.indexOf(n) >= 0) { location.href = "/rule/" + n + "/"; }
      else { document.getElementById("number-out").textContent = "No rule numbered " + n + "."; }
    });
  });
  var query = new URLSearchParams(location.search).get("q");
  if (query) {
    var input = document.querySelector("#search input");
    if (input) { input.value = query; input.dispatchEvent(new Event("input")); }
  }
})();
