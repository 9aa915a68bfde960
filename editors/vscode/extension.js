// extension.js: the mytriton extension for VS Code.
//
// Starts `mytriton lsp` (vscode-languageclient, stdio) for Python files,
// passes the mytriton.* settings (initializationOptions and
// workspace/configuration), and implements `mytriton: Show Kernel Stages`
// (also the code lens above each kernel): it asks the server for
// mytriton/stages and opens the kernel's SSA, layouts and CUDA as a
// read-only document beside the source.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const stages = require('./stages');

let client = null;

function settings() {
  const c = vscode.workspace.getConfiguration('mytriton');
  return {
    server: { path: c.get('server.path'), args: c.get('server.args') },
    mytriton: stages.serverSettings({
      constexprs: c.get('constexprs'),
      stage: c.get('stage'),
      inlayHints: c.get('inlayHints'),
      codeLens: c.get('codeLens'),
      inferredTypes: c.get('inferredTypes'),
      hoverMlir: c.get('hoverMlir'),
      dashboardUrl: c.get('dashboardUrl'),
    }),
  };
}

function createClient() {
  const s = settings();
  const cmd = stages.serverCommand(s.server);
  const serverOptions = { command: cmd.command, args: cmd.args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
    // The stages view is this extension's own; the server runs the other
    // lens commands (autotune configs, the dashboard) through executeCommand.
    initializationOptions: stages.initializationOptions(s.mytriton),
    synchronize: { configurationSection: 'mytriton' },
    middleware: {
      workspace: {
        // Answer workspace/configuration with what the server reads.
        configuration: (params) => params.items.map((it) => (it.section === 'mytriton' ? settings().mytriton : null)),
      },
    },
  };
  return new LanguageClient('mytriton', 'mytriton', serverOptions, clientOptions);
}

class StagesProvider {
  constructor() {
    this.changed = new vscode.EventEmitter();
    this.onDidChange = this.changed.event;
  }

  async provideTextDocumentContent(uri) {
    const target = stages.parseStagesUri(uri.toString(true));
    if (!target) return '// not a mytriton stages address\n';
    if (!client) return '// the mytriton language server is not running\n';
    try {
      const result = await client.sendRequest('mytriton/stages', stages.stagesRequest(target));
      return stages.formatStages(result, target.stages);
    } catch (e) {
      return `// mytriton/stages failed: ${e.message || e}\n`;
    }
  }
}

async function showStages(provider, arg) {
  let target;
  if (arg && arg.uri) {
    target = { uri: arg.uri, kernel: arg.kernel };
  } else {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      vscode.window.showWarningMessage('mytriton: open a Python file with a kernel first');
      return;
    }
    const p = editor.selection.active;
    target = { uri: editor.document.uri.toString(), position: { line: p.line, character: p.character } };
  }
  const shown = vscode.workspace.getConfiguration('mytriton').get('stagesShown');
  const uri = vscode.Uri.parse(stages.stagesUri(target.uri, target.kernel, target.position, shown));
  provider.changed.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
}

async function activate(context) {
  const provider = new StagesProvider();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(stages.SCHEME, provider));
  context.subscriptions.push(vscode.commands.registerCommand('mytriton.showStages', (arg) => showStages(provider, arg)));
  context.subscriptions.push(
    vscode.commands.registerCommand('mytriton.restartServer', async () => {
      if (client) await client.stop();
      client = createClient();
      await client.start();
    }),
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (client && (e.affectsConfiguration('mytriton.server.path') || e.affectsConfiguration('mytriton.server.args'))) {
        await client.stop();
        client = createClient();
        await client.start();
      }
    }),
  );
  client = createClient();
  try {
    await client.start();
  } catch (e) {
    vscode.window.showErrorMessage(
      `mytriton: cannot start the language server (${e.message || e}); set mytriton.server.path to the mytriton executable`,
    );
  }
}

async function deactivate() {
  if (client) await client.stop();
  client = null;
}

module.exports = { activate, deactivate };
