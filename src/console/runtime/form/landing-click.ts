// A press on Save blurs the field being edited; its message may then disappear (or appear) above
// the button, which moves before the press is released, and the browser drops the click: the user
// pressed Save and nothing happened. This makes that click land: when the button moved between
// press and release and the release is where the button was (and no longer over it), it is
// clicked. A release elsewhere (the user dragged away to cancel) does nothing.
import { useCallback, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';

export interface Box { top: number; left: number; bottom: number; right: number }

const inside = (b: Box, x: number, y: number) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;

/** True when the press was lost to a layout shift: the button moved away from under the pointer. */
export function lostToShift(before: Box, after: Box, x: number, y: number): boolean {
  const moved = before.top !== after.top || before.left !== after.left;
  return moved && inside(before, x, y) && !inside(after, x, y);
}

/** The button's onPointerDown: clicks it on release if a layout shift took it away from the pointer. */
export function useLandingClick(button: RefObject<HTMLElement | null>) {
  return useCallback(
    (e: ReactPointerEvent) => {
      if (e.button !== 0 || !button.current) return;
      const before = button.current.getBoundingClientRect();
      const up = (ev: PointerEvent) => {
        document.removeEventListener('pointerup', up, true);
        const el = button.current;
        if (el && !(el as HTMLButtonElement).disabled && lostToShift(before, el.getBoundingClientRect(), ev.clientX, ev.clientY)) el.click();
      };
      document.addEventListener('pointerup', up, true);
    },
    [button],
  );
}
