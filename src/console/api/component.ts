// The component the user is working in (spec 7: "requests carry three headers with the current
// component id, name and action"). The server records them for the audit log only.
export interface ComponentContext { id: number | null; name: string | null; action: string }

let current: ComponentContext = { id: null, name: null, action: 'view' };

export const getComponent = (): ComponentContext => current;

export function setComponent(next: Partial<ComponentContext>): void {
  current = { ...current, ...next };
}

/** "After each successful response the current action resets to view" (spec 4). */
export function resetAction(): void {
  current = { ...current, action: 'view' };
}
