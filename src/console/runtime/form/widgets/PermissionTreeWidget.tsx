// The permission tree of a role (`x-widget: permissionTree`, or any `permissions` list of
// `{ id, actions }` grants): every component of config/menu.yaml (src/generated/menu.gen.ts), nested
// as the menu nests them, with a checkbox per action its node declares. A node's own checkbox ticks
// or clears its actions and those of everything below it (mixed when only some are ticked).
// Components switched off by config/app.yaml `disabledPages` are left out (the server drops them
// from every grant). Actions the signed-in user does not hold are shown but locked: nobody hands out
// what they do not have (the server's no-escalation rule answers 99982). The value stays the API's
// shape: grants sorted by component id, actions in the node's order, no empty grants.
import { useEffect, useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { can, type Grant } from '../../../../core/permissions.ts';
import { appSettings } from '../../../../generated/app.gen.ts';
import { menuNodes } from '../../../../generated/menu.gen.ts';
import { useSession } from '../../../api/session.ts';

/** One component of the tree: its id, label key, the actions it declares and the components below. */
export interface TreeNode { id: number; label: string; actions: readonly string[]; children: TreeNode[] }

/**
 * The component tree of the menu: nodes with their own id (and the subtabs), each under its nearest
 * ancestor that has one. Nodes without an id share their parent's component and add nothing here.
 */
export function componentTree(nodes: readonly (typeof menuNodes)[number][] = menuNodes, disabled: readonly number[] = appSettings.disabledPages): TreeNode[] {
  const byKey = new Map(nodes.map((n) => [n.key as string, n]));
  const made = new Map<string, TreeNode>();
  const roots: TreeNode[] = [];
  const off = (key: string | null): boolean => {
    for (let n = key ? byKey.get(key) : undefined; n; n = n.parentKey ? byKey.get(n.parentKey) : undefined) {
      if (n.id !== null && (disabled as readonly number[]).includes(n.id)) return true;
    }
    return false;
  };
  for (const n of nodes) {
    if (n.id === null || off(n.key)) continue;
    const node: TreeNode = {
      id: n.id,
      label: n.label,
      actions: n.actions,
      children: n.subtabs.filter((s) => !(disabled as readonly number[]).includes(s.id)).map((s) => ({ id: s.id, label: s.label, actions: s.actions, children: [] })),
    };
    made.set(n.key, node);
    let parent: string | null = n.parentKey;
    while (parent && !made.has(parent)) parent = byKey.get(parent)?.parentKey ?? null;
    (parent ? made.get(parent)!.children : roots).push(node);
  }
  return roots;
}

/** Every (component, action) pair of a node and the nodes below it. */
export function pairsOf(node: TreeNode): [number, string][] {
  return [...node.actions.map((a): [number, string] => [node.id, a]), ...node.children.flatMap(pairsOf)];
}

const keyOf = (id: number, action: string) => `${id}:${action}`;

/** The grants as a set of "id:action". */
export function grantedSet(value: unknown): Set<string> {
  const out = new Set<string>();
  if (!Array.isArray(value)) return out;
  for (const g of value as Partial<Grant>[]) {
    if (typeof g?.id !== 'number' || !Array.isArray(g.actions)) continue;
    for (const a of g.actions) out.add(keyOf(g.id, a));
  }
  return out;
}

/** The API value of a set of "id:action": grants by component id, actions in the node's order, no empty grants. */
export function toGrants(tree: readonly TreeNode[], set: ReadonlySet<string>): Grant[] {
  const out: Grant[] = [];
  const walk = (n: TreeNode) => {
    const actions = n.actions.filter((a) => set.has(keyOf(n.id, a)));
    if (actions.length) out.push({ id: n.id, actions });
    n.children.forEach(walk);
  };
  tree.forEach(walk);
  return out.sort((a, b) => a.id - b.id);
}

/** Ticks (or clears) every pair of a node's subtree the user may change. */
export function toggleSubtree(node: TreeNode, set: ReadonlySet<string>, on: boolean, locked: (id: number, action: string) => boolean): Set<string> {
  const next = new Set(set);
  for (const [id, a] of pairsOf(node)) {
    if (locked(id, a)) continue;
    if (on) next.add(keyOf(id, a));
    else next.delete(keyOf(id, a));
  }
  return next;
}

/** The groups to open so that every granted action shows: those with a grant somewhere below. */
export function groupsHolding(tree: readonly TreeNode[], set: ReadonlySet<string>): Set<number> {
  const open = new Set<number>();
  const walk = (n: TreeNode): boolean => {
    const below = n.children.map(walk).some(Boolean);
    if (below) open.add(n.id);
    return below || n.actions.some((a) => set.has(keyOf(n.id, a)));
  };
  tree.forEach(walk);
  return open;
}

interface RowProps {
  node: TreeNode;
  depth: number;
  set: ReadonlySet<string>;
  expanded: ReadonlySet<number>;
  onExpand: (id: number) => void;
  onChange: (next: Set<string>) => void;
  locked: (id: number, action: string) => boolean;
  disabled: boolean;
}

function Row({ node, depth, set, expanded, onExpand, onChange, locked, disabled }: RowProps) {
  const { t } = useTranslation();
  const label = t(node.label);
  const pairs = pairsOf(node);
  const granted = pairs.filter(([id, a]) => set.has(keyOf(id, a))).length;
  const changeable = pairs.filter(([id, a]) => !locked(id, a));
  const open = expanded.has(node.id);
  const groupId = `permission-node-${node.id}`;
  return (
    <Box component="li" sx={{ listStyle: 'none' }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(220px, 2fr) 3fr' }, alignItems: 'center', columnGap: 1, py: 0.25, borderBottom: 1, borderColor: 'divider' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 2.5, minWidth: 0 }}>
          <Box sx={{ width: 32, flexShrink: 0 }}>
            {node.children.length > 0 && (
              <IconButton size="small" aria-expanded={open} aria-controls={groupId} aria-label={t(open ? 'common.permissionTree.collapse' : 'common.permissionTree.expand', { name: label })} onClick={() => onExpand(node.id)}>
                {open ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
              </IconButton>
            )}
          </Box>
          <FormControlLabel
            sx={{ mr: 1, minWidth: 0 }}
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                <Typography component="span" variant="body2" sx={{ fontWeight: depth === 0 ? 700 : 500 }}>
                  {label}
                </Typography>
                <Chip size="small" variant="outlined" label={`${granted}/${pairs.length}`} aria-hidden />
              </Box>
            }
            control={
              <Checkbox
                size="small"
                checked={granted > 0 && granted === pairs.length}
                indeterminate={granted > 0 && granted < pairs.length}
                disabled={disabled || changeable.length === 0}
                slotProps={{ input: { 'aria-label': t('common.permissionTree.all', { name: label }) } }}
                onChange={(e) => onChange(toggleSubtree(node, set, e.target.checked, locked))}
              />
            }
          />
        </Box>
        <Box role="group" aria-label={label} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 0.5, pl: { xs: depth * 2.5 + 4, sm: 0 } }}>
          {node.actions.map((a) => {
            const action = t(`enums.action.${a}`);
            const isLocked = locked(node.id, a);
            return (
              <FormControlLabel
                key={a}
                title={isLocked ? t('common.permissionTree.locked') : undefined}
                label={<Typography variant="body2">{action}</Typography>}
                control={
                  <Checkbox
                    size="small"
                    checked={set.has(keyOf(node.id, a))}
                    disabled={disabled || isLocked}
                    slotProps={{ input: { 'aria-label': `${label}: ${action}` } }}
                    onChange={(e) => {
                      const next = new Set(set);
                      if (e.target.checked) next.add(keyOf(node.id, a));
                      else next.delete(keyOf(node.id, a));
                      onChange(next);
                    }}
                  />
                }
              />
            );
          })}
        </Box>
      </Box>
      {node.children.length > 0 && open && (
        <Box component="ul" id={groupId} sx={{ p: 0, m: 0 }}>
          {node.children.map((c) => (
            <Row key={c.id} node={c} depth={depth + 1} set={set} expanded={expanded} onExpand={onExpand} onChange={onChange} locked={locked} disabled={disabled} />
          ))}
        </Box>
      )}
    </Box>
  );
}

export default function PermissionTreeWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const session = useSession();
  const { id, value, onChange, disabled, readonly, required, label, rawErrors = [] } = props;
  const tree = useMemo(() => componentTree(), []);
  const set = useMemo(() => grantedSet(value), [value]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => groupsHolding(tree, set));
  // A role loaded after the first render (or handed in) opens its groups once, like one given at first.
  const own = useRef<unknown>(value);
  const opened = useRef(set.size > 0);
  useEffect(() => {
    if (opened.current || set.size === 0 || JSON.stringify(value) === JSON.stringify(own.current)) return;
    opened.current = true;
    setExpanded((prev) => new Set([...prev, ...groupsHolding(tree, set)]));
  }, [value, set, tree]);
  const locked = useMemo(() => {
    const grants = session?.permissions.menu;
    return (component: number, action: string) => !!grants && !can(grants, component, action).can;
  }, [session]);
  const onExpand = (node: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(node)) next.delete(node);
      else next.add(node);
      return next;
    });
  const change = (next: Set<string>) => {
    own.current = toGrants(tree, next);
    onChange(own.current);
  };
  return (
    <FormControl component="fieldset" fullWidth error={rawErrors.length > 0} required={required} id={id}>
      <FormLabel component="legend" sx={{ mb: 1 }}>
        {label}
      </FormLabel>
      <Box component="ul" sx={{ p: 0, m: 0, borderTop: 1, borderColor: 'divider' }} aria-label={label}>
        {tree.map((n) => (
          <Row key={n.id} node={n} depth={0} set={set} expanded={expanded} onExpand={onExpand} onChange={change} locked={locked} disabled={!!(disabled || readonly)} />
        ))}
      </Box>
      <FormHelperText>{t('common.permissionTree.help')}</FormHelperText>
    </FormControl>
  );
}
