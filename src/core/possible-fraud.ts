// Possible fraud (spec status 7): the shapes of smishing that a business message never needs,
// read from the text's links (core/message-content.ts findLinks). Two findings:
// - lookalikeDomain: a link whose host imitates a bank, wallet, courier or the tax office — it
//   holds the brand's name, or one letter off it, or with digits for letters ("bancol0mbia",
//   "nequi-pagos.com", "davivlenda.co") — without being the brand's own domain or one under it.
// - urgentBrandLink: urgency words ("bloqueada", "urgente", "último aviso"), a bank or delivery
//   word and a link that is not a brand's own domain, together: the classic "su cuenta fue
//   bloqueada, ingrese aquí" (CRC and bank advice to customers: a message that asks to act now
//   through a link is the fraud to report).
// One owner for the rule: the engine's enqueue refuses such a message with 7 and the shortener
// refuses to shorten a lookalike target, as the company's messaging settings say (fraud-check).
export type FraudFinding = { kind: 'lookalikeDomain' | 'urgentBrandLink'; host: string; brand: string | null };

/** Brands people in Colombia are phished in the name of, and the domains that are really theirs. */
const BRANDS: Readonly<Record<string, readonly string[]>> = {
  bancolombia: ['bancolombia.com', 'grupobancolombia.com', 'bancolombia.com.co'],
  davivienda: ['davivienda.com'],
  daviplata: ['daviplata.com'],
  nequi: ['nequi.com.co'],
  bbva: ['bbva.com.co', 'bbva.com'],
  bancodebogota: ['bancodebogota.com', 'bancodebogota.com.co'],
  bancodeoccidente: ['bancodeoccidente.com.co'],
  bancopopular: ['bancopopular.com.co'],
  avvillas: ['avvillas.com.co'],
  colpatria: ['scotiabankcolpatria.com'],
  bancocajasocial: ['bancocajasocial.com'],
  falabella: ['bancofalabella.com.co', 'falabella.com.co'],
  servientrega: ['servientrega.com'],
  interrapidisimo: ['interrapidisimo.com'],
  coordinadora: ['coordinadora.com'],
  mercadolibre: ['mercadolibre.com.co'],
  dian: ['dian.gov.co'],
};

const URGENCY = /\b(urgente|inmediat[oa]|bloquead[oa]s?|suspendid[oa]s?|retenid[oa]s?|desactivad[oa]|ultimo aviso|vence hoy|verifique|verifica tu|actualice sus datos|actualiza tus datos|reactive|reactiva)\b/;
const BRAND_WORDS = /\b(banco|cuenta|tarjeta|clave|token|transferencia|pse|paquete|envio|entrega|guia|pedido|multa|embargo|dian)\b/;

/** Letters for the digits lookalikes use, hyphens and dots out: "bancol0mbia-seguro" → "bancolombiaseguro". */
const skeleton = (label: string) => label.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l').replace(/3/g, 'e').replace(/4/g, 'a').replace(/5/g, 's').replace(/7/g, 't').replace(/[^a-z]/g, '');
const plain = (text: string) => text.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** At most one edit (a letter changed, added, removed, or two swapped) between a and b. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return true;
  const rest = (x: string, y: string) => x === y;
  return rest(a.slice(i + 1), b.slice(i + 1)) || rest(a.slice(i + 1), b.slice(i)) || rest(a.slice(i), b.slice(i + 1))
    || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a.slice(i + 2), b.slice(i + 2)));
}

const ownedBy = (host: string) => Object.entries(BRANDS).find(([, domains]) => domains.some((d) => host === d || host.endsWith(`.${d}`)))?.[0] ?? null;

/** Hosts already judged: a campaign's rows mostly share one (the shortener's); bounded. */
const judged = new Map<string, string | null>();

/** The brand a host imitates, or null (a brand's own host imitates nothing). */
export function imitatedBrand(rawHost: string): string | null {
  const host = rawHost.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
  const known = judged.get(host);
  if (known !== undefined) return known;
  const brand = judge(host);
  if (judged.size > 10_000) judged.clear();
  judged.set(host, brand);
  return brand;
}

function judge(host: string): string | null {
  if (ownedBy(host)) return null;
  // The labels before the public suffix, each alone and all together ("banco-lombia.seguro.co").
  const labels = host.split('.').filter((l) => !['com', 'co', 'net', 'org', 'gov', 'www'].includes(l));
  const candidates = [...labels.map(skeleton), skeleton(labels.join(''))].filter((c) => c.length >= 4);
  for (const brand of Object.keys(BRANDS)) {
    for (const c of candidates) {
      if (c.includes(brand)) return brand;
      // One letter off, on names long enough not to meet ordinary words by chance.
      if (brand.length >= 6 && withinOneEdit(c, brand)) return brand;
    }
  }
  return null;
}

/** The first possible-fraud finding of a text's links, or null. `strict` adds the urgency rule. */
export function possibleFraud(text: string, links: readonly { host: string }[], strict: boolean): FraudFinding | null {
  for (const link of links) {
    const brand = imitatedBrand(link.host);
    if (brand) return { kind: 'lookalikeDomain', host: link.host, brand };
  }
  if (!strict || !links.length) return null;
  const words = plain(text);
  const foreign = links.find((l) => !ownedBy(l.host.replace(/^www\./, '')));
  if (foreign && URGENCY.test(words) && BRAND_WORDS.test(words)) return { kind: 'urgentBrandLink', host: foreign.host, brand: null };
  return null;
}
