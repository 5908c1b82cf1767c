"""NLTK's Krippendorff alpha of a judgments CSV (item,annotator,label): the peer of `accord agreement` in
scripts/bench/cli.ts. Prints alpha with full precision (repr)."""
import csv
import sys

from nltk.metrics.agreement import AnnotationTask

with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    header = [h.strip().lower() for h in next(rows)]
    ii, ai, li = (header.index(c) for c in ("item", "annotator", "label"))
    data = [(r[ai].strip(), r[ii].strip(), r[li].strip()) for r in rows if r]
print(repr(AnnotationTask(data).alpha()))
