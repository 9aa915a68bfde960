// Unit tests of stages.js and of the manifest, with node's built-in test
// runner (no VS Code, no network): `node --test test/`.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const s = require('../stages');

test('serverCommand: default, path and extra arguments', () => {
  assert.deepStrictEqual(s.serverCommand(undefined), { command: 'mytriton', args: ['lsp'] });
  assert.deepStrictEqual(s.serverCommand({ path: ' /opt/bin/mytriton ', args: ['--rules-url', 'x', 3] }), {
    command: '/opt/bin/mytriton',
    args: ['lsp', '--rules-url', 'x'],
  });
  assert.deepStrictEqual(s.serverCommand({ path: '' }).command, 'mytriton');
});

test('serverSettings: defaults and overrides', () => {
  assert.deepStrictEqual(s.serverSettings({}), {
    constexprs: {},
    stage: 'cuda',
    inlayHints: true,
    codeLens: true,
    inferredTypes: 'hint',
    hoverMlir: 'off',
    dashboardUrl: '',
  });
  assert.deepStrictEqual(s.serverSettings({ constexprs: { BLOCK: 64 }, stage: 'ssa' }).constexprs, { BLOCK: 64 });
});

test('stages URIs round-trip', () => {
  const u = s.stagesUri('file:///a b/k.py', 'add_kernel', null, ['ssa']);
  assert.ok(u.startsWith('mytriton-stages:/add_kernel.stages?'));
  assert.deepStrictEqual(s.parseStagesUri(u), {
    uri: 'file:///a b/k.py',
    kernel: 'add_kernel',
    position: null,
    stages: ['ssa'],
  });
  assert.strictEqual(s.parseStagesUri('file:///x.py'), null);
  assert.strictEqual(s.parseStagesUri('mytriton-stages:/k.stages?%7Bbroken'), null);
});

test('stagesRequest: by kernel, else by position', () => {
  assert.deepStrictEqual(s.stagesRequest({ uri: 'u', kernel: 'k', position: { line: 1, character: 2 } }), {
    textDocument: { uri: 'u' },
    kernel: 'k',
  });
  assert.deepStrictEqual(s.stagesRequest({ uri: 'u', position: { line: 1, character: 2 } }), {
    textDocument: { uri: 'u' },
    position: { line: 1, character: 2 },
  });
});

test('formatStages: header, errors, wanted stages in order, missing ones said', () => {
  const text = s.formatStages(
    {
      kernel: 'add_kernel',
      signature: '*fp32,i32,256',
      stages: { ssa: '%0 = program_id {axis=0} : i32\n', cuda: '__global__ void k() {}\n' },
      diagnostics: [{ severity: 'error', code: 'E0603', message: 'no lowering', range: { start: { line: 3, col: 5 } } }],
    },
    ['ssa', 'layout', 'cuda', 'bogus'],
  );
  assert.strictEqual(
    text,
    '// add_kernel(*fp32,i32,256)\n// error E0603 3:5: no lowering\n\n// ---- ssa ----\n%0 = program_id {axis=0} : i32\n\n' +
      '// ---- layout ----\n// (no layout: an earlier stage failed)\n\n// ---- cuda ----\n__global__ void k() {}\n',
  );
  assert.ok(s.formatStages({}, []).includes('// ---- ssa ----'));
});

test('manifest: entry point, activation, command and settings', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  assert.ok(fs.existsSync(path.join(__dirname, '..', pkg.main)));
  assert.ok(pkg.activationEvents.includes('onLanguage:python'));
  const cmds = pkg.contributes.commands.map((c) => c.command);
  assert.ok(cmds.includes('mytriton.showStages'));
  assert.strictEqual(
    pkg.contributes.commands.find((c) => c.command === 'mytriton.showStages').title,
    'mytriton: Show Kernel Stages',
  );
  for (const key of ['mytriton.server.path', 'mytriton.server.args', 'mytriton.constexprs', 'mytriton.stage',
                     'mytriton.inferredTypes', 'mytriton.hoverMlir', 'mytriton.dashboardUrl'])
    assert.ok(pkg.contributes.configuration.properties[key], key);
  assert.ok(pkg.dependencies['vscode-languageclient']);
});

test('initializationOptions: the extension runs showStages itself', () => {
  const o = s.initializationOptions(s.serverSettings({ stage: 'ssa' }));
  assert.deepStrictEqual(o.mytriton.clientCommands, ['mytriton.showStages']);
  assert.strictEqual(o.mytriton.stage, 'ssa');
});
