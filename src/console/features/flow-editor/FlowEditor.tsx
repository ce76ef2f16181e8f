// The flow editor (/Agents/ManagerChatbot/:id): the one hand-written screen of the
// chatbot area, loaded only here. The flow definition is the state (with undo/redo); the canvas
// (@xyflow/react) is drawn from it; every change is checked by the validator the server publishes
// with (problems marked on the nodes and listed), autosaved as the draft, and Publish makes the
// next version. The palette adds steps by drag and drop or by keyboard (a button per kind).
import '@xyflow/react/dist/style.css';
import './flow-editor.css';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  Background, Controls, ReactFlow, ReactFlowProvider, useReactFlow, type AriaLabelConfig, type Connection, type EdgeChange, type NodeChange, type NodeTypes,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from '../../runtime/navigation.tsx';
import { validateFlow } from '../../../core/flows/validate.ts';
import { flowStepTypeMeta, flowStepTypes, type FlowStepType } from '../../../generated/enums.gen.ts';
import { call, useOperation } from '../../../generated/client.gen.ts';
import type { Flow, FlowDefinition } from '../../../generated/types.gen.ts';
import { errorText } from '../../api/errors.ts';
import { notify } from '../../app/notify.tsx';
import { ScreenFrame } from '../../runtime/ScreenFrame.tsx';
import type { FeatureProps } from '../registry.ts';
import { addStep, connect, moveStep, removeEdges, removeSteps, toEdges, toNodes, updateStep } from './graph.ts';
import { record, redo, replace, startHistory, undo, type History } from './history.ts';
import { Preview } from './Preview.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { StepNode } from './StepNode.tsx';
import { loadFeatureStrings } from '../strings.ts';

const nodeTypes: NodeTypes = { step: StepNode };
const SAVE_AFTER_MS = 800;
const DRAG_TYPE = 'application/x-colibri-step';
/**
 * The canvas opens on the whole flow when it fits at a readable size; a bigger flow opens at 85 %
 * around its middle (13 px step text stays 11 px) and is panned, never shrunk until its words are
 * specks (the demo's 7-step menu fitted whole was drawn near 50 %). Small flows are not blown up
 * past 100 %.
 */
const FIT = { padding: 0.15, minZoom: 0.85, maxZoom: 1 } as const;
type SaveState = 'saved' | 'saving' | 'failed';

function Editor({ flow: loaded }: { flow: Flow }) {
  const { t } = useTranslation();
  const { screenToFlowPosition, fitView } = useReactFlow();
  const [history, setHistory] = useState<History<FlowDefinition>>(() => startHistory(loaded.draft));
  const [selected, setSelected] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [published, setPublished] = useState(loaded.publishedVersion);
  // The preview's answers are looked up in the flow's training file, when it has one.
  const meaningsOf = useCallback(async (text: string) => (await call('flows.trainingMeanings', { params: { id: loaded.id }, query: { text } })).meanings, [loaded.id]);
  const [error, setError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const flow = history.present;
  const problems = useMemo(() => validateFlow(flow), [flow]);
  // Every word the canvas gives assistive technology, in the reader's language (its defaults are English).
  const ariaLabels = useMemo<Partial<AriaLabelConfig>>(() => ({
    'node.a11yDescription.default': t('flowEditor.a11yNode'),
    'node.a11yDescription.keyboardDisabled': t('flowEditor.a11yNode'),
    'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }) => t('flowEditor.a11y.moved', { direction: t(`flowEditor.a11y.direction.${direction}`), x, y }),
    'edge.a11yDescription.default': t('flowEditor.a11yEdge'),
    'controls.ariaLabel': t('flowEditor.a11y.controls'),
    'controls.zoomIn.ariaLabel': t('flowEditor.a11y.zoomIn'),
    'controls.zoomOut.ariaLabel': t('flowEditor.a11y.zoomOut'),
    'controls.fitView.ariaLabel': t('flowEditor.a11y.fitView'),
    'controls.interactive.ariaLabel': t('flowEditor.a11y.interactive'),
    'minimap.ariaLabel': t('flowEditor.a11y.minimap'),
    'handle.ariaLabel': t('flowEditor.a11y.handle'),
  }), [t]);
  // The published version's traffic per step (what /Reports/Flows counts), when there is one and the person may read it.
  const stats = useOperation('flows.stats', published ? { query: { flowId: loaded.id } } : null, { revalidateOnFocus: false, shouldRetryOnError: false });
  const counts = useMemo(() => new Map((stats.data?.version ? stats.data.steps : []).map((s) => [s.stepId, { version: stats.data!.version!, entered: s.entered, notMatched: s.notMatched, timedOut: s.timedOut, integrationFailed: s.integrationFailed }])), [stats.data]);
  const nodes = useMemo(() => toNodes(flow, problems, selected, (type) => flowStepTypeMeta[type].entry, (step, mine) =>
    [`${t(`enums.flow-step-type.${step.type}`)}: ${step.title || step.id}`, ...mine.map((p) => t(`enums.flow-rule.${p.rule}`))].join('. '), counts), [flow, problems, selected, t, counts]);
  const edges = useMemo(() => toEdges(flow, problems), [flow, problems]);
  const change = useCallback((next: (f: FlowDefinition) => FlowDefinition) => setHistory((h) => record(h, next(h.present))), []);

  // Autosave: the draft a moment after the last change (the last one wins; a failure says so).
  const saved = useRef(loaded.draft);
  useEffect(() => {
    if (flow === saved.current) return;
    setSaveState('saving');
    const timer = setTimeout(() => {
      call('flows.update', { params: { id: loaded.id }, body: { draft: flow } })
        .then(() => { saved.current = flow; setSaveState('saved'); })
        .catch(() => setSaveState('failed'));
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [flow, loaded.id]);
  // A change made just before leaving is not lost: moving to another page saves it at once (the
  // request outlives the editor), and closing or reloading the tab while it is unsaved asks first.
  const latest = useRef(flow);
  latest.current = flow;
  useEffect(() => () => {
    if (latest.current !== saved.current) void call('flows.update', { params: { id: loaded.id }, body: { draft: latest.current } }).catch(() => {});
  }, [loaded.id]);
  const unsaved = flow !== saved.current;
  useEffect(() => {
    if (!unsaved) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [unsaved, saveState]);

  const onNodesChange = useCallback((changes: NodeChange[]) => {
    for (const c of changes) {
      if (c.type === 'position' && c.position) {
        const position = c.position;
        setHistory((h) => (c.dragging ? replace(h, moveStep(h.present, c.id, position)) : record(h, moveStep(h.present, c.id, position))));
      } else if (c.type === 'select' && c.selected) setSelected(c.id);
      else if (c.type === 'remove') {
        change((f) => removeSteps(f, new Set([c.id])));
        setSelected(null);
      }
    }
  }, [change]);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    const removed = new Set(changes.filter((c) => c.type === 'remove').map((c) => c.id));
    if (removed.size) change((f) => removeEdges(f, removed));
  }, [change]);
  const onConnect = useCallback((c: Connection) => {
    if (c.source && c.target && c.sourceHandle) change((f) => connect(f, c.source, c.sourceHandle!, c.target));
  }, [change]);

  const add = (type: FlowStepType, position?: { x: number; y: number }) => {
    const result = addStep(history.present, type, position);
    setHistory((h) => record(h, result.flow));
    setSelected(result.id);
    // A step added from the keyboard lands below the others: bring the whole flow into view, the
    // new step with the ones it is to be connected to (smaller than on opening, if it must).
    if (!position) requestAnimationFrame(() => void fitView({ padding: FIT.padding, maxZoom: FIT.maxZoom, duration: 0 }));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const type = e.dataTransfer.getData(DRAG_TYPE) as FlowStepType;
    if ((flowStepTypes as readonly string[]).includes(type)) add(type, screenToFlowPosition({ x: e.clientX, y: e.clientY }));
  };

  const publish = async () => {
    setError(null);
    try {
      if (flow !== saved.current) {
        await call('flows.update', { params: { id: loaded.id }, body: { draft: flow } });
        saved.current = flow;
        setSaveState('saved');
      }
      const answer = await call('flows.publish', { params: { id: loaded.id } });
      setPublished(answer.publishedVersion);
      notify('screens.flows.published');
    } catch (e) {
      setError(errorText(t, e));
    }
  };

  // Keyboard: Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z or Ctrl+Y redoes (not while typing in a field).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, [contenteditable="true"]')) return;
      if (!(e.ctrlKey || e.metaKey)) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) { e.preventDefault(); setHistory(undo); }
      else if ((key === 'z' && e.shiftKey) || key === 'y') { e.preventDefault(); setHistory(redo); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const current = flow.steps.find((s) => s.id === selected) ?? null;
  return (
    <ScreenFrame title={loaded.name} description={t('flowEditor.description')} maxWidth="100%">
      <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: "wrap", alignItems: "center" }}>
        <Button onClick={() => setHistory(undo)} disabled={!history.past.length}>{t('flowEditor.undo')}</Button>
        <Button onClick={() => setHistory(redo)} disabled={!history.future.length}>{t('flowEditor.redo')}</Button>
        <Button onClick={() => setPreviewing((p) => !p)} aria-pressed={previewing}>{t('flowEditor.preview')}</Button>
        <Button variant="contained" onClick={() => void publish()} disabled={problems.length > 0}>{t('screens.flows.publish')}</Button>
        <Typography role="status" variant="body2" color={saveState === 'failed' ? 'error' : 'text.secondary'}>
          {t(`flowEditor.save.${saveState}`)}
          {' · '}
          {published ? t('flowEditor.publishedVersion', { version: published }) : t('flowEditor.notPublished')}
          {' · '}
          {problems.length ? t('flowEditor.problems', { count: problems.length }) : t('flowEditor.noProblems')}
        </Typography>
      </Stack>
      {error && <Alert severity="error" sx={{ mb: 1 }} onClose={() => setError(null)}>{error}</Alert>}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '180px 1fr 340px' }, gap: 2 }}>
        <Stack component="nav" aria-label={t('flowEditor.palette')} spacing={1}>
          <Typography variant="subtitle2" component="h2">{t('flowEditor.palette')}</Typography>
          {flowStepTypes.map((type) => (
            <Button key={type} variant="outlined" size="small" draggable onDragStart={(e) => { e.dataTransfer.setData(DRAG_TYPE, type); e.dataTransfer.effectAllowed = 'move'; }}
              onClick={() => add(type)} data-step-type={type}>
              {t(`enums.flow-step-type.${type}`)}
            </Button>
          ))}
        </Stack>
        <Box className="flow-canvas" onDragOver={(e) => { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; }} onDrop={onDrop}>
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onPaneClick={() => setSelected(null)}
            deleteKeyCode={['Delete', 'Backspace']}
            fitView
            fitViewOptions={FIT}
            ariaLabelConfig={ariaLabels}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </Box>
        <Box>
          {previewing ? <Preview flow={flow} meanings={loaded.trainingPhrases ? meaningsOf : undefined} /> : current ? (
            <SettingsPanel
              step={current}
              problems={problems.filter((p) => p.stepId === current.id)}
              onChange={(step) => change((f) => updateStep(f, step))}
              onDelete={() => { change((f) => removeSteps(f, new Set([current.id]))); setSelected(null); }}
            />
          ) : (
            <Stack spacing={1}>
              <Typography variant="body2">{t('flowEditor.selectHint')}</Typography>
              {problems.filter((p) => !p.stepId).map((p, i) => <Alert key={i} severity="warning">{t(`enums.flow-rule.${p.rule}`)}</Alert>)}
            </Stack>
          )}
        </Box>
      </Box>
    </ScreenFrame>
  );
}

export default function FlowEditor(_props: FeatureProps) {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const [flow, setFlow] = useState<Flow | null>(null);
  const [strings, setStrings] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call('flows.get', { params: { id: Number(id) } }).then(setFlow, (e: unknown) => setError(errorText(t, e)));
  }, [id, t]);
  useEffect(() => {
    void loadFeatureStrings(i18n, 'flowEditor').then(() => setStrings(true));
  }, [i18n, i18n.language]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!flow || !strings) return <Typography role="status">{t('common.loading')}</Typography>;
  return (
    <ReactFlowProvider>
      <Editor flow={flow} />
    </ReactFlowProvider>
  );
}
