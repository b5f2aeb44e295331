// The workbench's only script (served by the app; the pages work without it): keyboard
// shortcuts in the review queue, s same, d different, k skip, unless typing in a field.
document.addEventListener("keydown", function (event) {
  var answer = document.getElementById("answer");
  if (!answer || event.ctrlKey || event.metaKey || event.altKey) return;
  var tag = (event.target && event.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  var target = null;
  if (event.key === "s") target = answer.querySelector("button.same");
  else if (event.key === "d") target = answer.querySelector("button.different");
  else if (event.key === "k") target = document.getElementById("skip");
  if (target) { event.preventDefault(); target.click(); }
});
