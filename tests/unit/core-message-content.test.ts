// src/core/message-content.ts: variables (spec §5 "Variables cannot contain double braces"),
// rendering, external links (spec §5 "Messages cannot contain external links"), and the cost
// estimate (spec §9: variables 6 characters, short links 24; research §1.2: billed per part).
import { describe, expect, it } from 'vitest';
import {
  RenderError, contentProblems, creditsForMessage, estimateCost, estimationText, findLinks, refusedLinks, render, validateTemplate, variablesOf,
} from '../../src/core/message-content.ts';

describe('validateTemplate', () => {
  it.each<[string, Array<[string, number, string]>]>([
    ['Hola {{nombre}}, su saldo es {{saldo}}', []],
    ['Hola {{ nombre }}', []], // spaces around the name are tolerated
    ['{{Dirección}} {{año}} {{NIT_2}} {{1}}', []], // accents, ñ, digits, underscore, WhatsApp's {{1}}
    ['Precio {especial} y } sueltas {', []], // single braces are text
    ['Hola {{}}', [['emptyName', 5, '{{}}']]],
    ['Hola {{  }}', [['emptyName', 5, '{{  }}']]],
    ['Hola {{nombre', [['unclosedBraces', 5, '{{nombre']]],
    ['{{a{{b}}}}', [['nestedBraces', 0, '{{a{{b}}}}']]],
    ['x {{{nombre}}}', [['nestedBraces', 2, '{{{nombre}}}']]],
    ['Fin }} aquí', [['strayClosingBraces', 4, '}}']]],
    ['{{primer nombre}}', [['invalidName', 0, '{{primer nombre}}']]],
    ['{{a-b}} {{a.b}} {{$x}}', [['invalidName', 0, '{{a-b}}'], ['invalidName', 8, '{{a.b}}'], ['invalidName', 16, '{{$x}}']]],
    ['{{nombre} y {{saldo}}', [['nestedBraces', 0, '{{nombre} y {{saldo}}']]], // double braces inside the first variable
    ['{{nombre} y }}', [['invalidName', 0, '{{nombre} y }}']]],
    ['{{a}} {{}} }} {{b', [['emptyName', 6, '{{}}'], ['strayClosingBraces', 11, '}}'], ['unclosedBraces', 14, '{{b']]],
  ])('%j', (text, want) => {
    const problems = validateTemplate(text);
    expect(problems.map((p) => [p.code, p.index, p.text])).toEqual(want);
    for (const p of problems) expect(text.slice(p.index, p.index + p.length)).toBe(p.text);
  });
});

describe('variablesOf', () => {
  it.each([
    ['Hola {{nombre}}, {{ nombre }} debe {{saldo}}', ['nombre', 'saldo']],
    ['{{b}} {{a}} {{b}}', ['b', 'a']],
    ['Sin variables', []],
    ['{{ok}} {{mal nombre}} {{}}', ['ok']],
    ['{{Dirección}}', ['Dirección']],
  ])('%j → %j', (text, want) => {
    expect(variablesOf(text)).toEqual(want);
  });

  it('a decomposed accent (NFD, as some files carry it) is the same name as the composed one', () => {
    expect(variablesOf('{{Direccio\u0301n}} {{Dirección}}')).toEqual(['Dirección']);
  });
});

describe('render', () => {
  it.each<[string, Record<string, string | number>, string]>([
    ['Hola {{nombre}}, debe ${{saldo}}', { nombre: 'Ana', saldo: 12500 }, 'Hola Ana, debe $12500'],
    ['{{ nombre }}{{nombre}}', { nombre: 'Ö' }, 'ÖÖ'],
    ['Sin variables', {}, 'Sin variables'],
    // Values are data: never re-read as a template, HTML left as typed.
    ['Hola {{nombre}}', { nombre: '{{saldo}}' }, 'Hola {{saldo}}'],
    ['<b>{{nombre}}</b>', { nombre: '<script>x</script>' }, '<b><script>x</script></b>'],
    ['{{Dirección}}', { 'Direccio\u0301n': 'Cra 7' }, 'Cra 7'],
  ])('%j with %j → %j', (text, values, want) => {
    expect(render(text, values)).toBe(want);
  });

  it.each<[string, Record<string, string | null | undefined>, string[]]>([
    ['Hola {{nombre}} {{saldo}}', { nombre: 'Ana' }, ['saldo']],
    ['Hola {{nombre}} {{saldo}}', {}, ['nombre', 'saldo']],
    ['Hola {{nombre}}', { nombre: null }, ['nombre']],
    ['Hola {{nombre}}', { nombre: '' }, ['nombre']],
    ['Hola {{__proto__}} {{toString}}', {}, ['__proto__', 'toString']], // never the object's own machinery
  ])('%j with %j → missing %j', (text, values, missing) => {
    try {
      render(text, values);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RenderError);
      expect((e as RenderError).code).toBe('missingValue');
      expect((e as RenderError).details).toEqual(missing);
    }
  });

  it('an empty value is allowed when asked', () => {
    expect(render('Hola {{nombre}}!', { nombre: '' }, { allowEmpty: true })).toBe('Hola !');
  });

  it('an invalid template is refused with its problems', () => {
    try {
      render('Hola {{nombre', { nombre: 'Ana' });
      expect.unreachable();
    } catch (e) {
      expect((e as RenderError).code).toBe('invalidTemplate');
      expect(((e as RenderError).details as Array<{ code: string }>).map((p) => p.code)).toEqual(['unclosedBraces']);
    }
  });
});

describe('findLinks', () => {
  it.each<[string, string[]]>([
    ['Visita https://ejemplo.com/promo?x=1#a hoy', ['https://ejemplo.com/promo?x=1#a']],
    ['Visita http://ejemplo.com.', ['http://ejemplo.com']], // the sentence's period is not the link's
    ['Entra a www.ejemplo.com, ya', ['www.ejemplo.com']],
    ['Corto: bit.ly/x y ejemplo.com.co/promo', ['bit.ly/x', 'ejemplo.com.co/promo']],
    ['Mayúsculas WWW.EJEMPLO.COM y HTTPS://EJ.CO/A', ['WWW.EJEMPLO.COM', 'HTTPS://EJ.CO/A']],
    ['Bare known TLDs: tienda.co y pagos.com', ['tienda.co', 'pagos.com']],
    ['Unknown TLD with a path: promo.bancolombia/abc', ['promo.bancolombia/abc']],
    ['Port: ejemplo.xyz:8080 y 190.24.1.2/login', ['ejemplo.xyz:8080', '190.24.1.2/login']],
    ['(ver bit.ly/abc)', ['bit.ly/abc']],
    ['Wiki https://es.wikipedia.org/wiki/Bogot%C3%A1_(ciudad) ok', ['https://es.wikipedia.org/wiki/Bogot%C3%A1_(ciudad)']],
    ['Con variable https://col.ib/{{codigo}}', ['https://col.ib/{{codigo}}']],
    // Not links: e-mail addresses, abbreviations, numbers, times, a missing space after a period.
    ['Escríbanos a info@empresa.com.co', []],
    ['Empresa S.A. y Cía. Ltda., 3.5% a las 3 p.m. total 1.500.000', []],
    ['gracias.Feliz día', []],
    ['Sr.Gómez', []],
    ['versión 2.0.1', []],
  ])('%j → %j', (text, want) => {
    const links = findLinks(text);
    expect(links.map((l) => l.url)).toEqual(want);
    for (const l of links) expect(text.slice(l.index, l.index + l.length)).toBe(l.url);
  });
});

describe('refusedLinks: only our shortener passes', () => {
  const text = 'A https://col.ib/abc B col.ib/xyz C https://www.col.ib/q D https://col.ib.evil.com/abc E https://evil.com/col.ib F http://COL.IB/Z9';
  it.each<[string, string | string[], string[]]>([
    ['a host', 'col.ib', ['https://col.ib.evil.com/abc', 'https://evil.com/col.ib']],
    ['a base URL', 'https://col.ib', ['https://col.ib.evil.com/abc', 'https://evil.com/col.ib']],
    ['a base URL with a path', 'https://col.ib/s', ['https://col.ib/abc', 'col.ib/xyz', 'https://www.col.ib/q', 'https://col.ib.evil.com/abc', 'https://evil.com/col.ib', 'http://COL.IB/Z9']],
    ['several', ['https://col.ib/s', 'lnk.co'], ['https://col.ib/abc', 'col.ib/xyz', 'https://www.col.ib/q', 'https://col.ib.evil.com/abc', 'https://evil.com/col.ib', 'http://COL.IB/Z9']],
  ])('%s', (_label, shortener, want) => {
    expect(refusedLinks(text, shortener).map((l) => l.url)).toEqual(want);
  });

  it('a base URL with a path accepts links under it only', () => {
    expect(refusedLinks('https://col.ib/s/abc https://col.ib/s https://col.ib/sx', 'https://col.ib/s/').map((l) => l.url)).toEqual(['https://col.ib/sx']);
  });
});

describe('contentProblems: what the editor flags, in order', () => {
  it('template problems and external links together', () => {
    const problems = contentProblems('Hola {{}} mira www.promo.com y https://col.ib/a {{x', 'col.ib');
    expect(problems.map((p) => [p.code, p.text])).toEqual([
      ['emptyName', '{{}}'], ['externalLink', 'www.promo.com'], ['unclosedBraces', '{{x'],
    ]);
  });

  it('a clean message has none', () => {
    expect(contentProblems('Hola {{nombre}}, su cita es mañana: https://col.ib/Ab12', 'col.ib')).toEqual([]);
  });
});

describe('estimateCost', () => {
  // Each variable counts 6 characters and each link 24 (constants.sms), then countSms decides parts.
  it.each<[string, string, number, { encoding: string; partsPerMessage: number; units: number; creditsPerRecipient: number; credits: number }]>([
    ['short GSM text', 'Hola {{nombre}}', 1000, { encoding: 'GSM-7', partsPerMessage: 1, units: 11, creditsPerRecipient: 1, credits: 1000 }],
    ['154 + one variable = 160: still one part', 'a'.repeat(154) + '{{x}}', 10, { encoding: 'GSM-7', partsPerMessage: 1, units: 160, creditsPerRecipient: 1, credits: 10 }],
    ['155 + one variable = 161: two parts', 'a'.repeat(155) + '{{x}}', 10, { encoding: 'GSM-7', partsPerMessage: 2, units: 161, creditsPerRecipient: 2, credits: 20 }],
    ['a long link counts 24', 'Ver https://ejemplo.com/una/ruta/muy/larga/que/no/importa/porque/se/acorta', 1, { encoding: 'GSM-7', partsPerMessage: 1, units: 28, creditsPerRecipient: 1, credits: 1 }],
    ['a link with a variable counts 24 once', 'https://col.ib/{{codigo}}', 1, { encoding: 'GSM-7', partsPerMessage: 1, units: 24, creditsPerRecipient: 1, credits: 1 }],
    ['an accent outside GSM-7 → UCS-2', 'Canción {{nombre}}', 5, { encoding: 'UCS-2', partsPerMessage: 1, units: 14, creditsPerRecipient: 1, credits: 5 }],
    ['UCS-2 over 70 → parts of 67', 'á'.repeat(65) + '{{x}}', 3, { encoding: 'UCS-2', partsPerMessage: 2, units: 71, creditsPerRecipient: 2, credits: 6 }],
    ['nobody', 'Hola', 0, { encoding: 'GSM-7', partsPerMessage: 1, units: 4, creditsPerRecipient: 1, credits: 0 }],
    ['empty text costs nothing', '', 100, { encoding: 'GSM-7', partsPerMessage: 0, units: 0, creditsPerRecipient: 0, credits: 0 }],
  ])('%s', (_label, text, recipients, want) => {
    const cost = estimateCost(text, recipients);
    expect(cost).toEqual({ ...want, costCop: want.credits });
  });

  it.each([
    [{ chargePerSmsPart: false }, 1, 100], // the spec's flat "one message costs 1 credit"
    [{ creditsPerMessage: 3 }, 6, 600],
    [{ averageVariableLength: 1 }, 1, 100], // 155 + 1 = 156 fits one part
    [{ shortLinkLength: 1 }, 2, 200], // the variable still pushes it over
  ])('options %j → %i credits per recipient', (options, perRecipient, total) => {
    const cost = estimateCost('a'.repeat(155) + '{{x}}', 100, options);
    expect([cost.creditsPerRecipient, cost.credits]).toEqual([perRecipient, total]);
  });

  it('the estimation text shows what was assumed', () => {
    expect(estimationText('Hola {{nombre}} https://x.co/abcdef {{mal nombre}}')).toBe(`Hola ${'x'.repeat(6)} ${'x'.repeat(24)} {{mal nombre}}`);
  });

  it.each([-1, 2.5])('refuses %s recipients', (n) => {
    expect(() => estimateCost('Hola', n)).toThrow(RangeError);
  });
});

describe('creditsForMessage: a rendered message as the engine debits it', () => {
  it.each([
    ['a'.repeat(160), 1], ['a'.repeat(161), 2], ['€'.repeat(81), 2], ['á'.repeat(135), 3], ['', 0],
  ])('%#: %i credits', (text, want) => {
    expect(creditsForMessage(text)).toBe(want);
    expect(creditsForMessage(text, { chargePerSmsPart: false })).toBe(want === 0 ? 0 : 1);
  });
});
