// The page tests/bench/console-perf.ts measures in headless chromium. #form renders the runtime's
// schema form with 200 fields, #form-anchor 200 plain <input>s; #list the runtime's list screen
// over 100,000 rows (virtual, paged through a stub answering the list convention), #list-anchor a
// plain React table of 1,000 rows (no virtualisation). Each mode leaves its figures in
// window.__perf; scrolling is driven by window.__scroll(ms, pxPerFrame).
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { setTransport, type Transport } from '../../../src/generated/client.gen.ts';
import { encodeSession } from '../../../src/core/session-codec.ts';
import { AppProviders } from '../../../src/console/app/providers.tsx';
import { installNavigation } from '../../../src/console/runtime/navigation.tsx';
import { operationsReady } from '../../../src/console/api/transport.ts';
import { routerNavigation } from '../../../src/console/app/router-navigation.ts';
import { storageKeys } from '../../../src/console/api/storage.ts';
import { SchemaForm } from '../../../src/console/runtime/form/SchemaForm.tsx';
import ListScreen from '../../../src/console/runtime/screens/ListScreen.tsx';
import { largeSchema } from '../../../src/console/stories/large-form.ts';
import { teamMembers } from '../../../src/console/stories/data.ts';
import { listAnswer } from '../../../src/console/stories/list-stub.ts';
import { fx } from '../../../src/console/stories/screens.ts';
import { users } from '../../../src/console/stories/fixtures.ts';

installNavigation(routerNavigation);

declare global {
  interface Window {
    __perf?: Record<string, number>;
    __scroll?: (ms: number, px: number) => Promise<Record<string, number>>;
  }
}

const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
const root = createRoot(document.getElementById('root')!);
const mode = location.hash.slice(1);

/** Scrolls `el` by `px` every frame for `ms`; counts frames and the ones the page missed. */
async function scroll(el: HTMLElement, ms: number, px: number) {
  const times: number[] = [await frame()];
  const end = times[0] + ms;
  while (times[times.length - 1] < end) {
    el.scrollTop = el.scrollTop + px >= el.scrollHeight - el.clientHeight ? 0 : el.scrollTop + px;
    times.push(await frame());
  }
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  const interval = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.1)] || 16.7;
  const dropped = gaps.reduce((n, g) => n + Math.max(0, Math.round(g / interval) - 1), 0);
  return { frames: gaps.length, dropped, expected: gaps.length + dropped, interval, longest: Math.max(...gaps) };
}

async function measure(render: () => void, ready: () => boolean) {
  const t0 = performance.now();
  flushSync(render);
  while (!ready()) await frame();
  // Until the browser has painted what was rendered.
  await frame();
  await frame();
  window.__perf = { renderMs: performance.now() - t0 };
}

const inputs = () => document.querySelectorAll('input').length >= 200;

if (mode === 'form') {
  const schema = largeSchema(200);
  void measure(() => root.render(<AppProviders><SchemaForm cacheKey="bench" schema={schema} formData={{}} onChange={() => undefined} onSubmit={() => undefined} /></AppProviders>), inputs);
}

if (mode === 'form-anchor') {
  void measure(() => {
    const form = document.createElement('form');
    for (let i = 0; i < 200; i++) {
      const label = document.createElement('label');
      label.textContent = `Campo ${i + 1}`;
      const input = document.createElement('input');
      input.name = `field${i}`;
      label.appendChild(input);
      form.appendChild(label);
    }
    document.getElementById('root')!.appendChild(form);
  }, inputs);
}

if (mode === 'list') {
  const rows = teamMembers(100_000);
  localStorage.setItem(storageKeys.clientToken, encodeSession(users.manager));
  const stub = (async (id: string, args: { query?: Record<string, unknown> }) => {
    if (id !== 'team.list') throw new Error(`not in the benchmark: ${id}`);
    return listAnswer(rows, Object.fromEntries(Object.entries(args.query ?? {}).map(([k, v]) => [k, String(v)])), ['name', 'email']);
  }) as unknown as Transport;
  setTransport(stub);
  const router = createMemoryRouter([{ path: '/profile/management', element: <ListScreen screenId="fxTeamMembers" menuKey="settings.users" screen={fx.fxTeamMembers} /> }], { initialEntries: ['/profile/management'] });
  // As a console route waits for the operation table before its screen draws.
  void operationsReady().then(() => measure(() => root.render(<AppProviders><RouterProvider router={router} /></AppProviders>), () => document.querySelectorAll('tbody tr:not([data-loading]):not([aria-hidden])').length > 10));
  window.__scroll = (ms, px) => scroll(document.querySelector('table')!.parentElement as HTMLElement, ms, px);
}

if (mode === 'list-anchor') {
  const rows = teamMembers(1000);
  const Table = () => (
    <div style={{ height: 640, overflow: 'auto' }} id="scroller">
      <table style={{ width: '100%', borderCollapse: 'collapse', fontFamily: 'sans-serif', fontSize: 14 }}>
        <thead>
          <tr>{['Nombre', 'Correo', 'Roles', 'Estado', 'Fecha'].map((h) => <th key={h} style={{ position: 'sticky', top: 0, background: '#fff', textAlign: 'left', padding: 8 }}>{h}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r.id)} style={{ height: 48, borderBottom: '1px solid #ddd' }}>
              <td>{String(r.name)}</td>
              <td>{String(r.email)}</td>
              <td>{(r.roles as string[]).join(', ')}</td>
              <td>{String(r.state)}</td>
              <td>{String(r.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  void measure(() => root.render(<Table />), () => document.querySelectorAll('tbody tr').length === 1000);
  window.__scroll = (ms, px) => scroll(document.getElementById('scroller')!, ms, px);
}
