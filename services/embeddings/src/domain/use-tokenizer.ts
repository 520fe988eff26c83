/**
 * The Universal Sentence Encoder lite tokenizer: a SentencePiece unigram model decoded with Viterbi over a trie of
 * the vocabulary. Ported from TensorFlow.js models (tfjs-models/universal-sentence-encoder, Apache-2.0) because the
 * packages that ship it pin another TensorFlow.js version; this port walks the text without copying it per position,
 * so a long text costs linear time.
 */

/** One vocabulary entry: the piece and its log probability. */
export type Piece = [piece: string, score: number];

const WORD_START = "\u2581";
/** The first entries of the vocabulary are control symbols (<unk>, <s>, ...) that never match text. */
const RESERVED_SYMBOLS = 6;
const UNKNOWN_ID = 0;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Set when a vocabulary piece ends here. */
  piece?: { id: number; score: number; length: number };
}

const newNode = (): TrieNode => ({ children: new Map() });

export class UseTokenizer {
  private readonly root = newNode();
  private readonly lengths: number[];

  constructor(vocabulary: readonly Piece[]) {
    this.lengths = vocabulary.map(([piece]) => [...piece].length);
    for (let id = RESERVED_SYMBOLS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id];
      let node = this.root;
      for (const symbol of piece) {
        let child = node.children.get(symbol);
        if (!child) node.children.set(symbol, (child = newNode()));
        node = child;
      }
      node.piece = { id, score, length: this.lengths[id] };
    }
  }

  /** Token ids of a text, as the model was trained on them. */
  encode(text: string): number[] {
    const symbols = [...prepare(text)];
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const bestId = new Int32Array(n + 1);
    const bestLength = new Int32Array(n + 1);
    // Candidates ending at each position, grouped by where they start, in the order the reference visits them.
    const ending: { start: number; id: number; score: number; length: number }[][] = Array.from({ length: n + 1 }, () => []);
    for (let start = 0; start < n; start++) {
      const found = this.prefixes(symbols, start);
      for (const piece of found) ending[start + piece.length].push({ start, ...piece });
    }
    for (let end = 0; end <= n; end++) {
      const candidates = ending[end].sort((a, b) => a.start - b.start);
      for (const candidate of candidates) {
        const score = candidate.score + best[end - candidate.length];
        if (best[end] === 0 || score >= best[end]) {
          best[end] = score;
          bestId[end] = candidate.id;
          bestLength[end] = candidate.length;
        }
      }
    }
    const reversed: number[] = [];
    for (let end = n; end > 0; end -= bestId[end] === UNKNOWN_ID ? 1 : this.lengths[bestId[end]]) reversed.push(bestId[end]);
    const ids: number[] = [];
    for (let i = reversed.length - 1, previousUnknown = false; i >= 0; i--) {
      const id = reversed[i];
      if (!(previousUnknown && id === UNKNOWN_ID)) ids.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    return ids;
  }

  /** Every vocabulary piece that starts at `start`, or the unknown piece covering one symbol. */
  private prefixes(symbols: string[], start: number): { id: number; score: number; length: number }[] {
    const found: { id: number; score: number; length: number }[] = [];
    let node = this.root.children.get(symbols[start]);
    for (let i = start; i < symbols.length && node; i++) {
      if (node.piece) found.push(node.piece);
      node = node.children.get(symbols[i + 1]);
    }
    if (found.length === 0) found.push({ id: UNKNOWN_ID, score: 0, length: 1 });
    return found;
  }
}

function prepare(text: string): string {
  const normalized = text.normalize("NFKC");
  return normalized.length > 0 ? WORD_START + normalized.replace(/ /g, WORD_START) : normalized;
}
