/** Character accuracy: 1 - CER, where CER is the Levenshtein distance over code points divided by the reference length. */
export function characterAccuracy(reference: string, recognised: string): number {
  const normalise = (text: string) => [...text.normalize("NFC").replace(/\s+/g, " ").trim()];
  const a = normalise(reference);
  const b = normalise(recognised);
  if (a.length === 0) return b.length === 0 ? 1 : 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length] / a.length;
}

/** For scripts written without spaces between words (Chinese, Japanese) spacing is not part of the text. */
export function withoutSpaces(text: string): string {
  return text.replace(/\s+/g, "");
}
