const VOCABULARY = [
  "market",
  "river",
  "council",
  "energy",
  "harbor",
  "season",
  "railway",
  "teacher",
  "village",
  "budget",
  "storm",
  "factory",
  "museum",
  "orchard",
  "bridge",
  "festival",
  "doctor",
  "library",
  "garden",
  "election",
];

/**
 * About `words` words (50,000 unless told) in paragraphs of eight ordinary sentences, the same text for the same
 * seed: a heavy load for the summarizer, whose CPU grows with sentences and words.
 */
export function longText(seed: number, words = 50_000): string {
  const paragraphs: string[] = [];
  let n = seed;
  for (let count = 0; count < words; ) {
    const sentences: string[] = [];
    // Each sentence is "The" and fourteen words.
    for (let s = 0; s < 8 && count < words; s++, count += 15) {
      const sentence = Array.from({ length: 14 }, () => VOCABULARY[(n = (n * 1103515245 + 12345) % 2147483648) % VOCABULARY.length]);
      sentences.push(`The ${sentence.join(" ")}.`);
    }
    paragraphs.push(sentences.join(" "));
  }
  return paragraphs.join("\n\n");
}
