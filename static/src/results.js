// results.js: a finished run: its outputs as a table (shape, sum, min, max,
// first values, the difference from the interpreter when compared), each
// with its .npy download, and what the run reported about itself.
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};

const num = (v, digits = 7) => (typeof v === 'number' ? Number(v.toPrecision(digits)).toString() : v ?? '');
const shapeText = (a) => `${a.dtype || ''}[${(a.shape || []).join(', ')}]`;

// An occupancy (a GPU run's, GET /api/runs/{id}; a compile's, its "ptx"
// part), in words, with where it came from.
export function occupancyText(o) {
  if (!o) return '';
  if (o.unavailable) return `occupancy: ${o.unavailable}`;
  const pct = typeof o.fraction === 'number' ? ` ${Math.round(o.fraction * 100)}%` : '';
  const of = o.max_warps_per_sm ? ` of ${o.max_warps_per_sm}` : '';
  const from = o.source === 'driver' ? 'the driver' : `calculated${o.limits ? ` for ${o.limits}` : ''}`;
  return `occupancy${pct}: ${o.blocks_per_sm} blocks, ${o.warps_per_sm}${of} warps per SM` +
    (o.limit ? ` (limited by ${o.limit})` : '') +
    (o.calculated_blocks_per_sm !== undefined ? ` (the calculation gives ${o.calculated_blocks_per_sm})` : '') +
    `, from ${from}`;
}

const big = (v) => (typeof v === 'number' ? v.toLocaleString('en-US') : '-');

// What the compiler counts for a run (GET /api/runs/{id}'s "cost"): per
// program, the programs, the totals and where each came from, in words.
export function costText(c) {
  if (!c) return '';
  if (c.unavailable) return `bytes and FLOPs: ${c.unavailable}`;
  const pp = c.per_program;
  let t = `per program ${big(pp.load_bytes)} B loaded, ${big(pp.store_bytes)} B stored, ${big(pp.flops)} FLOPs`;
  if (c.loops?.length)
    t += ` (per iteration of ${c.loops.map((l) => `the loop at line ${l.span.line}: ${l.why}`).join('; ')})`;
  if (c.programs) t += ` × ${big(c.programs)} programs`;
  const from = (k) => (c[`${k}_from`] === 'spec' ? ' (the spec\'s)' : '');
  if (c.bytes !== null || c.flops !== null)
    t += ` = ${big(c.bytes)} B${from('bytes')}, ${big(c.flops)} FLOPs${from('flops')}`;
  if (c.masked && c.bytes_from !== 'spec') t += ' · masked accesses: the bytes are an upper bound';
  if (c.branches) t += ' · a branch not decided by the launch: the larger counted';
  return t;
}

export function renderRun(root, run) {
  root.replaceChildren();
  if (!run) {
    root.append(el('p', 'hint', 'Run a kernel to see its outputs here.'));
    return;
  }
  const res = run.result || {};
  const head = el('div', 'run-head');
  head.append(el('span', `badge ${run.status}`, run.status));
  head.append(el('span', null, ` run ${run.id} · ${run.kernel || ''} · ${run.backend}${run.device ? ` (${run.device})` : ''} · ${run.created || ''}`));
  if (run.time_ms !== undefined) head.append(el('span', 'time', ` · ${num(run.time_ms, 4)} ms`));
  const repro = el('a', 'repro', 'repro archive');
  repro.href = `/api/runs/${run.id}/repro`;
  head.append(' · ', repro);
  root.append(head);
  if (run.error) root.append(el('pre', 'run-error', run.error));
  const arrays = res.arrays || [];
  const outputs = new Map((run.outputs || []).map((o) => [o.name, o]));
  if (arrays.length || outputs.size) {
    const t = el('table', 'outputs');
    const cols = ['array', 'shape', 'sum', 'min', 'max', 'first values', 'max |error| vs interpreter', ''];
    const hr = el('tr');
    for (const c of cols) hr.append(el('th', null, c));
    t.append(hr);
    const names = arrays.length ? arrays.map((a) => a.name) : [...outputs.keys()];
    for (const name of names) {
      const a = arrays.find((x) => x.name === name) || { name };
      const tr = el('tr');
      tr.dataset.array = name;
      const cmp = a.compare;
      tr.append(
        el('td', 'name', name),
        el('td', null, a.shape ? shapeText(a) : ''),
        el('td', 'num', num(a.stats?.sum)),
        el('td', 'num', num(a.stats?.min)),
        el('td', 'num', num(a.stats?.max)),
        el('td', 'preview', Array.isArray(a.preview) ? a.preview.join(', ') : a.preview ?? ''),
        el('td', `num ${cmp ? (cmp.ok ? 'ok' : 'bad') : ''}`, cmp ? `${num(cmp.max_abs_err, 3)}${cmp.mismatches ? ` (${cmp.mismatches} over tolerance)` : ''}` : ''),
      );
      const out = outputs.get(name);
      const dl = el('td');
      if (out) {
        const link = el('a', 'download', '.npy');
        link.href = out.url;
        link.setAttribute('download', `run${run.id}_${name}.npy`);
        dl.append(link);
      }
      tr.append(dl);
      t.append(tr);
    }
    root.append(t);
  }
  const facts = [];
  if (res.grid) facts.push(`grid (${res.grid.join(', ')})`);
  if (res.cuda_threads) facts.push(`${res.cuda_threads} CUDA threads per program`);
  if (res.backend === 'interp' && res.threads) facts.push(`${res.threads} interpreter threads`);
  if (res.device?.name) facts.push(`on ${res.device.name}`);
  if (res.device?.registers !== undefined) facts.push(`${res.device.registers} registers per thread`);
  if (res.device?.shared_bytes !== undefined) facts.push(`${res.device.shared_bytes} B shared`);
  const occ = occupancyText(run.occupancy);
  if (occ) facts.push(occ);
  if (res.times_ms?.run !== undefined) facts.push(`run ${num(res.times_ms.run, 4)} ms`);
  if (facts.length) root.append(el('p', 'facts', facts.join(' · ')));
  if (run.cost) root.append(el('p', 'facts cost', costText(run.cost)));
  const raw = el('details', 'raw');
  raw.append(el('summary', null, 'the run as recorded (JSON)'), el('pre', null, JSON.stringify(run.result, null, 2)));
  root.append(raw);
}
