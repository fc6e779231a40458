// heaplint for VS Code: starts `heaplint lsp` (docs/editors.md) for C++
// files, next to whichever extension provides clangd or IntelliSense.
// Commands: "heaplint: Restart the language server" (after rebuilding
// heaplint, or when it is stuck) and "heaplint: Show the language
// server's output"; the setting heaplint.trace.server logs the protocol.
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
    initializationOptions: { debounce: config.get("debounce", "auto"), fastFirst: config.get("fastFirst", true) },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{.heaplint.yaml,compile_commands.json}"),
    },
  };
  // The id "heaplint" makes the client read heaplint.trace.server.
  client = new LanguageClient("heaplint", "heaplint", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand("heaplint.restartServer", () => client.restart()),
    vscode.commands.registerCommand("heaplint.showOutput", () => client.outputChannel.show(true)),
    { dispose: () => client && client.stop() },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
