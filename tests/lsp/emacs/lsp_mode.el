;;; lsp_mode.el --- the language server through Emacs's lsp-mode, in batch  -*- lexical-binding: t -*-
;;
;; The lsp-mode recipe of docs/editors.md: mytriton registered as an
;; add-on client, so it runs beside the Python server
;; (tests/lsp/fake_server.py standing in for pylsp here). Opens the
;; tutorial-style matmul fixture with a planted E0207 and checks that both
;; servers run for the buffer, that both publish diagnostics (mytriton's
;; E0207 at its range), and that hover shows mytriton's shape beside the
;; other server's answer. Exits 1 on any failure.

(require 'cl-lib)
(require 'lsp-mode)

(defvar mt-t0 nil "When find-file opened the file (a figure for the log).")
(defun mt-out (fmt &rest args) (princ (concat (apply #'format fmt args) "\n")))
(defun mt-fail (fmt &rest args) (mt-out "FAIL %s" (apply #'format fmt args)) (kill-emacs 1))
(defun mt-wait (what seconds pred)
  (let ((deadline (+ (float-time) seconds)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or v (mt-fail "%s: not within %s s" what seconds))))

(setq lsp-auto-guess-root t lsp-enable-snippet nil lsp-headerline-breadcrumb-enable nil
      lsp-modeline-code-actions-enable nil lsp-modeline-diagnostics-enable nil
      lsp-modeline-workspace-status-enable nil lsp-enable-file-watchers nil lsp-restart 'ignore
      lsp-session-file (expand-file-name "lsp-session" (getenv "HOME")))

;; The recipe (with the server's path and the stand-in for pylsp).
(lsp-register-client
 (make-lsp-client :new-connection (lsp-stdio-connection (list (getenv "MYTRITON_SERVER") "lsp"))
                  :activation-fn (lsp-activate-on "python")
                  :server-id 'mytriton
                  :add-on? t))
(lsp-register-client
 (make-lsp-client :new-connection (lsp-stdio-connection
                                   (list "python3" (expand-file-name "tests/lsp/fake_server.py" (getenv "MYTRITON_ROOT"))))
                  :activation-fn (lsp-activate-on "python")
                  :server-id 'fake-pylsp))

(condition-case err
    (progn
      (setq mt-t0 (float-time))
      (find-file (getenv "MYTRITON_FILE"))
      (lsp)
      (mt-wait "both servers" 20 (lambda () (= (length (lsp-workspaces)) 2)))
      (mt-out "servers: %S" (mapcar (lambda (w) (lsp--client-server-id (lsp--workspace-client w))) (lsp-workspaces)))
      (let ((diags (mt-wait "diagnostics of both" 20
                            (lambda ()
                              (let ((d (gethash (buffer-file-name) (lsp-diagnostics t))))
                                (and (cl-find "fake" d :key #'lsp:diagnostic-source? :test #'equal)
                                     (cl-find "E0207" d :key #'lsp:diagnostic-code? :test #'equal)
                                     d))))))
        (mt-out "first open: diagnostics of both servers %.0f ms after find-file (a figure)"
                (* 1000 (- (float-time) mt-t0)))
        (dolist (x diags)
          (mt-out "diagnostic: %s %s %s" (lsp:diagnostic-source? x) (lsp:diagnostic-code? x) (lsp:diagnostic-message x)))
        (let* ((d (cl-find "E0207" diags :key #'lsp:diagnostic-code? :test #'equal))
               (r (lsp:diagnostic-range d)))
          (unless (and (= (lsp:position-line (lsp:range-start r)) 54) (= (lsp:position-character (lsp:range-start r)) 13)
                       (= (lsp:position-line (lsp:range-end r)) 54) (= (lsp:position-character (lsp:range-end r)) 37))
            (mt-fail "E0207 is not at 55:14-55:38"))))
      (goto-char (point-min))
      (forward-line 53)
      (move-to-column 6)
      ;; lsp-mode asks both servers and keeps both answers.
      (let* ((h (lsp-request "textDocument/hover" (lsp--text-document-position-params)))
             (c (lsp:hover-contents h))
             (v (mapconcat #'lsp:markup-content-value (if (listp c) c (list c)) "\n")))
        (dolist (l (split-string v "\n")) (mt-out "hover| %s" l))
        (unless (string-match-p (regexp-quote "offs_k: vector<64 x i32>") v)
          (mt-fail "hover lacks the shape of offs_k"))
        (unless (string-match-p "fake: .offs_k." v)
          (mt-fail "hover lacks the other server's answer")))
      (mt-out "PASS emacs lsp-mode")
      (kill-emacs 0))
  (error (mt-fail "%S" err)))
