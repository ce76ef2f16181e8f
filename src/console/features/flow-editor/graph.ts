// A flow as the canvas draws it and back: steps are nodes (their outputs the source handles, named
// by output), connections are edges from an output to a step. The flow definition stays the one
// source; the canvas is derived from it on every change.
import type { Edge, Node } from '@xyflow/react';
import type { FlowProblem } from '../../../core/flows/validate.ts';
import { stepKinds } from '../../../core/flows/steps.ts';
import type { FlowStepType } from '../../../generated/enums.gen.ts';
import type { FlowDefinition, FlowStep } from '../../../generated/types.gen.ts';

/** How often the published version's step was reached and what went wrong there (flows.stats). */
export type StepCounts = { version: number; entered: number; notMatched: number; timedOut: number; integrationFailed: number };
export type StepNodeData = { step: FlowStep; problems: FlowProblem[]; isEntry: boolean; counts?: StepCounts };
export type StepNode = Node<StepNodeData, 'step'>;

export const edgeId = (from: string, output: string) => `${from}\u0000${output}`;

/** `label` names a step for assistive technology: its kind, title and broken rules. */
export function toNodes(flow: FlowDefinition, problems: FlowProblem[], selected: string | null, isEntry: (t: FlowStepType) => boolean, label: (step: FlowStep, problems: FlowProblem[]) => string, counts: ReadonlyMap<string, StepCounts> = new Map()): StepNode[] {
  const laid = flow.steps.some((s) => !s.position) ? layeredPositions(flow) : null;
  return flow.steps.map((step) => ({
    id: step.id,
    type: 'step',
    ariaLabel: label(step, problems.filter((p) => p.stepId === step.id)),
    position: step.position ?? laid!.get(step.id)!,
    selected: step.id === selected,
    data: { step, problems: problems.filter((p) => p.stepId === step.id), isEntry: isEntry(step.type), ...(counts.has(step.id) ? { counts: counts.get(step.id) } : {}) },
  }));
}

/** Room a step takes on the canvas when laid out: columns a step's width apart, rows its height apart. */
export const LAYER = { dx: 300, dy: 200 } as const;

/**
 * Where the steps go when the flow does not say (a flow made by the API or an import): in layers
 * down the canvas as a conversation runs, each step one row below the first step that leads to it,
 * the steps of a row side by side around the middle, so connections run downwards and the flow
 * stays narrow enough to be read at full size. Steps nothing leads to start rows of their own below.
 */
export function layeredPositions(flow: FlowDefinition): Map<string, { x: number; y: number }> {
  const next = new Map<string, string[]>();
  const led = new Set<string>();
  for (const e of flow.edges) {
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    led.add(e.to);
  }
  const depth = new Map<string, number>();
  const visit = (roots: string[], from: number) => {
    let layer = roots.filter((id) => !depth.has(id));
    for (let d = from; layer.length; d++) {
      for (const id of layer) depth.set(id, d);
      layer = [...new Set(layer.flatMap((id) => next.get(id) ?? []))].filter((id) => !depth.has(id));
    }
  };
  const ids = flow.steps.map((s) => s.id);
  visit(ids.slice(0, 1), 0);
  visit(ids.filter((id) => !led.has(id)), 0);
  // What is left is only reached from a loop: below everything else.
  for (const id of ids) if (!depth.has(id)) visit([id], Math.max(0, ...depth.values()) + 1);
  const rows = new Map<number, string[]>();
  for (const id of ids) rows.set(depth.get(id)!, [...(rows.get(depth.get(id)!) ?? []), id]);
  const at = new Map<string, { x: number; y: number }>();
  for (const [d, row] of rows) row.forEach((id, k) => at.set(id, { x: Math.round((k - (row.length - 1) / 2) * LAYER.dx), y: d * LAYER.dy }));
  return at;
}

export function toEdges(flow: FlowDefinition, problems: FlowProblem[]): Edge[] {
  return flow.edges.map((e) => ({
    id: edgeId(e.from, e.output),
    source: e.from,
    sourceHandle: e.output,
    target: e.to,
    animated: false,
    ...(problems.some((p) => p.stepId === e.from && p.output === e.output) ? { className: 'flow-edge-problem' } : {}),
  }));
}

/** One connection per output: a new one from an output replaces the old. */
export function connect(flow: FlowDefinition, from: string, output: string, to: string): FlowDefinition {
  if (from === to) return flow;
  return { ...flow, edges: [...flow.edges.filter((e) => !(e.from === from && e.output === output)), { from, output, to }] };
}

export function removeEdges(flow: FlowDefinition, ids: ReadonlySet<string>): FlowDefinition {
  return { ...flow, edges: flow.edges.filter((e) => !ids.has(edgeId(e.from, e.output))) };
}

export function removeSteps(flow: FlowDefinition, ids: ReadonlySet<string>): FlowDefinition {
  return { steps: flow.steps.filter((s) => !ids.has(s.id)), edges: flow.edges.filter((e) => !ids.has(e.from) && !ids.has(e.to)) };
}

export function moveStep(flow: FlowDefinition, id: string, position: { x: number; y: number }): FlowDefinition {
  const at = { x: Math.round(position.x), y: Math.round(position.y) };
  return { ...flow, steps: flow.steps.map((s) => (s.id === id ? { ...s, position: at } : s)) };
}

/** A step changed in the panel: its outputs may be gone (a response removed), and their connections with them. */
export function updateStep(flow: FlowDefinition, step: FlowStep): FlowDefinition {
  const outputs = new Set(stepKinds[step.type].outputs(step.settings));
  return {
    steps: flow.steps.map((s) => (s.id === step.id ? step : s)),
    edges: flow.edges.filter((e) => e.from !== step.id || outputs.has(e.output)),
  };
}

/** A new step of this type, with a fresh id, where it was dropped (or beside the others). */
export function addStep(flow: FlowDefinition, type: FlowStepType, position?: { x: number; y: number }): { flow: FlowDefinition; id: string } {
  const taken = new Set(flow.steps.map((s) => s.id));
  let n = flow.steps.length + 1;
  while (taken.has(`${type}${n}`)) n += 1;
  const id = `${type}${n}`;
  const lowest = flow.steps.reduce((y, s) => Math.max(y, s.position?.y ?? 0), -260);
  const step: FlowStep = { id, type, position: position ? { x: Math.round(position.x), y: Math.round(position.y) } : { x: 0, y: lowest + 260 }, settings: {} };
  return { flow: { ...flow, steps: [...flow.steps, step] }, id };
}
