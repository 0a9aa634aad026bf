;;; smoke.el --- Headless test of tvmls.el with Eglot and the real server  -*- lexical-binding: t; -*-

;; TVMLS_SERVER=/path/to/build/tvmls emacs --batch -Q -l editors/emacs/test/smoke.el
;; (test/run.sh sets this up.)  Prints one PASS/FAIL line per step and exits 0 only when
;; every step passed.  Every wait has a time limit.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defvar smoke-here (file-name-directory (or load-file-name buffer-file-name)))
(defvar smoke-src (or (getenv "TVMLS_SOURCE_DIR") (expand-file-name "../../.." smoke-here)))
(defvar smoke-server (getenv "TVMLS_SERVER"))
(defvar smoke-work (make-temp-file "tvmls-emacs" t))
(defvar smoke-failed nil)
(defvar smoke-t0 (float-time))
(defvar smoke-messages nil "Every `message' shown during the test, newest first.")

(defun smoke-step (name ok &optional detail)
  "Record step NAME, passed when OK; DETAIL is printed on failure."
  (princ (format "%s %6.2fs %s%s\n" (if ok "PASS" "FAIL") (- (float-time) smoke-t0) name
                 (if ok "" (format ": %S" detail))))
  (unless ok (setq smoke-failed t))
  ok)

(defun smoke-finish ()
  (princ (if smoke-failed "RESULT: FAIL\n" "RESULT: PASS\n"))
  (ignore-errors (delete-directory smoke-work t))
  (kill-emacs (if smoke-failed 1 0)))

(defun smoke-wait (pred &optional secs)
  "Wait up to SECS (default 10) for PRED to return non-nil; return its value."
  (let ((deadline (+ (float-time) (or secs 10))) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))

(defun smoke-copy (example name)
  "Copy examples/EXAMPLE to NAME in the work directory; return its file name."
  (let ((to (expand-file-name name smoke-work)))
    (make-directory (file-name-directory to) t)
    (copy-file (expand-file-name example (expand-file-name "examples" smoke-src)) to t)
    to))

(defun smoke-diags (&optional code)
  "Flymake diagnostics of the buffer (with CODE in their text when given)."
  (flymake-start)
  (cl-remove-if-not (lambda (d) (or (null code)
                                    (string-match-p (regexp-quote (format "[%s]" code))
                                                    (flymake-diagnostic-text d))))
                    (flymake-diagnostics)))

(defun smoke-line (d) (line-number-at-pos (flymake-diagnostic-beg d)))

(defun smoke-diag-at (code line)
  "The flymake diagnostic with CODE on LINE."
  (cl-find-if (lambda (d) (= (smoke-line d) line)) (smoke-diags code)))

(defun smoke-messages-matching (re)
  (cl-find-if (lambda (m) (string-match-p re m)) smoke-messages))

(advice-add 'message :before
            (lambda (fmt &rest args)
              (when (stringp fmt)
                (push (or (ignore-errors (apply #'format-message fmt args)) fmt)
                      smoke-messages))))

;;;; Setup: Eglot (Debian's elpa-eglot on Emacs 28, built in from 29) and tvmls.el.

(unless (and smoke-server (file-executable-p smoke-server))
  (smoke-step "server binary from TVMLS_SERVER" nil smoke-server)
  (smoke-finish))

(require 'package)
(setq package-user-dir (expand-file-name "elpa" smoke-work)
      package-directory-list (list (or (getenv "TVMLS_ELPA_DIR")
                                       "/usr/share/emacs/site-lisp/elpa")))
(package-initialize)
(unless (require 'eglot nil t)
  (smoke-step "eglot available" nil
              "Eglot not found: sudo apt-get install elpa-eglot (Emacs 28), or use Emacs 29+")
  (smoke-finish))

;; The package byte-compiles without warnings.
(let* ((copy (expand-file-name "tvmls.el" smoke-work))
       (byte-compile-dest-file-function (lambda (_) (concat copy "c"))))
  (copy-file (expand-file-name "../tvmls.el" smoke-here) copy t)
  (let ((ok (byte-compile-file copy))
        (log (if (get-buffer byte-compile-log-buffer)
                 (with-current-buffer byte-compile-log-buffer (buffer-string))
               "")))
    (smoke-step "tvmls.el byte-compiles without warnings"
                (and ok (not (string-match-p "Warning\\|Error" log))) log)))

(add-to-list 'load-path (expand-file-name ".." smoke-here))
(require 'tvmls)
(setq tvmls-server-command (list smoke-server "serve"))
(setq tvmls-settings '(:severity (:kill-of-non-variable "off")))
(setq eglot-confirm-server-initiated-edits nil)

(defun smoke-connect ()
  "Start Eglot in the current buffer the way `eglot-ensure' would."
  ;; eglot-ensure only acts from post-command-hook, which --batch never runs.
  (apply #'eglot (eglot--guess-contact)))

(condition-case err
    (progn
      (smoke-step "tvmls's entry is first in eglot-server-programs"
                  (equal (car eglot-server-programs) '((python-mode tvmscript-mode) . tvmls--contact))
                  (car eglot-server-programs))

      ;;;; A Python file with TVMScript.
      (find-file (smoke-copy "seed_b_kill_in_dataflow.py" "proj/seed_b.py"))
      (smoke-step "seed_b: python-mode" (eq major-mode 'python-mode) major-mode)
      (let* ((guess (eglot--guess-contact))
             (contact (nth 3 guess)))
        (smoke-step "seed_b: contact is tvmls serve with initializationOptions"
                    (and (eq (nth 2 guess) 'tvmls-eglot-server)
                         (equal (nth 0 guess) '(python-mode tvmscript-mode))
                         (equal (nth 4 guess) "python")
                         (equal (car contact) smoke-server)
                         (equal (cadr contact) "serve")
                         (memq :initializationOptions contact))
                    guess))
      (smoke-connect)
      (let ((server (smoke-wait (lambda () (eglot-current-server)))))
        (smoke-step "server connected (tvmls-eglot-server)"
                    (cl-typep server 'tvmls-eglot-server) server))
      (flymake-mode 1)
      (let ((d (smoke-wait (lambda () (smoke-diag-at "impure-in-dataflow" 21)) 15)))
        (smoke-step "flymake: impure-in-dataflow at line 21 (error)"
                    (and d (= (smoke-line d) 21)
                         (eq (flymake-diagnostic-type d) 'eglot-error)
                         (string-match-p "^tvmls \\[impure-in-dataflow\\]: impure operator relax.memory.kill_tensor inside a dataflow block"
                                         (flymake-diagnostic-text d))
                         (save-excursion (goto-char (flymake-diagnostic-beg d))
                                         (looking-at "R\\.memory\\.kill_tensor(w)")))
                    (mapcar #'flymake-diagnostic-text (smoke-diags))))
      (smoke-step "initializationOptions applied (kill-of-non-variable off)"
                  (and (smoke-diags "impure-in-dataflow") (null (smoke-diags "kill-of-non-variable")))
                  (mapcar #'flymake-diagnostic-text (smoke-diags)))
      (smoke-step "workspace/configuration answered from tvmls-settings"
                  (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
                    (goto-char (point-min))
                    (and (search-forward "workspace/configuration" nil t)
                         (re-search-forward "kill-of-non-variable" nil t)))
                  nil)

      ;; Hover on `w` in R.memory.kill_tensor(w).
      (goto-char (point-min))
      (forward-line 20)
      (search-forward "kill_tensor(w")
      (backward-char 1)
      (let* ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                     (eglot--TextDocumentPositionParams)))
             (text (plist-get (plist-get hover :contents) :value)))
        (smoke-step "hover shows the shape"
                    (and (stringp text) (string-match-p (regexp-quote "R.Tensor((4,), dtype=\"float32\")") text))
                    hover))

      ;; Code actions on the diagnostic.
      (let* ((d (smoke-diag-at "impure-in-dataflow" 21))
             (actions (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
             (preferred (cl-remove-if-not
                         (lambda (a) (and (eq (plist-get a :isPreferred) t)
                                          (equal (plist-get a :kind) "quickfix")))
                         actions))
             (delete (car preferred))
             chosen prompt)
        (smoke-step "code actions: quick-fixes, the first preferred deletes the kill"
                    (and (>= (length actions) 2) delete
                         (string-match-p "^Delete the operator relax.memory.kill_tensor" (plist-get delete :title))
                         (equal (plist-get (aref (plist-get delete :diagnostics) 0) :code) "impure-in-dataflow")
                         (plist-get delete :edit))
                    (mapcar (lambda (a) (plist-get a :title)) actions))
        ;; The user's path: M-x eglot-code-actions, RET on the default (the preferred one).
        (cl-letf (((symbol-function 'completing-read)
                   (lambda (p _coll &optional _pred _req _init _hist def &rest _)
                     (setq prompt p chosen (if (consp def) (car def) def))))
                  ((symbol-function 'y-or-n-p) (lambda (&rest _) t))
                  (last-nonmenu-event ?\r))
          (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d) nil t))
        (smoke-step "eglot-code-actions offers the preferred quick-fix as the default"
                    (equal chosen (plist-get delete :title)) (list prompt chosen)))
      (smoke-step "quick-fix applied: the kill line is gone"
                  (and (= (count-lines (point-min) (point-max)) 39)
                       (save-excursion (goto-char (point-min)) (forward-line 20)
                                       (looking-at "^ +gv: R.Tensor((4,), dtype=\"float32\") = R.multiply(y, y)$"))
                       (not (save-excursion (goto-char (point-min)) (search-forward "kill_tensor(w)" nil t))))
                  (buffer-substring-no-properties (point-min) (point-max)))
      ;; Idle timers never fire in --batch: send the pending didChange by hand.
      (eglot--signal-textDocument/didChange)
      (smoke-step "diagnostic gone from main after didChange (main_folded's remains, line 33)"
                  (smoke-wait (lambda ()
                                (let ((ds (smoke-diags "impure-in-dataflow")))
                                  (and (= (length ds) 1) (= (smoke-line (car ds)) 33))))
                              10)
                  (mapcar (lambda (d) (cons (smoke-line d) (flymake-diagnostic-text d))) (smoke-diags)))

      ;; eglot-workspace-configuration (e.g. from .dir-locals.el) wins over tvmls-settings.
      (setq-default eglot-workspace-configuration
                    '(:tvmls (:severity (:impure-in-pure-function "warning"))))
      (eglot-signal-didChangeConfiguration (eglot-current-server))
      (smoke-step "eglot-workspace-configuration :tvmls applied (impure-in-pure-function warning)"
                  (smoke-wait (lambda ()
                                (let ((ds (smoke-diags "impure-in-pure-function")))
                                  (and ds (cl-every (lambda (d) (eq (flymake-diagnostic-type d) 'eglot-warning)) ds))))
                              10)
                  (mapcar (lambda (d) (list (flymake-diagnostic-type d) (flymake-diagnostic-text d))) (smoke-diags)))
      (setq-default eglot-workspace-configuration nil)

      ;;;; A saved IR dump: tvmscript-mode, same server.
      (let ((seed-server (eglot-current-server)))
        (find-file (smoke-copy "mlp_dump.tvmscript" "proj/mlp_dump.tvmscript"))
        (smoke-step "dump: tvmscript-mode" (eq major-mode 'tvmscript-mode) major-mode)
        (smoke-step "dump: managed by the same tvmls server"
                    (eq (smoke-wait (lambda () (eglot-current-server)) 5) seed-server)
                    (eglot-current-server)))
      (flymake-mode 1)
      (let ((d (car (smoke-wait (lambda () (smoke-diags "shape-mismatch")) 10))))
        (smoke-step "dump: shape-mismatch on the `out` annotation"
                    (and d (= (smoke-line d) 37)) (mapcar #'flymake-diagnostic-text (smoke-diags))))
      (font-lock-ensure)
      (cl-flet ((face-at (line text &optional offset)
                  (save-excursion
                    (goto-char (point-min)) (forward-line (1- line))
                    (if (search-forward text (line-end-position) t)
                        (get-text-property (+ (match-beginning 0) (or offset 0)) 'face)
                      'not-found))))
        (let ((checks `((9 "@I.ir_module" 1 font-lock-preprocessor-face)
                        (13 "T.Buffer" 0 font-lock-constant-face)
                        (13 "Buffer" 0 font-lock-type-face)
                        (13 "\"float32\"" 1 font-lock-constant-face)
                        (34 "matmul" 0 font-lock-builtin-face)
                        (10 "class" 0 font-lock-keyword-face)))
              bad)
          (dolist (c checks)
            (let ((got (face-at (nth 0 c) (nth 1 c) (nth 2 c))))
              (unless (if (listp got) (memq (nth 3 c) got) (eq got (nth 3 c)))
                (push (list c got) bad))))
          (smoke-step "dump: TVMScript faces" (null bad) bad)))

      ;; The printer header decides for other files; .py files stay Python.
      (let ((txt (expand-file-name "proj/after_pass.txt" smoke-work))
            (py (expand-file-name "proj/header.py" smoke-work)))
        (with-temp-file txt (insert "# from tvm.script import ir as I\n# from tvm.script import relax as R\n"))
        (with-temp-file py (insert "# from tvm.script import ir as I\nimport tvm\n"))
        (smoke-step "header: .txt dump opens in tvmscript-mode"
                    (with-current-buffer (find-file-noselect txt) (eq major-mode 'tvmscript-mode)) nil)
        (smoke-step "header: .py file stays in python-mode"
                    (with-current-buffer (find-file-noselect py) (eq major-mode 'python-mode)) nil))

      ;;;; tvmls-python: who serves Python buffers (no server is started here).
      (cl-flet ((contact-for (mode)
                  (with-temp-buffer
                    (delay-mode-hooks (funcall mode))
                    (let ((c (cdr (tvmls--entry-for mode eglot-server-programs))))
                      (if (functionp c) (funcall c nil) c)))))
        (let ((eglot-server-programs (cons '(python-mode . ("my-pyls")) eglot-server-programs))
              (tvmls--told-about-python nil)
              (smoke-messages nil))
          (tvmls-eglot-setup)
          (smoke-step "tvmls-python auto + own python entry: Python keeps it, with a message"
                      (and (equal (contact-for 'python-mode) '("my-pyls"))
                           (equal (car eglot-server-programs) '(tvmscript-mode . tvmls--contact))
                           (smoke-messages-matching "Python buffers keep your own Eglot server (\"my-pyls\")"))
                      (list (car eglot-server-programs) smoke-messages))
          (smoke-step "own python entry: tvmscript-mode still gets tvmls"
                      (eq (car (contact-for 'tvmscript-mode)) 'tvmls-eglot-server) nil)
          (let ((tvmls-python t))
            (tvmls-eglot-setup)
            (smoke-step "tvmls-python t: Python gets tvmls"
                        (eq (car (contact-for 'python-mode)) 'tvmls-eglot-server) nil)))
        (let ((eglot-server-programs (copy-sequence eglot-server-programs)))
          (push '(python-mode . ("added-later-pyls")) eglot-server-programs)
          (with-temp-buffer (tvmscript-mode))
          (smoke-step "python entry added after loading: a tvmscript-mode buffer moves tvmls ahead"
                      (and (tvmls--own-entry-p (car eglot-server-programs))
                           (eq (car (contact-for 'tvmscript-mode)) 'tvmls-eglot-server))
                      (car eglot-server-programs)))
        (let ((tvmls-python nil))
          (smoke-step "tvmls-python nil (e.g. dir-local): Python gets Eglot's default server"
                      (not (eq (car-safe (ignore-errors (contact-for 'python-mode))) 'tvmls-eglot-server))
                      nil)))
      (tvmls-eglot-setup)

      ;;;; Server killed mid-session.
      (switch-to-buffer (get-file-buffer (expand-file-name "proj/seed_b.py" smoke-work)))
      (let* ((server (eglot-current-server))
             (proc (jsonrpc--process server)))
        (setq smoke-messages nil)
        (signal-process proc 'SIGKILL)
        (smoke-wait (lambda () (not (process-live-p proc))) 5)
        (smoke-wait (lambda () (not (eq (eglot-current-server) server))) 5)
        (smoke-step "server killed: tvmls says so, and how to restart"
                    (smoke-wait (lambda () (smoke-messages-matching "tvmls: the language server was killed by signal 9\\. .*M-x eglot-reconnect starts it again")) 5)
                    smoke-messages)
        (unless (and (eglot-current-server) (jsonrpc-running-p (eglot-current-server)))
          (eglot-reconnect server))
        (smoke-step "server killed: reconnected, diagnostics back"
                    (smoke-wait (lambda () (and (eglot-current-server)
                                                (not (eq (eglot-current-server) server))
                                                (progn (eglot--signal-textDocument/didChange) t)
                                                (smoke-diags "impure-in-dataflow")))
                                10)
                    smoke-messages))

      ;;;; Missing binary: a clear user-error at once.
      (let ((tvmls-server-command (list (expand-file-name "no/such/tvmls" smoke-work) "serve"))
            (t1 (float-time)))
        (find-file (smoke-copy "seed_c_call_tir_shape.py" "other/seed_c.py"))
        (let ((err (condition-case e (progn (smoke-connect) nil) (user-error e) (error (list 'other e)))))
          (smoke-step "missing binary: user-error naming tvmls-server-command and the install"
                      (and (eq (car err) 'user-error)
                           (string-match-p "server program .*no/such/tvmls.? not found (from .tvmls-server-command.)"
                                           (cadr err))
                           (string-match-p "cmake --install build" (cadr err)))
                      err))
        (smoke-step "missing binary: no server, no hang (under 2 s)"
                    (and (null (eglot-current-server)) (< (- (float-time) t1) 2))
                    (- (float-time) t1)))
      (let ((tvmls-server-command '("tvmls-not-on-path-xyz" "serve")))
        (smoke-step "missing on PATH: user-error"
                    (condition-case e (progn (smoke-connect) nil)
                      (user-error (string-match-p "tvmls-not-on-path-xyz.? not found" (cadr e))))
                    nil))

      ;;;; A binary that crashes at start.
      (let* ((crash (expand-file-name "crashing-tvmls" smoke-work))
             (tvmls-server-command (list crash "serve"))
             (t1 (float-time))
             err)
        (with-temp-file crash (insert "#!/bin/sh\necho 'tvmls: simulated crash' >&2\nexit 3\n"))
        (set-file-modes crash #o755)
        (setq smoke-messages nil)
        (setq err (condition-case e (progn (smoke-connect) nil) (error e)))
        (smoke-step "crash at start: reported with the exit status, stderr and the setting"
                    (smoke-wait (lambda () (smoke-messages-matching "tvmls: the language server exited during startup: it exited with status 3 (stderr: tvmls: simulated crash)\\. Check .tvmls-server-command.")) 5)
                    (list err smoke-messages))
        (smoke-step "crash at start: no server, no hang (under 10 s)"
                    (and (null (eglot-current-server)) (< (- (float-time) t1) 10))
                    (list (- (float-time) t1) (eglot-current-server)))))
  (error (smoke-step "lisp error" nil err)))

(ignore-errors (eglot-shutdown-all))
(smoke-finish)

;;; smoke.el ends here
