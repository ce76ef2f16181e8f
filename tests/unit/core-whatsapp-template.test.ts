// src/core/whatsapp-template.ts: Meta's rules for a WhatsApp template's body (positional or named
// parameters, never mixed, in order, not at the edges, 1024 characters; authentication templates
// carry only the code) and the category a purpose implies; and the request our engine builds from
// a template (src/engine/channels/whatsapp/templates.ts).
import { describe, expect, it } from 'vitest';
import { categoryForPurpose, matchTemplateText, parameterFormat, whatsappBodyProblem } from '../../src/core/whatsapp-template.ts';
import { buildTemplateCreateRequest, templateComponents } from '../../src/engine/channels/whatsapp/templates.ts';

describe('whatsappBodyProblem', () => {
  it.each<[string, string | null]>([
    ['Hola, tu pedido está listo.', null],
    ['Hola {{1}}, tu pedido {{2}} está listo.', null],
    ['Hola {{1}}, otra vez {{1}}, pedido {{2}}.', null], // a parameter may repeat
    ['Hola {{ nombre_cliente }}, tu saldo es {{saldo2}}.', null],
    ['Hola {{2}}, pedido {{1}}.', 'unorderedParameters'],
    ['Hola {{1}}, pedido {{3}}.', 'unorderedParameters'],
    ['Hola {{1}} y {{nombre}}.', 'mixedParameters'],
    ['Hola {{Nombre}}.', 'invalidName'],
    ['Hola {{dirección}}.', 'invalidName'],
    ['Hola {{_x}}.', 'invalidName'],
    ['{{1}} es tu saldo.', 'parameterAtEdge'],
    ['Tu saldo es {{1}}', 'parameterAtEdge'],
    ['  Tu saldo es {{1}}  ', 'parameterAtEdge'],
    [`Hola ${'a'.repeat(1020)}`, 'tooLong'],
  ])('%j → %s', (content, want) => {
    expect(whatsappBodyProblem(content, 'UTILITY')?.code ?? null).toBe(want);
  });

  it('an authentication template carries exactly one variable (the code), wherever it stands', () => {
    expect(whatsappBodyProblem('{{1}} es tu código.', 'AUTHENTICATION')).toBeNull();
    expect(whatsappBodyProblem('Tu código es {{codigo}}', 'AUTHENTICATION')).toBeNull();
    expect(whatsappBodyProblem('Tu código', 'AUTHENTICATION')?.code).toBe('authenticationParameters');
    expect(whatsappBodyProblem('{{1}} y {{2}}', 'AUTHENTICATION')?.code).toBe('authenticationParameters');
  });

  it('the purpose gives the default category; the variables their format', () => {
    expect(categoryForPurpose).toEqual({ commercial: 'MARKETING', transactional: 'UTILITY', otp: 'AUTHENTICATION' });
    expect(parameterFormat([])).toBeNull();
    expect(parameterFormat(['1', '2'])).toBe('positional');
    expect(parameterFormat(['nombre'])).toBe('named');
  });
});

describe('the template request', () => {
  it('positional parameters: the body text as written, an example row', () => {
    expect(buildTemplateCreateRequest({ name: 'pedido', language: 'es', category: 'UTILITY', content: 'Hola {{ 1 }}, pedido {{2}} listo.' })).toEqual({
      name: 'pedido', language: 'es', category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hola {{1}}, pedido {{2}} listo.', example: { body_text: [['ejemplo 1', 'ejemplo 2']] } }],
    });
  });

  it('named parameters: parameter_format named and an example per name; no parameters: no example', () => {
    expect(templateComponents({ name: 'x', language: 'es', category: 'MARKETING', content: 'Hola {{nombre_cliente}}, mira esto.' })).toEqual({
      category: 'MARKETING', parameter_format: 'named',
      components: [{ type: 'BODY', text: 'Hola {{nombre_cliente}}, mira esto.', example: { body_text_named_params: [{ param_name: 'nombre_cliente', example: 'nombre cliente' }] } }],
    });
    expect(templateComponents({ name: 'x', language: 'es', category: 'UTILITY', content: 'Sin variables.' }).components).toEqual([{ type: 'BODY', text: 'Sin variables.' }]);
  });

  it('authentication: Meta writes the body, we ask for the copy-code button', () => {
    expect(templateComponents({ name: 'x', language: 'es', category: 'AUTHENTICATION', content: '{{1}} es tu código' })).toEqual({
      category: 'AUTHENTICATION',
      components: [{ type: 'BODY', add_security_recommendation: true }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }],
    });
  });
});

describe('matchTemplateText (free text outside the window goes as the template it reads as; else 1005)', () => {
  it.each<[string, string, string[] | Record<string, string> | null]>([
    ['Hola {{1}}, tu pedido {{2}} va en camino.', 'Hola Ana, tu pedido 4521 va en camino.', ['Ana', '4521']],
    ['Hola {{1}}, tu pedido {{2}} va en camino.', '  Hola Ana María,\ntu pedido  A-77 va en camino. ', ['Ana María', 'A-77']],
    ['Pedido {{2}} para {{1}}.', 'Pedido 9 para Luis.', ['Luis', '9']],
    ['Hola {{nombre}}, su cita es el {{fecha}} (sede {{sede}}).', 'Hola Eva, su cita es el 3/12 (sede Norte).', { nombre: 'Eva', fecha: '3/12', sede: 'Norte' }],
    ['Hola {{1}}, otra vez {{1}}.', 'Hola Eva, otra vez Eva.', ['Eva']],
    ['Hola {{1}}, otra vez {{1}}.', 'Hola Eva, otra vez Ana.', null],
    ['Gracias por escribirnos. ¿Precio? $5.000*', 'Gracias por escribirnos. ¿Precio? $5.000*', {}],
    ['Gracias por escribirnos.', 'Gracias por escribirnos. Adiós.', null],
    ['Hola {{1}}, tu pedido {{2}} va en camino.', 'Hola , tu pedido 1 va en camino.', null],
    ['Hola {{1}}, tu pedido {{2}} va en camino.', 'Buenas, ¿en qué podemos ayudarte?', null],
  ])('%s ← %j', (content, text, expected) => {
    expect(matchTemplateText(content, text)).toEqual(expected);
  });
});
