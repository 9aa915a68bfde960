-- test.lua: the language server through Neovim's own LSP client (run.sh).
-- Opens a copy of examples/add_kernel.py with a planted E0207 error and
-- checks, through editors/nvim's setup(): the client attaches; the
-- diagnostic's range, code and message; the quick fix, applied by the
-- client, clears it; a hover on `offsets` shows its type and the SSA of
-- its line; :MytritonStages ssa opens the SSA in a split. Each step waits
-- with vim.wait and fails with a message; everything it saw is printed.

local server = os.getenv("MYTRITON_SERVER")
local root = os.getenv("MYTRITON_ROOT")
local file = os.getenv("MYTRITON_FILE")

local function out(msg)
  io.stdout:write(msg .. "\n")
end

local function fail(msg)
  io.stdout:write("FAIL " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function expect(cond, msg)
  if not cond then
    error(msg, 0)
  end
end

local function diag_code(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

local function run()
  out("nvim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor) .. "." ..
      tostring(vim.version().patch))
  vim.opt.runtimepath:prepend(root .. "/editors/nvim")
  vim.cmd("filetype on")
  local mytriton = require("mytriton")
  mytriton.setup({ cmd = { server, "lsp" }, codelens = false })
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  expect(vim.bo.filetype == "python", "the file did not get filetype python")

  expect(vim.wait(10000, function() return mytriton.client(0) ~= nil end, 20),
         "the mytriton client did not attach in 10 s")
  local client = mytriton.client(0)
  out("attached: " .. client.name .. " (offset encoding " .. tostring(client.offset_encoding) .. ")")

  -- 1. The planted error: `mask = offsets < n & offsets > 0` on line 14.
  local diags = {}
  expect(vim.wait(15000, function()
    diags = vim.diagnostic.get(0)
    return #vim.tbl_filter(function(d) return diag_code(d) == "E0207" end, diags) > 0
  end, 20), "no E0207 diagnostic in 15 s (got " .. #diags .. " diagnostics)")
  local d = vim.tbl_filter(function(x) return diag_code(x) == "E0207" end, diags)[1]
  out(string.format("diagnostic: %s %d:%d-%d:%d severity %d: %s", diag_code(d), d.lnum + 1, d.col + 1,
                    d.end_lnum + 1, d.end_col + 1, d.severity, d.message))
  expect(d.lnum == 13 and d.col == 11 and d.end_lnum == 13 and d.end_col == 36,
         "E0207 range is not 14:12-14:37")
  expect(d.severity == vim.diagnostic.severity.ERROR, "E0207 is not an error")
  expect(d.message:find("binds tighter than comparisons", 1, true), "E0207 message: " .. d.message)

  -- 2. The quick fix, applied through the client.
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(0),
    range = { start = { line = 13, character = 11 }, ["end"] = { line = 13, character = 11 } },
    context = { diagnostics = {} },
  }
  local reply = client.request_sync("textDocument/codeAction", params, 10000, 0)
  expect(reply and reply.result and reply.result[1], "no code action for E0207")
  local action = reply.result[1]
  out("code action: " .. action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  local fixed = vim.api.nvim_buf_get_lines(0, 13, 14, false)[1]
  out("fixed line: " .. fixed)
  expect(fixed == "    mask = (offsets < n) & (offsets > 0)", "the fix gave: " .. fixed)
  expect(vim.wait(15000, function()
    return #vim.tbl_filter(function(x) return diag_code(x) == "E0207" end, vim.diagnostic.get(0)) == 0
  end, 20), "E0207 still reported 15 s after the fix")
  out("after the fix: " .. #vim.diagnostic.get(0) .. " diagnostics, none E0207")

  -- 3. Hover on `offsets` (line 13): its type and its line's SSA.
  vim.api.nvim_win_set_cursor(0, { 13, 6 })
  local hp = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local hover = client.request_sync("textDocument/hover", hp, 10000, 0)
  expect(hover and hover.result and hover.result.contents, "no hover on offsets")
  local text = hover.result.contents.value or ""
  for _, l in ipairs(vim.split(text, "\n", { plain = true })) do
    out("hover| " .. l)
  end
  expect(text:find("offsets: vector<256 x i32>", 1, true), "hover lacks the type")
  expect(text:find("%3 = add %1, %2 : vector<256 x i32>", 1, true), "hover lacks the SSA of the line")
  expect(text:find("thread axes (0,)", 1, true), "hover lacks the layout")

  -- 4. :MytritonStages ssa opens the kernel's SSA beside the source.
  local before = #vim.api.nvim_list_wins()
  vim.cmd("MytritonStages ssa")
  expect(#vim.api.nvim_list_wins() == before + 1, ":MytritonStages did not open a window")
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  out("stages split: " .. vim.api.nvim_buf_get_name(0) .. ", " .. #lines .. " lines, first: " .. lines[2])
  local ssa = table.concat(lines, "\n")
  expect(ssa:find("cmp_gt %3, 0 : vector<256 x bool>", 1, true) and ssa:find("\nstore %", 1, true),
         "the SSA split lacks the fixed mask or the store")
  out("PASS nvim")
end

local ok, err = pcall(run)
if not ok then
  fail(tostring(err))
else
  vim.cmd("qall!")
end
