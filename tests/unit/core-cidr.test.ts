// src/core/cidr.ts: addresses and CIDR ranges, IPv4 and IPv6, for the API's authorised IPs.
import { describe, expect, it } from 'vitest';
import { formatCidr, ipAllowed, isCidr, parseCidr, parseIp } from '../../src/core/cidr.ts';

describe('parseCidr / formatCidr', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['10.0.0.1', '10.0.0.1/32'],
    [' 192.168.1.0/24 ', '192.168.1.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1/128'],
    ['::/0', '::/0'],
    ['::1', '::1/128'],
    ['fe80::/10', 'fe80::/10'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1/128'],
    ['::ffff:192.0.2.128', '::ffff:c000:280/128'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8/128'],
  ])('%s -> %s', (given, want) => {
    expect(formatCidr(parseCidr(given)!)).toBe(want);
    expect(isCidr(given)).toBe(true);
  });

  it.each([
    '10.0.0.1/8', // host bits set
    '256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.4/33', '1.2.3.4/', '1.2.3.4/08', '1.2.3.4/-1',
    '2001::db8::1', '2001:db8::/129', '12345::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8:9', 'g::1', ':1', '1:',
    '', 'localhost', '<script>', '10.0.0.0/8; drop', '::ffff:300.0.0.1',
  ])('refuses %j', (given) => {
    expect(parseCidr(given)).toBeNull();
    expect(isCidr(given)).toBe(false);
  });
});

describe('parseIp', () => {
  it('treats an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect([...parseIp('::ffff:127.0.0.1')!]).toEqual([127, 0, 0, 1]);
    expect(parseIp('::1')!.length).toBe(16);
    expect(parseIp('not an ip')).toBeNull();
  });
});

describe('ipAllowed', () => {
  it.each([
    [['127.0.0.0/8'], '127.0.0.1', true],
    [['127.0.0.0/8'], '::ffff:127.9.9.9', true],
    [['127.0.0.0/8'], '128.0.0.1', false],
    [['192.168.1.0/25'], '192.168.1.127', true],
    [['192.168.1.0/25'], '192.168.1.128', false],
    [['10.1.2.3'], '10.1.2.3', true],
    [['10.1.2.3'], '10.1.2.4', false],
    [['2001:db8::/32'], '2001:db8:ffff::1', true],
    [['2001:db8::/32'], '2001:db9::1', false],
    [['2001:db8::/33'], '2001:db8:8000::1', false],
    [['0.0.0.0/0'], '203.0.113.7', true],
    [['0.0.0.0/0'], '2001:db8::1', false], // an IPv4 range never admits an IPv6 client
    [['::/0'], '2001:db8::1', true],
    [[], '127.0.0.1', false], // an empty list admits nobody
    [['garbage', '10.0.0.0/8'], '10.2.3.4', true],
    [['10.0.0.0/8'], 'garbage', false],
  ])('%j admits %s: %s', (ranges, ip, want) => {
    expect(ipAllowed(ranges, ip)).toBe(want);
  });
});
