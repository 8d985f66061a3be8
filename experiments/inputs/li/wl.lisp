;;; wl.lisp - the li workload: CLISP's interpreter (the file is LOADed as
;;; source, so every function below runs interpreted, as SPEC95 130.li's
;;; XLISP ran its programs) on list-processing problems, ROUNDS times
;;; (first command-line argument).  Data comes from our own LCG; nothing
;;; reads the clock or the environment.
;;;   - N-queens: count all solutions with list-based backtracking;
;;;   - symbolic differentiation and simplification of generated expressions;
;;;   - merge sort of generated lists with a comparator closure;
;;;   - association-list and property-list bookkeeping (word counts);
;;;   - a tiny evaluator for arithmetic/let/if expressions written in Lisp;
;;;   - bignum factorial digits and a Collatz walk.

(defvar *seed* 12345)
(defun lcg (k)
  (setq *seed* (mod (+ (* *seed* 1103515245) 12345) 2147483648))
  (mod (floor *seed* 65536) k))

;;; N-queens
(defun safe-p (col placed dist)
  (cond ((null placed) t)
        ((or (= col (car placed))
             (= (abs (- col (car placed))) dist)) nil)
        (t (safe-p col (cdr placed) (+ dist 1)))))

(defun queens (n row placed)
  (if (= row n)
      1
      (let ((count 0))
        (dotimes (col n count)
          (when (safe-p col placed 1)
            (setq count (+ count (queens n (+ row 1) (cons col placed)))))))))

;;; symbolic differentiation
(defun gen-expr (depth)
  (if (or (= depth 0) (= (lcg 4) 0))
      (if (= (lcg 2) 0) 'x (+ 1 (lcg 9)))
      (let ((op (nth (lcg 5) '(+ * - expt sin))))
        (cond ((eq op 'expt) (list 'expt (gen-expr (- depth 1)) (+ 2 (lcg 3))))
              ((eq op 'sin) (list 'sin (gen-expr (- depth 1))))
              (t (list op (gen-expr (- depth 1)) (gen-expr (- depth 1))))))))

(defun simp (e)
  (if (atom e)
      e
      (let ((op (car e)) (args (mapcar #'simp (cdr e))))
        (cond ((and (member op '(+ - *)) (numberp (car args)) (numberp (cadr args)))
               (funcall (symbol-function op) (car args) (cadr args)))
              ((and (eq op '+) (eql (car args) 0)) (cadr args))
              ((and (eq op '+) (eql (cadr args) 0)) (car args))
              ((and (eq op '-) (eql (cadr args) 0)) (car args))
              ((and (eq op '*) (or (eql (car args) 0) (eql (cadr args) 0))) 0)
              ((and (eq op '*) (eql (car args) 1)) (cadr args))
              ((and (eq op '*) (eql (cadr args) 1)) (car args))
              ((and (eq op 'expt) (eql (cadr args) 1)) (car args))
              (t (cons op args))))))

(defun deriv (e)
  (cond ((numberp e) 0)
        ((eq e 'x) 1)
        ((eq (car e) '+) (list '+ (deriv (cadr e)) (deriv (caddr e))))
        ((eq (car e) '-) (list '- (deriv (cadr e)) (deriv (caddr e))))
        ((eq (car e) '*) (list '+ (list '* (deriv (cadr e)) (caddr e))
                               (list '* (cadr e) (deriv (caddr e)))))
        ((eq (car e) 'expt) (list '* (list '* (caddr e) (list 'expt (cadr e) (- (caddr e) 1)))
                                  (deriv (cadr e))))
        ((eq (car e) 'sin) (list '* (list 'cos (cadr e)) (deriv (cadr e))))
        ((eq (car e) 'cos) (list '* (list '- 0 (list 'sin (cadr e))) (deriv (cadr e))))
        (t (error "deriv: ~a" e))))

(defun expr-size (e)
  (if (atom e) 1 (+ 1 (reduce #'+ (mapcar #'expr-size (cdr e))))))

;;; merge sort on lists
(defun merge-lists (a b less)
  (cond ((null a) b)
        ((null b) a)
        ((funcall less (car b) (car a)) (cons (car b) (merge-lists a (cdr b) less)))
        (t (cons (car a) (merge-lists (cdr a) b less)))))

(defun split-list (l)
  (if (or (null l) (null (cdr l)))
      (values l nil)
      (multiple-value-bind (a b) (split-list (cddr l))
        (values (cons (car l) a) (cons (cadr l) b)))))

(defun msort (l less)
  (if (or (null l) (null (cdr l)))
      l
      (multiple-value-bind (a b) (split-list l)
        (merge-lists (msort a less) (msort b less) less))))

(defun gen-list (n k)
  (let ((l nil)) (dotimes (i n l) (push (lcg k) l))))

;;; word counts in an association list and on property lists
(defvar *words* '(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu
                  nu xi omicron pi rho sigma tau upsilon phi chi psi omega))

(defun count-words (n)
  (let ((counts nil))
    (dotimes (i n)
      (let* ((w (nth (lcg (length *words*)) *words*))
             (cell (assoc w counts)))
        (if cell (setf (cdr cell) (+ (cdr cell) 1)) (push (cons w 1) counts))
        (setf (get w 'seen) (+ 1 (or (get w 'seen) 0)))))
    (msort counts #'(lambda (a b) (or (> (cdr a) (cdr b))
                                      (and (= (cdr a) (cdr b))
                                           (string< (symbol-name (car a)) (symbol-name (car b)))))))))

;;; a tiny evaluator
(defun ev (e env)
  (cond ((numberp e) e)
        ((symbolp e) (cdr (assoc e env)))
        ((eq (car e) 'let) (ev (caddr e) (cons (cons (caadr e) (ev (cadadr e) env)) env)))
        ((eq (car e) 'if) (if (/= 0 (ev (cadr e) env)) (ev (caddr e) env) (ev (cadddr e) env)))
        ((eq (car e) 'add) (+ (ev (cadr e) env) (ev (caddr e) env)))
        ((eq (car e) 'sub) (- (ev (cadr e) env) (ev (caddr e) env)))
        ((eq (car e) 'mul) (* (ev (cadr e) env) (ev (caddr e) env)))
        ((eq (car e) 'less) (if (< (ev (cadr e) env) (ev (caddr e) env)) 1 0))
        (t (error "ev: ~a" e))))

(defun gen-prog (depth vars)
  (if (or (= depth 0) (= (lcg 5) 0))
      (if (and vars (= (lcg 2) 0)) (nth (lcg (length vars)) vars) (lcg 20))
      (case (lcg 6)
        (0 (let ((v (nth (lcg 4) '(a b c d))))
             (list 'let (list v (gen-prog (- depth 1) vars)) (gen-prog (- depth 1) (cons v vars)))))
        (1 (list 'if (gen-prog (- depth 1) vars) (gen-prog (- depth 1) vars) (gen-prog (- depth 1) vars)))
        (2 (list 'add (gen-prog (- depth 1) vars) (gen-prog (- depth 1) vars)))
        (3 (list 'sub (gen-prog (- depth 1) vars) (gen-prog (- depth 1) vars)))
        (4 (list 'mul (gen-prog (- depth 1) vars) (lcg 5)))
        (t (list 'less (gen-prog (- depth 1) vars) (gen-prog (- depth 1) vars))))))

;;; numbers
(defun fact (n) (if (< n 2) 1 (* n (fact (- n 1)))))
(defun digit-sum (n) (let ((s 0)) (loop while (> n 0) do (multiple-value-bind (q r) (floor n 10) (setq s (+ s r) n q))) s))
(defun collatz (n steps) (cond ((= n 1) steps) ((evenp n) (collatz (/ n 2) (+ steps 1))) (t (collatz (+ (* 3 n) 1) (+ steps 1)))))

(defun one-round (r)
  (let ((n (+ 6 (mod r 2))))
    (format t "round ~d queens ~d: ~d~%" r n (queens n 0 nil)))
  (let ((total 0))
    (dotimes (i 30)
      (let* ((e (gen-expr 5)) (d (simp (deriv e))))
        (setq total (+ total (expr-size d)))))
    (format t "round ~d derivative sizes: ~d~%" r total))
  (let ((l (msort (gen-list 400 1000) #'<)))
    (format t "round ~d sorted: ~d ~d ~d~%" r (car l) (nth 200 l) (car (last l))))
  (let ((c (count-words 600)))
    (format t "round ~d words: ~a~%" r (subseq c 0 3)))
  (let ((s 0))
    (dotimes (i 40)
      (setq s (+ s (ev (gen-prog 6 nil) nil))))
    (format t "round ~d eval: ~d~%" r s))
  (format t "round ~d fact digits: ~d collatz: ~d~%" r (digit-sum (fact (+ 60 (lcg 40)))) (collatz (+ 27 (lcg 1000)) 0)))

(let ((rounds (parse-integer (car ext:*args*))))
  (dotimes (r rounds)
    (one-round (+ r 1))))
