// Message content rules (spec §5 and §9), written once for the console's editor and the engine:
// - Variables are {{name}}. A name is letters (accents and ñ allowed: column headers such as
//   "Dirección" or "Año" are common in Colombian files), digits and underscore; digits alone are
//   allowed too, since WhatsApp templates number their parameters {{1}}, {{2}}. Spaces around the
//   name are tolerated ({{ nombre }} is {{nombre}}). A variable may not contain double braces
//   (spec §5): "{{a{{b}}}}", "{{{a}}}" and a stray "}}" are problems, a single "{" or "}" is text.
// - render() refuses a missing value instead of sending an empty hole, and never re-reads a value
//   as a template (a value containing "{{x}}" stays literal: no template injection).
// - HTML in the content is data, not markup: nothing is escaped or stripped here. SMS shows it as
//   typed; whoever puts content into HTML escapes it there.
// - Messages may not carry external links (spec §5), only our shortener's: findLinks detects
//   http(s)://…, www.… and bare domains, refusedLinks answers which ones are not ours.
// - Length: content longer than constants.limits.messageCharacters (WhatsApp's 4,096) is
//   refused on every channel, and an SMS estimated at more than constants.sms.maxParts parts too;
//   nothing is ever cut. lengthProblem answers which limit a text passes, for the editor and the server.
// - Cost (spec §9): each variable counts as constants.sms.averageVariableLength characters and
//   each link as constants.sms.shortLinkLength (it is sent shortened); parts come from countSms.
import { constants } from '../generated/constants.gen.ts';
import { countSms, defaultLimits, type SmsEncoding, type SmsLimits } from './sms-parts.ts';

// ---- Variables ----

export type TemplateProblemCode = 'unclosedBraces' | 'nestedBraces' | 'strayClosingBraces' | 'emptyName' | 'invalidName';

export interface TemplateProblem {
  code: TemplateProblemCode;
  /** UTF-16 offset and length of the offending text, for highlighting it in the editor. */
  index: number;
  length: number;
  text: string;
}

const NAME = /^[\p{L}\p{M}\p{N}_]+$/u;

interface Token {
  kind: 'text' | 'variable';
  text: string;
  index: number;
  name?: string;
}

/** Splits a template into text and variables, collecting problems on the way. */
function scan(text: string): { tokens: Token[]; problems: TemplateProblem[] } {
  const tokens: Token[] = [];
  const problems: TemplateProblem[] = [];
  let i = 0;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) tokens.push({ kind: 'text', text: text.slice(textStart, end), index: textStart });
  };
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    const strayClose = text.indexOf('}}', i);
    if (strayClose !== -1 && (open === -1 || strayClose < open)) {
      problems.push({ code: 'strayClosingBraces', index: strayClose, length: 2, text: '}}' });
      i = strayClose + 2;
      continue;
    }
    if (open === -1) break;
    const close = text.indexOf('}}', open + 2);
    if (close === -1) {
      problems.push({ code: 'unclosedBraces', index: open, length: text.length - open, text: text.slice(open) });
      break;
    }
    const inner = text.slice(open + 2, close);
    const whole = text.slice(open, close + 2);
    const name = inner.trim();
    if (inner.includes('{')) {
      // "{{a{{b}}}}" or "{{{a}}}": report once and skip past the run of closing braces.
      let end = close + 2;
      while (text[end] === '}') end++;
      problems.push({ code: 'nestedBraces', index: open, length: end - open, text: text.slice(open, end) });
      i = end;
      continue;
    }
    if (name === '') problems.push({ code: 'emptyName', index: open, length: whole.length, text: whole });
    else if (!NAME.test(name)) problems.push({ code: 'invalidName', index: open, length: whole.length, text: whole });
    else {
      flushText(open);
      tokens.push({ kind: 'variable', text: whole, index: open, name: name.normalize('NFC') });
      textStart = close + 2;
    }
    i = close + 2;
  }
  flushText(text.length);
  return { tokens, problems };
}

/** The problems of a template (empty when it is fine), in order of position. */
export function validateTemplate(text: string): TemplateProblem[] {
  return scan(text).problems.sort((a, b) => a.index - b.index);
}

/** The distinct variable names of a template, in order of first appearance (valid ones only). */
export function variablesOf(text: string): string[] {
  return [...new Set(scan(text).tokens.flatMap((t) => (t.kind === 'variable' ? [t.name!] : [])))];
}

export type RenderErrorCode = 'invalidTemplate' | 'missingValue';

export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    /** The template problems, or the names without a value. */
    readonly details: TemplateProblem[] | string[],
  ) {
    super(code === 'missingValue' ? `no value for ${(details as string[]).join(', ')}` : `invalid template: ${(details as TemplateProblem[]).map((p) => p.code).join(', ')}`);
    this.name = 'RenderError';
  }
}

export type TemplateValues = Readonly<Record<string, string | number | null | undefined>>;

/**
 * Fills the variables. A value that is undefined, null or (unless `allowEmpty`) the empty string is
 * missing, and a missing value is an error listing every such name: a message never goes out with
 * a hole where the customer's name should be. Values are inserted as they are.
 */
export function render(text: string, values: TemplateValues, options: { allowEmpty?: boolean } = {}): string {
  const { tokens, problems } = scan(text);
  if (problems.length) throw new RenderError('invalidTemplate', problems);
  // Own keys only ("__proto__" is a valid name but never a value); a file's header may be NFD.
  const lookup = (name: string) => {
    for (const key of [name, name.normalize('NFD')]) if (Object.hasOwn(values, key)) return values[key];
    return undefined;
  };
  const missing = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'variable') continue;
    const v = lookup(t.name!);
    if (v === undefined || v === null || (v === '' && !options.allowEmpty)) missing.add(t.name!);
  }
  if (missing.size) throw new RenderError('missingValue', [...missing]);
  return tokens.map((t) => (t.kind === 'text' ? t.text : String(lookup(t.name!)))).join('');
}

// ---- Links ----

export interface FoundLink {
  /** The link as written (trailing punctuation left out). */
  url: string;
  /** The host, lower-cased ("www." kept; refusedLinks ignores it when comparing). */
  host: string;
  index: number;
  length: number;
}

/**
 * Top-level domains that make a bare "word.tld" a link even without a path or "www.". A bare name
 * with a path ("bit.ly/x", "ejemplo.com.co/promo") is a link whatever its TLD; without a path only
 * these count, so Spanish text such as "gracias.Feliz" or "S.A." is not mistaken for a link.
 */
const BARE_TLDS = new Set([
  'co', 'com', 'net', 'org', 'info', 'biz', 'io', 'ly', 'me', 'app', 'dev', 'link', 'site', 'online', 'store', 'shop',
  'xyz', 'top', 'club', 'gl', 'gd', 'to', 'tv', 'cc', 'ws', 'us', 'es', 'mx', 'ar', 'cl', 'pe', 'ec', 've', 'br', 'uk',
  'de', 'fr', 'it', 'eu', 'gov', 'edu', 'mil', 'int', 'tk', 'ml', 'ga', 'cf', 'gq', 'ai', 'in', 'ru', 'cn', 'click',
  'live', 'news', 'tech', 'page', 'bio', 'lat', 'pro', 'work', 'icu', 'vip', 'win', 'bit', 'su', 'pw', 'ir', 'ng',
]);

// A scheme URL, a www. host, or a bare host (labels of letters, digits and hyphens, an alphabetic TLD),
// optionally with a port and a path. The host may not follow a letter, digit, "@", "." or "/":
// e-mail addresses are not web links and are allowed.
const LINK = new RegExp(
  String.raw`(?<![\p{L}\p{N}@./_-])` +
    String.raw`(?:(?<scheme>https?:\/\/)(?<shost>[^\s/?#<>"']+)|(?<host>(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?<tld>[a-z]{2,24})(?![\p{L}\p{N}_-])|(?<ip>\d{1,3}(?:\.\d{1,3}){3})(?![\d.]))(?<port>:\d{1,5})?)` +
    String.raw`(?<path>[/?#][^\s<>"]*)?`,
  'giu',
);

// Not "}": a link may end in a variable (https://col.ib/{{code}}).
const TRAILING = /[.,;:!?¡¿)\]'"»]+$/u;

/**
 * The web links in a text: http(s)://…, www.…, and bare domains such as bit.ly/x. E-mail addresses
 * are not links (a customer may be told to write to info@empresa.com.co).
 */
export function findLinks(text: string): FoundLink[] {
  const links: FoundLink[] = [];
  for (const m of text.matchAll(LINK)) {
    const g = m.groups!;
    const isBare = !g.scheme;
    const host = (g.shost ?? g.host ?? g.ip).toLowerCase();
    // A bare name counts when it has "www.", a path, a port, is an IP with a path, or ends in a known TLD.
    if (isBare && !host.startsWith('www.')) {
      const hasPath = !!g.path && g.path.length > 1;
      if (g.ip ? !hasPath && !g.port : !hasPath && !g.port && !BARE_TLDS.has(g.tld!.toLowerCase())) continue;
    }
    let url = m[0];
    // "Visita https://x.co/a." — the sentence's period is not part of the link.
    const trail = TRAILING.exec(url);
    if (trail && !(g.path && /[)\]]$/.test(url) && /[([]/.test(g.path))) url = url.slice(0, url.length - trail[0].length);
    if (!url) continue;
    links.push({ url, host: host.replace(/:\d+$/, '').replace(TRAILING, ''), index: m.index!, length: url.length });
  }
  return links;
}

/** Our shortener: a host ("col.ib") or a base URL ("https://col.ib/s/"); more than one may be given. */
export type Shortener = string | readonly string[];

function shortenerBases(shortener: Shortener): Array<{ host: string; path: string }> {
  return (typeof shortener === 'string' ? [shortener] : [...shortener]).map((s) => {
    const u = new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
    return { host: u.hostname.toLowerCase().replace(/^www\./, ''), path: u.pathname.replace(/\/$/, '') };
  });
}

const pathOf = (url: string) => {
  const m = /^(?:https?:\/\/)?[^/?#]+(.*)$/i.exec(url);
  return m ? m[1] : '';
};

/** The links a message may not carry: every link that is not one of our shortener's. */
export function refusedLinks(text: string, shortener: Shortener): FoundLink[] {
  const bases = shortenerBases(shortener);
  return findLinks(text).filter((link) => {
    const host = link.host.replace(/^www\./, '');
    const path = pathOf(link.url);
    return !bases.some((b) => b.host === host && (b.path === '' || path === b.path || path.startsWith(b.path + '/')));
  });
}

export type ContentProblem = TemplateProblem | { code: 'externalLink'; index: number; length: number; text: string };

/** Everything the editor flags before a message may be saved: template problems and external links. */
export function contentProblems(text: string, shortener: Shortener): ContentProblem[] {
  const links = refusedLinks(text, shortener).map((l): ContentProblem => ({ code: 'externalLink', index: l.index, length: l.length, text: l.url }));
  return [...validateTemplate(text), ...links].sort((a, b) => a.index - b.index);
}

// ---- Cost ----

export interface CostOptions {
  limits?: SmsLimits;
  averageVariableLength?: number;
  shortLinkLength?: number;
  creditsPerMessage?: number;
  chargePerSmsPart?: boolean;
}

export interface CostEstimate {
  encoding: SmsEncoding;
  /** Parts of one message as estimated (variables and links at their assumed lengths). */
  partsPerMessage: number;
  /** Septets or UTF-16 units of one estimated message. */
  units: number;
  creditsPerRecipient: number;
  credits: number;
  /** Credits in pesos (1 credit = constants.credits.copPerCredit COP). */
  costCop: number;
}

/** GSM-7 basic filler: the placeholder never changes the encoding the rest of the text decides. */
const filler = (n: number) => 'x'.repeat(Math.max(0, n));

/** The text as the estimate sees it: each link and each variable replaced by its assumed length. */
export function estimationText(text: string, options: CostOptions = {}): string {
  const linkLength = options.shortLinkLength ?? constants.sms.shortLinkLength;
  const variableLength = options.averageVariableLength ?? constants.sms.averageVariableLength;
  // Links first (a link may hold a variable, e.g. https://col.ib/{{code}}): the whole link is one short link.
  let withLinks = '';
  let at = 0;
  for (const link of findLinks(text)) {
    withLinks += text.slice(at, link.index) + filler(linkLength);
    at = link.index + link.length;
  }
  withLinks += text.slice(at);
  return withLinks.replace(/\{\{[^{}]*\}\}/g, (whole) => (NAME.test(whole.slice(2, -2).trim()) ? filler(variableLength) : whole));
}

/** Credits one already-rendered message costs (what the engine debits). */
export function creditsForMessage(rendered: string, options: CostOptions = {}): number {
  const parts = countSms(rendered, options.limits ?? defaultLimits).parts;
  return chargeFor(parts, options);
}

function chargeFor(parts: number, options: CostOptions): number {
  if (parts === 0) return 0;
  const perMessage = options.creditsPerMessage ?? constants.credits.creditsPerMessage;
  const perPart = options.chargePerSmsPart ?? constants.credits.chargePerSmsPart;
  return (perPart ? parts : 1) * perMessage;
}

/**
 * The cost shown before launch. Operators bill every part of a long SMS (research/protocols.md
 * §1.2), so by default (constants.credits.chargePerSmsPart) credits = parts × creditsPerMessage per
 * recipient; with chargePerSmsPart false it is the spec's flat creditsPerMessage per recipient.
 */
export function estimateCost(text: string, recipientsCount: number, options: CostOptions = {}): CostEstimate {
  if (!Number.isInteger(recipientsCount) || recipientsCount < 0) throw new RangeError(`estimateCost: recipients must be a whole number ≥ 0, not ${recipientsCount}`);
  const count = countSms(estimationText(text, options), options.limits ?? defaultLimits);
  const creditsPerRecipient = chargeFor(count.parts, options);
  const credits = creditsPerRecipient * recipientsCount;
  return {
    encoding: count.encoding,
    partsPerMessage: count.parts,
    units: count.units,
    creditsPerRecipient,
    credits,
    costCop: credits * constants.credits.copPerCredit,
  };
}

// ---- Length ----

export type LengthProblem =
  | { code: 'tooLong'; characters: number; max: number }
  | { code: 'tooManyParts'; parts: number; max: number };

/** The characters of a text as a person counts them (code points: an emoji is one). */
export const characterCount = (text: string) => [...text].length;

/**
 * The limit a content passes, or null: more characters than any channel takes, or (for SMS) more
 * parts than operators reassemble reliably, counted as the cost is (variables and links at their
 * assumed lengths).
 */
export function lengthProblem(text: string, sms: boolean, options: CostOptions = {}): LengthProblem | null {
  const characters = characterCount(text);
  if (characters > constants.limits.messageCharacters) return { code: 'tooLong', characters, max: constants.limits.messageCharacters };
  if (!sms) return null;
  const parts = countSms(estimationText(text, options), options.limits ?? defaultLimits).parts;
  return parts > constants.sms.maxParts ? { code: 'tooManyParts', parts, max: constants.sms.maxParts } : null;
}
