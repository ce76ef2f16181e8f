// Which addresses a status callback may reach outside the sandbox (src/server/security/public-address.ts):
// public Internet addresses only, never the server's own networks, also when a name resolves there.
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/server/security/public-address.ts';

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
});
