// The chart page (src/vscode/charts/chartPanel.ts builds it): draws the series the host posts
// (src/model/charts/protocol.ts) with uPlot, one chart per series, in the theme's colours (VS Code's CSS
// variables). Smoothing (EMA), log scale, hover values (uPlot's cursor and legend), a table of the
// latest values for screen readers ("Show as table" shows it instead of the charts), Export CSV (asks
// the host), and a choice the host may offer (a select: which rank's series). Every element is made with the DOM API: no inline style, no HTML from data.
/* global uPlot, acquireVsCodeApi */
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  const COLOURS = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];
  /** id -> { data, chart, el, legendEl } */
  const charts = new Map();
  let labels = {};
  let choice;
  let order = [];
  let smoothing = 0;
  let logScale = false;
  let asTable = false;
  let statusEl, chartsEl, tableEl, emptyEl;
  let frame = 0;

  const css = (name, fallback) => getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const fmt = (v) =>
    Number.isFinite(v)
      ? Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3)
        ? v.toExponential(3)
        : String(+v.toPrecision(6))
      : '';
  const fmtX = (s, v) => (s.time ? new Date(v).toLocaleTimeString() : fmt(v));

  function ema(ys, alpha) {
    if (alpha <= 0) return ys;
    const out = new Array(ys.length);
    let acc = 0;
    let weight = 0;
    for (let i = 0; i < ys.length; i++) {
      acc = acc * alpha + ys[i];
      weight = weight * alpha + 1;
      out[i] = acc / weight; // debiased, as TensorBoard's
    }
    return out;
  }

  function toolbar() {
    const bar = el('div', 'toolbar');
    const sLabel = el('label', undefined, labels.smoothing + ' ');
    const slider = el('input');
    slider.type = 'range';
    slider.min = '0';
    slider.max = '0.99';
    slider.step = '0.01';
    slider.value = String(smoothing);
    slider.id = 'smoothing';
    const sValue = el('output', undefined, String(smoothing));
    slider.addEventListener('input', () => {
      smoothing = Number(slider.value);
      sValue.textContent = slider.value;
      for (const c of charts.values()) c.dirty = true;
      schedule();
    });
    sLabel.append(slider, sValue);
    const check = (text, value, id, on) => {
      const l = el('label');
      const c = el('input');
      c.type = 'checkbox';
      c.checked = value;
      c.id = id;
      c.addEventListener('change', () => on(c.checked));
      l.append(c, document.createTextNode(' ' + text));
      return l;
    };
    const log = check(labels.logScale, logScale, 'logScale', (v) => {
      logScale = v;
      rebuild();
    });
    const table = check(labels.showTable, asTable, 'showTable', (v) => {
      asTable = v;
      show();
    });
    const exp = el('button', undefined, labels.exportCsv);
    exp.id = 'exportCsv';
    exp.addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));
    bar.append(sLabel, log, table, exp);
    if (choice && choice.options.length > 1) {
      // a choice the host offers (which rank's series): the host sends a new snapshot for the value picked
      const cLabel = el('label', undefined, choice.label + ' ');
      const select = el('select');
      select.id = 'choice';
      for (const o of choice.options) {
        const option = el('option', undefined, o.label);
        option.value = o.value;
        option.selected = o.value === choice.selected;
        select.append(option);
      }
      select.addEventListener('change', () => vscode.postMessage({ type: 'choose', value: select.value }));
      cLabel.append(select);
      bar.append(cLabel);
    }
    return bar;
  }

  function show() {
    chartsEl.hidden = asTable;
    tableEl.classList.toggle('visually-hidden', !asTable);
  }

  function canLog(s) {
    for (const y of s.ys) if (!(y > 0)) return false;
    return s.ys.length > 0;
  }

  function makeChart(c, index) {
    if (c.chart) c.chart.destroy();
    c.body.replaceChildren();
    const s = c.data;
    const colour = css('--vscode-charts-' + COLOURS[index % COLOURS.length], '#3794ff');
    const fg = css('--vscode-foreground', '#ccc');
    const grid = css('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
    const log = logScale && canLog(s);
    c.note.textContent = logScale && !log ? labels.logUnavailable : '';
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts = {
      width: Math.max(200, chartsEl.clientWidth - 16),
      height: 220,
      scales: { x: { time: false }, y: { distr: log ? 3 : 1 } },
      axes: [
        { ...axis, values: (u, vals) => vals.map((v) => fmtX(s, v)) },
        { ...axis, size: 70, values: (u, vals) => vals.map(fmt) },
      ],
      cursor: { drag: { x: true, y: false } },
      legend: { live: true },
      series: [
        { label: s.xLabel, value: (u, v) => (v == null ? '' : fmtX(s, v)) },
        {
          label: labels.raw,
          stroke: colour,
          width: 1,
          alpha: smoothing > 0 ? 0.3 : 1,
          value: (u, v) => fmt(v),
        },
        { label: labels.smoothed, stroke: colour, width: 2, show: smoothing > 0, value: (u, v) => fmt(v) },
      ],
    };
    c.chart = new uPlot(opts, chartData(s), c.body);
    c.dirty = false;
  }

  function chartData(s) {
    return [s.xs, s.ys, ema(s.ys, smoothing)];
  }

  function addSeries(s) {
    let c = charts.get(s.id);
    if (!c) {
      const box = el('section', 'chart');
      box.setAttribute('aria-label', s.title);
      const head = el('h2', undefined, s.title + ' · ' + s.xLabel);
      const note = el('span', 'note');
      head.append(' ', note);
      const body = el('div', 'plot');
      box.append(head, body);
      chartsEl.append(box);
      c = { box, body, note, data: null, chart: null, dirty: true };
      charts.set(s.id, c);
      order.push(s.id);
    }
    c.data = { ...s, xs: Array.from(s.xs), ys: Array.from(s.ys) };
    c.rebuild = true;
  }

  function rebuild() {
    for (const c of charts.values()) c.rebuild = true;
    schedule();
  }

  function schedule() {
    if (!frame) frame = requestAnimationFrame(draw);
  }

  function draw() {
    frame = 0;
    order.forEach((id, i) => {
      const c = charts.get(id);
      if (c.rebuild || !c.chart) {
        c.rebuild = false;
        makeChart(c, i);
      } else if (c.dirty) {
        c.chart.setData(chartData(c.data));
        c.dirty = false;
      }
    });
    renderTable();
    const drawn = order.map((id) => {
      const c = charts.get(id);
      const canvas = c.body.querySelector('canvas');
      return {
        id,
        points: c.data.xs.length,
        width: canvas ? canvas.width : 0,
        height: canvas ? canvas.height : 0,
      };
    });
    vscode.postMessage({ type: 'drawn', charts: drawn });
  }

  function renderTable() {
    const t = el('table');
    const cap = el('caption', undefined, document.title);
    const head = el('tr');
    for (const h of [labels.metric, labels.latestX, labels.latest, labels.min, labels.max, labels.points])
      head.append(el('th', undefined, h));
    t.append(cap, head);
    for (const id of order) {
      const s = charts.get(id).data;
      const n = s.ys.length;
      let lo = Infinity;
      let hi = -Infinity;
      for (const y of s.ys) {
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
      const row = el('tr');
      const name = el('th', undefined, s.title + ' (' + s.xLabel + ')');
      name.scope = 'row';
      row.append(name);
      for (const v of [n ? fmtX(s, s.xs[n - 1]) : '', n ? fmt(s.ys[n - 1]) : '', fmt(lo), fmt(hi), String(n)])
        row.append(el('td', undefined, v));
      t.append(row);
    }
    tableEl.replaceChildren(t);
  }

  function snapshot(m) {
    labels = m.labels;
    choice = m.choice;
    document.title = m.title;
    for (const c of charts.values()) if (c.chart) c.chart.destroy();
    charts.clear();
    order = [];
    statusEl = el('p', 'status', m.status);
    statusEl.setAttribute('role', 'status');
    chartsEl = el('div', 'charts');
    tableEl = el('div', 'table');
    emptyEl = el('div', 'empty');
    const heading = el('h1', undefined, m.title);
    root.replaceChildren(heading, toolbar(), statusEl, emptyEl, chartsEl, tableEl);
    if (!m.canExport) document.getElementById('exportCsv').hidden = true;
    if (m.empty) {
      emptyEl.append(el('p', undefined, m.empty.text));
      const list = el('ul');
      for (const item of m.empty.items) list.append(el('li', undefined, item));
      emptyEl.append(list);
    }
    for (const s of m.series) addSeries(s);
    show();
    schedule();
  }

  function update(m) {
    if (m.status !== undefined && statusEl) statusEl.textContent = m.status;
    for (const a of m.append) {
      const c = charts.get(a.id);
      if (!c) continue;
      for (let i = 0; i < a.xs.length; i++) {
        c.data.xs.push(a.xs[i]);
        c.data.ys.push(a.ys[i]);
      }
      if (logScale && !c.note.textContent && !canLog(c.data)) c.rebuild = true;
      c.dirty = true;
    }
    for (const s of m.replace) addSeries(s);
    if (m.replace.length && emptyEl) emptyEl.replaceChildren();
    schedule();
  }

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (m && m.type === 'snapshot') snapshot(m);
    else if (m && m.type === 'update' && chartsEl) update(m);
  });
  window.addEventListener('resize', () => {
    for (const c of charts.values())
      if (c.chart) c.chart.setSize({ width: Math.max(200, chartsEl.clientWidth - 16), height: 220 });
  });
  vscode.postMessage({ type: 'ready' });
})();
