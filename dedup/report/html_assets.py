"""The HTML report's inline style and script: one self-contained file, nothing loaded from elsewhere."""

STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:1.5em;color:#222}
header{position:sticky;top:0;background:#fff;padding-bottom:.5em;border-bottom:1px solid #ddd;z-index:1}
h1{font-size:1.4em;margin:.2em 0}
.summary{display:flex;flex-wrap:wrap;gap:.4em 1.6em;margin:.4em 0;padding:0;list-style:none}
.summary b{font-size:1.2em}
.legend{color:#555;font-size:.9em;margin:.3em 0;max-width:70em}
.tools{display:flex;gap:1em;align-items:center;margin-top:.5em}
#filter{font-size:1em;padding:.3em .5em;width:24em}
section.group{margin:1.2em 0}
h2{font-size:1.1em;margin:.2em 0}
.badge{display:inline-block;font-size:.8em;padding:0 .4em;border-radius:.3em;background:#e8eefc;margin-left:.4em}
.history,.decisions{color:#444;font-size:.9em;margin:.2em 0}
table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f4f4f4;white-space:nowrap}
td.text{max-width:40em;white-space:pre-wrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.null::after{content:"NULL";color:#bbb;font-size:.8em}
tr.deleted td{color:#999;background:#fafafa}
tr.deleted td.null::after{content:""}
.gone{color:#b00;font-weight:bold;font-size:.85em;margin-left:.4em}
td.date{white-space:nowrap;font-variant-numeric:tabular-nums}
td.link{white-space:nowrap}
td.link .rule{color:#555;font-size:.85em}
td.link.weakest,td.key.weak{background:#fff1e0}
p.weakest{color:#8a4b00;font-size:.9em;margin:.2em 0}
mark{background:#ffe27a}
del{color:#b33;background:#fde8e8}
.hidden{display:none}
"""

SCRIPT = """
(function () {
  var box = document.getElementById('filter');
  var order = document.getElementById('order');
  var main = document.getElementById('groups');
  var shown = document.getElementById('shown');
  var groups = Array.prototype.slice.call(main.querySelectorAll('section.group'));
  var template = shown.getAttribute('data-template');
  groups.forEach(function (g, i) { g.setAttribute('data-pos', i); g.setAttribute('data-text', g.textContent.toLowerCase()); });
  function apply() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(function (w) { return w; });
    var n = 0;
    groups.forEach(function (g) {
      var text = g.getAttribute('data-text');
      var hit = words.every(function (w) { return text.indexOf(w) >= 0; });
      g.classList.toggle('hidden', !hit);
      if (hit) { n += 1; }
    });
    shown.textContent = template.replace('{n}', n).replace('{total}', groups.length);
  }
  function sort() {
    var key = order.value;
    var sorted = groups.slice().sort(function (a, b) {
      if (key === 'id') { return a.getAttribute('data-id') - b.getAttribute('data-id'); }
      if (key === 'weakest') { return a.getAttribute('data-weakest') - b.getAttribute('data-weakest') ||
                                      a.getAttribute('data-pos') - b.getAttribute('data-pos'); }
      if (key === 'size') { return b.getAttribute('data-size') - a.getAttribute('data-size') ||
                                   a.getAttribute('data-pos') - b.getAttribute('data-pos'); }
      return a.getAttribute('data-pos') - b.getAttribute('data-pos');
    });
    sorted.forEach(function (g) { main.appendChild(g); });
  }
  box.addEventListener('input', apply);
  order.addEventListener('change', sort);
  var m = /[#&]q=([^&]*)/.exec(location.hash);
  if (m) { box.value = decodeURIComponent(m[1]); }
  apply();
  document.body.setAttribute('data-ready', '1');
})();
"""
