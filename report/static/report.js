// ccsweep report and serve pages: draws the charts described in the
// #ccsweep-data element with ECharts, lazily as they come into view, and
// handles the selectors. window.ccsweep exposes the state to tests.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('ccsweep-data').textContent);
  data.grids = data.grids || [];
  const specs = data.charts;          // chart ID -> {kind, gl, options, initial, meta}
  const live = new Map();             // chart ID -> echarts instance
  const visible = new Set();          // chart IDs near the viewport
  const MAX_GL = 8;                   // WebGL contexts kept alive (browsers allow about 16)
  const state = { specs, live, errors: [], drawn: 0 };
  window.ccsweep = state;
  window.addEventListener('error', (e) => state.errors.push(String(e.message)));
  if (typeof echarts === 'undefined') {
    const note = document.createElement('p');
    note.className = 'offline';
    note.textContent = 'The chart library did not load (from cdn.jsdelivr.net: is this computer offline?). ' +
      'Write the report without --assets cdn to embed echarts and echarts-gl in the page; see docs/reports.md.';
    document.querySelector('main').prepend(note);
    return;
  }

  // ---- formatting -------------------------------------------------------
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  function num(x, digits) {
    if (x === null || x === undefined || x === '-' || isNaN(x)) return '–';
    const v = Number(x);
    if (v !== 0 && (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-3)) return v.toExponential(Math.max(digits - 1, 0));
    return String(Number(v.toPrecision(digits)));
  }
  // fixed keeps trailing zeros, so that a column of labels lines up: 13.0, 12.9.
  function fixed(x, digits) {
    const v = Number(x);
    if (v === 0 || Math.abs(v) >= Math.pow(10, digits) || Math.abs(v) < 1e-3) return num(v, digits);
    return v.toPrecision(digits);
  }
  const unit = (m) => (m && m.unit ? ' ' + m.unit : '');
  function axisValue(axis, v) {
    if (!axis) return esc(v);
    const label = axis.labels ? axis.labels[v] : num(v, 4);
    return esc(axis.title) + ' = ' + esc(label);
  }
  // A report page carries each grid's cells as a table (page.go,
  // cellsTable): row ci becomes the cell object the serve page's
  // /api/view sends, when a tooltip or the details read it.
  function cellRow(t, ci) {
    const r = t.rows[ci];
    if (!r) return null;
    const c = { status: r.s, seeds: r.c[0], done: r.c[1], failed: r.c[2] };
    const byMetric = (list) => {
      const out = {};
      list.forEach((v, i) => { if (v !== null) out[t.metrics[i]] = v; });
      return out;
    };
    if (r.m) c.mean = byMetric(r.m);
    if (r.sd) c.sd = byMetric(r.sd);
    if (r.id) c.points = r.id;
    const params = [];
    r.p.forEach((k, i) => { if (k >= 0) params.push({ Name: t.params[i], Value: t.values[i][k] }); });
    if (params.length) c.params = params;
    if (r.e) c.errors = r.e;
    return c;
  }
  function cellOf(meta, ci) {
    const g = data.grids && data.grids[meta.grid];
    if (!g || !g.cells || ci < 0) return null;
    return Array.isArray(g.cells) ? g.cells[ci] : cellRow(g.cells, ci);
  }
  function cellStatus(c) {
    if (!c) return '';
    if (c.status === 'missing') return '<br><span style="color:#9e9e9e">not stored yet</span>';
    let s = '';
    if (c.failed) s += '<br><span style="color:#d62728">' + c.failed + ' seed' + (c.failed > 1 ? 's' : '') + ' failed</span>';
    return s;
  }

  // Formatters are named in the options as "fn:name" and bound to the
  // chart's meta here.
  const formatters = {
    surface: (meta) => (p) => {
      const v = p.value;
      if (p.seriesIndex > 0) return axisValue(meta.x, v[0]) + '<br>' + axisValue(meta.y, v[1]) + '<br><b>' + esc(p.seriesName) + '</b>';
      return axisValue(meta.x, v[0]) + '<br>' + axisValue(meta.y, v[1]) + '<br><b>' + esc(meta.metric.title) + ': ' +
        num(v[2], meta.metric.digits + 1) + unit(meta.metric) + '</b>';
    },
    cell: (meta) => (p) => {
      const v = p.value;
      let s = axisValue(meta.x, v[0]) + '<br>' + axisValue(meta.y, v[1]) + '<br>';
      if (p.seriesIndex > 0) return s + '<b>' + esc(p.seriesName) + '</b>' + cellStatus(cellOf(meta, v[2]));
      // [x, y, mean, cell], then the spread when several seeds are done
      // (charts.go, heatmapOptionScaled).
      s += '<b>' + esc(meta.metric.title) + ': ' + num(v[2], meta.metric.digits + 1);
      if (v[3] < 0) return s + unit(meta.metric) + '</b><br><i>interpolated between the points run</i>';
      const c = cellOf(meta, v[3]);
      if (c && c.done > 1) s += ' ± ' + num(v[4], 2);
      s += unit(meta.metric) + '</b>';
      if (c && (c.seeds > 1 || c.done > 1)) s += '<br>mean ± sd over ' + c.done + ' of ' + c.seeds + ' seeds';
      return s + cellStatus(c) + '<br><i>click for details</i>';
    },
    heatLabel: (meta) => (p) => (p.value[3] < 0 ? '' : fixed(p.value[2], meta.metric.digits)),
    pareto: (meta) => (p) => {
      const v = p.value, c = cellOf(meta, v[2]);
      const params = c ? (c.params || []).map((q) => esc(q.Name) + '=' + esc(q.Value)).join(' ') : '';
      return '<b>' + esc(p.seriesName) + '</b><br>' + params + '<br>' + esc(meta.x.title) + ': ' + num(v[0], 4) +
        '<br>' + esc(meta.y.title) + ': ' + num(v[1], 4);
    },
    markerLabel: () => (p) => (p.seriesName === 'failed' ? '✕' : '…'),
    linePoint: (meta) => (p) => {
      const v = p.value;
      let s = esc(p.seriesName) + '<br>' + axisValue(meta.x, v[0]) + '<br>';
      if (p.seriesName === 'failed') return s + '<b>failed</b>' + cellStatus(cellOf(meta, v[2]));
      s += '<b>' + esc(meta.metric.title) + ': ' + num(v[1], meta.metric.digits + 1);
      const c = cellOf(meta, v[2]);
      if (c && c.done > 1) s += ' ± ' + num(v[3], 2);
      s += unit(meta.metric) + '</b>';
      if (c && c.done > 1) s += '<br>mean ± sd over ' + c.done + ' seeds';
      return s + cellStatus(c);
    },
    share: (meta) => (p) => esc(p.seriesName) + '<br>' + esc(p.name) + ': <b>' + num(p.value, 3) + ' %</b> (' +
      num(meta.gbps[p.seriesIndex][p.dataIndex], 3) + ' Gbit/s)',
  };
  function resolve(value, meta) {
    if (typeof value === 'string' && value.startsWith('fn:')) {
      const f = formatters[value.slice(3)];
      return f ? f(meta) : value;
    }
    if (Array.isArray(value)) return value.map((v) => resolve(v, meta));
    if (value && typeof value === 'object') {
      const out = {};
      for (const k of Object.keys(value)) out[k] = resolve(value[k], meta);
      return out;
    }
    return value;
  }

  // ---- drawing ----------------------------------------------------------
  function evictGL() {
    const gl = [...live.keys()].filter((id) => specs[id].gl);
    if (gl.length < MAX_GL) return;
    const far = gl.find((id) => !visible.has(id));
    if (far) undraw(far);
  }
  function undraw(id) {
    const c = live.get(id);
    if (!c) return;
    c.dispose();
    live.delete(id);
    document.getElementById(id).dataset.state = '';
  }
  function draw(id) {
    const spec = specs[id], el = document.getElementById(id);
    if (!spec || !el || live.has(id)) return;
    if (spec.gl) evictGL();
    el.dataset.startMs = Math.round(performance.now());
    const chart = echarts.init(el);
    live.set(id, chart);
    chart.on('finished', () => {
      if (el.dataset.state !== 'drawn') {
        state.drawn++;
        el.dataset.drawnMs = Math.round(performance.now());
      }
      el.dataset.state = 'drawn';
    });
    chart.on('click', (p) => onClick(id, p));
    if (spec.current === undefined) spec.current = spec.initial || 0;
    chart.setOption(resolve(optionOf(spec), spec.meta));
  }
  // optionOf is the chart's current option: its keys over those every
  // option shares (page.go, hoistCommon).
  function optionOf(spec) {
    const o = Object.assign({}, spec.common || {}, spec.options[spec.current]);
    if (Array.isArray(o.series)) o.series = o.series.map((s) => (s.data && !Array.isArray(s.data) ? Object.assign({}, s, { data: expandGrid(s.data) }) : s));
    return o;
  }
  // expandGrid writes back the points of a series written as a grid
  // (page.go, seriesGrid): [x, y, rest...] in row order, or column order
  // with t, where the grid has one.
  function expandGrid(g) {
    const out = [], nx = g.x.length, ny = g.y.length;
    for (let i = 0; i < g.v.length; i++) {
      const v = g.v[i];
      if (v === null) continue;
      const xi = g.t ? Math.floor(i / ny) : i % nx, yi = g.t ? i % ny : Math.floor(i / nx);
      out.push([g.x[xi], g.y[yi]].concat(Array.isArray(v) ? v : [v]));
    }
    return out;
  }
  function redraw(id) {
    const spec = specs[id], chart = live.get(id);
    if (chart) chart.setOption(resolve(optionOf(spec), spec.meta), { replaceMerge: ['series'] });
  }
  // Charts near the viewport are queued and drawn one per task, nearest
  // first, so that the first screen appears before the charts below it.
  const queue = new Set();
  let pumping = false;
  function distance(id) {
    const r = document.getElementById(id).getBoundingClientRect();
    return r.bottom < 0 ? -r.bottom : Math.max(r.top - innerHeight, 0);
  }
  function pump() {
    if (!queue.size) { pumping = false; return; }
    const id = [...queue].sort((a, b) => distance(a) - distance(b))[0];
    queue.delete(id);
    draw(id);
    setTimeout(pump, 0);
  }
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) {
        visible.add(e.target.id);
        queue.add(e.target.id);
      } else {
        visible.delete(e.target.id);
        queue.delete(e.target.id);
      }
    }
    if (queue.size && !pumping) {
      pumping = true;
      setTimeout(pump, 0);
    }
  }, { rootMargin: '400px 0px' });
  function observe(id) {
    const el = document.getElementById(id);
    if (el) observer.observe(el);
  }
  Object.keys(specs).forEach(observe);
  window.addEventListener('resize', () => live.forEach((c) => c.resize()));
  state.draw = draw;
  state.cellOf = cellOf;
  state.optionOf = optionOf;
  state.formatter = (name, meta) => formatters[name](meta);
  state.drawAll = () => Object.keys(specs).forEach(draw);

  // ---- report: slice selectors and cell details ---------------------------
  for (const box of document.querySelectorAll('.slice[data-surface]')) {
    const sid = box.dataset.surface, surf = data.surfaces[sid];
    const selects = [...box.querySelectorAll('select')];
    for (const sel of selects) {
      sel.addEventListener('change', () => {
        const want = selects.map((s) => s.value);
        const i = surf.slices.findIndex((vals) => vals.every((v, k) => v === want[k]));
        box.querySelector('.note').hidden = i >= 0;
        if (i < 0) return;
        for (const id of surf.charts) {
          specs[id].current = i;
          redraw(id);
        }
      });
    }
  }
  function kvTable(rows) {
    return '<table class="kv">' + rows.map((r) => '<tr><th>' + esc(r[0]) + '</th><td>' + r[1] + '</td></tr>').join('') + '</table>';
  }
  function cellDetails(g, c) {
    const rows = (c.params || []).map((p) => [p.Name, esc(p.Value)]);
    rows.push(['status', esc(c.status) + (c.seeds ? ' (' + c.done + ' done, ' + c.failed + ' failed of ' + c.seeds + ' seeds)' : '')]);
    for (const m of Object.keys(c.mean || {})) {
      rows.push([m, num(c.mean[m], 4) + (c.done > 1 ? ' ± ' + num(c.sd[m], 2) : '')]);
    }
    if (c.points) rows.push(['points', c.points.map(esc).join('<br>')]);
    if (c.errors) rows.push(['errors', c.errors.map(esc).join('<br>')]);
    return kvTable(rows);
  }
  function onClick(id, p) {
    const spec = specs[id];
    if (!spec.meta || !Array.isArray(p.value)) return;
    const ci = spec.kind === 'heatmap' ? (p.seriesIndex > 0 ? p.value[2] : p.value[3]) : spec.kind === 'line' ? p.value[2] : undefined;
    if (ci === undefined) return;
    if (data.mode === 'serve') return showPoint(spec.meta.grid, ci);
    const box = document.querySelector('.cell-info[data-surface="' + id.replace(/-[a-z_]+-heat$/, '') + '"]');
    const c = cellOf(spec.meta, ci);
    if (!box || !c) return;
    box.hidden = false;
    box.innerHTML = '<b>Point details</b>' + cellDetails(data.grids[spec.meta.grid], c);
  }

  // ---- serve: the explorer -----------------------------------------------
  if (data.mode !== 'serve') return;
  const $ = (id) => document.getElementById(id);
  let grids = [], view = null, lastCounts = '';
  async function getJSON(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(url + ': ' + r.status + ' ' + (await r.text()));
    return r.json();
  }
  function fill(sel, items, chosen) {
    sel.innerHTML = items.map((it) => '<option value="' + esc(it[0]) + '"' + (it[0] === chosen ? ' selected' : '') + '>' + esc(it[1]) + '</option>').join('');
  }
  function currentGrid() { return grids.find((g) => g.id === $('x-grid').value) || grids[0]; }
  function controls(g, keep) {
    fill($('x-metric'), g.metrics.map((m) => [m.name, m.title + (m.unit ? ' (' + m.unit + ')' : '')]), keep ? $('x-metric').value : g.view.metric);
    const dims = g.dims.filter((d) => d.values.length > 1).map((d) => [d.name, d.name]);
    fill($('x-x'), dims, keep ? $('x-x').value : g.view.x);
    fill($('x-y'), [['', '(none: lines)']].concat(dims), keep ? $('x-y').value : g.view.y);
    const x = $('x-x').value, y = $('x-y').value, old = {};
    for (const s of $('x-fixed').querySelectorAll('select')) old[s.dataset.dim] = s.value;
    $('x-fixed').innerHTML = g.dims.filter((d) => d.name !== x && d.name !== y && d.values.length > 0).map((d) => {
      const chosen = keep && d.name in old ? old[d.name] : (g.view.at[d.name] || '');
      const opts = (y ? [] : [['*', 'all (lines)']]).concat(d.values.map((v) => [v, v]));
      if (d.unset) opts.push(['', '(default)']);
      return '<label>' + esc(d.name) + ' <select data-dim="' + esc(d.name) + '">' +
        opts.map((o) => '<option value="' + esc(o[0]) + '"' + (o[0] === chosen ? ' selected' : '') + '>' + esc(o[1]) + '</option>').join('') + '</select></label>';
    }).join('');
    for (const s of $('x-fixed').querySelectorAll('select')) s.addEventListener('change', load);
  }
  function query() {
    const q = new URLSearchParams({ grid: $('x-grid').value, metric: $('x-metric').value, x: $('x-x').value, y: $('x-y').value });
    for (const s of $('x-fixed').querySelectorAll('select')) if (s.value !== '*') q.set('at.' + s.dataset.dim, s.value);
    return q;
  }
  async function load() {
    try {
      view = await getJSON('/api/view?' + query());
      data.grids[view.grid_index] = { cells: view.cells };
      $('x-status').textContent = view.status;
      for (const c of view.charts) {
        const old = specs[c.id];
        specs[c.id] = c;
        $(c.id).parentElement.style.display = '';
        if (old && live.has(c.id) && old.kind === c.kind) redraw(c.id); else { undraw(c.id); draw(c.id); }
      }
      for (const id of ['x-3d', 'x-heat']) {
        if (!view.charts.some((c) => c.id === id)) { undraw(id); $(id).parentElement.style.display = 'none'; }
      }
    } catch (e) {
      $('x-status').textContent = String(e.message);
      console.warn(e);
    }
  }
  async function showPoint(gi, ci) {
    const c = view && view.cells[ci];
    if (!c || !c.points || !c.points.length) return;
    try {
      const p = await getJSON('/api/point?' + new URLSearchParams({ grid: $('x-grid').value, point: c.points[0] }));
      $('x-point').hidden = false;
      $('x-point-title').textContent = p.title;
      $('x-point-params').innerHTML = kvTable(p.rows.map((r) => [r[0], esc(r[1])]));
      if (p.chart) {
        specs[p.chart.id] = p.chart;
        undraw(p.chart.id);
        draw(p.chart.id);
      }
      undraw('x-iterations');
      $('x-iterations').hidden = !p.iterations;
      if (p.iterations) {
        specs[p.iterations.id] = p.iterations;
        draw(p.iterations.id);
      }
    } catch (e) {
      console.warn(e);
    }
  }
  async function poll() {
    try {
      grids = await getJSON('/api/grids');
      const g = currentGrid();
      const counts = g ? g.done + '/' + g.failed : '';
      if (counts !== lastCounts && lastCounts !== '') load();
      lastCounts = counts;
    } catch (e) {
      $('x-status').textContent = 'database unreachable: ' + e.message;
    }
  }
  (async function start() {
    grids = await getJSON('/api/grids');
    if (!grids.length) { $('x-status').textContent = 'no grids in the database yet'; return; }
    fill($('x-grid'), grids.map((g) => [g.id, g.name]), grids[0].id);
    controls(grids[0], false);
    lastCounts = grids[0].done + '/' + grids[0].failed;
    $('x-grid').addEventListener('change', () => { controls(currentGrid(), false); load(); });
    for (const id of ['x-metric', 'x-x', 'x-y']) $(id).addEventListener('change', () => { controls(currentGrid(), true); load(); });
    await load();
    setInterval(poll, 3000);
  })().catch((e) => { $('x-status').textContent = String(e.message); });
})();
