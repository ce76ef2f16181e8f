// A user's grants are the union over their roles: a component appears once with every action
// any of the roles grants on it. Component ids listed in config/app.yaml disabledPages are
// dropped here, with every component below them in the menu tree (a disabled page takes its
// sub-pages and subtabs along), so a disabled page is refused by the server and missing from the
// session's menu whatever a role's stored tree says.
import type { Grant } from '../../core/permissions.ts';
import { appSettings } from '../../generated/app.gen.ts';
import { menuNodes } from '../../generated/menu.gen.ts';

/** The listed component ids and every component id beneath them in config/menu.yaml. */
export function disabledComponentIds(listed: readonly number[]): Set<number> {
  const out = new Set<number>();
  if (listed.length === 0) return out;
  const byKey = new Map(menuNodes.map((n) => [n.key as string, n]));
  for (const node of menuNodes) {
    let disabled = false;
    for (let n: (typeof menuNodes)[number] | undefined = node; n && !disabled; n = n.parentKey ? byKey.get(n.parentKey) : undefined) {
      disabled = n.id !== null && listed.includes(n.id);
    }
    if (!disabled) continue;
    if (node.id !== null) out.add(node.id);
    for (const s of node.subtabs) out.add(s.id);
  }
  for (const id of listed) out.add(id);
  return out;
}

const configured = disabledComponentIds(appSettings.disabledPages as readonly number[]);

export function unionGrants(lists: readonly (readonly Grant[])[], disabled: ReadonlySet<number> = configured): Grant[] {
  const merged = new Map<number, Set<string>>();
  for (const list of lists) {
    for (const grant of list) {
      if (disabled.has(grant.id)) continue;
      const actions = merged.get(grant.id) ?? new Set<string>();
      grant.actions.forEach((a) => actions.add(a));
      merged.set(grant.id, actions);
    }
  }
  return [...merged].sort(([a], [b]) => a - b).map(([id, actions]) => ({ id, actions: [...actions] }));
}
