;; libstdc++'s std::sort, std::partial_sort and std::nth_element (GCC 13's
;; bits/stl_algo.h and bits/stl_heap.h), step for step as engine/ops/stl.py
;; replays them in Python: that module is the readable one, this one its
;; compiled twin (engine/ops/stl_compiled.py), tested against it and against
;; torch.  Which of two equal elements comes first is what the algorithm
;; leaves, so nothing here may differ from the C++ in a single comparison or
;; move.
;;
;; Elements are i64 at byte address 8 * i: the sort key (32 bits, unsigned, in
;; the order the C++ comparator puts the row's values in; equal values have
;; equal keys) in the high 32 bits, the element's position along the dim in the
;; low 32.  Comparisons read only the key: `less(x, y)` is key(x) < key(y), the
;; comparator torch passes, on keys.  Positions are i32 element indices; every
;; distance is computed signed, as C++'s ptrdiff_t is (x / 2 truncates).
(module
  (memory (export "memory") 1)

  (func $get (param $i i32) (result i64)
    (i64.load (i32.shl (local.get $i) (i32.const 3))))

  (func $set (param $i i32) (param $v i64)
    (i64.store (i32.shl (local.get $i) (i32.const 3)) (local.get $v)))

  (func $key (param $v i64) (result i64)
    (i64.shr_u (local.get $v) (i64.const 32)))

  ;; comp(a[i], a[j])
  (func $less (param $i i32) (param $j i32) (result i32)
    (i64.lt_u (call $key (call $get (local.get $i)))
              (call $key (call $get (local.get $j)))))

  ;; comp(v, a[j])
  (func $less_vi (param $v i64) (param $j i32) (result i32)
    (i64.lt_u (call $key (local.get $v)) (call $key (call $get (local.get $j)))))

  ;; comp(a[i], v)
  (func $less_iv (param $i i32) (param $v i64) (result i32)
    (i64.lt_u (call $key (call $get (local.get $i))) (call $key (local.get $v))))

  ;; std::iter_swap
  (func $swap (param $i i32) (param $j i32)
    (local $t i64)
    (local.set $t (call $get (local.get $i)))
    (call $set (local.get $i) (call $get (local.get $j)))
    (call $set (local.get $j) (local.get $t)))

  ;; std::__lg: floor(log2(n)), n > 0
  (func $lg (param $n i32) (result i32)
    (i32.sub (i32.const 31) (i32.clz (local.get $n))))

  ;; -- bits/stl_algo.h: introsort -------------------------------------------

  ;; std::__move_median_to_first(result, a, b, c)
  (func $move_median_to_first (param $result i32) (param $a i32) (param $b i32)
                              (param $c i32)
    (local $pick i32)
    (if (call $less (local.get $a) (local.get $b))
      (then
        (if (call $less (local.get $b) (local.get $c))
          (then (local.set $pick (local.get $b)))
          (else (if (call $less (local.get $a) (local.get $c))
                  (then (local.set $pick (local.get $c)))
                  (else (local.set $pick (local.get $a)))))))
      (else
        (if (call $less (local.get $a) (local.get $c))
          (then (local.set $pick (local.get $a)))
          (else (if (call $less (local.get $b) (local.get $c))
                  (then (local.set $pick (local.get $c)))
                  (else (local.set $pick (local.get $b))))))))
    (call $swap (local.get $result) (local.get $pick)))

  ;; std::__unguarded_partition(first, last, pivot).  The pivot's element does not move
  ;; while the loop runs (it sits before first), so its key is read once.
  (func $unguarded_partition (param $first i32) (param $last i32) (param $pivot i32)
                             (result i32)
    (local $p i64) (local $t i64)
    (local.set $p (i64.shr_u (i64.load (i32.shl (local.get $pivot) (i32.const 3)))
                             (i64.const 32)))
    (loop $round
      ;; while (comp(first, pivot)) ++first
      (block $left_done
        (loop $left
          (br_if $left_done (i64.ge_u
            (i64.shr_u (i64.load (i32.shl (local.get $first) (i32.const 3))) (i64.const 32))
            (local.get $p)))
          (local.set $first (i32.add (local.get $first) (i32.const 1)))
          (br $left)))
      (local.set $last (i32.sub (local.get $last) (i32.const 1)))
      ;; while (comp(pivot, last)) --last
      (block $right_done
        (loop $right
          (br_if $right_done (i64.ge_u (local.get $p)
            (i64.shr_u (i64.load (i32.shl (local.get $last) (i32.const 3))) (i64.const 32))))
          (local.set $last (i32.sub (local.get $last) (i32.const 1)))
          (br $right)))
      (if (i32.eqz (i32.lt_s (local.get $first) (local.get $last)))
        (then (return (local.get $first))))
      ;; std::iter_swap(first, last)
      (local.set $t (i64.load (i32.shl (local.get $first) (i32.const 3))))
      (i64.store (i32.shl (local.get $first) (i32.const 3))
                 (i64.load (i32.shl (local.get $last) (i32.const 3))))
      (i64.store (i32.shl (local.get $last) (i32.const 3)) (local.get $t))
      (local.set $first (i32.add (local.get $first) (i32.const 1)))
      (br $round))
    (unreachable))

  ;; std::__unguarded_partition_pivot(first, last)
  (func $partition_pivot (param $first i32) (param $last i32) (result i32)
    (local $mid i32)
    (local.set $mid (i32.add (local.get $first)
      (i32.div_s (i32.sub (local.get $last) (local.get $first)) (i32.const 2))))
    (call $move_median_to_first (local.get $first)
      (i32.add (local.get $first) (i32.const 1)) (local.get $mid)
      (i32.sub (local.get $last) (i32.const 1)))
    (call $unguarded_partition (i32.add (local.get $first) (i32.const 1))
      (local.get $last) (local.get $first)))

  ;; std::__introsort_loop(first, last, depth_limit); _S_threshold = 16
  (func $introsort_loop (param $first i32) (param $last i32) (param $depth i32)
    (local $cut i32)
    (block $done
      (loop $more
        (br_if $done (i32.le_s (i32.sub (local.get $last) (local.get $first))
                               (i32.const 16)))
        (if (i32.eqz (local.get $depth))
          (then
            (call $partial_sort (local.get $first) (local.get $last) (local.get $last))
            (return)))
        (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
        (local.set $cut (call $partition_pivot (local.get $first) (local.get $last)))
        (call $introsort_loop (local.get $cut) (local.get $last) (local.get $depth))
        (local.set $last (local.get $cut))
        (br $more))))

  ;; std::__unguarded_linear_insert(last)
  (func $unguarded_linear_insert (param $last i32)
    (local $val i64) (local $key i64) (local $prev i64)
    (local.set $val (i64.load (i32.shl (local.get $last) (i32.const 3))))
    (local.set $key (i64.shr_u (local.get $val) (i64.const 32)))
    (block $done
      (loop $shift
        ;; while (comp(val, next)): next = last - 1
        (local.set $prev (i64.load (i32.shl (i32.sub (local.get $last) (i32.const 1))
                                            (i32.const 3))))
        (br_if $done (i64.ge_u (local.get $key)
                               (i64.shr_u (local.get $prev) (i64.const 32))))
        (i64.store (i32.shl (local.get $last) (i32.const 3)) (local.get $prev))
        (local.set $last (i32.sub (local.get $last) (i32.const 1)))
        (br $shift)))
    (i64.store (i32.shl (local.get $last) (i32.const 3)) (local.get $val)))

  ;; std::__insertion_sort(first, last)
  (func $insertion_sort (param $first i32) (param $last i32)
    (local $i i32) (local $val i64)
    (if (i32.eq (local.get $first) (local.get $last)) (then (return)))
    (local.set $i (i32.add (local.get $first) (i32.const 1)))
    (block $done
      (loop $each
        (br_if $done (i32.eq (local.get $i) (local.get $last)))
        (if (call $less (local.get $i) (local.get $first))
          (then
            ;; val = *i; std::move_backward(first, i, i + 1); *first = val
            (local.set $val (call $get (local.get $i)))
            (memory.copy
              (i32.shl (i32.add (local.get $first) (i32.const 1)) (i32.const 3))
              (i32.shl (local.get $first) (i32.const 3))
              (i32.shl (i32.sub (local.get $i) (local.get $first)) (i32.const 3)))
            (call $set (local.get $first) (local.get $val)))
          (else (call $unguarded_linear_insert (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; std::__final_insertion_sort(first, last)
  (func $final_insertion_sort (param $first i32) (param $last i32)
    (local $i i32)
    (if (i32.gt_s (i32.sub (local.get $last) (local.get $first)) (i32.const 16))
      (then
        (call $insertion_sort (local.get $first) (i32.add (local.get $first) (i32.const 16)))
        ;; std::__unguarded_insertion_sort(first + 16, last)
        (local.set $i (i32.add (local.get $first) (i32.const 16)))
        (block $done
          (loop $each
            (br_if $done (i32.eq (local.get $i) (local.get $last)))
            (call $unguarded_linear_insert (local.get $i))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $each))))
      (else (call $insertion_sort (local.get $first) (local.get $last)))))

  ;; std::sort(first, last) with the introsort's depth limit given
  ;; (std::__sort passes __lg(last - first) * 2)
  (func $sort_depth (export "sort_depth") (param $first i32) (param $last i32)
                    (param $depth i32)
    (if (i32.ne (local.get $first) (local.get $last))
      (then
        (call $introsort_loop (local.get $first) (local.get $last) (local.get $depth))
        (call $final_insertion_sort (local.get $first) (local.get $last)))))

  ;; std::sort(first, last)
  (func $sort (export "sort") (param $first i32) (param $last i32)
    (if (i32.ne (local.get $first) (local.get $last))
      (then
        (call $sort_depth (local.get $first) (local.get $last)
          (i32.mul (call $lg (i32.sub (local.get $last) (local.get $first))) (i32.const 2))))))

  ;; -- bits/stl_heap.h -------------------------------------------------------

  ;; std::__push_heap(first, hole, top, value); offsets from first
  (func $push_heap (param $first i32) (param $hole i32) (param $top i32) (param $value i64)
    (local $parent i32)
    (local.set $parent (i32.div_s (i32.sub (local.get $hole) (i32.const 1)) (i32.const 2)))
    (block $done
      (loop $up
        (br_if $done (i32.eqz (i32.gt_s (local.get $hole) (local.get $top))))
        (br_if $done (i32.eqz (call $less_iv (i32.add (local.get $first) (local.get $parent))
                                             (local.get $value))))
        (call $set (i32.add (local.get $first) (local.get $hole))
                   (call $get (i32.add (local.get $first) (local.get $parent))))
        (local.set $hole (local.get $parent))
        (local.set $parent (i32.div_s (i32.sub (local.get $hole) (i32.const 1)) (i32.const 2)))
        (br $up)))
    (call $set (i32.add (local.get $first) (local.get $hole)) (local.get $value)))

  ;; std::__adjust_heap(first, hole, len, value)
  (func $adjust_heap (param $first i32) (param $hole i32) (param $len i32) (param $value i64)
    (local $top i32) (local $child i32)
    (local.set $top (local.get $hole))
    (local.set $child (local.get $hole))
    (block $done
      (loop $down
        (br_if $done (i32.eqz (i32.lt_s (local.get $child)
          (i32.div_s (i32.sub (local.get $len) (i32.const 1)) (i32.const 2)))))
        (local.set $child (i32.mul (i32.const 2) (i32.add (local.get $child) (i32.const 1))))
        (if (call $less (i32.add (local.get $first) (local.get $child))
                        (i32.add (local.get $first) (i32.sub (local.get $child) (i32.const 1))))
          (then (local.set $child (i32.sub (local.get $child) (i32.const 1)))))
        (call $set (i32.add (local.get $first) (local.get $hole))
                   (call $get (i32.add (local.get $first) (local.get $child))))
        (local.set $hole (local.get $child))
        (br $down)))
    (if (i32.and (i32.eqz (i32.and (local.get $len) (i32.const 1)))
                 (i32.eq (local.get $child)
                         (i32.div_s (i32.sub (local.get $len) (i32.const 2)) (i32.const 2))))
      (then
        (local.set $child (i32.mul (i32.const 2) (i32.add (local.get $child) (i32.const 1))))
        (call $set (i32.add (local.get $first) (local.get $hole))
                   (call $get (i32.add (local.get $first) (i32.sub (local.get $child) (i32.const 1)))))
        (local.set $hole (i32.sub (local.get $child) (i32.const 1)))))
    (call $push_heap (local.get $first) (local.get $hole) (local.get $top) (local.get $value)))

  ;; std::__make_heap(first, last)
  (func $make_heap (param $first i32) (param $last i32)
    (local $len i32) (local $parent i32)
    (local.set $len (i32.sub (local.get $last) (local.get $first)))
    (if (i32.lt_s (local.get $len) (i32.const 2)) (then (return)))
    (local.set $parent (i32.div_s (i32.sub (local.get $len) (i32.const 2)) (i32.const 2)))
    (loop $each
      (call $adjust_heap (local.get $first) (local.get $parent) (local.get $len)
        (call $get (i32.add (local.get $first) (local.get $parent))))
      (if (i32.eqz (local.get $parent)) (then (return)))
      (local.set $parent (i32.sub (local.get $parent) (i32.const 1)))
      (br $each)))

  ;; std::__pop_heap(first, last, result)
  (func $pop_heap (param $first i32) (param $last i32) (param $result i32)
    (local $value i64)
    (local.set $value (call $get (local.get $result)))
    (call $set (local.get $result) (call $get (local.get $first)))
    (call $adjust_heap (local.get $first) (i32.const 0)
      (i32.sub (local.get $last) (local.get $first)) (local.get $value)))

  ;; std::__heap_select(first, middle, last)
  (func $heap_select (param $first i32) (param $middle i32) (param $last i32)
    (local $i i32)
    (call $make_heap (local.get $first) (local.get $middle))
    (local.set $i (local.get $middle))
    (block $done
      (loop $each
        (br_if $done (i32.ge_s (local.get $i) (local.get $last)))
        ;; comp(i, first), read inline: this test runs for every element
        (if (i64.lt_u
              (i64.shr_u (i64.load (i32.shl (local.get $i) (i32.const 3))) (i64.const 32))
              (i64.shr_u (i64.load (i32.shl (local.get $first) (i32.const 3))) (i64.const 32)))
          (then (call $pop_heap (local.get $first) (local.get $middle) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; std::__partial_sort(first, middle, last): heap select, then std::__sort_heap
  (func $partial_sort (export "partial_sort") (param $first i32) (param $middle i32)
                      (param $last i32)
    (call $heap_select (local.get $first) (local.get $middle) (local.get $last))
    (block $done
      (loop $each
        (br_if $done (i32.le_s (i32.sub (local.get $middle) (local.get $first)) (i32.const 1)))
        (local.set $middle (i32.sub (local.get $middle) (i32.const 1)))
        (call $pop_heap (local.get $first) (local.get $middle) (local.get $middle))
        (br $each))))

  ;; std::nth_element(first, nth, last): std::__introselect
  (func $nth_element (export "nth_element") (param $first i32) (param $nth i32)
                     (param $last i32)
    (local $depth i32) (local $cut i32)
    (if (i32.or (i32.eq (local.get $first) (local.get $last))
                (i32.eq (local.get $nth) (local.get $last)))
      (then (return)))
    (local.set $depth
      (i32.mul (call $lg (i32.sub (local.get $last) (local.get $first))) (i32.const 2)))
    (block $done
      (loop $more
        (br_if $done (i32.le_s (i32.sub (local.get $last) (local.get $first)) (i32.const 3)))
        (if (i32.eqz (local.get $depth))
          (then
            (call $heap_select (local.get $first) (i32.add (local.get $nth) (i32.const 1))
                               (local.get $last))
            (call $swap (local.get $first) (local.get $nth))
            (return)))
        (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
        (local.set $cut (call $partition_pivot (local.get $first) (local.get $last)))
        (if (i32.le_s (local.get $cut) (local.get $nth))
          (then (local.set $first (local.get $cut)))
          (else (local.set $last (local.get $cut))))
        (br $more)))
    (call $insertion_sort (local.get $first) (local.get $last)))

  ;; -- whole rows: the loops of torch's kernels -----------------------------

  ;; sort_kernel's std::sort over `rows` rows of n elements, one after another
  (func (export "sort_rows") (param $rows i32) (param $n i32)
    (local $r i32) (local $base i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_s (local.get $r) (local.get $rows)))
        (local.set $base (i32.mul (local.get $r) (local.get $n)))
        (call $sort (local.get $base) (i32.add (local.get $base) (local.get $n)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each))))

  ;; topk_impl_loop (TopKImpl.h) over `rows` rows of n elements: partial_sort
  ;; when k * 64 <= n (`partial`), else nth_element and, when `sorted`, std::sort
  ;; of the first k - 1.  The first k of each row are the result.
  (func (export "topk_rows") (param $rows i32) (param $n i32) (param $k i32)
                             (param $partial i32) (param $sorted i32)
    (local $r i32) (local $base i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_s (local.get $r) (local.get $rows)))
        (local.set $base (i32.mul (local.get $r) (local.get $n)))
        (if (local.get $partial)
          (then
            (call $partial_sort (local.get $base) (i32.add (local.get $base) (local.get $k))
                                (i32.add (local.get $base) (local.get $n))))
          (else
            (call $nth_element (local.get $base)
              (i32.sub (i32.add (local.get $base) (local.get $k)) (i32.const 1))
              (i32.add (local.get $base) (local.get $n)))
            (if (local.get $sorted)
              (then (call $sort (local.get $base)
                (i32.sub (i32.add (local.get $base) (local.get $k)) (i32.const 1)))))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each)))))
