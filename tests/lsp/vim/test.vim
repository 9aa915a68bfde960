" test.vim: the language server through Vim's ALE, the recipe of
" docs/editors.md (run.sh): mytriton as an LSP linter beside another Python
" language server (tests/lsp/fake_server.py standing in for pylsp). Opens
" the tutorial-style matmul with a planted E0207 and writes what ALE
" reports to $MYTRITON_OUT; run.sh checks it.
set nocompatible
filetype plugin on
packadd! ale
set runtimepath+=/usr/share/vim-ale
runtime plugin/ale.vim
let g:ale_lint_on_enter = 1
call ale#linter#Define('python', {
\   'name': 'mytriton',
\   'lsp': 'stdio',
\   'executable': $MYTRITON_SERVER,
\   'command': '%e lsp',
\   'project_root': {buffer -> fnamemodify(bufname(buffer), ':p:h')},
\})
call ale#linter#Define('python', {
\   'name': 'fakepy',
\   'lsp': 'stdio',
\   'executable': 'python3',
\   'command': '%e ' . $MYTRITON_ROOT . '/tests/lsp/fake_server.py',
\   'project_root': {buffer -> fnamemodify(bufname(buffer), ':p:h')},
\})
let g:ale_linters = {'python': ['mytriton', 'fakepy']}
let s:t0 = reltime()
execute 'edit ' . fnameescape($MYTRITON_FILE)
let s:waited = 0
function! s:Has(pattern) abort
  return len(filter(copy(ale#engine#GetLoclist(bufnr(''))), {_, v -> v.text =~# a:pattern})) > 0
endfunction
while s:waited < 300 && !(s:Has('binds tighter') && s:Has('^fake: '))
  sleep 100m
  let s:waited += 1
endwhile
call writefile(map(copy(ale#engine#GetLoclist(bufnr(''))),
\   {_, v -> printf('%s %d:%d-%d:%d %s %s', v.linter_name, v.lnum, v.col, get(v, 'end_lnum', 0),
\                   get(v, 'end_col', 0), get(v, 'code', '-'), v.text)})
\   + [printf('first open: both linters reported %.0f ms after :edit (a figure)', 1000 * reltimefloat(reltime(s:t0)))],
\   $MYTRITON_OUT)
qall!
