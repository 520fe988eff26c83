/**
 * Intl.Segmenter (ICU, as V8 exposes it) costs the length of the string for every segment it hands out: counting the
 * graphemes of 100 KB took 16 s. A window of w characters costs about w times its segments, so it reads short
 * windows, each starting at a boundary it found itself, and keeps only the segments that end MARGIN_CHARS before the
 * window does: a rule may look past a segment's end (the "5" of "3.5", through combining marks), and the rest is
 * read again at the start of the next window. The segments are the ones a single pass over the whole text gives,
 * except where a run of more than MARGIN_CHARS marks or a dictionary-segmented script (Chinese, Thai) straddles a
 * window's end.
 */
const WINDOW_CHARS = 160;
const MARGIN_CHARS = 32;

export function* segmentsOf(segmenter: Intl.Segmenter, text: string): Generator<Intl.SegmentData> {
  let start = 0;
  let size = WINDOW_CHARS;
  while (start < text.length) {
    const window = text.slice(start, start + size);
    const last = start + size >= text.length;
    const segments = [...segmenter.segment(window)];
    const kept = last ? segments : segments.filter((s) => s.index + s.segment.length <= window.length - MARGIN_CHARS);
    if (kept.length === 0) {
      size *= 2; // a segment longer than the window (a word of a thousand letters): read a wider one
      continue;
    }
    for (const segment of kept) yield { ...segment, index: start + segment.index, input: text };
    if (last) return;
    start += segments[kept.length].index;
    size = WINDOW_CHARS;
  }
}
