// A user's grants are the union over their roles: a component appears once with every action
// any of the roles grants on it.
import type { Grant } from '../../core/permissions.ts';

export function unionGrants(lists: readonly (readonly Grant[])[]): Grant[] {
  const merged = new Map<number, Set<string>>();
  for (const list of lists) {
    for (const grant of list) {
      const actions = merged.get(grant.id) ?? new Set<string>();
      grant.actions.forEach((a) => actions.add(a));
      merged.set(grant.id, actions);
    }
  }
  return [...merged].sort(([a], [b]) => a - b).map(([id, actions]) => ({ id, actions: [...actions] }));
}
