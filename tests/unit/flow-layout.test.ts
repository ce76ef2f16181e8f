// Where the flow editor draws the steps of a flow that does not place them (made by the API or an
// import): in layers down the canvas as the conversation runs, narrow enough to read at full size.
import { describe, expect, it } from 'vitest';
import { LAYER, layeredPositions, toNodes } from '../../src/console/features/flow-editor/graph.ts';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';

const step = (id: string, position?: { x: number; y: number }) => ({ id, type: 'send' as const, settings: {}, ...(position ? { position } : {}) });
const edge = (from: string, to: string, output = 'next') => ({ from, output: `${output}-${to}`, to });

describe('the layered layout', () => {
  // saludo → menú → (saldo | asesor | salir); asesor → fin; fin loops back to menú.
  const flow: FlowDefinition = {
    steps: ['saludo', 'menu', 'saldo', 'asesor', 'salir', 'fin', 'suelto'].map((id) => step(id)),
    edges: [edge('saludo', 'menu'), edge('menu', 'saldo'), edge('menu', 'asesor'), edge('menu', 'salir'), edge('asesor', 'fin'), edge('fin', 'menu')],
  };

  it('puts each step one row below the first step that leads to it, a row centred, loops not moving a step down', () => {
    const at = layeredPositions(flow);
    // The first row: the first step, and the step nothing leads to beside it.
    expect([at.get('saludo'), at.get('suelto')]).toEqual([{ x: -LAYER.dx / 2, y: 0 }, { x: LAYER.dx / 2, y: 0 }]);
    expect(at.get('menu')).toEqual({ x: 0, y: LAYER.dy });
    expect([at.get('saldo'), at.get('asesor'), at.get('salir')]).toEqual([
      { x: -LAYER.dx, y: 2 * LAYER.dy }, { x: 0, y: 2 * LAYER.dy }, { x: LAYER.dx, y: 2 * LAYER.dy },
    ]);
    expect(at.get('fin')).toEqual({ x: 0, y: 3 * LAYER.dy });
    // Never two steps in one place; never wider than the widest row (3 steps).
    const places = [...at.values()].map((p) => `${p.x},${p.y}`);
    expect(new Set(places).size).toBe(places.length);
    expect(Math.max(...[...at.values()].map((p) => Math.abs(p.x)))).toBeLessThanOrEqual(LAYER.dx);
  });

  it('places steps only reached from a loop below the rest, and keeps the places a person gave', () => {
    const loop: FlowDefinition = { steps: [step('a'), step('b'), step('c')], edges: [edge('a', 'a'), edge('b', 'c'), edge('c', 'b')] };
    const at = layeredPositions(loop);
    expect(at.get('a')).toEqual({ x: 0, y: 0 });
    expect(at.get('b')!.y).toBeGreaterThan(0);
    expect(at.get('c')!.y).toBeGreaterThan(at.get('b')!.y);
    const placed: FlowDefinition = { steps: [step('a', { x: 40, y: 900 }), step('b')], edges: [edge('a', 'b')] };
    const nodes = toNodes(placed, [], null, () => false, (s) => s.id);
    expect(nodes.map((n) => n.position)).toEqual([{ x: 40, y: 900 }, { x: 0, y: LAYER.dy }]);
  });
});
