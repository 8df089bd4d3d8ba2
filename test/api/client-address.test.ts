/** Which client a failed authentication is counted against. */
import { describe, expect, it } from 'vitest';
import { clientAddressKey } from '../../src/api/client-address.ts';

describe('clientAddressKey', () => {
  it('counts an IPv4 client by its address, also when Node reports it IPv4-mapped', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    const network = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:0db8:0000:0001:ffff:ffff:ffff:ffff',
      '2001:db8::1:0:0:0:2',
    ])
      expect(clientAddressKey(address)).toBe(network);
    expect(clientAddressKey('2001:db8:0:2::1')).not.toBe(network);
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
  });
});
