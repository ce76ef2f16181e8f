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
/** Actions that change data; a node's manageRoles keep them to those roles by default. */
export const MUTATING_ACTIONS: readonly string[] = ['create', 'edit', 'delete', 'deploy'];

export function defaultGrants(roles: readonly string[], productKey: string, disabledPages: readonly number[] = []): Grant[] {
  const viewer: Viewer = { roles, productKey };
  const grants = new Map<number, Set<string>>();
  for (const node of menuNodes) {
    if (node.id === null || disabledPages.includes(node.id) || !chainAllows(node, viewer)) continue;
    const manages = node.manageRoles === null || node.manageRoles.some((r) => roles.includes(r));
    const ids = [node.id, ...node.subtabs.map((s) => s.id)];
    for (const id of ids) {
      const set = grants.get(id) ?? new Set<string>();
      const actions = id === node.id ? node.actions : node.subtabs.find((s) => s.id === id)!.actions;
      actions.filter((a) => manages || !MUTATING_ACTIONS.includes(a)).forEach((a) => set.add(a));
      grants.set(id, set);
    }
  }
  return [...grants].sort(([a], [b]) => a - b).map(([id, actions]) => ({ id, actions: [...actions] }));
}

/** Plan exclusions along the chain (a subscription company never sees payment history). */
function planAllows(node: Node, viewer: Viewer): boolean {
  for (let n: Node | undefined = node; n; n = n.parentKey ? byKey.get(n.parentKey) : undefined) {
    if (viewer.planType && (n.planExclude as readonly string[]).includes(viewer.planType)) return false;
  }
  return true;
}

/**
 * The menu a user sees. A node with its own component id shows when the user's grants contain it
 * (the grants already carry the role rules for system roles, and are the whole truth for a
 * company's own roles). A node without an id follows its parent's component and its own chain of
 * roles and flags (e.g. channels: superadmin, manager, admin, analista). Plan exclusions apply to both.
 */
export function visibleMenu(grants: readonly Grant[], viewer: Viewer, disabledPages: readonly number[] = []): Node[] {
  return menuNodes.filter((n) => {
    if (n.componentId !== null && (disabledPages.includes(n.componentId) || !grants.some((g) => g.id === n.componentId))) return false;
    if (!planAllows(n, viewer)) return false;
    return n.id !== null || chainAllows(n, viewer);
  });
}

/** The node rule an operation may add to its component permission (permission.node). */
export function nodeKeyAllows(nodeKey: string, viewer: Viewer): boolean {
  const node = byKey.get(nodeKey);
  return node !== undefined && chainAllows(node, viewer);
}

export function menuNodeByPath(path: string): Node | undefined {
  return menuNodes.find((n) => n.path === path);
}

/**
 * Where a menu entry leads, among the entries the user sees: itself when it has a screen, else
 * (a group such as Campaigns) its first visible child, in menu order, that leads somewhere;
 * null when nothing under it works yet. No one lands on a "not available yet" page.
 */
export function workingPathOf(node: Node, visible: readonly Node[]): string | null {
  if (node.screen) return node.path;
  for (const child of visible) {
    if (child.parentKey !== node.key || child.hidden) continue;
    const path = workingPathOf(child, visible);
    if (path) return path;
  }
  return null;
}

/** The first top-level entry the user sees, in menu order, that leads to a working page. */
export function firstWorkingPath(visible: readonly Node[]): string | null {
  for (const node of visible) {
    if (node.parentKey !== null || node.hidden) continue;
    const path = workingPathOf(node, visible);
    if (path) return path;
  }
  return null;
}
