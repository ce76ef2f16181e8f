// Colombian operators (src/core/co-operators.ts): the original allocation of a number's prefix,
// the operator of a serving network (MCC+MNC), and the sandbox SMSC's ported numbers: one number
// in PORTED_ONE_IN is served by another network than its prefix says, the same one every time.
import { describe, expect, it } from 'vitest';
import { allocatedOperator, isNetworkCode, networkOf, networkOperator, UNKNOWN_OPERATOR } from '../../src/core/co-operators.ts';
import { PORTED_ONE_IN, servingNetwork } from '../../src/sandbox/smsc/receipts.ts';

describe('allocatedOperator', () => {
  it('reads the block of the three digits after +57', () => {
    expect(allocatedOperator('+573001234567')).toBe(3); // Tigo
    expect(allocatedOperator('3051234567')).toBe(3);
    expect(allocatedOperator('+573101234567')).toBe(1); // Claro
    expect(allocatedOperator('+573231234567')).toBe(1);
    expect(allocatedOperator('+573151234567')).toBe(2); // Movistar
    expect(allocatedOperator('+573191234567')).toBe(6); // Virgin Mobile
    expect(allocatedOperator('+573511234567')).toBe(4); // WOM
  });

  it('knows nothing of numbers outside every block, landlines and other shapes', () => {
    for (const n of ['+573331234567', '+573061234567', '+576011234567', '1234567890123', '+57300123', '']) expect(allocatedOperator(n)).toBe(UNKNOWN_OPERATOR);
  });
});

describe('networkOperator', () => {
  it('maps Colombian networks, and nothing abroad', () => {
    expect(networkOperator('732101')).toBe(1);
    expect(networkOperator('732123')).toBe(2);
    expect(networkOperator('732103')).toBe(3);
    expect(networkOperator('732111')).toBe(3);
    expect(networkOperator('732130')).toBe(4);
    expect(networkOperator('732999')).toBe(UNKNOWN_OPERATOR);
    expect(networkOperator('310260')).toBe(UNKNOWN_OPERATOR);
    expect(networkOf(1)).toBe('732101');
    expect(networkOf(99)).toBeNull();
    expect(isNetworkCode('73210')).toBe(true);
    expect(isNetworkCode('7321011')).toBe(false);
  });
});

describe('the sandbox SMSC\'s serving networks', () => {
  it('serves most numbers by their allocation, ports about one in PORTED_ONE_IN, and always the same ones', () => {
    const numbers = Array.from({ length: 4000 }, (_, i) => `57${['300', '310', '315', '350'][i % 4]}${String(i * 7919).padStart(7, '0').slice(-7)}`);
    const ported = numbers.filter((n) => networkOperator(servingNetwork(n)) !== allocatedOperator(n.slice(2)));
    expect(ported.length / numbers.length).toBeGreaterThan(0.5 / PORTED_ONE_IN);
    expect(ported.length / numbers.length).toBeLessThan(2 / PORTED_ONE_IN);
    for (const n of numbers.slice(0, 50)) expect(servingNetwork(n)).toBe(servingNetwork(`+${n}`));
    for (const n of numbers) expect(networkOperator(servingNetwork(n))).not.toBe(UNKNOWN_OPERATOR);
  });
});
