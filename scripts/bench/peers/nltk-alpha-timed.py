"""NLTK's Krippendorff alpha of a judgments CSV (item,annotator,label[,...]), timing AnnotationTask.alpha() alone:
the peer of `accord agreement` in scripts/bench/agreement-vs-nltk.ts. Prints one JSON line {"alpha", "seconds", "cpu"}
(alpha with full precision; wall and CPU seconds of alpha() only, not reading the file nor building the task)."""
import csv
import json
import sys
import time

from nltk.metrics.agreement import AnnotationTask

with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    header = [h.strip().lower() for h in next(rows)]
    ii, ai, li = (header.index(c) for c in ("item", "annotator", "label"))
    data = [(r[ai].strip(), r[ii].strip(), r[li].strip()) for r in rows if r]
task = AnnotationTask(data)
t0, c0 = time.perf_counter(), time.process_time()
alpha = task.alpha()
print(json.dumps({"alpha": alpha, "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0}))
