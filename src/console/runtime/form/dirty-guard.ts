// Leaving a form with unsaved changes asks first: a route change is held by the router's blocker
// until the user confirms, and closing or reloading the tab gets the browser's own question.
// `allowLeave()` lets a successful save navigate away without asking.
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from '../navigation.tsx';

export interface DirtyGuard {
  /** The router is holding a navigation: ask the user. */
  asking: boolean;
  stay(): void;
  leave(): void;
  /** The next navigation (after a save) goes through. */
  allowLeave(): void;
}

export function useDirtyGuard(dirty: boolean): DirtyGuard {
  const released = useRef(false);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  if (!dirty) released.current = false;
  const blocker = useBlocker(
    useCallback(({ currentLocation, nextLocation }) => dirtyRef.current && !released.current && currentLocation.pathname !== nextLocation.pathname, []),
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      if (released.current) return;
      e.preventDefault();
      // Older browsers need returnValue set to show their question.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
  return {
    asking: blocker.state === 'blocked',
    stay: () => blocker.state === 'blocked' && blocker.reset(),
    leave: () => blocker.state === 'blocked' && blocker.proceed(),
    allowLeave: () => {
      released.current = true;
    },
  };
}
