// The stand-in's checkout pages (Spanish, like ePayco's): plain HTML forms without JavaScript, so
// a person, an end-to-end test or a screen reader can pay with a test card or give up. Every text
// that comes from a session is escaped.
import { EPAYCO_TEST_CARDS } from './cards.ts';

/** What the page shows of a checkout session. */
export interface CheckoutView {
  sessionId: string;
  description: string;
  invoice: string;
  /** The session's amount string as received (e.g. "59500"). */
  amount: string;
  /** The transaction's state text when the session was already paid or abandoned. */
  done?: string;
}

const escape = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const cop = new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** The total as the page shows it, e.g. "$ 59.500". */
export function formatCop(amount: string): string {
  return cop.format(Number(amount));
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; background: #f4f6f8; color: #1b1f24; }
  main { max-width: 32rem; margin: 2rem auto; background: #fff; padding: 1.5rem; border-radius: 0.5rem; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  h2 { font-size: 1.1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
  input { font-size: 1rem; padding: 0.5rem; width: 100%; box-sizing: border-box; border: 1px solid #5f6b7a; border-radius: 0.25rem; }
  button { font-size: 1rem; padding: 0.6rem 1.2rem; margin-top: 1rem; border-radius: 0.25rem; border: 1px solid #0b4f8a; cursor: pointer; }
  .pay { background: #0b4f8a; color: #fff; }
  .cancel { background: #fff; color: #0b4f8a; }
  :focus-visible { outline: 3px solid #e8a317; outline-offset: 2px; }
  .notice { background: #fff4d6; padding: 0.5rem; border-radius: 0.25rem; }
  .error { color: #a4161a; font-weight: 600; }
  code { font-size: 1rem; }
`;

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

/** The checkout: summary, card form, the test cards, and the way back without paying. */
export function checkoutPage(view: CheckoutView, error?: string): string {
  const hidden = `<input type="hidden" name="sessionId" value="${escape(view.sessionId)}">`;
  const cards = EPAYCO_TEST_CARDS.map((c) => `<li><code>${c.number}</code>: ${escape(c.effect)}.</li>`).join('\n');
  const described = error ? 'card-error test-cards-title' : 'test-cards-title';
  const form = view.done
    ? `<p class="notice" role="status">Este pago ya fue procesado (${escape(view.done)}).</p>
<form method="post" action="/checkout/pay">
${hidden}
<button type="submit" class="pay">Volver al comercio</button>
</form>`
    : `<form method="post" action="/checkout/pay">
${hidden}
<label for="card">Número de tarjeta</label>
<input id="card" name="card" type="text" inputmode="numeric" autocomplete="cc-number" required aria-describedby="${described}"${error ? ' aria-invalid="true"' : ''}>
${error ? `<p id="card-error" class="error" role="alert">${escape(error)}</p>` : ''}
<button type="submit" class="pay">Pagar</button>
</form>
<section aria-labelledby="test-cards-title">
<h2 id="test-cards-title">Tarjetas de prueba</h2>
<ul>
${cards}
</ul>
<p>Cualquier otro número se rechaza como tarjeta no válida.</p>
</section>
<form method="post" action="/checkout/cancel">
${hidden}
<button type="submit" class="cancel">Cancelar y volver al comercio</button>
</form>`;
  return layout(`Pagar ${formatCop(view.amount)} · ePayco (simulador)`, `<h1>Pago con tarjeta</h1>
<p class="notice">Simulador de ePayco para pruebas: ningún cargo es real.</p>
<dl>
<dt>Descripción</dt><dd>${escape(view.description)}</dd>
<dt>Referencia</dt><dd>${escape(view.invoice)}</dd>
<dt>Total</dt><dd>${escape(formatCop(view.amount))}</dd>
</dl>
${form}`);
}

export function notFoundPage(): string {
  return layout('Sesión de pago no encontrada · ePayco (simulador)', `<h1>Sesión de pago no encontrada</h1>
<p>El enlace de pago no es válido o ya venció. Vuelve al comercio e inicia el pago de nuevo.</p>`);
}
