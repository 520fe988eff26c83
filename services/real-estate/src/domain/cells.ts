/** Items filed by place in cells of 0.01 degree, so that those inside a box are found without looking at the rest. */
import type { Box } from "./geo.js";

const CELL_DEGREES = 0.01;
/** More cells per degree of longitude than a row holds, so that (row, column) keys never collide. */
const KEY_STRIDE = 100_000;
const cellOf = (degrees: number) => Math.floor(degrees / CELL_DEGREES);
const keyOf = (row: number, column: number) => row * KEY_STRIDE + column;

export class CellGrid<T> {
  private readonly cells = new Map<number, T[]>();

  add(latitude: number, longitude: number, item: T): void {
    const key = keyOf(cellOf(latitude), cellOf(longitude));
    const cell = this.cells.get(key);
    if (cell) cell.push(item);
    else this.cells.set(key, [item]);
  }

  /** Calls `visit` with every item of the cells the box touches (a superset of those inside it). */
  forEachNear(box: Box, visit: (item: T) => void): void {
    for (const cell of this.cellsNear(box)) for (const item of cell) visit(item);
  }

  /** The cells the box touches that hold anything, as they are (not to be modified). */
  cellsNear(box: Box): readonly (readonly T[])[] {
    const [firstRow, lastRow, firstColumn, lastColumn] = [cellOf(box.minLat), cellOf(box.maxLat), cellOf(box.minLon), cellOf(box.maxLon)];
    const near: T[][] = [];
    // A box of more cells than hold anything: read the filled ones rather than every empty cell of it.
    if ((lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) > this.cells.size) {
      for (const [key, cell] of this.cells) {
        const row = Math.round(key / KEY_STRIDE);
        const column = key - row * KEY_STRIDE;
        if (row >= firstRow && row <= lastRow && column >= firstColumn && column <= lastColumn) near.push(cell);
      }
      return near;
    }
    for (let row = firstRow; row <= lastRow; row++) {
      for (let column = firstColumn; column <= lastColumn; column++) {
        const cell = this.cells.get(keyOf(row, column));
        if (cell) near.push(cell);
      }
    }
    return near;
  }
}
