// Possible fraud (spec status 7): hosts that imitate a brand people are phished in the name of,
// and (strict) the urgent bank-or-delivery message with a foreign link; a brand's own domains and
// ordinary hosts pass.
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../src/core/message-content.ts';
import { imitatedBrand, possibleFraud } from '../../src/core/possible-fraud.ts';

describe('imitatedBrand', () => {
  it.each([
    ['bancolombia-seguro.com', 'bancolombia'],
    ['bancol0mbia.co', 'bancolombia'],
    ['www.davivlenda.com', 'davivienda'],
    ['nequi-pagos.com.co', 'nequi'],
    ['dian-devoluciones.info', 'dian'],
    ['servientrega.envios-co.xyz', 'servientrega'],
    ['interrapidisimo-guia.top', 'interrapidisimo'],
  ])('%s imitates %s', (host, brand) => {
    expect(imitatedBrand(host)).toBe(brand);
  });

  it.each(['bancolombia.com', 'www.bancolombia.com', 'sucursalpersonas.transaccionesbancolombia.bancolombia.com', 'nequi.com.co', 'dian.gov.co', 'mitienda.com.co', 'col.ib', 'tiendasnorte.co', 'ejemplo.com'])('%s imitates nothing', (host) => {
    expect(imitatedBrand(host)).toBeNull();
  });
});

describe('possibleFraud', () => {
  const judge = (text: string, strict: boolean) => possibleFraud(text, findLinks(text), strict);

  it('a lookalike link is refused in every mode but off', () => {
    expect(judge('Colibri: su pedido llegó, ver https://bancolombia-seguro.com/x', false)).toEqual({ kind: 'lookalikeDomain', host: 'bancolombia-seguro.com', brand: 'bancolombia' });
  });

  it('strict: urgency, a bank or delivery word and a foreign link together', () => {
    const text = 'Su cuenta fue BLOQUEADA. Ingrese de inmediato a https://seguro-ingreso.xyz/login para reactivarla';
    expect(judge(text, false)).toBeNull();
    expect(judge(text, true)).toEqual({ kind: 'urgentBrandLink', host: 'seguro-ingreso.xyz', brand: null });
    // The brand's own domain, no link, or no urgency: nothing.
    expect(judge('Su cuenta fue bloqueada: ingrese a https://www.bancolombia.com/personas', true)).toBeNull();
    expect(judge('Su cuenta fue bloqueada: llame al 601 343 0000', true)).toBeNull();
    expect(judge('Su pedido va en camino: https://tienda.com.co/seguimiento', true)).toBeNull();
  });
});
