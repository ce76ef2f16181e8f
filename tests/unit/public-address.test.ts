// Which addresses a status callback may reach outside the sandbox (src/server/messaging/public-address.ts):
// public Internet addresses only, never the server's own networks, also when a name resolves there.
import { describe, expect, it } from 'vitest';
import { isPublicAddress, PrivateAddressError, privateHostReason, publicOnlyLookup } from '../../src/server/messaging/public-address.ts';

describe('public addresses', () => {
  it.each([
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '127.0.0.1', '127.8.8.8', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.5', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::5', 'ff02::1', '2001:db8::1',
    '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::a9fe:a9fe', '[::1]', 'not-an-ip',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '181.49.10.2', '172.32.0.1', '100.128.0.1', '2800:3f0:4005::200e', '::ffff:181.49.10.2'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('names the hosts refused as typed: localhost and private literals; other names wait for DNS', () => {
    expect(privateHostReason('localhost')).toBe('this server itself');
    expect(privateHostReason('api.localhost')).toBe('this server itself');
    expect(privateHostReason('[::1]')).toBe('a private or reserved address');
    expect(privateHostReason('10.0.0.5')).toBe('a private or reserved address');
    expect(privateHostReason('erp.example.co')).toBeNull();
    expect(privateHostReason('181.49.10.2')).toBeNull();
  });

  it('the lookup the socket uses refuses a name that resolves to a private address', async () => {
    const outcome = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      publicOnlyLookup('localhost', {}, (error, address) => resolve({ error, address })));
    expect(outcome.error).toBeInstanceOf(PrivateAddressError);
    expect(outcome.error?.message).toMatch(/^localhost resolves to .* not a public address$/);
    const all = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      publicOnlyLookup('localhost', { all: true }, (error, address) => resolve({ error, address })));
    expect(all.error).toBeInstanceOf(PrivateAddressError);
    expect(all.address).toEqual([]);
  });
});
