-- mytriton: the mytriton language server in Neovim.
--
--   require("mytriton").setup({
--     cmd = { "mytriton", "lsp" },          -- the server command
--     filetypes = { "python" },
--     settings = { mytriton = { constexprs = { BLOCK = 128 }, stage = "cuda" } },
--     codelens = true,                      -- refresh code lenses as you edit
--     on_attach = function(client, bufnr) end,
--     on_exit = function(code, signal, client_id) end,
--   })
--
-- Starts (or reuses) one server per project root and attaches it to Python
-- buffers: vim.lsp.start on Neovim 0.8 and newer, vim.lsp.start_client +
-- vim.lsp.buf_attach_client on 0.7 (Debian 12). Adds :MytritonStages
-- [stage] to show the kernel under the cursor as SSA, layouts and CUDA in a
-- split, and implements the code lens commands: mytriton.showStages (that
-- split), mytriton.nextConfig / selectConfig (the server compiles the
-- kernel for another autotune config; the lenses are refreshed after) and
-- mytriton.openDashboard (the URL in the browser). Lenses are refreshed
-- whenever the buffer's diagnostics change, so a quick fix updates them.

local M = {}

local defaults = {
  cmd = { "mytriton", "lsp" },
  filetypes = { "python" },
  settings = { mytriton = {} },
  root_markers = { "mytriton.json", ".git" },
  codelens = true,
  on_attach = nil,
  on_exit = nil,
}

M.config = vim.deepcopy(defaults)
M.stage_names = { "ast", "expr", "ssa-raw", "ssa", "layout", "cuda" }

local clients = {} -- root dir -> client id (Neovim 0.7)

local function root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.fn.getcwd()
  local found = vim.fs and vim.fs.find and vim.fs.find(M.config.root_markers, { upward = true, path = dir })[1]
  if not found then
    for _, marker in ipairs(M.config.root_markers) do
      local hit = vim.fn.findfile(marker, dir .. ";")
      if hit == "" then
        hit = vim.fn.finddir(marker, dir .. ";")
      end
      if hit ~= "" then
        found = vim.fn.fnamemodify(hit, ":p")
        break
      end
    end
  end
  return found and vim.fn.fnamemodify((found:gsub("/$", "")), ":h") or dir
end

local function on_attach(client, bufnr)
  if M.config.codelens and client.server_capabilities and client.server_capabilities.codeLensProvider then
    local group = vim.api.nvim_create_augroup("mytriton_codelens_" .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "BufWritePost", "DiagnosticChanged" }, {
      group = group,
      buffer = bufnr,
      callback = function()
        pcall(vim.lsp.codelens.refresh)
      end,
    })
    pcall(vim.lsp.codelens.refresh)
  end
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

local function client_config(bufnr)
  local root = root_dir(bufnr)
  return {
    name = "mytriton",
    cmd = M.config.cmd,
    root_dir = root,
    settings = M.config.settings,
    init_options = M.config.settings,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    on_attach = on_attach,
    on_exit = M.config.on_exit,
  }
end

--- Start the server for a buffer (or attach the running one).
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local cfg = client_config(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  local id = clients[cfg.root_dir]
  if not id or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(cfg)
    clients[cfg.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- The mytriton client attached to a buffer, or nil.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = "mytriton" })[1]
  end
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == "mytriton" then
      return c
    end
  end
  return nil
end

--- The text of each stage, in order: { {name, text}, ... }.
function M.stage_list(result, wanted)
  local out = {}
  local stages = result and result.stages or {}
  local names = wanted and { wanted } or { "ssa", "layout", "cuda" }
  for _, name in ipairs(names) do
    if stages[name] then
      table.insert(out, { name, stages[name] })
    end
  end
  return out
end

--- Ask the server for a kernel's stages and show them in a split.
-- stage: one stage name or nil (SSA, layout and CUDA); arg: {uri, kernel}
-- from a code lens, or nil for the kernel under the cursor. Returns the
-- new buffer, or nil.
function M.show_stages(stage, arg)
  local bufnr = vim.api.nvim_get_current_buf()
  if arg and arg.uri then
    bufnr = vim.uri_to_bufnr(arg.uri)
  end
  local client = M.client(bufnr)
  if not client then
    vim.notify("mytriton: no language server attached to this buffer", vim.log.levels.WARN)
    return nil
  end
  local params
  if arg and arg.kernel then
    params = { textDocument = { uri = arg.uri or vim.uri_from_bufnr(bufnr) }, kernel = arg.kernel }
  else
    params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  end
  local reply, err = client.request_sync("mytriton/stages", params, 10000, bufnr)
  if not reply or reply.err then
    local why = reply and reply.err and reply.err.message or err or "no reply"
    vim.notify("mytriton: " .. why, vim.log.levels.ERROR)
    return nil
  end
  local result = reply.result or {}
  local lines = {}
  for _, s in ipairs(M.stage_list(result, stage)) do
    table.insert(lines, "// ---- " .. s[1] .. " ----")
    for _, l in ipairs(vim.split(s[2], "\n", { plain = true })) do
      table.insert(lines, l)
    end
  end
  if #lines == 0 then
    local msg = "mytriton: no " .. (stage or "stages") .. " for " .. (result.kernel or "this kernel")
    vim.notify(msg .. " (see the diagnostics)", vim.log.levels.WARN)
    return nil
  end
  vim.cmd("botright vnew")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, "mytriton://" .. (result.kernel or "kernel") .. "/" .. (stage or "stages"))
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = stage == "cuda" and "cuda" or "mlir"
  return buf
end

--- Run one of the server's commands (workspace/executeCommand), then
-- refresh the lenses of the buffers it serves.
local function server_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    return
  end
  client.request("workspace/executeCommand", command, function(err)
    if err then
      vim.notify("mytriton: " .. (err.message or tostring(err)), vim.log.levels.ERROR)
    end
    pcall(vim.lsp.codelens.refresh)
  end, ctx.bufnr)
end

--- Open a URL in the browser.
function M.open_url(url)
  if vim.ui and vim.ui.open then
    return vim.ui.open(url)
  end
  local opener = vim.fn.has("mac") == 1 and "open" or "xdg-open"
  if vim.fn.executable(opener) == 0 then
    vim.notify("mytriton: open " .. url .. " in a browser", vim.log.levels.INFO)
    return
  end
  vim.fn.jobstart({ opener, url }, { detach = true })
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  local group = vim.api.nvim_create_augroup("mytriton", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(ev)
      M.attach(ev.buf)
    end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
  vim.api.nvim_create_user_command("MytritonStages", function(a)
    M.show_stages(a.args ~= "" and a.args or nil)
  end, {
    nargs = "?",
    complete = function()
      return M.stage_names
    end,
    desc = "Show the kernel under the cursor as SSA, layouts and CUDA",
  })
  vim.lsp.commands["mytriton.showStages"] = function(command)
    M.show_stages(nil, command.arguments and command.arguments[1])
  end
  vim.lsp.commands["mytriton.nextConfig"] = server_command
  vim.lsp.commands["mytriton.selectConfig"] = server_command
  vim.lsp.commands["mytriton.openDashboard"] = function(command)
    local arg = command.arguments and command.arguments[1]
    if arg and arg.url then
      M.open_url(arg.url)
    end
  end
end

return M
