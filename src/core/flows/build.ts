// Flows written in code (the demo seed, the editor's fixtures, the tests and the benchmark): a
// step without title or position, and the edges of a step that waits for an answer, whose
// no-match and no-reply (timeout) outputs go to the same step in every flow written so far.
import type { FlowEdge, FlowStep } from '../../generated/types.gen.ts';

export const step = (id: string, type: FlowStep['type'], settings: FlowStep['settings'] = {}): FlowStep => ({ id, type, settings });

/** `from`'s outputs to their steps (`to`: output → step), then its noMatch and timeout outputs to `otherwise`. */
export function answerEdges(from: string, to: Record<string, string>, otherwise: string): FlowEdge[] {
  return [
    ...Object.entries(to).map(([output, target]) => ({ from, output, to: target })),
    { from, output: 'noMatch', to: otherwise },
    { from, output: 'timeout', to: otherwise },
  ];
}
