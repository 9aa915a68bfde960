-- test.lua: the language server through Neovim's own LSP client (run.sh).
-- Opens a copy of a tutorial-style matmul (a launch, @triton.autotune
-- configs from a host function, no mytriton comment, no project file) with
-- a planted E0207 error, and checks, through editors/nvim's setup():
--   1. the client attaches; on first open, hover shows a shape and says
--      where a constexpr's value came from (the first autotune config);
--   2. the E0207 diagnostic's range, code and message;
--   3. the quick fix, applied by the client, clears it, and the code lens
--      is refreshed after it (the plugin refreshes on DiagnosticChanged);
--   4. the autotune lens's command (run as the plugin runs it) compiles the
--      next config;
--   5. :MytritonStages ssa on a kernel that compiles opens its SSA;
--   6. stopping the client shuts the server down with exit status 0.
-- Each step waits with vim.wait and fails with a message; everything it
-- saw is printed (what a user sees on first open).

local server = os.getenv("MYTRITON_SERVER")
local root = os.getenv("MYTRITON_ROOT")
local file = os.getenv("MYTRITON_FILE")
local add = os.getenv("MYTRITON_ADD")

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

local function hover_at(client, line, col)
  vim.api.nvim_win_set_cursor(0, { line, col })
  local hp = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local reply = client.request_sync("textDocument/hover", hp, 10000, 0)
  local text = reply and reply.result and reply.result.contents and reply.result.contents.value or ""
  for _, l in ipairs(vim.split(text, "\n", { plain = true })) do
    out(string.format("hover %d:%d| %s", line, col + 1, l))
  end
  return text
end

local function lens_titles(bufnr)
  local titles = {}
  for _, l in ipairs(vim.lsp.codelens.get(bufnr) or {}) do
    if l.command then
      table.insert(titles, l.command.title)
    end
  end
  return titles
end

local function find_lens(bufnr, prefix)
  for _, l in ipairs(vim.lsp.codelens.get(bufnr) or {}) do
    if l.command and l.command.title:sub(1, #prefix) == prefix then
      return l
    end
  end
  return nil
end

local exit_code = nil

local function run()
  out("nvim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor) .. "." ..
      tostring(vim.version().patch))
  vim.opt.runtimepath:prepend(root .. "/editors/nvim")
  vim.cmd("filetype on")
  local mytriton = require("mytriton")
  mytriton.setup({
    cmd = { server, "lsp" },
    on_exit = function(code)
      exit_code = code
    end,
  })
  local t0 = vim.loop.hrtime()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  expect(vim.bo.filetype == "python", "the file did not get filetype python")
  expect(vim.wait(10000, function() return mytriton.client(0) ~= nil end, 20),
         "the mytriton client did not attach in 10 s")
  local client = mytriton.client(0)
  out("attached: " .. client.name .. " (offset encoding " .. tostring(client.offset_encoding) .. ")")

  -- 1. First open: a shape, and where BLOCK_SIZE_M came from.
  local text = hover_at(client, 54, 6) -- offs_k = tl.arange(0, BLOCK_SIZE_K)
  expect(text:find("offs_k: vector<64 x i32>", 1, true), "hover on offs_k lacks its shape")
  text = hover_at(client, 37, 10) -- BLOCK_SIZE_M: tl.constexpr
  expect(text:find("BLOCK_SIZE_M: constexpr = 128", 1, true), "hover on BLOCK_SIZE_M lacks its value")
  expect(text:find("from autotune config 1 of 3", 1, true), "hover on BLOCK_SIZE_M does not say where it came from")
  -- A figure, not a check: from :edit to the first-open hovers answered.
  out(string.format("first open: the hovers answered %.0f ms after :edit", (vim.loop.hrtime() - t0) / 1e6))
  local hints = client.request_sync("textDocument/inlayHint", {
    textDocument = vim.lsp.util.make_text_document_params(0),
    range = { start = { line = 0, character = 0 }, ["end"] = { line = 100, character = 0 } },
  }, 10000, 0)
  for _, h in ipairs(hints and hints.result or {}) do
    out(string.format("inlay %d:%d %s", h.position.line + 1, h.position.character + 1, h.label))
  end

  -- 2. The planted error: `k_mask = offs_k < K & offs_k >= 0` on line 55.
  local diags = {}
  expect(vim.wait(15000, function()
    diags = vim.diagnostic.get(0)
    return #vim.tbl_filter(function(d) return diag_code(d) == "E0207" end, diags) > 0
  end, 20), "no E0207 diagnostic in 15 s (got " .. #diags .. " diagnostics)")
  for _, x in ipairs(diags) do
    out(string.format("diagnostic: %s %d:%d-%d:%d severity %d: %s", diag_code(x), x.lnum + 1, x.col + 1,
                      x.end_lnum + 1, x.end_col + 1, x.severity, x.message))
  end
  local d = vim.tbl_filter(function(x) return diag_code(x) == "E0207" end, diags)[1]
  expect(d.lnum == 54 and d.col == 13 and d.end_lnum == 54 and d.end_col == 37, "E0207 range is not 55:14-55:38")
  expect(d.severity == vim.diagnostic.severity.ERROR, "E0207 is not an error")
  expect(d.message:find("binds tighter than comparisons", 1, true), "E0207 message: " .. d.message)

  expect(vim.wait(10000, function() return find_lens(bufnr, "does not compile") ~= nil end, 20),
         "no code lens in 10 s")
  local before = find_lens(bufnr, "does not compile").command.title
  out("lenses: " .. table.concat(lens_titles(bufnr), " || "))

  -- 3. The quick fix, asked with the cursor at the start of the line.
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(0),
    range = { start = { line = 54, character = 0 }, ["end"] = { line = 54, character = 0 } },
    context = { diagnostics = {} },
  }
  local reply = client.request_sync("textDocument/codeAction", params, 10000, 0)
  expect(reply and reply.result and reply.result[1], "no code action for E0207")
  local action = reply.result[1]
  out("code action: " .. action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  local fixed = vim.api.nvim_buf_get_lines(0, 54, 55, false)[1]
  out("fixed line: " .. fixed)
  expect(fixed == "    k_mask = (offs_k < K) & (offs_k >= 0)", "the fix gave: " .. fixed)
  expect(vim.wait(15000, function()
    return #vim.tbl_filter(function(x) return diag_code(x) == "E0207" end, vim.diagnostic.get(0)) == 0
  end, 20), "E0207 still reported 15 s after the fix")
  out("after the fix: " .. #vim.diagnostic.get(0) .. " diagnostics, none E0207")
  -- The fixed kernel compiles (its f16 tl.dot accumulates in f32).
  expect(vim.wait(10000, function() return find_lens(bufnr, "does not compile") == nil end, 20),
         "the code lens still says '" .. before .. "' after the fix")
  out("lenses after the fix: " .. table.concat(lens_titles(bufnr), " || "))

  -- 4. The autotune lens: the plugin runs its command on the server.
  local tune = find_lens(bufnr, "autotune config 1/3")
  expect(tune, "no autotune lens")
  vim.lsp.commands[tune.command.command](tune.command, { bufnr = bufnr, client_id = client.id })
  expect(vim.wait(10000, function() return find_lens(bufnr, "autotune config 2/3") ~= nil end, 20),
         "the autotune lens did not move to config 2/3")
  text = hover_at(client, 37, 10)
  expect(text:find("BLOCK_SIZE_M: constexpr = 64", 1, true), "config 2 did not give BLOCK_SIZE_M = 64")

  -- 5. :MytritonStages ssa on a kernel that compiles.
  vim.cmd("edit " .. vim.fn.fnameescape(add))
  expect(vim.wait(10000, function() return mytriton.client(0) ~= nil end, 20), "no client for the second file")
  vim.api.nvim_win_set_cursor(0, { 13, 6 })
  local wins = #vim.api.nvim_list_wins()
  vim.cmd("MytritonStages ssa")
  expect(#vim.api.nvim_list_wins() == wins + 1, ":MytritonStages did not open a window")
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  out("stages split: " .. vim.api.nvim_buf_get_name(0) .. ", " .. #lines .. " lines, first: " .. lines[2])
  expect(table.concat(lines, "\n"):find("\nstore %", 1, true), "the SSA split lacks the store")

  -- 6. A clean shutdown: shutdown, exit, status 0.
  vim.lsp.stop_client(client.id)
  expect(vim.wait(10000, function() return exit_code ~= nil end, 20), "the server did not exit in 10 s")
  out("server exit status: " .. tostring(exit_code))
  expect(exit_code == 0, "the server exited with status " .. tostring(exit_code))
  out("PASS nvim")
end

local ok, err = pcall(run)
if not ok then
  fail(tostring(err))
else
  vim.cmd("qall!")
end
