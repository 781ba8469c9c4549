#include "app_templates.hpp"

#include <optional>
#include <regex>
#include <string_view>

#include "phrasing.hpp"

namespace builtin {

const char* const kAppsNeedAModel =
    "The offline model (model-builtin) builds only checklist, timer, counter and unit converter "
    "apps. To build other apps, configure a model: set model.provider to openai (with "
    "model.openai.api_key or OPENAI_API_KEY) or anthropic (with model.anthropic.api_key or "
    "ANTHROPIC_API_KEY).";

namespace {

// ---- the documents ----------------------------------------------------------------------------
// Each is one file: inline style and script, nothing loaded, no storage (the frame is sandboxed
// with an opaque origin), DOM built with textContent (never innerHTML), labelled controls, plain
// buttons rather than a form (a sandbox without allow-forms submits none).

#define BASE_STYLE                                                                         \
    ":root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;" \
    "--accent:#0b5fc7;--soft:#eef4fc}\n"                                                   \
    "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;"  \
    "--line:#30363d;--accent:#4493f8;--soft:#161b22}}\n"                                   \
    "*{box-sizing:border-box}\n"                                                           \
    "body{margin:0;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"  \
    "color:var(--fg);background:var(--bg)}\n"                                              \
    "main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem}\n"                            \
    "h1{font-size:1.5rem;margin:0 0 1rem}\n"                                               \
    "button,input,select{font:inherit}\n"                                                  \
    "button{background:var(--accent);color:#fff;border:1px solid var(--accent);"           \
    "border-radius:.4rem;padding:.5rem .9rem;cursor:pointer}\n"                            \
    "button.secondary{background:transparent;color:var(--fg);border-color:var(--line)}\n"  \
    "button:disabled{opacity:.45;cursor:default}\n"                                        \
    "input,select{color:var(--fg);background:var(--bg);border:1px solid var(--line);"      \
    "border-radius:.4rem;padding:.45rem .6rem}\n"                                          \
    ":focus-visible{outline:2px solid var(--accent);outline-offset:2px}\n"                 \
    ".sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);"  \
    "white-space:nowrap}\n"                                                                \
    ".status{color:var(--muted);font-size:.875rem;min-height:1.3em}\n"

const char* const kChecklist = R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checklist</title>
<style>
)HTML" BASE_STYLE R"HTML(.add{display:flex;gap:.5rem;margin-bottom:1rem}
.add input{flex:1;min-width:0}
ul{list-style:none;margin:0;padding:0}
li{display:flex;align-items:center;gap:.6rem;padding:.4rem 0;border-bottom:1px solid var(--line)}
li label{flex:1;display:flex;align-items:center;gap:.6rem;cursor:pointer;overflow-wrap:anywhere}
li input{width:1.15rem;height:1.15rem;accent-color:var(--accent)}
li.done span{text-decoration:line-through;color:var(--muted)}
li button{background:transparent;color:var(--muted);border-color:transparent;padding:.2rem .5rem}
li button:hover{border-color:var(--line)}
.empty{color:var(--muted)}
.bar{display:flex;justify-content:space-between;align-items:center;gap:.5rem;margin-top:1rem}
</style>
</head>
<body>
<main>
<h1>Checklist</h1>
<div class="add">
<label class="sr-only" for="new">New item</label>
<input id="new" type="text" autocomplete="off" maxlength="200" placeholder="Add an item">
<button type="button" id="add">Add</button>
</div>
<ul id="items" aria-label="Items"></ul>
<p class="empty" id="empty">Nothing on the list yet.</p>
<div class="bar">
<span id="count" aria-live="polite"></span>
<button type="button" class="secondary" id="clear" disabled>Remove checked items</button>
</div>
<p class="status" id="status" role="status"></p>
</main>
<script>
(function () {
  'use strict';
  // The list is kept in the viewer's notes (one note, rewritten on each change) when the app
  // SDK answers; otherwise in this page only, and the status line says so.
  var TITLE = 'Checklist (app)';
  var HEAD = 'Kept by the Checklist app: one item a line, [x] when done.';
  var ITEM = /^- \[([ xX])\] (.*)$/;
  var items = [], extra = [], inNotes = false, queue = Promise.resolve();
  function $(id) { return document.getElementById(id); }
  var list = $('items'), input = $('new'), statusLine = $('status');

  function say(text) { statusLine.textContent = text; }
  function reason(e) { return e && e.message ? e.message : 'not available'; }
  function sdk() {
    return typeof platform === 'object' && platform !== null && typeof platform.call === 'function';
  }
  function timed(promise) {
    return new Promise(function (resolve, reject) {
      var t = setTimeout(function () { reject(new Error('no answer from the app SDK')); }, 5000);
      promise.then(function (v) { clearTimeout(t); resolve(v); },
                   function (e) { clearTimeout(t); reject(e); });
    });
  }
  function onlyHere(why) {
    inNotes = false;
    say('Kept in this page only (' + why + '): the list is gone when the page closes.');
  }
  function savedMessage() { say('Saved in your notes as "' + TITLE + '".'); }

  function parse(text) {
    var found = [];
    extra = [];
    String(text).split('\n').forEach(function (line) {
      var m = ITEM.exec(line);
      if (m) found.push({text: m[2], done: m[1] !== ' '});
      else if (line !== HEAD && line.trim() !== '') extra.push(line);
    });
    return found;
  }
  function serialise() {
    return [HEAD].concat(extra, items.map(function (it) {
      return '- [' + (it.done ? 'x' : ' ') + '] ' + it.text;
    })).join('\n');
  }
  function persist() {
    if (!inNotes) return;
    var text = serialise();
    queue = queue.then(function () {
      if (!inNotes) return null;
      return timed(platform.call('notes', 'add', {title: TITLE, text: text}))
        .then(savedMessage, function (e) { onlyHere('saving failed: ' + reason(e)); });
    });
  }

  function counts() {
    var done = items.filter(function (it) { return it.done; }).length;
    $('empty').hidden = items.length > 0;
    $('count').textContent = items.length ? done + ' of ' + items.length + ' done' : '';
    $('clear').disabled = done === 0;
  }
  function render() {
    list.textContent = '';
    items.forEach(function (it) {
      var li = document.createElement('li');
      var label = document.createElement('label');
      var box = document.createElement('input');
      var text = document.createElement('span');
      var remove = document.createElement('button');
      li.className = it.done ? 'done' : '';
      box.type = 'checkbox';
      box.checked = it.done;
      box.addEventListener('change', function () {
        it.done = box.checked;
        li.className = it.done ? 'done' : '';
        counts();
        persist();
      });
      text.textContent = it.text;
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', 'Remove ' + it.text);
      remove.addEventListener('click', function () {
        items = items.filter(function (other) { return other !== it; });
        render();
        persist();
        input.focus();
      });
      label.appendChild(box);
      label.appendChild(text);
      li.appendChild(label);
      li.appendChild(remove);
      list.appendChild(li);
    });
    counts();
  }

  function add() {
    var text = input.value.replace(/\s+/g, ' ').trim();
    if (text) {
      items.push({text: text, done: false});
      input.value = '';
      render();
      persist();
    }
    input.focus();
  }
  $('add').addEventListener('click', add);
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); add(); }
  });
  $('clear').addEventListener('click', function () {
    items = items.filter(function (it) { return !it.done; });
    render();
    persist();
  });

  render();
  if (!sdk()) {
    onlyHere('no app SDK here');
  } else {
    say('Loading your list...');
    timed(platform.call('notes', 'get', {title: TITLE})).then(function (note) {
      var added = items;
      items = parse(note && typeof note.text === 'string' ? note.text : '').concat(added);
      inNotes = true;
      render();
      if (added.length) persist(); else savedMessage();
    }, function (e) {
      if (e && e.status === 404) {
        inNotes = true;
        say('A new list: it is saved in your notes as "' + TITLE + '".');
        if (items.length) persist();
      } else {
        onlyHere('your notes: ' + reason(e));
      }
    });
  }
})();
</script>
</body>
</html>
)HTML";

const char* const kTimer =
    R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Countdown timer</title>
<style>
)HTML" BASE_STYLE
    R"HTML(.display{font-size:clamp(3rem,16vw,5.5rem);font-variant-numeric:tabular-nums;text-align:center;
margin:.5rem 0 1rem;padding:.5rem;border-radius:.6rem;background:var(--soft)}
.display.up{color:#fff;background:#c62828}
fieldset{border:1px solid var(--line);border-radius:.5rem;display:flex;gap:.75rem;flex-wrap:wrap;margin:0 0 1rem}
fieldset label{display:flex;flex-direction:column;font-size:.875rem;color:var(--muted)}
fieldset input{width:5rem;font-size:1.1rem}
.row{display:flex;gap:.5rem;flex-wrap:wrap;margin-bottom:1rem}
</style>
</head>
<body>
<main>
<h1>Countdown timer</h1>
<div class="display" id="display" role="timer" aria-label="Time left">05:00</div>
<fieldset id="duration">
<legend>Duration</legend>
<label for="h">Hours <input id="h" type="number" min="0" max="99" step="1" value="0" inputmode="numeric"></label>
<label for="m">Minutes <input id="m" type="number" min="0" max="59" step="1" value="5" inputmode="numeric"></label>
<label for="s">Seconds <input id="s" type="number" min="0" max="59" step="1" value="0" inputmode="numeric"></label>
</fieldset>
<div class="row" role="group" aria-label="Presets">
<button type="button" class="secondary preset" data-minutes="1">1 min</button>
<button type="button" class="secondary preset" data-minutes="5">5 min</button>
<button type="button" class="secondary preset" data-minutes="10">10 min</button>
<button type="button" class="secondary preset" data-minutes="25">25 min</button>
</div>
<div class="row">
<button type="button" id="start">Start</button>
<button type="button" id="pause" disabled>Pause</button>
<button type="button" class="secondary" id="reset">Reset</button>
</div>
<p class="status" id="status" role="status" aria-live="polite"></p>
</main>
<script>
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  var display = $('display'), fields = [$('h'), $('m'), $('s')];
  var presets = Array.prototype.slice.call(document.querySelectorAll('.preset'));
  var left = 0;       // milliseconds left when paused; 0 = start from the fields
  var endAt = 0;      // Date.now() at the end, while running
  var tick = null, audio = null;

  function say(text) { $('status').textContent = text; }
  function whole(input, max) {
    var v = Math.floor(Number(input.value));
    return isFinite(v) && v > 0 ? Math.min(v, max) : 0;
  }
  function fromFields() {
    return ((whole(fields[0], 99) * 60 + whole(fields[1], 59)) * 60 + whole(fields[2], 59)) * 1000;
  }
  function two(n) { return (n < 10 ? '0' : '') + n; }
  function format(ms) {
    var t = Math.ceil(ms / 1000), hours = Math.floor(t / 3600);
    return (hours ? hours + ':' : '') + two(Math.floor((t % 3600) / 60)) + ':' + two(t % 60);
  }
  function show(ms) {
    display.textContent = format(ms);
    document.title = (tick ? format(ms) + ' - ' : '') + 'Countdown timer';
  }
  function running(on) {
    $('start').disabled = on;
    $('pause').disabled = !on;
    fields.concat(presets).forEach(function (el) { el.disabled = on; });
  }
  function stop() {
    clearInterval(tick);
    tick = null;
    running(false);
  }
  function update() {
    left = Math.max(0, endAt - Date.now());
    show(left);
    if (left === 0) finish();
  }
  function start() {
    if (tick) return;
    if (left <= 0) left = fromFields();
    if (left <= 0) { say('Set a duration first.'); return; }
    display.classList.remove('up');
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!audio && Context) audio = new Context();
      if (audio && audio.state === 'suspended') audio.resume();
    } catch (e) { audio = null; }
    endAt = Date.now() + left;
    tick = setInterval(update, 200);
    running(true);
    say('Running.');
    update();
  }
  function pause() {
    if (!tick) return;
    left = Math.max(0, endAt - Date.now());
    stop();
    show(left);
    say('Paused.');
  }
  function reset() {
    stop();
    left = 0;
    display.classList.remove('up');
    show(fromFields());
    say('');
  }
  function beep() {
    if (!audio) return;
    try {
      var now = audio.currentTime;
      [0, 0.4, 0.8].forEach(function (at) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = 880;
        gain.gain.value = 0.2;
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.25);
      });
    } catch (e) { /* no sound: the display and the status line still say it */ }
  }
  function finish() {
    stop();
    left = 0;
    display.classList.add('up');
    document.title = 'Time is up - Countdown timer';
    say('Time is up!');
    beep();
  }

  $('start').addEventListener('click', start);
  $('pause').addEventListener('click', pause);
  $('reset').addEventListener('click', reset);
  fields.forEach(function (el) {
    el.addEventListener('input', function () {
      if (tick) return;
      left = 0;
      display.classList.remove('up');
      show(fromFields());
    });
  });
  presets.forEach(function (button) {
    button.addEventListener('click', function () {
      var minutes = Number(button.getAttribute('data-minutes'));
      fields[0].value = String(Math.floor(minutes / 60));
      fields[1].value = String(minutes % 60);
      fields[2].value = '0';
      reset();
    });
  });
  show(fromFields());
})();
</script>
</body>
</html>
)HTML";

const char* const kCounter =
    R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Counter</title>
<style>
)HTML" BASE_STYLE
    R"HTML(.value{display:block;font-size:clamp(3.5rem,18vw,6rem);font-variant-numeric:tabular-nums;
text-align:center;margin:.5rem 0 1rem;padding:.5rem;border-radius:.6rem;background:var(--soft)}
.big{display:grid;grid-template-columns:1fr 1fr;gap:.75rem;margin-bottom:1rem}
.big button{font-size:2rem;padding:.75rem}
.row{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
.row input{width:6rem}
.hint{color:var(--muted);font-size:.875rem}
</style>
</head>
<body>
<main>
<h1>Counter</h1>
<output class="value" id="value" aria-live="polite" aria-label="Count">0</output>
<div class="big">
<button type="button" id="down" aria-label="Count down by the step">&minus;</button>
<button type="button" id="up" aria-label="Count up by the step">+</button>
</div>
<div class="row">
<label for="step">Step</label>
<input id="step" type="number" min="1" step="1" value="1" inputmode="numeric">
<button type="button" class="secondary" id="undo" disabled>Undo</button>
<button type="button" class="secondary" id="reset">Reset to 0</button>
</div>
<p class="hint">Keys: + or arrow up counts up, &minus; or arrow down counts down. The count lasts while this page is open.</p>
</main>
<script>
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  var count = 0, undo = [];

  function step() {
    var v = Math.floor(Number($('step').value));
    return isFinite(v) && v > 0 ? v : 1;
  }
  function set(next) {
    undo.push(count);
    if (undo.length > 100) undo.shift();
    count = next;
    show();
  }
  function show() {
    $('value').textContent = String(count);
    document.title = count + ' - Counter';
    $('undo').disabled = undo.length === 0;
  }
  $('up').addEventListener('click', function () { set(count + step()); });
  $('down').addEventListener('click', function () { set(count - step()); });
  $('reset').addEventListener('click', function () { if (count !== 0) set(0); });
  $('undo').addEventListener('click', function () {
    if (!undo.length) return;
    count = undo.pop();
    show();
  });
  document.addEventListener('keydown', function (e) {
    var target = e.target && e.target.tagName;
    if (target === 'INPUT' || target === 'SELECT' || target === 'TEXTAREA') return;
    if (e.key === '+' || e.key === '=' || e.key === 'ArrowUp') {
      e.preventDefault();
      set(count + step());
    } else if (e.key === '-' || e.key === 'ArrowDown') {
      e.preventDefault();
      set(count - step());
    }
  });
  show();
})();
</script>
</body>
</html>
)HTML";

const char* const kConverter =
    R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unit converter</title>
<style>
)HTML" BASE_STYLE
    R"HTML(.grid{display:grid;grid-template-columns:max-content 1fr;gap:.6rem .75rem;align-items:center;margin-bottom:1rem}
.grid input,.grid select{width:100%}
.result{font-size:1.4rem;margin:1rem 0;padding:.75rem;border-radius:.6rem;background:var(--soft);overflow-wrap:anywhere}
</style>
</head>
<body>
<main>
<h1>Unit converter</h1>
<div class="grid">
<label for="kind">Quantity</label>
<select id="kind"></select>
<label for="amount">Value</label>
<input id="amount" type="number" step="any" value="1" inputmode="decimal">
<label for="from">From</label>
<select id="from"></select>
<label for="to">To</label>
<select id="to"></select>
</div>
<button type="button" class="secondary" id="swap">Swap units</button>
<p class="result"><output id="result" for="amount from to" aria-live="polite"></output></p>
<p class="status">US customary volumes (cups, pints, gallons) unless marked imperial.</p>
</main>
<script>
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  // Each unit: [symbol, name, size in the quantity's base unit (metre, kilogram, litre)].
  // Temperatures convert through kelvins instead.
  var KINDS = {
    length: {label: 'Length', from: 'km', to: 'mi', units: [
      ['mm', 'millimetres', 0.001], ['cm', 'centimetres', 0.01], ['m', 'metres', 1],
      ['km', 'kilometres', 1000], ['in', 'inches', 0.0254], ['ft', 'feet', 0.3048],
      ['yd', 'yards', 0.9144], ['mi', 'miles', 1609.344]]},
    weight: {label: 'Weight', from: 'kg', to: 'lb', units: [
      ['mg', 'milligrams', 1e-6], ['g', 'grams', 0.001], ['kg', 'kilograms', 1],
      ['t', 'tonnes', 1000], ['oz', 'ounces', 0.028349523125], ['lb', 'pounds', 0.45359237],
      ['st', 'stones', 6.35029318]]},
    temperature: {label: 'Temperature', from: 'C', to: 'F', units: [
      ['C', 'degrees Celsius'], ['F', 'degrees Fahrenheit'], ['K', 'kelvins']]},
    volume: {label: 'Volume', from: 'l', to: 'gal', units: [
      ['ml', 'millilitres', 0.001], ['l', 'litres', 1], ['tsp', 'teaspoons', 0.00492892159375],
      ['tbsp', 'tablespoons', 0.01478676478125], ['cup', 'cups', 0.2365882365],
      ['fl oz', 'fluid ounces', 0.0295735295625], ['pt', 'pints', 0.473176473],
      ['gal', 'gallons', 3.785411784], ['imp gal', 'imperial gallons', 4.54609]]}
  };
  var kind = $('kind'), amount = $('amount'), from = $('from'), to = $('to'), result = $('result');

  function unit(symbol) {
    return KINDS[kind.value].units.filter(function (u) { return u[0] === symbol; })[0];
  }
  function symbolOf(u) { return kind.value === 'temperature' && u[0] !== 'K' ? '\u00b0' + u[0] : u[0]; }
  function label(u) { return u[1] + ' (' + symbolOf(u) + ')'; }
  function fill(select, chosen) {
    select.textContent = '';
    KINDS[kind.value].units.forEach(function (u) {
      var option = document.createElement('option');
      option.value = u[0];
      option.textContent = label(u);
      option.selected = u[0] === chosen;
      select.appendChild(option);
    });
  }
  function toKelvin(v, symbol) {
    if (symbol === 'C') return v + 273.15;
    if (symbol === 'F') return (v - 32) * 5 / 9 + 273.15;
    return v;
  }
  function fromKelvin(k, symbol) {
    if (symbol === 'C') return k - 273.15;
    if (symbol === 'F') return (k - 273.15) * 9 / 5 + 32;
    return k;
  }
  function format(n) {
    var r = Number(n.toPrecision(10));
    if (r !== 0 && (Math.abs(r) >= 1e15 || Math.abs(r) < 1e-6)) return r.toExponential(6);
    return String(r);
  }
  function convert() {
    var text = amount.value.trim(), v = Number(text);
    if (text === '' || !isFinite(v)) { result.textContent = 'Enter a number to convert.'; return; }
    var a = unit(from.value), b = unit(to.value), out;
    if (kind.value === 'temperature') {
      var k = toKelvin(v, a[0]);
      if (k < 0) { result.textContent = 'That is below absolute zero.'; return; }
      out = fromKelvin(k, b[0]);
    } else {
      out = v * a[2] / b[2];
    }
    result.textContent = format(v) + ' ' + symbolOf(a) + ' = ' + format(out) + ' ' + symbolOf(b);
  }
  function choose() {
    var k = KINDS[kind.value];
    fill(from, k.from);
    fill(to, k.to);
    convert();
  }

  Object.keys(KINDS).forEach(function (key) {
    var option = document.createElement('option');
    option.value = key;
    option.textContent = KINDS[key].label;
    kind.appendChild(option);
  });
  kind.addEventListener('change', choose);
  amount.addEventListener('input', convert);
  from.addEventListener('change', convert);
  to.addEventListener('change', convert);
  $('swap').addEventListener('click', function () {
    var a = from.value;
    from.value = to.value;
    to.value = a;
    convert();
  });
  choose();
})();
</script>
</body>
</html>
)HTML";

#undef BASE_STYLE

// ---- matching ---------------------------------------------------------------------------------

struct Words {
    const char* key;
    const char* match;   // any of these, on word boundaries
    const char* unless;  // none of these
};

#define UNIT                                                                                       \
    "(?:celsius|fahrenheit|kelvin|km|kilomet(?:er|re)s?|miles?|kg|kilograms?|grams?|pounds?|lbs?|" \
    "ounces?|oz|met(?:er|re)s?|feet|foot|inch(?:es)?|cm|centimet(?:er|re)s?|lit(?:er|re)s?|"       \
    "gallons?|cups?)"
const Words kWords[] = {
    {"checklist",
     R"(\b(?:check[- ]?lists?|to-?dos?|to do lists?|(?:packing|shopping|grocery|task) lists?)\b)",
     nullptr},
    {"timer", R"(\b(?:timers?|count[- ]?downs?|pomodoro)\b)",
     R"(\bcount(?:ing)?[- ]?downs?(?: timers?)? (?:to|until|till)\b|\b(?:days|time) (?:left )?(?:until|till)\b|\bstop ?watch(?:es)?\b)"},
    {"counter", R"(\b(?:counters?|tally|tallies|clicker)\b)",
     R"(\b(?:words?|characters?|chars?|letters?|lines?|calories?|steps?|tokens?|syllables?|pages?|visitors?|views?) counters?\b)"},
    {"converter",
     "\\b(?:(?:units?|measurements?|metric|imperial|length|distance|weight|mass|temperature|volume)"
     " "
     "(?:converters?|convertors?|conversions?)|convert(?:s|ing|er)? (?:between )?(?:units|"
     "measurements|lengths?|distances?|weights?|temperatures?|volumes?)|" UNIT
     " (?:to|and|into) " UNIT ")\\b",
     R"(\bcurrenc(?:y|ies)\b|\bexchange rates?\b)"},
};
#undef UNIT

struct Compiled {
    std::regex match;
    std::optional<std::regex> unless;
};

const std::vector<Compiled>& compiled() {
    static const std::vector<Compiled> all = [] {
        std::vector<Compiled> out;
        for (const Words& w : kWords) {
            Compiled c{std::regex(w.match, std::regex::ECMAScript | std::regex::icase), {}};
            if (w.unless) c.unless.emplace(w.unless, std::regex::ECMAScript | std::regex::icase);
            out.push_back(std::move(c));
        }
        return out;
    }();
    return all;
}

}  // namespace

const std::vector<AppTemplate>& app_templates() {
    static const std::vector<AppTemplate> all = {
        {"checklist", "Checklist",
         "A checklist: add items, tick them off, remove them. Kept in your notes (the note "
         "\"Checklist (app)\") when the app may use notes, otherwise only while the page is open.",
         kChecklist},
        {"timer", "Countdown timer",
         "A countdown timer: set hours, minutes and seconds (or a preset), then start, pause and "
         "reset; it beeps and shows when the time is up.",
         kTimer},
        {"counter", "Counter",
         "A tally counter: count up and down by a step, undo, reset; keyboard keys too. The count "
         "lasts while the page is open.",
         kCounter},
        {"converter", "Unit converter",
         "Converts length, weight, temperature and volume between metric, US and imperial units.",
         kConverter},
    };
    return all;
}

const AppTemplate* match_app(const std::string& request) {
    const std::string text = lower(normalise(request));
    if (text.empty() || text.size() > kLongestAppRequest) return nullptr;
    const auto& res = compiled();
    const AppTemplate* found = nullptr;
    for (size_t i = 0; i < res.size(); ++i) {
        if (!std::regex_search(text, res[i].match)) continue;
        if (res[i].unless && std::regex_search(text, *res[i].unless)) continue;
        if (found) return nullptr;  // two templates named: neither is what was asked for
        for (const AppTemplate& t : app_templates())
            if (std::string_view(t.key) == kWords[i].key) found = &t;
    }
    return found;
}

}  // namespace builtin
