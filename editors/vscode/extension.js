// heaplint for VS Code: starts `heaplint lsp` (docs/editors.md) for C++
// files, next to whichever extension provides clangd or IntelliSense.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("heaplint");
  const command = config.get("path", "heaplint");
  const args = ["lsp", ...config.get("args", [])];
  const serverOptions = { run: { command, args }, debug: { command, args } };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "cpp" },
      { scheme: "file", language: "cuda-cpp" },
    ],
    initializationOptions: { debounce: config.get("debounce", 300) },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{.heaplint.yaml,compile_commands.json}"),
    },
  };
  client = new LanguageClient("heaplint", "heaplint", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
