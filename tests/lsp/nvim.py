#!/usr/bin/env python3
"""heaplint lsp under a real client: Neovim's built-in one.

`nvim --headless` starts the server the way docs/editors.md tells a
Neovim 0.7 user to (vim.lsp.start_client, then buf_attach_client), opens
src/main.cc of the test project (project.py: a site after non-ASCII text,
a NOLINT), waits for the diagnostics and writes vim.diagnostic.get() as
JSON. Neovim converts the server's UTF-16 positions to byte columns
itself, so the result is compared with the CLI's findings as they are:
line, byte column, range end, severity, message, rule.

usage: nvim.py --heaplint <path to heaplint> [--nvim <path to nvim>]
Exits 77 (ctest: skipped) when there is no nvim.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import project  # noqa: E402

INIT = r"""
local heaplint, file, out = os.getenv("HL_HEAPLINT"), os.getenv("HL_FILE"), os.getenv("HL_OUT")
vim.cmd("filetype on")
-- docs/editors.md, Neovim 0.7 (with the test's heaplint):
local heaplint_client
vim.api.nvim_create_autocmd("FileType", {
  pattern = { "cpp" },
  callback = function(args)
    heaplint_client = heaplint_client or vim.lsp.start_client({
      name = "heaplint",
      cmd = { heaplint, "lsp" },
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, heaplint_client)
  end,
})
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local client = heaplint_client
local ok = vim.wait(120000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local items = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(items, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                        severity = d.severity, message = d.message, source = d.source, code = lsp.code })
end
local f = assert(io.open(out, "w"))
f:write(vim.fn.json_encode({ ok = ok, filetype = vim.bo[buf].filetype, diagnostics = items }))
f:close()
vim.lsp.stop_client(client)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client) == nil end, 50)
vim.cmd("qa!")
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heaplint", required=True)
    ap.add_argument("--nvim", default=shutil.which("nvim"))
    a = ap.parse_args()
    if not a.nvim:
        print("nvim.py: no nvim (apt-get install neovim): skipped")
        return 77
    heaplint = os.path.abspath(a.heaplint)
    top = tempfile.mkdtemp(prefix="heaplint-nvim-")
    proj, _ = project.make(top)
    init, out = os.path.join(top, "init.lua"), os.path.join(top, "out.json")
    with open(init, "w") as f:
        f.write(INIT)
    env = dict(os.environ, HL_HEAPLINT=heaplint, HL_FILE=os.path.join(proj, "src/main.cc"), HL_OUT=out,
               XDG_CONFIG_HOME=top, XDG_DATA_HOME=top, XDG_STATE_HOME=top)
    run = subprocess.run([a.nvim, "--headless", "-n", "-i", "NONE", "-u", init], cwd=proj, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if not os.path.exists(out):
        print("nvim.py: nvim wrote nothing (status %d):\n%s%s" % (run.returncode, run.stdout.decode(),
                                                                  run.stderr.decode()))
        return 1
    with open(out) as f:
        got = json.load(f)
    print("nvim: filetype %s, %d diagnostics" % (got["filetype"], len(got["diagnostics"])))
    if got["filetype"] != "cpp" or not got["ok"]:
        print("FAIL: the server did not attach to a cpp buffer, or published nothing: %r" % got)
        return 1
    findings = project.cli_findings(heaplint, proj, ["-p", ".", "src/main.cc"], "src/main.cc")
    severity = {"error": 1, "warning": 2, "note": 3}
    want = sorted((f["line"] - 1, f["column"] - 1, severity[f["severity"]], f["message"], f["rule"],
                   (f["end_line"] - 1, f["end_column"] - 1) if "end_line" in f else None) for f in findings)
    have = sorted((d["lnum"], d["col"], d["severity"], d["message"], d["code"], (d["end_lnum"], d["end_col"]))
                  for d in got["diagnostics"])
    problems = []
    if len(want) != len(have) or not want:
        problems.append("nvim shows %d diagnostics, the CLI finds %d" % (len(have), len(want)))
    for w, h in zip(want, have):
        if w[:5] != h[:5] or (w[5] is not None and w[5] != h[5]):
            problems.append("CLI %r\n  nvim %r" % (w, h))
    if any(d["source"] != "heaplint" for d in got["diagnostics"]):
        problems.append("a diagnostic's source is not heaplint: %r" % got["diagnostics"])
    for p in problems:
        print("FAIL: " + p)
    if problems:
        print("nvim.py: the project is in %s" % top)
        return 1
    for h in have:
        print("ok: %d:%d %s %s" % (h[0] + 1, h[1] + 1, h[4], h[3][:60]))
    shutil.rmtree(top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
