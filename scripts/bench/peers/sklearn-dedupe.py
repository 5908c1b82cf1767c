"""scikit-learn brute force near-duplicates: the peer of `accord dedupe --json` in scripts/bench/cli.ts.
Reads a CrisisLex CSV (tweet id, tweet, label), normalises the text as Accord does (lowercase; URLs, @mentions
and non-ASCII removed; tokens [a-z0-9]+), counts uni+bigrams (CountVectorizer), L2-normalises the rows and
multiplies the sparse matrix with its transpose in blocks of rows, keeping pairs with cosine > threshold.
Writes "idA idB similarity" lines (idA the earlier row) to OUT and prints the pair count."""
import csv
import re
import sys

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize

URL = re.compile(r"https?://\S+|www\.\S+")
MENTION = re.compile(r"@[a-z0-9_]+")
NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def preprocess(text):
    return NON_ASCII.sub("", MENTION.sub("", URL.sub("", text.lower())))


src, out = sys.argv[1], sys.argv[2]
threshold = float(sys.argv[3]) if len(sys.argv) > 3 else 0.75
ids, texts = [], []
with open(src, newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    next(rows)
    for r in rows:
        if len(r) < 2 or not r[0].strip() or not r[1].strip():
            continue
        ids.append(r[0].strip().strip("'"))
        texts.append(r[1])

vectors = CountVectorizer(preprocessor=preprocess, token_pattern=r"[a-z0-9]+", ngram_range=(1, 2)).fit_transform(texts)
unit = normalize(vectors, norm="l2").tocsr()
unit_t = unit.T.tocsr()
block = 2000
count = 0
with open(out, "w") as w:
    for start in range(0, unit.shape[0], block):
        sims = (unit[start : start + block] @ unit_t).tocoo()
        rows_, cols, vals = sims.row + start, sims.col, sims.data
        keep = (cols > rows_) & (vals > threshold)
        for a, b, s in zip(rows_[keep], cols[keep], vals[keep]):
            w.write(f"{ids[a]} {ids[b]} {float(s)!r}\n")
        count += int(np.count_nonzero(keep))
print(count)
