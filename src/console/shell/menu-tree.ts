// The side menu's tree: the nodes the user may see (src/core/permissions.ts visibleMenu), minus
// hidden ones, nested by parentKey. A node whose parent is not visible hangs from its nearest
// visible ancestor. A group opens and closes, so a group with a screen of its own that none of its
// children shows (the API credentials under "API permissions") gets its own entry first: every
// screen of the menu has an entry to click.
import { menuNodes } from '../../generated/menu.gen.ts';
import type { SessionUser } from '../../generated/types.gen.ts';
import { visibleNodes, type MenuNode } from './home.ts';

export interface MenuTreeNode {
  node: MenuNode;
  children: MenuTreeNode[];
  /** The group's own entry: selected on its path but not on its siblings' paths. */
  own?: { siblings: string[] };
}

const byKey = new Map<string, MenuNode>(menuNodes.map((n) => [n.key, n]));

export function menuTree(user: SessionUser): MenuTreeNode[] {
  const shown = visibleNodes(user).filter((n) => !n.hidden);
  const shownKeys = new Set<string>(shown.map((n) => n.key));
  const items = new Map<string, MenuTreeNode>(shown.map((n) => [n.key, { node: n, children: [] }]));
  const roots: MenuTreeNode[] = [];
  for (const n of shown) {
    let parent: string | null = n.parentKey;
    while (parent && !shownKeys.has(parent)) parent = byKey.get(parent)?.parentKey ?? null;
    if (parent) items.get(parent)!.children.push(items.get(n.key)!);
    else roots.push(items.get(n.key)!);
  }
  for (const item of items.values()) {
    const { node, children } = item;
    if (!children.length || !node.screen || children.some((c) => c.node.screen === node.screen)) continue;
    children.unshift({ node, children: [], own: { siblings: children.map((c) => c.node.path) } });
  }
  return roots;
}

export function flattenTree(tree: MenuTreeNode[]): MenuNode[] {
  return tree.flatMap((t) => [t.node, ...flattenTree(t.children)]);
}
