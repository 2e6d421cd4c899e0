import { describe, expect, it } from 'vitest';
import { dbIpLocator } from './geo-locator.ts';

/**
 * The shipped city database, read offline (docs/responsible-play.md): universities' own addresses.
 */
describe('the DB-IP city locator', () => {
  const geo = dbIpLocator();

  it('names the country, the US state by code, and a label for people', async () => {
    await expect(geo.locate('160.36.0.1')).resolves.toEqual({
      country: 'US',
      state: 'TN',
      label: 'Knoxville, Tennessee, US',
    });
    await expect(geo.locate('128.122.0.1')).resolves.toMatchObject({ country: 'US', state: 'NY' });
  });

  it('gives no US state outside the United States', async () => {
    await expect(geo.locate('128.100.0.1')).resolves.toMatchObject({
      country: 'CA',
      state: null,
    });
  });

  it('reads an IPv4 address written as IPv6, and IPv6 addresses', async () => {
    await expect(geo.locate('::ffff:160.36.0.1')).resolves.toMatchObject({ state: 'TN' });
    await expect(geo.locate('2607:f8b0:4004::1')).resolves.toMatchObject({ country: 'US' });
  });

  it('looks up no private, loopback, link-local or malformed address', async () => {
    for (const address of [
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '169.254.0.1',
      '100.64.0.1',
      'not an address',
    ]) {
      await expect(geo.locate(address), address).resolves.toBeNull();
    }
  });
});
