/*
 * aplan's HTML report: draws the plans embedded by src/cli/svg.c as JSON in #aplan-data:
 *   {name, bound, boundStep, alignment, capacity (bytes or null),
 *    wholeCapacity (optional: a model's capacity as given, which leaves capacity to the planned section after TFLM's
 *    persistent data),
 *    runs: [{name, planned, arena, best, shown, outcome (cli_outcome_key's word or null), nodes}],
 *    id: [...], lower: [...], len: [...], size: [...], offsets: [[...] or null, one per run],
 *    names: [...] (optional: the tensors' names, when the input names them beyond their ids),
 *    tensors: [...] (optional: "INT8 [1x48x48x8]", type and shape, "" when not known),
 *    steps: [...] (optional: what runs at each step, "CONV_2D (op 28 of subgraph 0)")}
 * (one entry per input buffer in every column but steps; len is upper - lower, 0 for a buffer never live). The table
 * #runs holds a checkbox input.show[data-run=k] per run. Every shown plan gets a panel with the same scales (steps
 * across, bytes down) and the same view: wheel or buttons zoom, dragging pans.
 * With several memories (aplan plan --region ...), the data also holds
 *   regions: [{name, capacity (bytes or null), alignment, bound}] (fastest first), trafficBound,
 *   runs[k].traffic, .over (regions past their capacity), .arenas ([one per region] or null),
 *   regionOf: [[each buffer's region] or null, one per run] (offsets are then in the region's arena),
 *   uses: [...] (optional: the operators that read or write each buffer; 1 each without),
 * with bound, boundStep and capacity null. Each shown plan then gets a figure with one panel per region, stacked: the
 * panels share the step axis and the view (time zoomed and panned together; bytes as a share of each region's own
 * scale, which reaches its largest shown arena, and its capacity when that is at most twice as much), and each draws
 * only the buffers its plan puts in its region. Buffers are painted into a pixel raster,
 * largest first, none thinner than MIN_H, so drawing costs the pixels covered plus one pass over the buffers, at 10
 * buffers or 100,000; outlines and labels are added only where a rectangle is big enough to carry them.
 *
 * Names come from nameOf() (the tensor's name, else the id) and idOf() alone; the search matches either. They reach
 * the page only through textContent, never as markup.
 * The address may say #search=TEXT&colour=MODE; the page keeps it in step with the search box. What was drawn is
 * written into #selfcheck (data-state ok|error, data-errors, data-panels (drawing areas: one per shown plan, or per
 * shown plan and region), data-figures (shown plans), data-regions (0 with one arena), data-region-painted (per
 * panel of the first figure, space-separated: the pixels its buffers cover in its first raster, every third
 * counted, lines and text aside), data-beyond (panels whose plan passes the capacity, tinted past it), data-drawn,
 * data-painted, data-matches, data-first-match, data-ms; data-view "t0 t1 b0 b1" after every drawing (b0 b1 in
 * bytes, or with regions a share of each region's scale), data-hover the name under the pointer), which
 * tests/cli/browser_test.sh reads from the DOM.
 */
(function () {
  'use strict';
  var started = performance.now();
  var check = document.getElementById('selfcheck');
  var errors = [];
  function noteError(message) {
    errors.push(String(message));
    check.dataset.state = 'error';
    check.dataset.errors = String(errors.length);
    check.textContent = 'script error: ' + errors.join('; ');
  }
  window.addEventListener('error', function (e) { noteError(e.message); });

  var PALETTE = ['#440154', '#46327e', '#365c8d', '#277f8e', '#1fa187', '#4ac16d', '#a0da39', '#fde725'];
  var M = {l: 74, r: 12, t: 8, b: 22};   /* plot margins, CSS px */
  var PANEL_H = 300, LIVE_H = 150;
  var REGION_H = 200;                     /* CSS px: a region's panel, with regions */
  var MIN_H = 2;                          /* px: the thinnest buffer drawn, as in the SVG */
  var OUTLINES = 3000, LABELS = 600, MARKED = 2000, LISTED = 200;
  var FONT = '11px system-ui, sans-serif';
  var LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

  var D = JSON.parse(document.getElementById('aplan-data').textContent);
  var REGIONS = D.regions || null;        /* several memories: a panel per region; null for one arena */
  var n = D.id.length;
  var lower = new Float64Array(D.lower), len = new Float64Array(D.len), size = new Float64Array(D.size);
  var upper = new Float64Array(n);
  var inMemory = [];
  for (var i = 0; i < n; i++) {
    upper[i] = lower[i] + len[i];
    if (len[i] > 0 && size[i] > 0) inMemory.push(i);
  }
  /* Painting order: largest area first, so small buffers end up on top (as in the SVG); hit tests go backwards. */
  inMemory.sort(function (a, b) { return size[b] * len[b] - size[a] * len[a] || a - b; });
  var order = Uint32Array.from(inMemory);

  /* The one place the page takes a buffer's name from (svg.c's buffer_name() on the C side), and its id. */
  function nameOf(i) { return D.names ? D.names[i] : D.id[i]; }
  function idOf(i) { return D.id[i]; }
  /* "name (id)" when the input names the buffer beyond its id, else the id. */
  function titleOf(i) { return D.names && D.names[i] !== D.id[i] ? D.names[i] + ' (' + D.id[i] + ')' : D.id[i]; }
  /* What runs at a step ("" when the input does not say). */
  function stepText(t) { return D.steps && t >= 0 && t < D.steps.length ? D.steps[t] : ''; }
  /* Lower-cased names and ids for the search, made at its first use. */
  function lowered(list) { return list.map(function (s) { return s.toLowerCase(); }); }
  var lowNames = null, lowIds = null;
  function lowerId(i) {
    if (lowIds === null) lowIds = lowered(D.id);
    return lowIds[i];
  }
  function lowerName(i) {
    if (!D.names) return lowerId(i);
    if (lowNames === null) lowNames = lowered(D.names);
    return lowNames[i];
  }

  var runs = D.runs.map(function (r, k) {
    return {k: k, name: r.name, arena: r.arena, best: r.best, planned: r.planned,
      off: r.planned ? new Float64Array(D.offsets[k]) : null,
      traffic: r.traffic, over: r.over, arenas: r.arenas || null,
      regionOf: REGIONS && r.planned ? Uint8Array.from(D.regionOf[k]) : null,
      box: document.querySelector('#runs input.show[data-run="' + k + '"]')};
  });
  var bestRun = runs.filter(function (r) { return r.best; })[0] || runs.filter(function (r) { return r.planned; })[0];

  /* ---- Numbers --------------------------------------------------------------------------------------------- */
  var UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  function fmtBytes(v) {
    var u = 0, div = 1;
    while (u + 1 < UNITS.length && v / div >= 1024) { div *= 1024; u++; }
    var x = v / div;
    var s = x % 1 === 0 ? String(x) : x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0);
    if (s.indexOf('.') >= 0) s = s.replace(/0+$/, '').replace(/[.]$/, '');
    return s + ' ' + UNITS[u];
  }
  /* A byte tick v (a multiple of tick, a power of two) as fmtBytes writes it when that is exact, else in the largest
   * unit that divides tick, so zoomed-in ticks never look unevenly spaced ("1296 KiB", not "1.27 MiB"). */
  function fmtTick(v, tick) {
    var s = fmtBytes(v), parts = s.split(' ');
    if (Number(parts[0]) * Math.pow(1024, UNITS.indexOf(parts[1])) === v) return s;
    var u = 0;
    while (u + 1 < UNITS.length && tick / Math.pow(1024, u) >= 1024) u++;
    return v / Math.pow(1024, u) + ' ' + UNITS[u];
  }
  /* A count and its noun, plural unless it is 1: "1 byte", "0 bytes". */
  function countOf(k, noun) { return k + ' ' + noun + (k === 1 ? '' : 's'); }
  function fmtExact(v) { return v < 1024 ? countOf(v, 'byte') : fmtBytes(v) + ' (' + v + ' bytes)'; }
  function stepsOf(i) { return 'steps [' + lower[i] + ', ' + upper[i] + ')'; }
  /* Steps: 1, 2 or 5 times a power of ten, about 8 ticks. Bytes: powers of two, round in KiB/MiB. */
  function stepTick(span) {
    var want = span / 8;
    for (var mag = 1; ; mag *= 10) {
      if (mag >= want) return mag;
      if (2 * mag >= want) return 2 * mag;
      if (5 * mag >= want) return 5 * mag;
    }
  }
  function byteTick(span, most) {
    var t = 1;
    while (t * most < span) t *= 2;
    return t;
  }

  /* ---- Colours --------------------------------------------------------------------------------------------- */
  function pack(hex, fade) {
    var v = parseInt(hex.slice(1), 16), r = v >> 16 & 255, g = v >> 8 & 255, b = v & 255;
    if (fade) { r += (255 - r) * fade | 0; g += (255 - g) * fade | 0; b += (255 - b) * fade | 0; }
    return (LITTLE ? (255 << 24 | b << 16 | g << 8 | r) : (r << 24 | g << 16 | b << 8 | 255)) >>> 0;
  }
  var BG = pack('#f6f6f6'), BEYOND = pack('#dedede');
  function log2Of(v) {
    var e = Math.floor(Math.log2(v));
    if (Math.pow(2, e) > v) e--; else if (Math.pow(2, e + 1) <= v) e++;
    return e;
  }
  /* A colour mode gives every buffer a class (cls) and the legend one {label, colour} per class. powerClasses makes at
   * most 8 classes of whole powers of two of a quantity, spread over the palette (the SVG's size classes). A
   * categorical mode, e.g. by operator once the CLI exposes operators, returns the same shape with its own colours:
   * add it to MODES. */
  function powerClasses(values, label) {
    var lo = Infinity, hi = -Infinity, k, e;
    for (k = 0; k < order.length; k++) {
      e = log2Of(values[order[k]]);
      if (e < lo) lo = e;
      if (e > hi) hi = e;
    }
    if (!order.length) lo = hi = 0;
    var per = Math.ceil((hi - lo + 1) / 8), count = Math.ceil((hi - lo + 1) / per);
    var cls = new Uint8Array(n);
    for (k = 0; k < order.length; k++) cls[order[k]] = Math.floor((log2Of(values[order[k]]) - lo) / per);
    var legend = [];
    for (k = 0; k < count; k++) {
      legend.push({label: label(Math.pow(2, lo + k * per), Math.pow(2, lo + (k + 1) * per)),
        colour: PALETTE[count === 1 ? 4 : Math.floor(k * 7 / (count - 1))]});
    }
    return {cls: cls, legend: legend};
  }
  var MODES = [
    {key: 'size', label: 'size', classes: function () {
      return powerClasses(size, function (a, b) { return fmtBytes(a) + '\u2013' + fmtBytes(b); });
    }},
    {key: 'lifetime', label: 'lifetime', classes: function () {
      return powerClasses(len, function (a, b) {
        return b - a === 1 ? countOf(a, 'step') : a + '\u2013' + (b - 1) + ' steps';
      });
    }}
  ];
  var mode = null, cls = null, legend = [], fill = [], faded = [], ink = [];

  /* ---- State ----------------------------------------------------------------------------------------------- */
  var ext = {t0: Infinity, t1: -Infinity};
  for (var q = 0; q < order.length; q++) {
    ext.t0 = Math.min(ext.t0, lower[order[q]]);
    ext.t1 = Math.max(ext.t1, upper[order[q]]);
  }
  if (!order.length) { ext.t0 = 0; ext.t1 = 1; }
  if (D.boundStep !== null) {
    ext.t0 = Math.min(ext.t0, D.boundStep);
    ext.t1 = Math.max(ext.t1, D.boundStep + 1);
  }
  var view = {t0: ext.t0, t1: ext.t1, b0: 0, b1: 1};
  var figures = [], panels = [];           /* one figure per shown plan; its panels (one, or one per region) */
  var regionTop = [];                     /* with regions: the bytes each region's panels reach at view 0..1 */
  var query = '', queryText = '', match = null, matchList = [];
  var hover = -1, selected = -1;

  function shownRuns() { return runs.filter(function (r) { return r.planned && r.box && r.box.checked; }); }
  /* The bottom of the byte view: bytes with one arena; with regions 1, every region's whole scale. */
  function yMax() {
    if (REGIONS) return 1;
    var m = Math.max(D.bound, 1);
    shownRuns().forEach(function (r) { m = Math.max(m, r.arena); });
    return m;
  }
  /* Region q's scale (svg.c's region_y_hi): its largest shown arena or its bound, stretched to its capacity when
   * that is at most twice as much; an empty region shows its capacity. */
  function scaleOf(q) {
    var hi = REGIONS[q].bound, cap = REGIONS[q].capacity;
    shownRuns().forEach(function (r) { hi = Math.max(hi, r.arenas[q]); });
    if (cap !== null && cap > hi && (hi === 0 || cap / 2 <= hi)) hi = cap;
    return Math.max(hi, 1);
  }
  /* The bytes panel p shows: the view's, or with regions that share of its region's scale. */
  function bytesOf(p) {
    if (p.region < 0) return {b0: view.b0, b1: view.b1};
    var top = regionTop[p.region];
    return {b0: view.b0 * top, b1: view.b1 * top};
  }
  /* Whether panel p draws buffer i: every one with one arena, else those its plan puts in its region. */
  function inPanel(p, i) { return p.region < 0 || p.run.regionOf[i] === p.region; }
  function clampView() {
    var full = ext.t1 - ext.t0, spanT = Math.min(full, Math.max(Math.min(full, 1), view.t1 - view.t0));
    view.t0 = Math.max(ext.t0, Math.min(view.t0, ext.t1 - spanT));
    view.t1 = view.t0 + spanT;
    /* The least byte span: 16 bytes, with regions of the largest region's scale. */
    var least = REGIONS ? 16 / Math.max.apply(null, regionTop.concat([16])) : 16;
    var top = yMax(), spanB = Math.min(top, Math.max(Math.min(top, least), view.b1 - view.b0));
    view.b0 = Math.max(0, Math.min(view.b0, top - spanB));
    view.b1 = view.b0 + spanB;
  }

  /* ---- Page ------------------------------------------------------------------------------------------------ */
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (a) { e.setAttribute(a, attrs[a]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var app = document.getElementById('app');
  var controls = el('div', {id: 'controls'});
  var searchBox = el('input', {type: 'search', id: 'search', placeholder: 'search a name or id', 'aria-label': 'search buffers'});
  var colourSel = el('select', {id: 'colour', 'aria-label': 'colour by'});
  MODES.forEach(function (m) { colourSel.appendChild(el('option', {value: m.key}, m.label)); });
  var axesSel = el('select', {id: 'zoom-axes', 'aria-label': 'zoom what'});
  [['both', 'time and offset'], ['time', 'time'], ['bytes', 'offset']].forEach(function (o) {
    axesSel.appendChild(el('option', {value: o[0]}, o[1]));
  });
  var zoomIn = el('button', {type: 'button', id: 'zoom-in', title: 'zoom in'}, '+');
  var zoomOut = el('button', {type: 'button', id: 'zoom-out', title: 'zoom out'}, '\u2212');
  var zoomReset = el('button', {type: 'button', id: 'zoom-reset', title: 'show everything'}, 'reset');
  var label = function (text, control) { var l = el('label', {}, text + ' '); l.appendChild(control); return l; };
  controls.appendChild(label('search', searchBox));
  controls.appendChild(label('colour by', colourSel));
  var zoomGroup = el('span', {}, 'zoom ');
  [zoomIn, zoomOut, zoomReset].forEach(function (b) { zoomGroup.appendChild(b); });
  zoomGroup.appendChild(document.createTextNode(' '));
  zoomGroup.appendChild(axesSel);
  controls.appendChild(zoomGroup);
  controls.appendChild(el('span', {class: 'hint'}, 'wheel zooms, drag pans; hover or click a buffer'));
  var legendDiv = el('div', {id: 'legend'});
  var hiddenNote = el('p', {id: 'hidden-note'});
  var panelsDiv = el('div', {id: 'panels'});
  var liveFig = el('figure', {class: 'panel', id: 'live'});
  liveFig.appendChild(el('figcaption', {}, REGIONS ?
    'Bytes live at each step, in all memories together. Orange: the capacity of ' + REGIONS[0].name +
    ', the fastest; where the curve passes it, some of those bytes must be in a slower memory.' :
    'Bytes live at each step: every plan must hold them at once. ' +
    'Dashed red: the lower bound; grey: each shown plan\u2019s arena' + (D.capacity !== null ? '; orange: the capacity.' : '.')));
  var liveStage = el('div', {class: 'stage'});
  var liveCanvas = el('canvas', {class: 'base'});
  liveStage.appendChild(liveCanvas);
  liveFig.appendChild(liveStage);
  var listSection = el('section', {id: 'list'});
  var matchCount = el('p', {id: 'match-count'});
  var matchOl = el('ol', {id: 'matches'});
  listSection.appendChild(el('h2', {}, 'Buffers'));
  listSection.appendChild(matchCount);
  listSection.appendChild(matchOl);
  [controls, legendDiv, hiddenNote, panelsDiv, liveFig, listSection].forEach(function (e) { app.appendChild(e); });
  var tip = el('div', {id: 'tip'});
  tip.hidden = true;
  document.body.appendChild(tip);

  function setMode(key) {
    mode = MODES.filter(function (m) { return m.key === key; })[0] || MODES[0];
    colourSel.value = mode.key;
    var c = mode.classes();
    cls = c.cls;
    legend = c.legend;
    fill = legend.map(function (l) { return pack(l.colour); });
    faded = legend.map(function (l) { return pack(l.colour, 0.8); });
    ink = legend.map(function (l) { return PALETTE.indexOf(l.colour) >= 0 && PALETTE.indexOf(l.colour) < 4 ? '#fff' : '#000'; });
    legendDiv.textContent = '';
    legendDiv.appendChild(el('span', {}, 'colour: ' + mode.label));
    legend.forEach(function (l) {
      var item = el('span', {class: 'item'});
      var sw = el('span', {class: 'swatch'});
      sw.style.background = l.colour;
      item.appendChild(sw);
      item.appendChild(document.createTextNode(l.label));
      legendDiv.appendChild(item);
    });
  }

  function sizeCanvas(c, w, h, dpr) {
    c.width = Math.max(1, Math.round(w * dpr));
    c.height = Math.max(1, Math.round(h * dpr));
    c.style.width = w + 'px';
    c.style.height = h + 'px';
  }

  /* A drawing area of run r: region q (-1: the one arena), h CSS px high. */
  function makePanel(r, q, h) {
    var stage = el('div', {class: 'stage'});
    var base = el('canvas', {class: 'base'}), top = el('canvas', {class: 'over'});
    stage.appendChild(base);
    stage.appendChild(top);
    var p = {run: r, region: q, stage: stage, base: base, over: top, w: 0, h: h, dpr: 1, painted: -1,
      arena: q < 0 ? r.arena : r.arenas[q], capacity: q < 0 ? D.capacity : REGIONS[q].capacity,
      bound: q < 0 ? D.bound : REGIONS[q].bound};
    attach(p, false);
    return p;
  }
  /* Run r's figure: its caption, then one panel, or with regions one panel per region under its own title. */
  function makeFigure(r) {
    var fig = el('figure', {class: 'panel', 'data-run': String(r.k)});
    var cap = el('figcaption');
    cap.appendChild(el('b', {}, r.name));
    fig.appendChild(cap);
    if (!REGIONS) {
      var over = D.bound > 0 ? ((r.arena - D.bound) * 100 / D.bound).toFixed(1) : '0.0';
      var beyond = D.capacity !== null && r.arena > D.capacity;  /* the plan does not fit */
      cap.appendChild(el('span', {class: 'note'}, ': arena ' + fmtExact(r.arena) + ', +' + over +
        '% over the lower bound' + (beyond ? ', ' + fmtExact(r.arena - D.capacity) + ' over the capacity' : '') +
        (r.best ? (beyond ? ' (smallest)' : ' (best)') : '')));
      var p = makePanel(r, -1, PANEL_H);
      p.fig = fig;
      fig.appendChild(p.stage);
      return {run: r, fig: fig, panels: [p]};
    }
    var above = D.trafficBound > 0 ? ', +' + ((r.traffic - D.trafficBound) * 100 / D.trafficBound).toFixed(1) +
      '% over the lower bound' : '';
    cap.appendChild(el('span', {class: 'note'}, ': traffic ' + fmtExact(r.traffic) + above +
      (r.over ? ', ' + countOf(r.over, 'region') + ' over capacity' : '') +
      (r.best ? (r.over ? ' (best; does not fit)' : ' (best)') : '')));
    var list = REGIONS.map(function (g, q) {
      var held = 0;
      for (var i = 0; i < n; i++) if (r.regionOf[i] === q) held++;
      var a = r.arenas[q], c = g.capacity;
      var sub = el('div', {class: 'region', 'data-region': g.name});
      var title = el('div', {class: 'region-title'});
      title.appendChild(el('b', {}, g.name));
      title.appendChild(el('span', {class: 'note'}, ': arena ' + fmtExact(a) + (c === null ? '' : ' of ' + fmtBytes(c) +
        (a > c ? ', ' + fmtExact(a - c) + ' over the capacity' : ' (' + (c > 0 ? a * 100 / c : 0).toFixed(1) + '%)')) +
        ', ' + countOf(held, 'buffer')));
      sub.appendChild(title);
      var p = makePanel(r, q, REGION_H);
      p.fig = fig;
      sub.appendChild(p.stage);
      fig.appendChild(sub);
      return p;
    });
    return {run: r, fig: fig, panels: list};
  }

  /* One figure per shown run, in table order; figures of runs no longer shown are dropped. */
  function layout() {
    var shown = shownRuns();
    figures = shown.map(function (r) {
      return figures.filter(function (f) { return f.run === r; })[0] || makeFigure(r);
    });
    panels = [];
    figures.forEach(function (f) { panels = panels.concat(f.panels); });
    if (REGIONS) regionTop = REGIONS.map(function (g, q) { return scaleOf(q); });
    panelsDiv.textContent = '';
    figures.forEach(function (f) { panelsDiv.appendChild(f.fig); });
    var dpr = window.devicePixelRatio || 1;
    panels.forEach(function (p) {
      p.w = Math.max(200, p.stage.clientWidth);
      p.dpr = dpr;
      sizeCanvas(p.base, p.w, p.h, dpr);
      sizeCanvas(p.over, p.w, p.h, dpr);
    });
    live.w = Math.max(200, liveStage.clientWidth);
    live.dpr = dpr;
    sizeCanvas(liveCanvas, live.w, live.h, dpr);
    var hidden = runs.filter(function (r) { return r.planned && r.box && !r.box.checked; });
    hiddenNote.textContent = hidden.length === 0 ? '' : hidden.map(function (r) {
      if (REGIONS) return r.name + ' (traffic ' + fmtBytes(r.traffic) + ')';
      return r.name + ' (arena ' + fmtBytes(r.arena) + ', ' + (r.arena / bestRun.arena).toFixed(1) + '\u00d7 the best)';
    }).join(', ') + ': hidden; tick ' + (hidden.length === 1 ? 'it' : 'them') +
      ' in the table to draw on the same scale' + (REGIONS ? 's.' : '.');
  }

  /* ---- Drawing --------------------------------------------------------------------------------------------- */
  function plotSize(p) { return {w: p.w - M.l - M.r, h: p.h - M.t - M.b}; }

  /* Where buffer i sits in panel p, CSS px: never thinner than 1 px across or MIN_H down. */
  function rectOf(p, i, W, H) {
    var b = bytesOf(p), sx = W / (view.t1 - view.t0), sy = H / (b.b1 - b.b0), off = p.run.off[i];
    var x0 = M.l + (lower[i] - view.t0) * sx, x1 = M.l + (upper[i] - view.t0) * sx;
    var y0 = M.t + (off - b.b0) * sy, y1 = M.t + (off + size[i] - b.b0) * sy;
    return {x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(MIN_H, y1 - y0)};
  }

  function axes(ctx, W, H, byteMost) {
    ctx.fillStyle = '#555';
    ctx.strokeStyle = '#999';
    ctx.lineWidth = 1;
    ctx.font = FONT;
    ctx.strokeRect(M.l - 0.5, M.t - 0.5, W + 1, H + 1);
    var tt = stepTick(view.t1 - view.t0), t;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (t = Math.ceil(view.t0 / tt) * tt; t <= view.t1; t += tt) {
      var x = M.l + (t - view.t0) / (view.t1 - view.t0) * W;
      ctx.fillRect(x, M.t + H, 1, 4);
      ctx.fillText(String(t), x, M.t + H + 6);
    }
    return byteMost;
  }

  function byteAxis(ctx, W, H, b0, b1, upward, most) {
    var bt = byteTick(b1 - b0, most), v;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (v = Math.ceil(b0 / bt) * bt; v <= b1; v += bt) {
      var f = (v - b0) / (b1 - b0) * H, y = upward ? M.t + H - f : M.t + f;
      ctx.fillRect(M.l - 4, y, 4, 1);
      ctx.fillText(v === 0 ? '0' : fmtTick(v, bt), M.l - 6, y);
    }
  }

  function hline(ctx, y, W, colour, dash, width) {
    ctx.strokeStyle = colour;
    ctx.setLineDash(dash);
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(M.l, y);
    ctx.lineTo(M.l + W, y);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  function vline(ctx, x, H, colour, dash) {
    ctx.strokeStyle = colour;
    ctx.setLineDash(dash);
    ctx.lineWidth = 1.2;
    ctx.beginPath();
    ctx.moveTo(x, M.t);
    ctx.lineTo(x, M.t + H);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  function drawPanel(p) {
    var dpr = p.dpr, s = plotSize(p), W = s.w, H = s.h;
    var Wd = Math.max(1, Math.round(W * dpr)), Hd = Math.max(1, Math.round(H * dpr));
    var ctx = p.base.getContext('2d');
    var img = ctx.createImageData(Wd, Hd), px = new Uint32Array(img.data.buffer);
    var bytes = bytesOf(p), b0 = bytes.b0, b1 = bytes.b1;
    var off = p.run.off, spanT = view.t1 - view.t0, spanB = b1 - b0;
    var sx = Wd / spanT, sy = Hd / spanB, minH = MIN_H * dpr;
    /* Bytes past this plan's arena are greyed: same scale, so a smaller arena shows as more grey. */
    var arenaRow = Math.max(0, Math.min(Hd, Math.round((p.arena - b0) * sy)));
    px.fill(BG, 0, arenaRow * Wd);
    px.fill(BEYOND, arenaRow * Wd);
    for (var k = 0; k < order.length; k++) {
      var i = order[k];
      if (!inPanel(p, i)) continue;
      var x0 = (lower[i] - view.t0) * sx, x1 = (upper[i] - view.t0) * sx;
      if (x1 <= 0 || x0 >= Wd) continue;
      var y0 = (off[i] - b0) * sy, y1 = (off[i] + size[i] - b0) * sy;
      if (y1 - y0 < minH) y1 = y0 + minH;
      if (y1 <= 0 || y0 >= Hd) continue;
      var a = Math.round(x0), b = Math.max(a + 1, Math.round(x1)), r0 = Math.round(y0), r1 = Math.max(r0 + 1, Math.round(y1));
      if (a < 0) a = 0;
      if (b > Wd) b = Wd;
      if (r0 < 0) r0 = 0;
      if (r1 > Hd) r1 = Hd;
      var colour = match !== null && !match[i] ? faded[cls[i]] : fill[cls[i]];
      for (var r = r0; r < r1; r++) px.fill(colour, r * Wd + a, r * Wd + b);
    }
    if (p.painted < 0) {  /* the first drawing, for the self-check: the raster's pixels that buffers cover */
      p.painted = 0;
      for (k = 0; k < px.length; k += 3) if (px[k] !== BG && px[k] !== BEYOND) p.painted++;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, p.base.width, p.base.height);
    ctx.putImageData(img, Math.round(M.l * dpr), Math.round(M.t * dpr));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    axes(ctx, W, H);
    byteAxis(ctx, W, H, b0, b1, false, p.region < 0 ? 8 : 5);
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.l, M.t, W, H);
    ctx.clip();
    /* Outlines and labels where a rectangle can carry them, largest first. */
    var outlined = 0, labelled = 0;
    ctx.font = FONT;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(255,255,255,0.75)';
    for (k = 0; k < order.length && (outlined < OUTLINES || labelled < LABELS); k++) {
      i = order[k];
      if (!inPanel(p, i)) continue;
      var rc = rectOf(p, i, W, H);
      if (rc.w < 6 || rc.h < 6 || rc.x > M.l + W || rc.x + rc.w < M.l || rc.y > M.t + H || rc.y + rc.h < M.t) continue;
      if (outlined < OUTLINES) { ctx.strokeRect(rc.x + 0.5, rc.y + 0.5, rc.w - 1, rc.h - 1); outlined++; }
      if (labelled < LABELS && rc.h >= 13 && rc.w >= 24) {
        var name = nameOf(i), tw = ctx.measureText(name).width;
        if (tw + 6 > rc.w) { name = idOf(i); tw = ctx.measureText(name).width; }  /* too long: the id, if it fits */
        if (tw + 6 <= rc.w) {
          ctx.fillStyle = match !== null && !match[i] ? '#777' : ink[cls[i]];
          ctx.fillText(name, Math.max(rc.x, M.l) + 3, Math.max(rc.y, M.t) + Math.min(rc.h, 20) / 2);
          labelled++;
        }
      }
    }
    /* The arena, the bound (least possible arena) and the step where the bound is reached. */
    var yOf = function (v) { return M.t + (v - b0) / spanB * H; };
    hline(ctx, yOf(p.arena), W, '#333', [], 1);
    if (p.region < 0 || p.bound > 0) hline(ctx, yOf(p.bound), W, '#c00', [2, 3], 1);
    if (p.capacity !== null) hline(ctx, yOf(p.capacity), W, '#e66100', [], 1.5);
    /* What lies beyond the capacity (a plan that does not fit), tinted over the buffers. */
    p.beyond = p.capacity !== null && p.arena > p.capacity && p.capacity < b1;
    if (p.beyond) {
      var yc = Math.max(M.t, yOf(p.capacity));
      ctx.fillStyle = 'rgba(230,97,0,0.16)';
      ctx.fillRect(M.l, yc, W, M.t + H - yc);
    }
    if (D.boundStep !== null) vline(ctx, M.l + (D.boundStep + 0.5 - view.t0) / spanT * W, H, '#c00', [6, 4]);
    /* Search matches: a red frame, at least 7 px, so a match shows however small it is. */
    if (match !== null) {
      ctx.strokeStyle = '#e4003a';
      ctx.lineWidth = 2;
      for (k = 0; k < matchList.length && k < MARKED; k++) {
        i = matchList[k];
        if (len[i] === 0 || size[i] === 0 || !inPanel(p, i)) continue;
        rc = rectOf(p, i, W, H);
        var gw = Math.max(0, 7 - rc.w) / 2, gh = Math.max(0, 7 - rc.h) / 2;
        ctx.strokeRect(rc.x - gw - 1, rc.y - gh - 1, rc.w + 2 * gw + 2, rc.h + 2 * gh + 2);
      }
    }
    ctx.restore();
    p.drawnOutlines = outlined;
    p.labels = labelled;
  }

  function drawOverlay(p) {
    var ctx = p.over.getContext('2d'), s = plotSize(p);
    ctx.setTransform(p.dpr, 0, 0, p.dpr, 0, 0);
    ctx.clearRect(0, 0, p.w, p.h);
    [[selected, '#0050ff'], [hover, '#000']].forEach(function (h) {
      var i = h[0];
      if (i < 0 || len[i] === 0 || size[i] === 0 || !inPanel(p, i)) return;
      var rc = rectOf(p, i, s.w, s.h);
      var gw = Math.max(0, 9 - rc.w) / 2, gh = Math.max(0, 9 - rc.h) / 2;
      ctx.save();
      ctx.beginPath();
      ctx.rect(M.l, M.t, s.w, s.h);
      ctx.clip();
      ctx.lineWidth = 3;
      ctx.strokeStyle = '#fff';
      ctx.strokeRect(rc.x - gw - 1.5, rc.y - gh - 1.5, rc.w + 2 * gw + 3, rc.h + 2 * gh + 3);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = h[1];
      ctx.strokeRect(rc.x - gw - 1.5, rc.y - gh - 1.5, rc.w + 2 * gw + 3, rc.h + 2 * gh + 3);
      ctx.restore();
    });
  }

  /* ---- Live bytes per step: change points over the buffers in memory --------------------------------------- */
  var live = {w: 0, h: LIVE_H, dpr: 1, times: [], values: [], peak: 0};
  (function () {
    var m = order.length;
    var starts = Uint32Array.from(order).sort(function (a, b) { return lower[a] - lower[b]; });
    var ends = Uint32Array.from(order).sort(function (a, b) { return upper[a] - upper[b]; });
    var a = 0, b = 0, now = 0;
    while (a < m || b < m) {
      var t = Math.min(a < m ? lower[starts[a]] : Infinity, b < m ? upper[ends[b]] : Infinity);
      while (b < m && upper[ends[b]] === t) now -= size[ends[b++]];
      while (a < m && lower[starts[a]] === t) now += size[starts[a++]];
      live.times.push(t);
      live.values.push(now);
      if (now > live.peak) live.peak = now;
    }
  })();
  /* Index of the change point in force at step t (-1 before the first). */
  function liveIndex(t) {
    var lo = 0, hi = live.times.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (live.times[mid] <= t) lo = mid + 1; else hi = mid; }
    return lo - 1;
  }

  /* The live panel's lines with one arena: each shown plan's arena, the capacity and the lower bound at its step. */
  function drawLiveLines(ctx, W, top, yOf, bx) {
    /* One grey line per arena; equal arenas share a line and a label. */
    var byArena = {};
    shownRuns().forEach(function (r) { (byArena[r.arena] = byArena[r.arena] || []).push(r.name); });
    Object.keys(byArena).forEach(function (a) {
      var y = yOf(Number(a));
      hline(ctx, y, W, '#777', [], 1);
      ctx.fillStyle = '#333';
      ctx.fillText(byArena[a].join(', ') + ': ' + fmtBytes(Number(a)), M.l + W - 4, y - 1);
    });
    if (D.capacity !== null && D.capacity <= top) {
      hline(ctx, yOf(D.capacity), W, '#e66100', [], 1.5);
      ctx.fillStyle = '#e66100';
      ctx.fillText('capacity ' + (D.wholeCapacity === undefined ? fmtBytes(D.capacity) :
        'for the planned section: ' + fmtBytes(D.capacity) + ' of ' + fmtBytes(D.wholeCapacity) +
        ', after TFLM\u2019s persistent data'), M.l + W / 2, yOf(D.capacity) - 1);
    }
    var yb = yOf(D.bound);
    hline(ctx, yb, W, '#c00', [6, 4], 1.2);
    ctx.fillStyle = '#c00';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText('lower bound ' + fmtBytes(D.bound) + ' at step ' + D.boundStep, M.l + 4, yb + 2);
    ctx.strokeStyle = '#c00';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(bx, yOf(D.bound), 4, 0, 2 * Math.PI);
    ctx.stroke();
  }

  function drawLive() {
    var dpr = live.dpr, W = live.w - M.l - M.r, H = live.h - M.t - M.b;
    var ctx = liveCanvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, live.w, live.h);
    ctx.fillStyle = '#fafafa';
    ctx.fillRect(M.l, M.t, W, H);
    var top = Math.max(live.peak, yMax()), spanT = view.t1 - view.t0;
    var yOf = function (v) { return M.t + H - v / top * H; };
    /* Per pixel column, the most bytes live at any step it covers: the peak never falls between pixels. */
    /* The bound's step first, under the curve, so the peak it marks stays visible. */
    var bx = D.boundStep === null ? -1 : M.l + (D.boundStep + 0.5 - view.t0) / spanT * W;
    if (bx >= M.l && bx <= M.l + W) vline(ctx, bx, H, '#c00', [6, 4]);
    var cols = Math.max(1, Math.round(W)), k = liveIndex(view.t0), T = live.times, V = live.values;
    ctx.beginPath();
    ctx.moveTo(M.l, yOf(0));
    for (var c = 0; c < cols; c++) {
      var tb = view.t0 + (c + 1) / cols * spanT, most = k >= 0 ? V[k] : 0;
      while (k + 1 < T.length && T[k + 1] < tb) { k++; if (V[k] > most) most = V[k]; }
      ctx.lineTo(M.l + c, yOf(most));
      ctx.lineTo(M.l + c + 1, yOf(most));
    }
    ctx.lineTo(M.l + cols, yOf(0));
    ctx.closePath();
    ctx.fillStyle = '#9ecae1';
    ctx.fill();
    ctx.strokeStyle = '#3182bd';
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.l, M.t - 1, W, H + 2);
    ctx.clip();
    ctx.font = FONT;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    if (REGIONS) {
      /* The fastest memory's capacity: past it, live bytes must be elsewhere. */
      var fast = REGIONS[0].capacity;
      if (fast !== null && fast <= top) {
        hline(ctx, yOf(fast), W, '#e66100', [], 1.5);
        ctx.fillStyle = '#e66100';
        ctx.fillText(REGIONS[0].name + ' capacity ' + fmtBytes(fast), M.l + W / 2, yOf(fast) - 1);
      }
    } else {
      drawLiveLines(ctx, W, top, yOf, bx);
    }
    ctx.restore();
    axes(ctx, W, H);
    byteAxis(ctx, W, H, 0, top, true, 3);
  }

  function drawAll() {
    clampView();
    panels.forEach(drawPanel);
    panels.forEach(drawOverlay);
    drawLive();
    check.dataset.view = [view.t0, view.t1].map(Math.round).concat([view.b0, view.b1].map(function (v) {
      return REGIONS ? Math.round(v * 1e4) / 1e4 : Math.round(v);
    })).join(' ');
  }
  /* Redraw at the next frame, at most once per frame however many events come; a timer stands in when no frame
   * comes (a hidden tab, a headless browser). */
  var frame = 0, timer = 0, overlayOnly = true;
  function redraw() {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = timer = 0;
    if (overlayOnly) panels.forEach(drawOverlay); else drawAll();
    overlayOnly = true;
  }
  function schedule(full) {
    if (full) overlayOnly = false;
    if (frame || timer) return;
    frame = requestAnimationFrame(redraw);
    timer = setTimeout(redraw, 100);
  }

  /* ---- Pointer: hover, click, drag, wheel ------------------------------------------------------------------ */
  /* The buffer under (x, y) in panel p: the smallest on top first, as painted; a thin one is easier to hit. */
  function hit(p, x, y) {
    var s = plotSize(p);
    if (x < M.l || x > M.l + s.w || y < M.t || y > M.t + s.h) return -1;
    for (var k = order.length - 1; k >= 0; k--) {
      var i = order[k];
      if (!inPanel(p, i)) continue;
      var rc = rectOf(p, i, s.w, s.h);
      var gw = Math.max(0, 3 - rc.w) / 2, gh = Math.max(0, 3 - rc.h) / 2;
      if (x >= rc.x - gw && x < rc.x + rc.w + gw && y >= rc.y - gh && y < rc.y + rc.h + gh) return i;
    }
    return -1;
  }
  function line(text) { return el('div', {}, text); }
  function showTip(lines, e) {
    tip.textContent = '';
    lines.forEach(function (l, k) { tip.appendChild(k === 0 ? el('b', {}, l) : line(l)); });
    tip.hidden = false;
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) x = e.clientX - tip.offsetWidth - 8;
    if (y + tip.offsetHeight > window.innerHeight) y = e.clientY - tip.offsetHeight - 8;
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  /* "fast" with regions (the region run r puts buffer i in), "" with one arena. */
  function regionOf(r, i) { return REGIONS ? REGIONS[r.regionOf[i]].name : ''; }
  function bufferLines(i, run) {
    var lines = [titleOf(i)];
    if (D.tensors && D.tensors[i]) lines.push(D.tensors[i]);
    lines.push('size ' + fmtExact(size[i]), 'offset ' + fmtExact(run.off[i]) + ' in ' +
      (REGIONS ? regionOf(run, i) + ' (' + run.name + ')' : run.name),
      stepsOf(i) + ': live for ' + countOf(len[i], 'step'));
    var first = stepText(lower[i]), last = stepText(upper[i] - 1);
    if (first && len[i] === 1) lines.push('at ' + first);
    else if (first && last) lines.push('from ' + first, 'to ' + last);
    if (REGIONS) {
      /* What the buffer costs where it is: its uses, and outside the fastest memory its traffic (svg.c's). */
      var uses = D.uses ? D.uses[i] : 1;
      lines.push(countOf(uses, 'use') + (run.regionOf[i] > 0 ? ': ' + fmtExact(size[i] * uses) +
        ' of slow-memory traffic' : ''));
    }
    return lines;
  }
  function zoomAt(f, fx, fy, what) {
    if (what !== 'bytes') {
      var t = view.t0 + fx * (view.t1 - view.t0), st = (view.t1 - view.t0) * f;
      view.t0 = t - fx * st;
      view.t1 = view.t0 + st;
    }
    if (what !== 'time') {
      var b = view.b0 + fy * (view.b1 - view.b0), sb = (view.b1 - view.b0) * f;
      view.b0 = b - fy * sb;
      view.b1 = view.b0 + sb;
    }
    clampView();
    schedule(true);
  }
  function attach(p, isLive) {
    var stage = isLive ? liveStage : p.stage, drag = null;
    var size2 = function () { return isLive ? {w: live.w - M.l - M.r, h: live.h - M.t - M.b} : plotSize(p); };
    var where = function (e) { var r = stage.getBoundingClientRect(); return {x: e.clientX - r.left, y: e.clientY - r.top}; };
    stage.addEventListener('wheel', function (e) {
      e.preventDefault();
      var at = where(e), s = size2();
      zoomAt(Math.exp(Math.max(-300, Math.min(300, e.deltaY)) * 0.002), Math.max(0, Math.min(1, (at.x - M.l) / s.w)),
        Math.max(0, Math.min(1, (at.y - M.t) / s.h)), isLive ? 'time' : axesSel.value);
    }, {passive: false});
    stage.addEventListener('pointerdown', function (e) {
      drag = {x: e.clientX, y: e.clientY, view: {t0: view.t0, t1: view.t1, b0: view.b0, b1: view.b1}, moved: false};
      stage.setPointerCapture(e.pointerId);
    });
    stage.addEventListener('pointermove', function (e) {
      var s = size2(), at = where(e);
      if (drag) {
        var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; stage.classList.add('dragging'); tip.hidden = true; }
        if (!drag.moved) return;
        var st = drag.view.t1 - drag.view.t0, sb = drag.view.b1 - drag.view.b0;
        view.t0 = drag.view.t0 - dx / s.w * st;
        view.t1 = view.t0 + st;
        if (!isLive) { view.b0 = drag.view.b0 - dy / s.h * sb; view.b1 = view.b0 + sb; }
        clampView();
        schedule(true);
        return;
      }
      if (isLive) {
        var t = Math.floor(view.t0 + (at.x - M.l) / s.w * (view.t1 - view.t0)), k = liveIndex(t);
        if (at.x < M.l || at.x > M.l + s.w) { tip.hidden = true; return; }
        var what = stepText(t);
        showTip(['step ' + t + (what ? ': ' + what : ''), fmtExact(k >= 0 ? live.values[k] : 0) + ' live'], e);
        return;
      }
      var i = hit(p, at.x, at.y);
      if (i !== hover) { hover = i; schedule(false); check.dataset.hover = i < 0 ? '' : nameOf(i); }
      if (i < 0) tip.hidden = true; else showTip(bufferLines(i, p.run), e);
    });
    var end = function (e) {
      if (drag && !drag.moved && !isLive) {
        selected = hit(p, where(e).x, where(e).y);
        schedule(false);
      }
      drag = null;
      stage.classList.remove('dragging');
    };
    stage.addEventListener('pointerup', end);
    stage.addEventListener('pointercancel', end);
    stage.addEventListener('pointerleave', function () {
      tip.hidden = true;
      if (hover >= 0) { hover = -1; schedule(false); }
    });
  }

  /* ---- Search and the list --------------------------------------------------------------------------------- */
  var largest = inMemory.slice().sort(function (a, b) { return size[b] - size[a] || a - b; }).slice(0, LISTED);
  /* An exact name or id first, then one that starts with the query, then the rest. */
  function rankOf(s) { return s === query ? 0 : s.indexOf(query) === 0 ? 1 : 2; }
  function rank(i) { return Math.min(rankOf(lowerName(i)), rankOf(lowerId(i))); }
  function focusOn(i) {
    selected = i;
    if (len[i] > 0) {
      /* Time only: the panels share the byte scale, and the buffer's offset differs from plan to plan. */
      var span = Math.max(len[i] * 5, Math.min(ext.t1 - ext.t0, 10)), mid = lower[i] + len[i] / 2;
      view.t0 = mid - span / 2;
      view.t1 = mid + span / 2;
      clampView();
    }
    schedule(true);
    panelsDiv.scrollIntoView({block: 'nearest'});
  }
  function renderList() {
    var items = query ? matchList.slice(0, LISTED) : largest;
    matchOl.textContent = '';
    if (query) {
      matchCount.textContent = countOf(matchList.length, 'buffer') + (matchList.length === 1 ? ' matches' : ' match') +
        ' \u201c' + queryText + '\u201d' + (matchList.length > LISTED ? '; the first ' + LISTED + ' are listed.' : '.');
    } else {
      matchCount.textContent = 'The ' + items.length + ' largest of ' + countOf(order.length, 'buffer') +
        ' in memory (' + n + ' in all); the search box finds the others.';
    }
    if (bestRun) matchCount.textContent += ' Offsets are ' + bestRun.name + '\u2019s.';
    var frag = document.createDocumentFragment();
    items.forEach(function (i) {
      var li = el('li', {'data-index': String(i)});
      var b = el('button', {type: 'button', class: 'name'}, nameOf(i));
      b.addEventListener('click', function () { focusOn(i); });
      li.appendChild(b);
      if (nameOf(i) !== idOf(i)) li.appendChild(document.createTextNode(' (' + idOf(i) + ')'));
      var where = len[i] === 0 || size[i] === 0 ? ': not in memory (never live or empty)' :
        ': ' + fmtBytes(size[i]) + ', ' + stepsOf(i) + (bestRun ? ', offset ' + fmtBytes(bestRun.off[i]) +
        (REGIONS ? ' in ' + regionOf(bestRun, i) : '') : '');
      li.appendChild(document.createTextNode(where));
      frag.appendChild(li);
    });
    matchOl.appendChild(frag);
  }
  function runSearch(text) {
    queryText = text.trim();
    query = queryText.toLowerCase();
    match = null;
    matchList = [];
    if (query) {
      match = new Uint8Array(n);
      for (var i = 0; i < n; i++) {
        if (lowerName(i).indexOf(query) >= 0 || lowerId(i).indexOf(query) >= 0) { match[i] = 1; matchList.push(i); }
      }
      matchList.sort(function (a, b) { return rank(a) - rank(b) || size[b] - size[a] || a - b; });
    }
    renderList();
    check.dataset.matches = String(matchList.length);
    check.dataset.firstMatch = matchList.length ? nameOf(matchList[0]) : '';
  }
  function saveAddress() {
    var parts = [];
    if (queryText) parts.push('search=' + encodeURIComponent(queryText));
    if (mode !== MODES[0]) parts.push('colour=' + mode.key);
    try { history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search); } catch (e) { /* some file: URLs refuse it; the page works regardless */ }
  }

  var typing = 0;
  searchBox.addEventListener('input', function () {
    clearTimeout(typing);
    typing = setTimeout(function () { runSearch(searchBox.value); saveAddress(); schedule(true); }, 150);
  });
  colourSel.addEventListener('change', function () { setMode(colourSel.value); saveAddress(); schedule(true); });
  zoomIn.addEventListener('click', function () { zoomAt(0.5, 0.5, 0.5, axesSel.value); });
  zoomOut.addEventListener('click', function () { zoomAt(2, 0.5, 0.5, axesSel.value); });
  zoomReset.addEventListener('click', function () {
    view = {t0: ext.t0, t1: ext.t1, b0: 0, b1: yMax()};
    schedule(true);
  });
  runs.forEach(function (r) {
    if (!r.box) return;
    r.box.addEventListener('change', function () {
      layout();
      view.b0 = 0;
      view.b1 = yMax();
      drawAll();
    });
  });
  var resizing = 0;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { layout(); drawAll(); }, 100);
  });

  /* ---- Start ----------------------------------------------------------------------------------------------- */
  /* Painted pixels of a canvas's plot area, read back from the canvas (every third pixel): the self-check. */
  function painted(canvas, dpr) {
    var w = canvas.width - Math.round((M.l + M.r) * dpr), h = canvas.height - Math.round((M.t + M.b) * dpr);
    if (w <= 0 || h <= 0) return 0;
    var d = new Uint32Array(canvas.getContext('2d').getImageData(Math.round(M.l * dpr), Math.round(M.t * dpr), w, h).data.buffer);
    var count = 0;
    for (var k = 0; k < d.length; k += 3) if (d[k] !== BG && d[k] !== BEYOND && d[k] !== 0) count++;
    return count;
  }
  try {
    var params = new URLSearchParams(location.hash.slice(1));
    setMode(params.get('colour') || 'size');
    attach(null, true);
    layout();
    view.b1 = yMax();
    var wanted = params.get('search') || '';
    searchBox.value = wanted;
    runSearch(wanted);
    drawAll();
    var ms = Math.round(performance.now() - started);
    check.dataset.panels = String(panels.length);
    check.dataset.figures = String(figures.length);
    check.dataset.regions = String(REGIONS ? REGIONS.length : 0);
    check.dataset.regionPainted = figures.length ?
      figures[0].panels.map(function (p) { return p.painted; }).join(' ') : '';
    check.dataset.beyond = String(panels.filter(function (p) { return p.beyond; }).length);
    check.dataset.drawn = String(order.length);
    check.dataset.painted = String(panels.length ? painted(panels[0].base, panels[0].dpr) : 0);
    check.dataset.livePainted = String(painted(liveCanvas, live.dpr));
    check.dataset.ms = String(ms);
    if (!errors.length) {
      check.dataset.state = 'ok';
      check.dataset.errors = '0';
      check.textContent = 'Drawn in ' + ms + ' ms: ' + countOf(figures.length, 'plan') + ', ' +
        (REGIONS ? countOf(REGIONS.length, 'region') + ', ' : '') +
        countOf(order.length, 'buffer') + ' in memory.';
    }
  } catch (e) {
    noteError(e && e.stack ? e.stack : e);
    throw e;
  }
})();
