// The hand-off to the gateway's checkout once the order exists on our server: the sandbox's
// checkout page is a plain address; the real ePayco is opened by its script with the session id
// (research/protocols.md 5.1 A, "standard": ePayco's own page).
import type { PaymentCheckout } from '../../../generated/types.gen.ts';

interface EpaycoCheckout { checkout: { configure(options: { sessionId: string; type: 'standard'; test: boolean }): { open(): void } } }

function loadScript(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.appendChild(script);
  });
}

export async function openCheckout(checkout: PaymentCheckout['checkout']): Promise<void> {
  if (checkout.url) {
    window.location.assign(checkout.url);
    return;
  }
  if (!checkout.script) throw new Error('the gateway gave no way to pay');
  await loadScript(checkout.script.url);
  const epayco = (window as unknown as { ePayco?: EpaycoCheckout }).ePayco;
  if (!epayco) throw new Error('the checkout script did not load');
  epayco.checkout.configure({ sessionId: checkout.sessionId, type: 'standard', test: checkout.script.test }).open();
}
