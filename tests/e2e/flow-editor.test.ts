// The chatbot in a real browser against the real product: a manager creates a flow,
// draws it in the editor from the palette (five steps), sees the rules it breaks marked and the
// Publish button held back, connects the outputs, undoes and redoes, tries it in the preview (the
// same runtime as the server), publishes it, puts it on an agent on the WhatsApp channel, and a
// customer's messages through the sandbox (POST /v1/sandbox/inbound) hold a conversation whose
// transcript the conversations screen and the call-center query show. Then a training file is
// uploaded from the demo flow's row, and a way of saying "asesor" the flow never listed reaches it.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { choose, newPage, productAndBrowser, sessionToken, signIn } from './harness.ts';
import { signedInPage } from './steps.ts';

const e2e = productAndBrowser();

/** Drags from a step's output to another step's input, as a person connects them. */
async function connect(page: Page, from: string, output: string, to: string) {
  const source = page.locator(`.react-flow__handle.source[data-nodeid="${from}"][data-handleid="${output}"]`);
  const target = page.locator(`.react-flow__handle.target[data-nodeid="${to}"]`);
  await source.dragTo(target);
  await page.locator(`.react-flow__edge[data-id="${from}\u0000${output}"], .react-flow__edge[aria-label*="${from}"]`).first().waitFor({ state: 'attached' }).catch(() => {});
}

/** The demo's "Menú de atención" flow open in the editor, as its manager. */
async function demoMenuInEditor() {
  const opened = await signedInPage(e2e, 'manager@demo.colibri.co');
  await opened.page.goto('/Agents/ManagerChatbot');
  await opened.page.getByRole('row', { name: /Menú de atención/ }).first().click();
  await opened.page.waitForURL(/\/Agents\/ManagerChatbot\/\d+$/);
  return opened;
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: 'Borrador' }).textContent();

describe('the flow editor', () => {
  it('builds a five-step flow, publishes it, puts it on an agent and holds a conversation through the sandbox', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');

    await page.goto('/Agents/ManagerChatbot');
    await page.getByRole('row', { name: /Menú de atención/ }).waitFor();
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('Encuesta de servicio');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/Agents\/ManagerChatbot\/\d+$/);
    const flowId = Number(new URL(page.url()).pathname.split('/').pop());

    // The blank flow: a step that greets whoever writes in, then the end; it keeps every rule.
    await page.locator('.react-flow__node[data-id="start"]').waitFor();
    await expect.poll(() => status(page)).toContain('Cumple todas las reglas');

    // A question with two answers, from the palette: its outputs are not connected yet.
    await page.getByRole('navigation', { name: 'Pasos' }).getByRole('button', { name: 'Enviar', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Ajustes del paso' });
    await panel.getByRole('textbox', { name: 'Mensaje', exact: true }).fill('¿Cómo calificas nuestro servicio? 1 Bueno 2 Malo');
    await panel.getByRole('button', { name: 'Agregar respuesta' }).click();
    await panel.getByRole('button', { name: 'Agregar respuesta' }).click();
    await panel.getByRole('textbox', { name: 'Respuesta', exact: true }).nth(0).fill('Bueno');
    await panel.getByRole('textbox', { name: 'Respuesta', exact: true }).nth(1).fill('Malo');
    await panel.getByLabel('La respuesta debe coincidir').check();
    await panel.getByLabel(/^Reintentos máximos/).fill('1');
    await panel.getByLabel(/^Minutos de espera sin respuesta/).fill('5');
    await expect.poll(() => status(page)).toMatch(/Reglas por corregir: \d+/);
    expect(await page.getByRole('button', { name: 'Publicar' }).isDisabled()).toBe(true);
    expect(await page.locator('.react-flow__node[data-id="send3"] .flow-step-problem').count()).toBe(1);

    // Two more final steps, by keyboard from the palette.
    for (const text of ['¡Gracias! Nos alegra.', 'Lamentamos oírlo; un asesor te escribirá.']) {
      await page.getByRole('navigation', { name: 'Pasos' }).getByRole('button', { name: 'Final', exact: true }).focus();
      await page.keyboard.press('Enter');
      await panel.getByRole('textbox', { name: 'Mensaje', exact: true }).fill(text);
    }
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(5);

    await connect(page, 'start', 'next', 'send3');
    await connect(page, 'send3', 'r1', 'end4');
    await connect(page, 'send3', 'r2', 'end5');
    await connect(page, 'send3', 'noMatch', 'end');
    await connect(page, 'send3', 'timeout', 'end');
    await expect.poll(() => status(page)).toContain('Cumple todas las reglas');

    // Undo takes the last connection back (a rule broken again); redo restores it.
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await expect.poll(() => status(page)).toMatch(/Reglas por corregir: 1/);
    await page.getByRole('button', { name: 'Rehacer' }).click();
    await expect.poll(() => status(page)).toContain('Cumple todas las reglas');

    // The preview runs the draft as the server would.
    await page.getByRole('button', { name: 'Vista previa' }).click();
    const preview = page.getByRole('region', { name: 'Vista previa' });
    await preview.getByRole('button', { name: 'Iniciar conversación' }).click();
    await preview.getByText('¿Cómo calificas nuestro servicio? 1 Bueno 2 Malo').waitFor();
    await preview.getByLabel('Tu respuesta').fill('bueno');
    await preview.getByRole('button', { name: 'Enviar' }).click();
    await preview.getByText('¡Gracias! Nos alegra.').waitFor();

    await expect.poll(() => status(page)).toContain('Borrador guardado');
    await page.getByRole('button', { name: 'Publicar' }).click();
    await expect.poll(() => status(page)).toContain('Versión publicada: 1');

    // On an agent: WhatsApp, keyword ENCUESTA.
    await page.goto('/Agents/agentManagement/new');
    await page.getByLabel(/^Nombre/).fill('Encuesta WhatsApp');
    await choose(page, /^Canal/, 'WhatsApp Atención');
    await choose(page, /^Flujo/, 'Encuesta de servicio');
    const keywords = page.getByLabel(/^Palabras clave/);
    await keywords.fill('ENCUESTA');
    await keywords.press('Enter');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/Agents\/agentManagement\/\d+$/);

    // A customer writes ENCUESTA and then 2, through the sandbox's WhatsApp stand-in.
    const token = await sessionToken(page);
    const channels = await (await fetch(`${e2e.product.url}/v1/channels?platform=whatsapp`, { headers: { 'x-auth-token': token } })).json() as { items: { id: number }[] };
    const write = async (text: string) => {
      const answer = await fetch(`${e2e.product.url}/v1/sandbox/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channelId: channels.items[0].id, from: '+573004440123', text }) });
      expect(answer.status).toBe(200);
    };
    await write('Encuesta');
    const conversation = async () => ((await (await fetch(`${e2e.product.url}/v1/conversations?contact=%2B573004440123`, { headers: { 'x-auth-token': token } })).json()) as { items: { id: number; state: string; flowId: number }[] }).items[0];
    await expect.poll(async () => (await conversation())?.flowId, { timeout: 20_000 }).toBe(flowId);
    await write('2');
    await expect.poll(async () => (await conversation())?.state, { timeout: 20_000 }).toBe('completed');

    await page.goto('/Agents/conversations');
    await page.getByRole('row', { name: /573004440123/ }).first().click();
    await page.getByText('Lamentamos oírlo; un asesor te escribirá.').waitFor();
    expect(await page.getByText('Encuesta', { exact: true }).count()).toBeGreaterThan(0);

    // Back in the editor, each step of the published version says how often it was reached.
    await page.goto(`/Agents/ManagerChatbot/${flowId}`);
    const startStats = page.locator('.react-flow__node[data-id="start"]').getByTestId('step-stats');
    await startStats.waitFor();
    expect(await startStats.textContent()).toMatch(/Versión 1 publicada: Entradas: 1/);

    await context.close();

    // A support agent (the platform's developer) looking the number up in the call-center query reads the same transcript.
    const agent = await newPage(e2e.browser, e2e.product);
    await signIn(agent.page, 'develop@demo.colibri.co');
    await agent.page.goto('/Reports/QueryCallCenter');
    await agent.page.getByLabel(/^Número de celular/).fill('300 444 0123');
    await agent.page.getByRole('button', { name: 'Consultar' }).click();
    const transcript = agent.page.getByRole('table', { name: 'Conversaciones con los chatbots' });
    await transcript.getByRole('row').filter({ hasText: 'Lamentamos oírlo; un asesor te escribirá.' }).waitFor();
    expect(await transcript.getByRole('row').filter({ hasText: 'Encuesta' }).first().textContent()).toContain('Persona');
    await agent.context.close();
  });
  it("a training file read from the flows list makes a way of saying it reach its response in a conversation", async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/Agents/ManagerChatbot');
    // The row's actions beyond those that fit wait in its "Más acciones" menu.
    const row = page.getByRole('row', { name: /Menú de atención/ }).first();
    await row.locator('.row-actions button').first().waitFor();
    const direct = row.getByRole('button', { name: 'Frases de entrenamiento' });
    if (await direct.count()) await direct.click();
    else {
      await row.getByRole('button', { name: 'Más acciones' }).click();
      await page.getByRole('menuitem', { name: 'Frases de entrenamiento' }).click();
    }
    await page.waitForURL(/\/Agents\/ManagerChatbot\/training\/\d+$/);
    await page.getByText('Este flujo aún no tiene archivo de entrenamiento.').waitFor();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Subir archivo de entrenamiento' }).click()]);
    await chooser.setFiles({ name: 'entrenamiento.csv', mimeType: 'text/csv', buffer: Buffer.from('frase;respuesta\nquiero hablar con una persona;Asesor\nhola;Reembolso\n') });
    const result = page.getByTestId('action-result');
    await result.waitFor();
    expect(await result.locator('dd[data-field="phrases"]').textContent()).toBe('1');
    // The refused row, its reason in words.
    await result.getByRole('cell', { name: 'La respuesta no es una del flujo' }).waitFor();
    await page.getByRole('cell', { name: 'quiero hablar con una persona' }).waitFor();

    // A customer writes MENU on the two-way SMS channel, then the phrase: the advisor's branch.
    const token = await sessionToken(page);
    const channels = await (await fetch(`${e2e.product.url}/v1/channels?platform=sms`, { headers: { 'x-auth-token': token } })).json() as { items: { id: number; name: string }[] };
    const sms = channels.items.find((c) => c.name === 'SMS Respuestas 85432')!;
    const write = async (text: string) => {
      const answer = await fetch(`${e2e.product.url}/v1/sandbox/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channelId: sms.id, from: '+573004440188', text }) });
      expect(answer.status).toBe(200);
    };
    const conversation = async () => ((await (await fetch(`${e2e.product.url}/v1/conversations?contact=%2B573004440188`, { headers: { 'x-auth-token': token } })).json()) as { items: { id: number; state: string; stepId: string | null }[] }).items[0];
    await write('MENU');
    await expect.poll(async () => (await conversation())?.stepId, { timeout: 20_000 }).toBe('menu');
    await write('Quiero hablar con una PERSONA');
    await expect.poll(async () => (await conversation())?.state, { timeout: 20_000 }).toBe('completed');
    expect((await conversation())?.stepId).toBe('asesor');
    await context.close();
  });

  it('a change made just before leaving the editor is saved, not lost', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/Agents/ManagerChatbot');
    await page.getByRole('row', { name: /Menú de atención/ }).first().waitFor();
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('Guardado al salir');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/Agents\/ManagerChatbot\/\d+$/);
    const flowId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.locator('.react-flow__node[data-id="start"]').waitFor();
    await page.getByRole('navigation', { name: 'Pasos' }).getByRole('button', { name: 'Final', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Ajustes del paso' }).getByRole('textbox', { name: 'Mensaje', exact: true }).fill('Escrito justo antes de salir');
    // Away at once, before the autosave's moment: the editor saves on its way out.
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Flujos de chatbot' }).click();
    await page.waitForURL(/\/Agents\/ManagerChatbot$/);
    const token = await sessionToken(page);
    const draft = async () => JSON.stringify(((await (await fetch(`${e2e.product.url}/v1/flows/${flowId}`, { headers: { 'x-auth-token': token } })).json()) as { draft: unknown }).draft);
    await expect.poll(draft, { timeout: 10_000 }).toContain('Escrito justo antes de salir');
    await context.close();
  });

  it('opens a flow readable at full size, its first step in view', async () => {
    const { context, page } = await demoMenuInEditor();
    const first = page.locator('.react-flow__node[data-id="inicio"]');
    await first.waitFor();
    // Fitted, but never shrunk below 85 %: a step's text is drawn at 11 px or more.
    const scale = await page.locator('.react-flow__viewport').evaluate((v) => new DOMMatrixReadOnly(getComputedStyle(v).transform).a);
    expect(scale).toBeGreaterThanOrEqual(0.85);
    expect(scale).toBeLessThanOrEqual(1);
    const text = await first.locator('.flow-step-text').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(text * scale).toBeGreaterThanOrEqual(11);
    const canvas = (await page.locator('.flow-canvas').boundingBox())!;
    const box = (await first.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(canvas.x);
    expect(box.y).toBeGreaterThanOrEqual(canvas.y);
    expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    // The canvas's own controls speak Spanish to assistive technology, as the page does.
    for (const name of ['Acercar', 'Alejar', 'Ver todo el flujo']) await page.getByRole('button', { name, exact: true }).waitFor();
    const english = await page.locator('.flow-canvas [aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!).filter((l) => /Zoom|Fit View|Control Panel|Handle|Mini Map/.test(l)));
    expect(english).toEqual([]);
    await context.close();
  });

  it("every output handle of a step with many outputs can be grabbed: no label covers one", async () => {
    const { context, page } = await demoMenuInEditor();
    const menu = page.locator('.react-flow__node[data-id="menu"]');
    await menu.waitFor();
    const handles = menu.locator('.flow-step-handle');
    // The demo's menu: Saldo, Asesor, Salir and the fixed outputs (no match, no reply).
    expect(await handles.count()).toBeGreaterThanOrEqual(4);
    const covered = await handles.evaluateAll((nodes) => nodes.filter((h) => {
      const box = h.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !(top === h || h.contains(top));
    }).map((h) => h.getAttribute('data-handleid')));
    expect(covered).toEqual([]);
    await context.close();
  });
});
