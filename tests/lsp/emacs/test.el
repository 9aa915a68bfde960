;;; test.el --- the language server through Emacs's eglot, in batch (run.sh)  -*- lexical-binding: t -*-
;;
;; Opens a copy of the tutorial-style matmul fixture (a launch,
;; @triton.autotune configs, no mytriton comment) with a planted E0207
;; error in a buffer managed by eglot, the way a user's init file would
;; (eglot-server-programs), and checks through eglot's own code paths:
;;   1. hover on first open shows a shape (textDocument/hover);
;;   2. the E0207 diagnostic reaches flymake with the right range;
;;   3. the quick fix, run as `eglot-code-actions' runs it with the point
;;      at the start of the line, fixes the line and the diagnostic goes;
;;   4. writing mytriton.json next to the file reaches the server through
;;      the watcher eglot registered (workspace/didChangeWatchedFiles);
;;   5. eglot's shutdown sequence (shutdown with "params": null, then exit)
;;      ends the server with exit status 0.
;; With MYTRITON_WITH (a command line), the contact is the recipe that
;; keeps the user's Python server, `mytriton lsp --with CMD...`, and the
;; test also checks that hover and flymake show that server's answers
;; beside mytriton's. Everything seen is printed; any failure exits Emacs
;; with status 1.

(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'python)

(defvar mt-server (getenv "MYTRITON_SERVER"))
(defvar mt-file (getenv "MYTRITON_FILE"))
(defvar mt-t0 nil "When find-file opened the file (a figure for the log).")
(defvar mt-with (and (getenv "MYTRITON_WITH") (split-string (getenv "MYTRITON_WITH"))))

(defun mt-out (fmt &rest args) (princ (concat (apply #'format fmt args) "\n")))
(defun mt-fail (fmt &rest args)
  (mt-out "FAIL %s" (apply #'format fmt args))
  (kill-emacs 1))

(defun mt-wait (what seconds pred)
  "Run the event loop until PRED is non-nil or SECONDS pass: process
output (the server's messages) and special events (file notifications,
which batch Emacs handles only while reading events)."
  (let ((deadline (+ (float-time) seconds)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (ignore-errors (read-event nil nil 0.01)))
    (or v (mt-fail "%s: not within %s s" what seconds))))

(defun mt-goto (line col)
  (goto-char (point-min))
  (forward-line (1- line))
  (move-to-column col))

(defun mt-hover (line col)
  (mt-goto line col)
  (let* ((r (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams)))
         (text (or (plist-get (plist-get r :contents) :value) "")))
    (dolist (l (split-string text "\n")) (mt-out "hover %d:%d| %s" line (1+ col) l))
    text))

(defun mt-e0207 ()
  (cl-find-if (lambda (d)
                (equal "E0207" (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code)))
              (flymake-diagnostics)))

(defun mt-run ()
  (mt-out "emacs %s, eglot %s" emacs-version
          (or (ignore-errors (package-desc-version (cadr (assq 'eglot package-alist)))) "1.9"))
  (setq eglot-sync-connect 10
        eglot-send-changes-idle-time 0.1
        flymake-no-changes-timeout 0.1)
  (add-to-list 'eglot-server-programs `(python-mode . (,mt-server "lsp" ,@(and mt-with (cons "--with" mt-with)))))
  ;; A project for the folder without version control.
  (add-hook 'project-find-functions (lambda (dir) (cons 'transient (file-name-directory mt-file))))
  (setq mt-t0 (float-time))
  (find-file mt-file)
  (unless (derived-mode-p 'python-mode) (mt-fail "not in python-mode"))
  (apply #'eglot (eglot--guess-contact))
  (let ((server (mt-wait "eglot connects" 10 #'eglot-current-server)))
    (mt-out "connected: %s" (jsonrpc-name server))

    ;; 1. First open: a shape.
    (let ((text (mt-hover 54 6)))
      (unless (string-match-p (regexp-quote "offs_k: vector<64 x i32>") text)
        (mt-fail "hover on offs_k lacks its shape"))
      (when (and mt-with (not (string-match-p "fake: .offs_k." text)))
        (mt-fail "hover lacks the other server's answer")))
    (let ((text (mt-hover 37 10)))
      (unless (string-match-p "from autotune config 1 of 3" text)
        (mt-fail "hover on BLOCK_SIZE_M does not say where its value came from")))
    ;; A figure, not a check: from find-file to the first-open hovers answered.
    (mt-out "first open: the hovers answered %.0f ms after find-file" (* 1000 (- (float-time) mt-t0)))

    ;; 2. The planted E0207 in flymake, with its range.
    (flymake-start)
    (let* ((d (mt-wait "E0207 in flymake" 15 (lambda () (flymake-start) (mt-e0207))))
           (beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
      (dolist (x (flymake-diagnostics))
        (mt-out "diagnostic: %s %d:%d-%d:%d %s: %s"
                (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data x))) :code)
                (line-number-at-pos (flymake-diagnostic-beg x))
                (save-excursion (goto-char (flymake-diagnostic-beg x)) (1+ (current-column)))
                (line-number-at-pos (flymake-diagnostic-end x))
                (save-excursion (goto-char (flymake-diagnostic-end x)) (1+ (current-column)))
                (flymake-diagnostic-type x) (flymake-diagnostic-text x)))
      (unless (and (= (line-number-at-pos beg) 55) (= (save-excursion (goto-char beg) (current-column)) 13)
                   (= (line-number-at-pos end) 55) (= (save-excursion (goto-char end) (current-column)) 37))
        (mt-fail "E0207 is not at 55:14-55:38"))
      (when (and mt-with (not (cl-find-if (lambda (x) (string-match-p "fake: " (flymake-diagnostic-text x)))
                                          (flymake-diagnostics))))
        (mt-fail "flymake lacks the other server's diagnostic")))

    ;; 3. The quick fix with the point at the start of the line.
    (mt-goto 55 0)
    (eglot-code-actions (point) (point) "quickfix" t)
    (let ((line (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (mt-out "fixed line: %s" line)
      (unless (equal line "    k_mask = (offs_k < K) & (offs_k >= 0)") (mt-fail "the fix gave: %s" line)))
    ;; eglot sends the change from an idle timer, and batch Emacs is never
    ;; idle: send it as that timer would.
    (eglot--signal-textDocument/didChange)
    (mt-wait "E0207 gone after the fix" 15 (lambda () (flymake-start) (not (mt-e0207))))
    (mt-out "after the fix: %d diagnostics, none E0207" (length (flymake-diagnostics)))

    ;; 4. A project file appears: the watcher eglot registered tells the server.
    (with-temp-file (expand-file-name "mytriton.json" (file-name-directory mt-file))
      (insert "{\"kernels\": {\"matmul_kernel\": {\"constexprs\": {\"BLOCK_SIZE_K\": 32}}}}\n"))
    (mt-out "watching: %s" (hash-table-count (eglot--file-watches server)))
    (mt-wait "the project file's value on hover" 15
             (lambda () (string-match-p (regexp-quote "offs_k: vector<32 x i32>")
                                        (let ((standard-output #'ignore)) (mt-hover 54 6)))))
    (mt-hover 54 6)

    ;; 5. A clean shutdown: what `eglot-shutdown' sends, shutdown with
    ;; "params": null (an error reply would signal here) and exit. Its
    ;; jsonrpc-shutdown then deletes the process at once, without waiting
    ;; (Emacs 28), so the exit status is taken before that.
    (let ((proc (jsonrpc--process server)))
      (jsonrpc-request server :shutdown nil :timeout 5)
      (jsonrpc-notify server :exit nil)
      (mt-wait "the server exits" 10 (lambda () (not (process-live-p proc))))
      (mt-out "server exit status: %d" (process-exit-status proc))
      (unless (= (process-exit-status proc) 0)
        (mt-fail "the server exited with status %d" (process-exit-status proc)))))
  (mt-out "PASS emacs eglot%s" (if mt-with (format " beside %s" (string-join mt-with " ")) "")))

(condition-case err
    (progn (mt-run) (kill-emacs 0))
  (error (mt-fail "%S" err)))
