/**
 * How deep a fetched page's elements may nest (counting from <html>) for a reader such as Readability to read it.
 * Readability's work grows faster than the square of the depth: 256 nested elements take about 170 ms, 1,000 (6 KB
 * of HTML) 4.4 s, and 1,000 unclosed `<div><p><b>` overflow the call stack. Real pages nest a few dozen deep.
 */
export const MAX_ELEMENT_DEPTH = 256;

/** An element of a parsed document, as much of it as the walk needs (linkedom's and the browser's alike). */
interface ElementLike {
  firstElementChild: ElementLike | null;
  nextElementSibling: ElementLike | null;
}

/** True when some element under `root` (itself at depth 1) is deeper than `limit`; a walk with its own stack. */
export function nestsDeeperThan(root: ElementLike, limit = MAX_ELEMENT_DEPTH): boolean {
  const pending: [ElementLike, number][] = [[root, 1]];
  while (pending.length > 0) {
    const [element, depth] = pending.pop()!;
    if (depth > limit) return true;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) pending.push([child, depth + 1]);
  }
  return false;
}
