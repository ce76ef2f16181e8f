// One step on the canvas: its kind, title and text, an input on top (a step others lead to) and
// one output per way out (the step kind's outputs: next, each response, no match, timeout,
// success/failure, yes/no), each connectable once. Broken rules mark the node; its accessible name
// (graph.ts, the node's ariaLabel) says its kind, title and problems.
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../runtime/format.ts';
import { stepKinds } from '../../../core/flows/steps.ts';
import type { StepNode as StepNodeType } from './graph.ts';

const FIXED_OUTPUTS = new Set(['next', 'noMatch', 'timeout', 'success', 'failure', 'yes', 'no']);

export function StepNode({ data, selected }: NodeProps<StepNodeType>) {
  const { t } = useTranslation();
  const { step, problems, isEntry, counts } = data;
  const outputs = stepKinds[step.type].outputs(step.settings);
  const label = (output: string) =>
    FIXED_OUTPUTS.has(output) ? t(`flowEditor.output.${output}`) : (step.settings.responses?.find((r) => r.id === output)?.label || output);
  const problemText = problems.map((p) => t(`enums.flow-rule.${p.rule}`)).join('. ');
  return (
    <div
      className={`flow-step${selected ? ' flow-step-selected' : ''}${problems.length ? ' flow-step-problem' : ''}`}
      data-step={step.id}
    >
      {!isEntry && <Handle type="target" position={Position.Top} />}
      <div className="flow-step-kind">{t(`enums.flow-step-type.${step.type}`)}</div>
      <div className="flow-step-title">{step.title || step.id}</div>
      {step.settings.text && <div className="flow-step-text">{step.settings.text.slice(0, 80)}</div>}
      {problems.length > 0 && <div className="flow-step-problems" role="note">{problemText}</div>}
      {counts && (
        // The published version's traffic on this step, as /Reports/Flows counts it.
        <div className="flow-step-stats" data-testid="step-stats">
          {t('flowEditor.stepStats', { version: counts.version })}{' '}
          {(['entered', 'notMatched', 'timedOut', 'integrationFailed'] as const).filter((e) => e === 'entered' || counts[e] > 0)
            .map((e) => `${t(`enums.flow-step-event.${e}`)}: ${formatInteger(counts[e])}`).join(' · ')}
        </div>
      )}
      <div className="flow-step-outputs">
        {outputs.map((output) => (
          <div key={output} className="flow-step-output">
            <span title={label(output)}>{label(output)}</span>
            <Handle type="source" id={output} position={Position.Bottom} className="flow-step-handle" />
          </div>
        ))}
      </div>
    </div>
  );
}
