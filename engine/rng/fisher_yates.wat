;; randperm_cpu's two Fisher-Yates shuffles (aten/src/ATen/native/TensorFactories.cpp).
;;
;; n < 0xFFFFFFFF / 20 ("for small n, preserve old behavior"), over r = 0 .. n-1:
;;
;;   for (int64_t i = 0; i < n - 1; i++) {
;;     int64_t z = generator->random() % (n - i);
;;     std::swap(r[i], r[z + i]);
;;   }
;;
;; larger n, the "inside-out" shuffle, which needs no r to start from:
;;
;;   for (int64_t i = 0; i < n; i++) {
;;     int64_t z = (int64_t)(generator->random64() % (i + 1));
;;     r[i] = i; r[i] = r[z]; r[z] = i;
;;   }
;;
;; Each step reads what the earlier ones wrote, so the loop is sequential: numpy
;; cannot vectorise it and a Python loop costs ~0.5 us per element.
;; engine/rng/wasm.py lays out r (int32[n]) at address 0 and the draws' z of one chunk
;; of i (int32) at address zs, computed with numpy, and calls the export for that
;; chunk, then the next.  n < 2^29: byte addresses stay below 2^31 + the chunk.
(module
  (memory (export "memory") 1)

  ;; r[i] = i for i in [0, n)
  (func (export "iota") (param $n i32)
    (local $i i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
        (i32.store (i32.shl (local.get $i) (i32.const 2)) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; the small-n shuffle's steps i in [start, stop): swap r[i], r[i + z[i - start]]
  (func (export "swaps") (param $start i32) (param $stop i32) (param $zs i32)
    (local $i i32) (local $pi i32) (local $pj i32) (local $t i32)
    (local.set $i (local.get $start))
    (block $done
      (loop $swap
        (br_if $done (i32.ge_s (local.get $i) (local.get $stop)))
        (local.set $pi (i32.shl (local.get $i) (i32.const 2)))
        (local.set $pj (i32.shl
          (i32.add (local.get $i)
            (i32.load (i32.add (local.get $zs)
              (i32.shl (i32.sub (local.get $i) (local.get $start)) (i32.const 2)))))
          (i32.const 2)))
        (local.set $t (i32.load (local.get $pi)))
        (i32.store (local.get $pi) (i32.load (local.get $pj)))
        (i32.store (local.get $pj) (local.get $t))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $swap))))

  ;; the inside-out shuffle's steps i in [start, stop), z = z[i - start]:
  ;; r[i] = i; r[i] = r[z]; r[z] = i, as the C++ writes them
  (func (export "inside_out") (param $start i32) (param $stop i32) (param $zs i32)
    (local $i i32) (local $pz i32)
    (local.set $i (local.get $start))
    (block $done
      (loop $step
        (br_if $done (i32.ge_s (local.get $i) (local.get $stop)))
        (local.set $pz (i32.shl
          (i32.load (i32.add (local.get $zs)
            (i32.shl (i32.sub (local.get $i) (local.get $start)) (i32.const 2))))
          (i32.const 2)))
        (i32.store (i32.shl (local.get $i) (i32.const 2)) (local.get $i))
        (i32.store (i32.shl (local.get $i) (i32.const 2)) (i32.load (local.get $pz)))
        (i32.store (local.get $pz) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $step)))))
