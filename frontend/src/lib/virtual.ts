// Windowing for long lists of fixed-height rows: which rows to render for
// a scroll position, so that a context of thousands of blocks stays as
// cheap to draw as one screenful.

export interface Window {
  start: number; // first row rendered
  end: number; // one past the last
  offset: number; // pixels above the first row rendered
  total: number; // pixels of the whole list
}

// visibleRows returns the rows to render for a viewport of height pixels
// scrolled to scrollTop, with overscan rows either side.
export function visibleRows(count: number, rowHeight: number, scrollTop: number, height: number, overscan = 6): Window {
  const total = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offset: 0, total };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const start = Math.max(0, Math.min(count - 1, first) - overscan);
  const end = Math.min(count, Math.ceil((Math.max(0, scrollTop) + height) / rowHeight) + overscan);
  return { start, end: Math.max(end, start), offset: start * rowHeight, total };
}

// scrollToRow returns the scroll position that shows row i, keeping the
// current position when the row is already in view.
export function scrollToRow(i: number, rowHeight: number, scrollTop: number, height: number): number {
  const top = i * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + height) return Math.max(0, top + rowHeight - height);
  return scrollTop;
}
