"""Scores the outputs written by rouge-eval.ts (--out) again with Google's rouge-score and NLTK's Porter stemmer.

    PYTHONPATH=<rouge-score and nltk sources> python3 bench/summarization/rouge-crosscheck.py outputs.jsonl

Prints each system's mean F1 x 100 as rouge-score computes it and the largest difference, over every output and
measure, from the score our TypeScript ROUGE (bench/summarization/rouge.ts) recorded; exits 1 past 1e-9. Works with
the pip package (`rouge_score`) or with google-research's `rouge/` folder on the path (`rouge`).
"""
import json
import sys

try:
    from rouge_score import rouge_scorer
except ImportError:
    from rouge import rouge_scorer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def best_over_references(scorer, references, prediction):
    """score_multi: for each measure, the reference with the best F1 (done by hand: older rouge-score lacks it)."""
    scores = [scorer.score(reference, prediction) for reference in references]
    return {t: max(s[t].fmeasure for s in scores) for t in TYPES}


def main(path):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    sums, counts, worst = {}, {}, (0.0, None)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            output = json.loads(line)
            reference_scores = best_over_references(scorer, output["references"], output["prediction"])
            system = output["system"]
            counts[system] = counts.get(system, 0) + 1
            for t in TYPES:
                sums.setdefault(system, {}).setdefault(t, 0.0)
                sums[system][t] += reference_scores[t]
                difference = abs(reference_scores[t] - output["scores"][t])
                if difference > worst[0]:
                    worst = (difference, (output["id"], system, t))
    print("| system | ROUGE-1 | ROUGE-2 | ROUGE-L | ROUGE-Lsum | outputs |")
    print("|---|---|---|---|---|---|")
    for system, total in sums.items():
        means = " | ".join("%.2f" % (100 * total[t] / counts[system]) for t in TYPES)
        print("| %s | %s | %d |" % (system, means, counts[system]))
    print("largest difference from rouge.ts: %.3g%s" % (worst[0], " at %s" % (worst[1],) if worst[1] else ""))
    return 0 if worst[0] <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
