// build.mjs: bundle the dashboard page with esbuild.
//
//   node build.mjs           src/ -> dist/ (app.js, app.css, index.html, favicon.svg)
//   node build.mjs --check   build into a temporary folder and compare with dist/:
//                            exit 1 and name the files when the committed bundle is stale
//
// dist/ is committed and embedded into the mytriton binary (web/tools/embed.c),
// so `mytriton serve` needs no node. The build is deterministic: pinned
// versions (package-lock.json), no timestamps, no source maps.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');
const out = check ? fs.mkdtempSync(path.join(os.tmpdir(), 'mytriton-page-')) : path.join(here, 'dist');
fs.mkdirSync(out, { recursive: true });

await esbuild.build({
  entryPoints: { app: path.join(here, 'src/main.js') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome100', 'firefox100', 'safari15'],
  outdir: out,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
});
for (const f of ['index.html', 'favicon.svg'])
  fs.copyFileSync(path.join(here, 'src', f), path.join(out, f));

if (check) {
  const files = ['index.html', 'app.js', 'app.css', 'favicon.svg'];
  const stale = files.filter((f) => {
    const want = fs.readFileSync(path.join(out, f));
    const p = path.join(here, 'dist', f);
    return !fs.existsSync(p) || !want.equals(fs.readFileSync(p));
  });
  fs.rmSync(out, { recursive: true, force: true });
  if (stale.length) {
    console.error(`static/dist is stale (${stale.join(', ')}): run 'npm run build' in static/ and commit dist/`);
    process.exit(1);
  }
  console.log('static/dist matches its sources');
}
