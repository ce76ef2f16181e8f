// Undo and redo for the editor: every change that means something (a step added, a connection, a
// setting, a drag that ended) is one entry; a drag in progress replaces the present without one.
export interface History<T> { past: T[]; present: T; future: T[] }

const LIMIT = 100;

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [] });

export const record = <T>(h: History<T>, next: T): History<T> =>
  next === h.present ? h : { past: [...h.past, h.present].slice(-LIMIT), present: next, future: [] };

/** The present changes without an entry (a node being dragged). */
export const replace = <T>(h: History<T>, next: T): History<T> => ({ ...h, present: next });

export const undo = <T>(h: History<T>): History<T> =>
  h.past.length ? { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] } : h;

export const redo = <T>(h: History<T>): History<T> =>
  h.future.length ? { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) } : h;
