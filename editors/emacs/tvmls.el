;;; tvmls.el --- TVMScript support through the tvmls language server  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The tvmls authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.2") (eglot "1.9"))
;; Keywords: languages, tools

;; This file is not part of GNU Emacs.

;;; Commentary:

;; tvmls is a language server and checker for TVMScript, the Python-syntax text of Apache
;; TVM's Relax and TIR IR.  This package connects it to Emacs through Eglot (the ELPA
;; package 1.9 on Emacs 28, built in from Emacs 29):
;;
;; - `tvmscript-mode', derived from `python-mode', for saved IR dumps: files named
;;   *.tvmscript, *.relax or *.tir, and files (other than *.py) whose first lines hold the
;;   header TVM's printer writes, `# from tvm.script import ir as I'.
;; - An `eglot-server-programs' entry running `tvmls-server-command' ("tvmls" "serve") for
;;   `tvmscript-mode' and, as `tvmls-python' says, for `python-mode'.
;; - `tvmls-settings' sent as initializationOptions and as the answer to the server's
;;   workspace/configuration request for the section "tvmls" (unless
;;   `eglot-workspace-configuration' has a :tvmls section, e.g. in .dir-locals.el).
;;
;; Setup (init.el):
;;
;;   (require 'tvmls)
;;   (add-hook 'tvmscript-mode-hook #'eglot-ensure)
;;   (add-hook 'python-mode-hook #'eglot-ensure)   ; optional, see `tvmls-python'
;;
;; Eglot gives a buffer one server, so Python buffers get either tvmls or your Python
;; server (pylsp...).  `tvmls-python' decides: `auto' (the default) takes Python buffers
;; unless your `eglot-server-programs' has its own python-mode entry when tvmls is loaded
;; (then it says so once and leaves Python alone), t always, nil never.  Set it before
;; (require 'tvmls), or run M-x tvmls-eglot-setup after changing it.  When tvmls serves
;; Python, a project's Python buffers and IR dumps share one tvmls process; `nil' in a
;; project's .dir-locals.el, ((python-mode . ((tvmls-python . nil)))), hands that project's
;; Python buffers back to your Python server.

;;; Code:

(require 'cl-lib)
(require 'python)
(require 'eglot)
(require 'seq)

(defgroup tvmls nil
  "TVMScript support through the tvmls language server."
  :group 'languages
  :prefix "tvmls-")

(defcustom tvmls-server-command '("tvmls" "serve")
  "The command that runs the tvmls language server on stdio.
The first element is the program: a name looked up in `exec-path'
or an absolute file name, such as
\"/home/me/tvmls/build/tvmls\".  The rest are its arguments; keep
\"serve\" first, then for instance \"--log-level\" \"debug\"."
  :type '(repeat string))

(defcustom tvmls-settings nil
  "Settings for the tvmls server (the settings section \"tvmls\").
A plist, sent as initializationOptions and as the answer to the
server's workspace/configuration request, for example:

  (:severity (:storage-may-overflow \"off\" :unused-binding \"off\")
   :assumedUpperBound 4096
   :era \"auto\")

Keys: severity (per diagnostic code: \"error\", \"warning\",
\"information\", \"hint\" or \"off\"), assumedUpperBound (an
integer), era (\"auto\", \"classic\" or \"current\"); read only at
startup: debounceMs, codeDescriptionBase, semanticTokensForPython.
A :tvmls section in `eglot-workspace-configuration' overrides it
for workspace/configuration.  After changing it, run
\\[tvmls-send-settings] (or reconnect) to tell running servers."
  :type '(plist :key-type symbol :value-type sexp))

(defcustom tvmls-python 'auto
  "Whether Eglot uses tvmls for `python-mode' buffers.
Eglot gives a buffer one server, so this chooses between tvmls and
your Python language server for .py files:
  `auto': tvmls, unless `eglot-server-programs' has a python-mode
          entry you added yourself (then that one, with a message);
  t:      tvmls;
  nil:    never; tvmls serves `tvmscript-mode' buffers only.
Set it before loading tvmls, or run \\[tvmls-eglot-setup] after
changing it.  Safe as a directory-local variable: nil there hands a
project's Python buffers to your Python server (its dumps then
share that server, so open them in a project that uses tvmls)."
  :type '(choice (const :tag "Unless I have my own python-mode server" auto)
                 (const :tag "Always" t)
                 (const :tag "Never (IR dumps only)" nil))
  :safe (lambda (v) (memq v '(auto t nil))))

(defconst tvmls-install-hint
  "build tvmls (cmake -S . -B build && cmake --build build) and set tvmls-server-command to (\"/path/to/build/tvmls\" \"serve\"), or install it on PATH (sudo cmake --install build)"
  "How to get the server program, for error messages.")

;;;; tvmscript-mode

(defconst tvmls--namespace-rx
  (rx symbol-start (group (or "R" "T" "I" "relax" "tir" "tirx"))
      (group (+ "." (+ (or (syntax word) (syntax symbol)))))))

(defconst tvmls--font-lock-keywords
  `(;; @I.ir_module, @R.function(pure=False), @T.prim_func(private=True)
    (,(rx "@" (* blank) (or "I.ir_module" "T.prim_func" "R.function" "R.macro" "T.macro"
                            "T.inline")
          symbol-end)
     0 font-lock-preprocessor-face t)
    ;; Struct info and buffer types: R.Tensor, R.Shape, T.Buffer, T.handle...
    (,(rx symbol-start (or "R" "T" "I") "."
          (group (or "Tensor" "Shape" "Tuple" "Object" "Any" "Prim" "Callable" "Buffer"
                     "handle" "Ptr"))
          symbol-end)
     1 font-lock-type-face)
    ;; Dtype constructors: T.float32, R.int64, T.bool.
    (,(rx symbol-start (or "R" "T") "."
          (group (or (seq (? "u") "int" (+ digit)) (seq (? "b") "float" (+ digit)) "bool")
                 (? "_" (+ (any alnum "_"))) (? "x" (+ digit)))
          symbol-end)
     1 font-lock-type-face)
    ;; The namespace and its operators: R.nn.relu, T.grid.
    (,tvmls--namespace-rx (1 font-lock-constant-face) (2 font-lock-builtin-face keep))
    ;; Dtype strings: "float32", 'int64', "float8_e4m3fn", "float16x4", "bool".
    (,(rx (group (any "\"'"))
          (or (seq (? "u") "int" (+ digit)) (seq (? "b") "float" (+ digit)) "bool")
          (? "_" (+ (any alnum "_"))) (? "x" (+ digit))
          (backref 1))
     0 font-lock-constant-face t))
  "Highlighting of TVMScript on top of Python's.")

;;;###autoload
(define-derived-mode tvmscript-mode python-mode "TVMScript"
  "Major mode for TVMScript, Apache TVM's Relax and TIR IR in Python syntax.
Python's mode with TVMScript namespaces, decorators, types and
dtype strings highlighted.  Eglot starts tvmls for it (see
`tvmls-server-command')."
  (font-lock-add-keywords nil tvmls--font-lock-keywords)
  (tvmls--ensure-entry))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.\\(?:tvmscript\\|relax\\|tir\\)\\'" . tvmscript-mode))

;;;###autoload
(defun tvmls-dump-header-p ()
  "Non-nil when the buffer starts like a TVMScript IR dump.
That is, one of its first five lines is the printer's header
`# from tvm.script import ...', and the file is not Python source
\(*.py buffers stay in `python-mode')."
  (and (not (and buffer-file-name (string-match-p "\\.pyi?\\'" buffer-file-name)))
       (save-excursion
         (goto-char (point-min))
         (re-search-forward "^#[ \t]*from tvm\\.script import\\_>"
                            (line-end-position 5) t))))

;;;###autoload
(add-to-list 'magic-mode-alist '(tvmls-dump-header-p . tvmscript-mode))

;;;; Eglot

(defclass tvmls-eglot-server (eglot-lsp-server) ()
  :documentation "An Eglot connection to tvmls.")

(defconst tvmls--tvmscript-regexp
  "\\_<tvm\\.script\\_>\\|@[ \t]*\\(?:I\\.ir_module\\|T\\.prim_func\\|R\\.function\\)\\_>"
  "Text that marks a buffer as holding TVMScript.")

(defun tvmls-buffer-has-tvmscript-p ()
  "Non-nil when the buffer mentions tvm.script or a TVMScript decorator."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (re-search-forward tvmls--tvmscript-regexp nil t))))

(defun tvmls--own-entry-p (entry)
  "Non-nil when ENTRY of `eglot-server-programs' is the one tvmls adds."
  (eq (cdr-safe entry) 'tvmls--contact))

(defun tvmls--entry-modes (entry)
  "The major mode symbols of `eglot-server-programs' ENTRY."
  (let ((modes (car entry)))
    (cond ((symbolp modes) (list modes))
          ((and (consp modes) (keywordp (cadr modes))) (list (car modes)))
          (t (mapcar (lambda (m) (if (consp m) (car m) m)) modes)))))

(defun tvmls--entry-for (mode entries)
  "The first of ENTRIES (an `eglot-server-programs' list) that serves MODE."
  (cl-find-if (lambda (entry)
                (cl-some (lambda (m) (provided-mode-derived-p mode m))
                         (tvmls--entry-modes entry)))
              entries))

(defun tvmls--eglot-default-entry-p (entry)
  "Non-nil when ENTRY looks like Eglot's own python-mode entry.
Eglot's default runs the first of pylsp, pyls, pyright and
jedi-language-server it finds (`eglot-alternatives')."
  (let ((printed (let ((print-length nil) (print-level nil))
                   (prin1-to-string (cdr entry)))))
    (and (string-match-p "\"pylsp\"" printed)
         (string-match-p "jedi-language-server" printed))))

(defun tvmls--user-python-entry ()
  "A python-mode entry of `eglot-server-programs' the user added.
One that is neither Eglot's default nor ours."
  (cl-find-if (lambda (entry)
                (and (not (tvmls--own-entry-p entry))
                     (not (tvmls--eglot-default-entry-p entry))
                     (memq 'python-mode (tvmls--entry-modes entry))))
              eglot-server-programs))

(defvar tvmls--told-about-python nil
  "Non-nil once the user was told tvmls leaves Python buffers to their own server.")

(defun tvmls--python-wanted-p ()
  "Non-nil when the current Python buffer should get tvmls (see `tvmls-python')."
  (pcase tvmls-python
    ('nil nil)
    ('auto (not (tvmls--user-python-entry)))
    (_ t)))

(defun tvmls--program ()
  "The server program of `tvmls-server-command', as a file name, or nil if absent."
  (let ((program (car tvmls-server-command)))
    (cond ((not (stringp program)) nil)
          ((file-name-absolute-p program)
           (let ((file (expand-file-name program)))
             (and (file-executable-p file) (not (file-directory-p file)) file)))
          (t (executable-find program)))))

(defun tvmls--initialization-options (_server)
  "The initializationOptions: `tvmls-settings' (an empty object when nil)."
  (or tvmls-settings (make-hash-table)))

(defun tvmls-contact ()
  "The Eglot contact for tvmls, after checking the program exists.
Signals a `user-error' naming `tvmls-server-command' when it does not."
  (unless (tvmls--program)
    (user-error (concat "tvmls: server program `%s' not found (from `tvmls-server-command'); "
                        (string-replace "%" "%%" tvmls-install-hint))
                (car tvmls-server-command)))
  `(tvmls-eglot-server ,(tvmls--program) ,@(cdr tvmls-server-command)
                       :initializationOptions tvmls--initialization-options))

(defun tvmls--contact (interactive)
  "Contact function of tvmls's `eglot-server-programs' entry.
IR dumps always get tvmls; Python buffers as `tvmls-python' says,
else whatever the rest of `eglot-server-programs' gives them
\(INTERACTIVE is passed on to a contact function found there)."
  (if (or (derived-mode-p 'tvmscript-mode) (tvmls--python-wanted-p))
      (tvmls-contact)
    (let* ((others (cl-remove-if #'tvmls--own-entry-p eglot-server-programs))
           (contact (cdr (tvmls--entry-for major-mode others))))
      (if (functionp contact) (funcall contact interactive) contact))))

;;;###autoload
(defun tvmls-eglot-setup ()
  "Put tvmls's entry first in `eglot-server-programs'.
When `tvmls-python' (its global value) lets tvmls serve Python,
the entry is ((python-mode tvmscript-mode) . tvmls--contact): one
tvmls process per project serves both.  Otherwise it is
\(tvmscript-mode . tvmls--contact) and Python entries stay as they
are.  Done when tvmls is loaded and when a `tvmscript-mode' buffer
finds another entry ahead of it; call it again after changing
`tvmls-python'."
  (interactive)
  (let ((python (pcase (default-value 'tvmls-python)
                  ('nil nil)
                  ('auto (let ((theirs (tvmls--user-python-entry)))
                           (when (and theirs (not tvmls--told-about-python))
                             (setq tvmls--told-about-python t)
                             (message "tvmls: Python buffers keep your own Eglot server %S; \
set `tvmls-python' to t and run M-x tvmls-eglot-setup to use tvmls for them (IR dumps in \
tvmscript-mode use tvmls anyway)" (cdr theirs)))
                           (not theirs)))
                  (_ t))))
    (setq eglot-server-programs
          (cons (if python
                    `((python-mode tvmscript-mode
                                   ,@(and (fboundp 'python-ts-mode) '(python-ts-mode)))
                      . tvmls--contact)
                  '(tvmscript-mode . tvmls--contact))
                (cl-remove-if #'tvmls--own-entry-p eglot-server-programs)))))

(defun tvmls--ensure-entry ()
  "Make sure the current `tvmscript-mode' buffer reaches tvmls's entry.
A python-mode entry added after tvmls was loaded would serve
`tvmscript-mode' too (it is derived from `python-mode')."
  (unless (tvmls--own-entry-p (tvmls--entry-for major-mode eglot-server-programs))
    (tvmls-eglot-setup)))

;;;; When the server stops

(defun tvmls--stderr-tail (server)
  "The last lines the SERVER process wrote on stderr, as one string."
  (let ((buffer (ignore-errors (jsonrpc-stderr-buffer server))))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        ;; Emacs appends "Process ... stderr finished" to the buffer when the process's stderr
        ;; closes, sometimes before this runs: that line is Emacs's, not the server's.
        (let ((lines (seq-remove
                      (lambda (line) (string-match-p "\\`Process .* finished\\'" line))
                      (split-string (buffer-substring-no-properties
                                     (max (point-min) (- (point-max) 2000)) (point-max))
                                    "\n" t "[ \t\r]+"))))
          (when lines
            (string-join (last lines 3) " / ")))))))

(defun tvmls--report-exit (server proc stderr)
  "Tell the user that the SERVER process PROC stopped on its own.
STDERR is what it wrote last."
  (let* ((program (car (process-command proc)))
         (how (if (eq (process-status proc) 'signal)
                  (format "was killed by signal %d" (process-exit-status proc))
                (format "exited with status %d" (process-exit-status proc))))
         (initialized (ignore-errors (eglot--capabilities server))))
    (display-warning
     'tvmls
     (if initialized
         (format-message
          "tvmls: the language server %s%s. Eglot reconnects by itself when it had run for \
`eglot-autoreconnect' seconds; otherwise M-x eglot-reconnect starts it again. If it \
keeps stopping, run `%s serve --log-level debug' in a terminal to see why."
          how (if stderr (format " (stderr: %s)" stderr) "") program)
       (format-message
        "tvmls: the language server exited during startup: it %s%s. Check \
`tvmls-server-command' (now %S) and run `%s serve' in a terminal to see why; %s."
        how (if stderr (format " (stderr: %s)" stderr) "") tvmls-server-command program
        tvmls-install-hint))
     :error)))

(cl-defmethod initialize-instance :after ((server tvmls-eglot-server) &optional _slots)
  "Report when SERVER's process stops without Eglot asking it to."
  (let* ((proc (jsonrpc--process server))
         (sentinel (process-sentinel proc)))
    (set-process-sentinel
     proc
     (lambda (p change)
       (let ((stderr (unless (process-live-p p) (tvmls--stderr-tail server))))
         ;; During a synchronous connect, Eglot's handler throws out of the sentinel.
         (unwind-protect (funcall sentinel p change)
           (unless (or (process-live-p p) (eglot--shutdown-requested server))
             (tvmls--report-exit server p stderr))))))))

(cl-defmethod eglot-handle-request :around
  ((_server tvmls-eglot-server) (_method (eql workspace/configuration)) &rest args)
  "Answer the section \"tvmls\" from `tvmls-settings' when Eglot has nothing for it.
ARGS holds the request's items."
  (let ((answers (cl-call-next-method))
        (items (plist-get args :items)))
    (apply #'vector
           (cl-loop for item across items
                    for answer across answers
                    collect (if (and (null answer)
                                     (equal (plist-get item :section) "tvmls"))
                                (tvmls--initialization-options nil)
                              answer)))))

(defun tvmls-send-settings ()
  "Send `tvmls-settings' to the running tvmls servers.
This is the notification workspace/didChangeConfiguration."
  (interactive)
  (let ((n 0))
    (maphash (lambda (_project servers)
               (dolist (server servers)
                 (when (cl-typep server 'tvmls-eglot-server)
                   (cl-incf n)
                   (jsonrpc-notify server :workspace/didChangeConfiguration
                                   (list :settings
                                         (list :tvmls (tvmls--initialization-options nil)))))))
             eglot--servers-by-project)
    (message "tvmls: settings sent to %d server%s" n (if (= n 1) "" "s"))))

(tvmls-eglot-setup)

(provide 'tvmls)
;;; tvmls.el ends here
