import { makeBox, toUnitConfidence, type Box, type PageSize } from "./geometry.js";
import type { TableWord } from "./table-types.js";

/** The parts of Tesseract's result tree this service reads. */
export interface EngineBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface EngineWord {
  text: string;
  confidence: number;
  bbox: EngineBbox;
}
interface EngineLine {
  text: string;
  confidence: number;
  bbox: EngineBbox;
  words: EngineWord[];
}
interface EngineParagraph {
  lines: EngineLine[];
}
interface EngineBlock {
  text: string;
  confidence: number;
  bbox: EngineBbox;
  paragraphs: EngineParagraph[];
}
export interface EnginePage {
  text: string;
  confidence: number;
  blocks: EngineBlock[] | null;
}

interface WordOut {
  text: string;
  confidence: number;
  box: Box;
}
interface LineOut {
  text: string;
  confidence: number;
  box: Box;
  words: WordOut[];
}
export interface BlockOut {
  text: string;
  confidence: number;
  box: Box;
  lines: LineOut[];
}

const boxOf = (bbox: EngineBbox, page: PageSize) => makeBox(bbox.x0, bbox.y0, bbox.x1, bbox.y1, page);

/** Han, kana, CJK punctuation and full-width forms: scripts written without spaces between words. */
const UNSPACED = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef\\u30fc";
const SPACE_BETWEEN_UNSPACED = new RegExp(`(?<=[${UNSPACED}]) +(?=[${UNSPACED}])`, "gu");

/**
 * Tesseract ends every line with "\n", every block with a blank line, and puts a space between every Chinese or
 * Japanese "word" it segments; keep the line breaks, drop trailing spaces and the spaces inside CJK runs.
 */
export function cleanText(text: string): string {
  return text
    .replace(SPACE_BETWEEN_UNSPACED, "")
    .replace(/(?<![ \t])[ \t]+\n/g, "\n")
    .trimEnd();
}

export function toBlocks(page: EnginePage, size: PageSize): BlockOut[] {
  return (page.blocks ?? [])
    .map((block) => ({
      text: cleanText(block.text),
      confidence: toUnitConfidence(block.confidence),
      box: boxOf(block.bbox, size),
      lines: block.paragraphs
        .flatMap((paragraph) => paragraph.lines)
        .map((line) => ({
          text: cleanText(line.text),
          confidence: toUnitConfidence(line.confidence),
          box: boxOf(line.bbox, size),
          words: line.words
            .filter((word) => word.text.trim() !== "")
            .map((word) => ({ text: word.text, confidence: toUnitConfidence(word.confidence), box: boxOf(word.bbox, size) })),
        })),
    }))
    .filter((block) => block.text !== "");
}

export function wordsInReadingOrder(page: EnginePage): TableWord[] {
  return (page.blocks ?? [])
    .flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)))
    .filter((word) => word.text.trim() !== "")
    .map((word) => ({
      text: word.text,
      confidence: toUnitConfidence(word.confidence),
      left: word.bbox.x0,
      top: word.bbox.y0,
      right: word.bbox.x1,
      bottom: word.bbox.y1,
    }));
}
