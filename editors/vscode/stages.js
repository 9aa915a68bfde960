// stages.js: the editor-independent part of the extension, unit-tested
// with node's test runner (test/stages.test.js): how the server is run,
// how a kernel's stages are addressed as a read-only document, and how
// the mytriton/stages reply (the compiler's JSON export) becomes text.
'use strict';

const STAGES = ['ast', 'expr', 'ssa-raw', 'ssa', 'layout', 'cuda'];
const SCHEME = 'mytriton-stages';

/** The server command from the settings: `<path> lsp <args...>`. */
function serverCommand(settings) {
  const path = settings && typeof settings.path === 'string' && settings.path.trim() ? settings.path.trim() : 'mytriton';
  const extra = settings && Array.isArray(settings.args) ? settings.args.filter((a) => typeof a === 'string') : [];
  return { command: path, args: ['lsp', ...extra] };
}

/** The settings object the server reads (section "mytriton"). */
function serverSettings(config) {
  const get = (key, def) => (config && config[key] !== undefined ? config[key] : def);
  return {
    constexprs: get('constexprs', {}),
    stage: get('stage', 'cuda'),
    inlayHints: get('inlayHints', true),
    codeLens: get('codeLens', true),
    inferredTypes: get('inferredTypes', 'hint'),
    hoverMlir: get('hoverMlir', 'off'),
    dashboardUrl: get('dashboardUrl', ''),
  };
}

/** initializationOptions: the settings, and the commands this extension runs itself. */
function initializationOptions(settings) {
  return { mytriton: Object.assign({ clientCommands: ['mytriton.showStages'] }, settings) };
}

/** The virtual document of a kernel's stages: mytriton-stages:/<kernel>.stages?<query>. */
function stagesUri(docUri, kernel, position, stages) {
  const query = JSON.stringify({ uri: docUri, kernel: kernel || null, position: position || null, stages });
  return `${SCHEME}:/${encodeURIComponent(kernel || 'kernel')}.stages?${encodeURIComponent(query)}`;
}

function parseStagesUri(uri) {
  const q = uri.indexOf('?');
  if (!uri.startsWith(`${SCHEME}:`) || q < 0) return null;
  try {
    const v = JSON.parse(decodeURIComponent(uri.slice(q + 1)));
    return v && typeof v.uri === 'string' ? v : null;
  } catch (e) {
    return null;
  }
}

/** The mytriton/stages request parameters. */
function stagesRequest(target) {
  const p = { textDocument: { uri: target.uri } };
  if (target.kernel) p.kernel = target.kernel;
  else if (target.position) p.position = target.position;
  return p;
}

/** The text shown for a reply: a header, then each wanted stage. */
function formatStages(result, wanted) {
  const list = (wanted && wanted.length ? wanted : ['ssa', 'layout', 'cuda']).filter((s) => STAGES.includes(s));
  const stages = (result && result.stages) || {};
  const lines = [];
  const sig = result && result.signature ? `(${result.signature})` : '';
  lines.push(`// ${result && result.kernel ? result.kernel : 'kernel'}${sig}`);
  const errors = ((result && result.diagnostics) || []).filter((d) => d.severity === 'error');
  for (const d of errors) {
    const at = d.range && d.range.start ? `${d.range.start.line}:${d.range.start.col}` : '';
    lines.push(`// error ${d.code || ''} ${at}: ${d.message}`);
  }
  for (const s of list) {
    lines.push('', `// ---- ${s} ----`);
    lines.push(stages[s] !== undefined ? stages[s].replace(/\n$/, '') : `// (no ${s}: an earlier stage failed)`);
  }
  return lines.join('\n') + '\n';
}

module.exports = {
  STAGES,
  SCHEME,
  serverCommand,
  serverSettings,
  initializationOptions,
  stagesUri,
  parseStagesUri,
  stagesRequest,
  formatStages,
};
