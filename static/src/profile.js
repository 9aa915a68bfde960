// profile.js: the profile of a GPU run, drawn with uPlot.
//
//  - the N timed launches (CUPTI kernel durations, or CUDA events when
//    CUPTI is missing), one point per launch, with min/median/max;
//  - achieved GB/s and TFLOP/s from the bytes and FLOPs the compiler counts
//    (the run's "cost": per program times the programs, or the spec's own
//    counts where it gives them), over the median launch;
//  - registers and shared memory per block from the loaded cubin, and the
//    occupancy: the driver's, else computed from them with the device's
//    limits (the text says which);
//  - a roofline: the device's copy bandwidth and fp32 FMA rate, measured
//    once per device by two small kernels (the best of their profiled
//    launches) and cached by the server (GET/POST /api/ceilings), with
//    this run as a point;
//  - a size sweep: the same launch with one scalar stepped over a range
//    (arrays whose extent equals that scalar follow it), time and GB/s
//    against size.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { get, post, follow } from './api.js';
import { costText, occupancyText } from './results.js';

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};
const fmt = (v, d = 4) => (typeof v === 'number' && Number.isFinite(v) ? Number(v.toPrecision(d)).toString() : '-');

// What a run's result says about its timing (null when not profiled).
export function profileOf(run) {
  const res = run?.result;
  const p = res?.profile;
  if (!p) return null;
  const samples = (p.samples_ns || []).map((x) => x / 1000);
  const median = p.median_ns;
  const cost = run.cost || {};
  const known = (v) => (typeof v === 'number' ? v : undefined);
  return {
    samples,
    timer: p.timer,
    note: p.note,
    min: p.min_ns / 1000,
    median: median / 1000,
    max: p.max_ns / 1000,
    gbs: known(cost.gbps),
    tflops: known(cost.tflops),
    bytes: known(cost.bytes),
    flops: known(cost.flops),
    device: res.device || {},
  };
}

function chart(parent, opts, data) {
  const box = el('div', 'chart');
  parent.append(box);
  const width = Math.max(320, Math.min(720, parent.clientWidth - 20 || 640));
  return new uPlot({ width, height: 220, ...opts }, data, box);
}

export class ProfileView {
  constructor(root, { info, launch }) {
    this.root = root;
    this.info = info;
    this.launch = launch;      // () => {request, spec, options} of the current launch panel
    this.run = null;
  }

  show(run) {
    this.run = run;
    this.render();
  }

  render() {
    const root = this.root;
    root.replaceChildren();
    const p = profileOf(this.run);
    if (!p) {
      root.append(el('p', 'hint', 'Profile a kernel: choose a GPU backend, set "profile" to a number of launches, and run it. ' +
        'Without a GPU the interpreter runs it, but there is nothing to time.'));
      this.sweepForm(root);
      return;
    }
    const facts = el('p', 'facts');
    facts.textContent = `${p.samples.length} launches timed with ${p.timer || 'the profiler'}: ` +
      `min ${fmt(p.min)} µs, median ${fmt(p.median)} µs, max ${fmt(p.max)} µs` +
      (p.gbs !== undefined ? ` · ${fmt(p.gbs)} GB/s` : '') +
      (p.tflops !== undefined ? ` · ${fmt(p.tflops)} TFLOP/s` : '');
    root.append(facts);
    if (this.run.cost) root.append(el('p', 'facts cost', costText(this.run.cost)));
    if (p.note) root.append(el('p', 'hint', p.note));
    const d = p.device;
    if (d.registers !== undefined)
      root.append(el('p', 'facts', `${d.name}: registers ${d.registers} per thread · shared ${d.shared_bytes ?? 0} B per block` +
        (this.run.occupancy ? ` · ${occupancyText(this.run.occupancy)}` : '')));
    chart(root, {
      title: 'launch durations (µs)',
      scales: { x: { time: false } },
      series: [{ label: 'launch' }, { label: 'µs', stroke: '#3366cc', points: { show: true, size: 4 }, width: 1 }],
    }, [p.samples.map((_, i) => i + 1), p.samples]);
    this.roofline(root, p);
    this.sweepForm(root);
  }

  async roofline(root, p) {
    const box = el('div', 'roofline');
    root.append(box);
    const device = this.run?.request?.device ?? 0;
    let doc;
    try {
      doc = await get(`/api/ceilings?device=${device}`);
    } catch (e) {
      box.append(el('p', 'hint', `roofline: ${e.message}`));
      return;
    }
    const c = doc.ceilings;
    if (!c) {
      box.append(el('p', 'hint', 'No ceilings measured on this device yet. '));
      const b = el('button', null, 'Measure the copy bandwidth and fp32 rate (once per device)');
      b.addEventListener('click', () => this.measure(box, device, doc.kernels));
      box.append(b);
      return;
    }
    const ai = p.flops !== undefined && p.bytes ? p.flops / p.bytes : undefined;
    const xs = [];
    for (let e = -3; e <= 4; e += 0.125) xs.push(10 ** e);
    const roof = xs.map((x) => Math.min(c.copy_gbs * x, c.fp32_tflops * 1000));
    const point = xs.map(() => null);
    if (ai !== undefined) {
      let best = 0;
      xs.forEach((x, i) => { if (Math.abs(Math.log(x / ai)) < Math.abs(Math.log(xs[best] / ai))) best = i; });
      point[best] = p.tflops * 1000;
    }
    box.append(el('p', 'facts', `ceilings on ${c.device}: copy ${fmt(c.copy_gbs)} GB/s, fp32 mul+add ${fmt(c.fp32_tflops)} TFLOP/s (measured ${c.measured})` +
      (p.gbs !== undefined ? ` · this run: ${fmt((100 * p.gbs) / c.copy_gbs, 3)}% of the copy bandwidth` : '')));
    chart(box, {
      title: 'roofline (GFLOP/s against FLOP per byte)',
      scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
      series: [{ label: 'FLOP/byte' }, { label: 'ceiling', stroke: '#888' }, { label: 'this run', stroke: '#cc3333', points: { show: true, size: 8 }, width: 0 }],
    }, [xs, roof, point]);
  }

  async measure(box, device, kernels) {
    box.replaceChildren(el('p', 'hint', 'measuring...'));
    const ids = {};
    for (const k of kernels) {
      try {
        const r = await post('/api/runs', {
          source: k.source, path: `${k.name}_ceiling.py`, kernel: k.kernel, signature: k.signature, spec: k.spec,
          backend: 'cuda', device, profile: 50, keep_outputs: false,
        });
        const end = await follow(r.id, () => {});
        if (end.status !== 'ok') throw new Error(end.error || end.status);
        ids[k.name] = r.id;
      } catch (e) {
        box.replaceChildren(el('p', 'run-error', `measuring ${k.name} failed: ${e.message}`));
        return;
      }
    }
    try {
      await post('/api/ceilings', { device, copy_run: ids.copy, fma_run: ids.fma });
    } catch (e) {
      box.replaceChildren(el('p', 'run-error', e.message));
      return;
    }
    this.render();
  }

  sweepForm(root) {
    const box = el('details', 'sweep');
    box.append(el('summary', null, 'size sweep'));
    const name = el('input');
    name.size = 8;
    name.placeholder = 'n';
    const values = el('input');
    values.size = 40;
    values.placeholder = '1024, 4096, 16384, 65536, 262144, 1048576';
    const go = el('button', null, 'Sweep');
    const out = el('div');
    box.append(el('label', null, 'scalar '), name, el('label', null, ' values '), values, ' ', go, out);
    go.addEventListener('click', () => this.sweep(out, name.value.trim(), values.value.split(/[ ,]+/).filter(Boolean).map(Number)));
    root.append(box);
  }

  async sweep(out, name, values) {
    const base = this.launch();
    if (!name || !values.length || base.spec.args?.[name] === undefined) {
      out.replaceChildren(el('p', 'run-error', `give the name of a scalar argument of the launch and a list of values`));
      return;
    }
    const old = base.spec.args[name];
    const rows = [];
    out.replaceChildren(el('p', 'hint', `0 of ${values.length} runs`));
    for (const v of values) {
      const spec = JSON.parse(JSON.stringify(base.spec));
      spec.args[name] = v;
      for (const a of Object.values(spec.args))
        if (a && Array.isArray(a.shape)) a.shape = a.shape.map((d) => (d === old ? v : d));
      try {
        const r = await post('/api/runs', { ...base.request, spec, ...base.options, profile: Math.max(base.options.profile, 10) });
        await follow(r.id, () => {});
        const run = await get(`/api/runs/${r.id}`);
        const p = profileOf(run);
        rows.push({ v, us: p ? p.median : run.time_ms * 1000, gbs: p?.gbs });
      } catch (e) {
        out.replaceChildren(el('p', 'run-error', `${name} = ${v}: ${e.message}`));
        return;
      }
      out.replaceChildren(el('p', 'hint', `${rows.length} of ${values.length} runs`));
    }
    out.replaceChildren();
    chart(out, {
      title: `time (µs) and GB/s against ${name}`,
      scales: { x: { time: false, distr: 3 }, us: {}, gbs: {} },
      axes: [{}, { scale: 'us', label: 'µs' }, { scale: 'gbs', side: 1, label: 'GB/s', grid: { show: false } }],
      series: [{ label: name }, { label: 'µs', scale: 'us', stroke: '#3366cc', points: { show: true } },
        { label: 'GB/s', scale: 'gbs', stroke: '#cc7733', points: { show: true } }],
    }, [rows.map((r) => r.v), rows.map((r) => r.us), rows.map((r) => r.gbs ?? null)]);
  }
}
