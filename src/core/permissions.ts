// Access is one answer to can(component, action) with a reason (Refine's accessControl shape).
// The server decides every request with it; the console uses the same answer to draw the menu.
import { menuNodes } from '../generated/menu.gen.ts';

export interface Grant { id: number; actions: readonly string[] }
export interface CanAnswer { can: boolean; reason?: 'noComponent' | 'noAction' }

export function can(grants: readonly Grant[], component: number, action: string): CanAnswer {
  const grant = grants.find((g) => g.id === component);
  if (!grant) return { can: false, reason: 'noComponent' };
  if (!grant.actions.includes(action)) return { can: false, reason: 'noAction' };
  return { can: true };
}

type Node = (typeof menuNodes)[number];
export interface Viewer { roles: readonly string[]; planType?: string | null; productKey: string }

/** Flags are satisfied by a role of the same name; productSms is the "{product}Sms" role. */
function hasFlag(viewer: Viewer, flag: string) {
  const role = flag === 'productSms' ? `${viewer.productKey}Sms` : flag;
  return viewer.roles.includes(role);
}

/** The node's own rule: roles (any of), flags (all of), plan exclusions. Ancestors are checked by the callers. */
export function nodeAllows(node: Pick<Node, 'roles' | 'flags' | 'planExclude'>, viewer: Viewer): boolean {
  if (node.roles && !node.roles.some((r) => viewer.roles.includes(r))) return false;
  if (!node.flags.every((f) => hasFlag(viewer, f))) return false;
  if (viewer.planType && (node.planExclude as readonly string[]).includes(viewer.planType)) return false;
  return true;
}

const byKey = new Map<string, Node>(menuNodes.map((n) => [n.key, n]));

export function chainAllows(node: Node, viewer: Viewer): boolean {
  for (let n: Node | undefined = node; n; n = n.parentKey ? byKey.get(n.parentKey) : undefined) {
    if (!nodeAllows(n, viewer)) return false;
  }
  return true;
}

/**
 * The default grants of a system role, derived from config/menu.yaml: a role gets every component
 * whose node chain admits it, with the node's declared actions. superadmin gets every node whose
 * chain admits it by roles (it holds no flags unless given them).
 */
export function defaultGrants(roles: readonly string[], productKey: string, disabledPages: readonly number[] = []): Grant[] {
  const viewer: Viewer = { roles, productKey };
  const grants = new Map<number, Set<string>>();
  for (const node of menuNodes) {
    if (node.id === null || disabledPages.includes(node.id) || !chainAllows(node, viewer)) continue;
    const ids = [node.id, ...node.subtabs.map((s) => s.id)];
    for (const id of ids) {
      const set = grants.get(id) ?? new Set<string>();
      const actions = id === node.id ? node.actions : node.subtabs.find((s) => s.id === id)!.actions;
      actions.forEach((a) => set.add(a));
      grants.set(id, set);
    }
  }
  return [...grants].sort(([a], [b]) => a - b).map(([id, actions]) => ({ id, actions: [...actions] }));
}

/**
 * The menu a user sees: nodes whose component the grants contain (nodes without an id follow
 * their parent's component) and whose chain of roles/flags/plan admits the viewer.
 */
export function visibleMenu(grants: readonly Grant[], viewer: Viewer, disabledPages: readonly number[] = []): Node[] {
  return menuNodes.filter((n) => {
    if (n.componentId !== null && (disabledPages.includes(n.componentId) || !grants.some((g) => g.id === n.componentId))) return false;
    return chainAllows(n, viewer);
  });
}

export function menuNodeByPath(path: string): Node | undefined {
  return menuNodes.find((n) => n.path === path);
}
