/** A quarter turn, clockwise, in degrees. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** What orientation detection (Tesseract's OSD) says of a page. */
export interface OrientationGuess {
  /** Clockwise turn that makes the page upright. */
  turn: QuarterTurn;
  /** Tesseract's orientation confidence: the best orientation's score minus the runner-up's (0 and up). */
  confidence: number;
  /** The script OSD saw (Latin, Han, Arabic...), or null. */
  script: string | null;
}
